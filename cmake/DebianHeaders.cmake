# Debian's header-only libraries that sl_core includes as <folder/header.h>: /usr/include/<folder>. Natively
# /usr/include is searched already. em++ does not search /usr/include (and must not: its own libc headers live in
# its sysroot), so the build dir gets a folder holding only a link <folder> -> /usr/include/<folder>.
#   sl_debian_headers(<folder> <a header in it> <package> <what needs it>)
function(sl_debian_headers folder header package needed_by)
  set(dir "/usr/include/${folder}")
  if(NOT EXISTS "${dir}/${header}")
    message(FATAL_ERROR "${dir}/${header} is missing (${needed_by}): sudo apt-get install ${package}")
  endif()
  if(EMSCRIPTEN)
    set(link_dir "${CMAKE_BINARY_DIR}/${folder}-include")
    file(MAKE_DIRECTORY "${link_dir}")
    file(CREATE_LINK "${dir}" "${link_dir}/${folder}" SYMBOLIC)
    target_include_directories(sl_core SYSTEM PRIVATE "${link_dir}")
  endif()
endfunction()

# stb (libstb-dev): single-header libraries, <stb/stb_image.h>.
sl_debian_headers(stb stb_image.h libstb-dev "the request lab's JPEG decoder")
# RapidJSON (rapidjson-dev): the vLLM benchmark-result reader (src/llm/calibration/bench_result.cpp) uses its SAX
# Reader, <rapidjson/reader.h>.
sl_debian_headers(rapidjson reader.h rapidjson-dev "the vLLM benchmark-result reader")
