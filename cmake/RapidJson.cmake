# Debian's RapidJSON (rapidjson-dev): header-only, in /usr/include/rapidjson, included as <rapidjson/reader.h>;
# the vLLM benchmark-result reader (src/llm/bench_result.cpp) uses its SAX Reader. Natively /usr/include is
# searched already. em++ does not search /usr/include (and must not: its own libc headers live in its sysroot),
# so the build dir gets a folder holding only a link rapidjson -> /usr/include/rapidjson.
find_path(RAPIDJSON_DIR reader.h PATHS /usr/include/rapidjson NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT RAPIDJSON_DIR)
  message(FATAL_ERROR "/usr/include/rapidjson/reader.h is missing (the vLLM benchmark-result reader): "
                      "sudo apt-get install rapidjson-dev")
endif()
if(EMSCRIPTEN)
  set(rapidjson_link_dir "${CMAKE_BINARY_DIR}/rapidjson-include")
  file(MAKE_DIRECTORY "${rapidjson_link_dir}")
  file(CREATE_LINK "${RAPIDJSON_DIR}" "${rapidjson_link_dir}/rapidjson" SYMBOLIC)
  target_include_directories(sl_core SYSTEM PRIVATE "${rapidjson_link_dir}")
endif()
