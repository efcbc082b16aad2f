# Debian's stb (libstb-dev): single-header libraries in /usr/include/stb, included as <stb/stb_image.h>.
# Natively /usr/include is searched already. em++ does not search /usr/include (and must not: its own libc
# headers live in its sysroot), so the build dir gets a folder holding only a link stb -> /usr/include/stb.
find_path(STB_IMAGE_DIR stb_image.h PATHS /usr/include/stb NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT STB_IMAGE_DIR)
  message(FATAL_ERROR "/usr/include/stb/stb_image.h is missing (the request lab's JPEG decoder): "
                      "sudo apt-get install libstb-dev")
endif()
if(EMSCRIPTEN)
  set(stb_link_dir "${CMAKE_BINARY_DIR}/stb-include")
  file(MAKE_DIRECTORY "${stb_link_dir}")
  file(CREATE_LINK "${STB_IMAGE_DIR}" "${stb_link_dir}/stb" SYMBOLIC)
  target_include_directories(sl_core SYSTEM PRIVATE "${stb_link_dir}")
endif()
