# The request lab's default photo (assets/photo/default.jpg, made by tools/make_photo.cpp). Native builds compile
# it into sl_core as a byte array; the wasm build leaves it out of the module and writes it beside it as
# default-photo.jpg, which scripts/build.mjs serves as data/default-photo.jpg (a data asset the page fetches for the
# cell that uses it). Included once, right after sl_core is defined.
set(default_photo_jpg "${PROJECT_SOURCE_DIR}/assets/photo/default.jpg")
if(EMSCRIPTEN)
  configure_file("${default_photo_jpg}" "${CMAKE_BINARY_DIR}/default-photo.jpg" COPYONLY)
  return()
endif()
set(default_photo_cpp "${CMAKE_BINARY_DIR}/generated/default_photo.generated.cpp")
add_custom_command(
  OUTPUT "${default_photo_cpp}"
  COMMAND "${CMAKE_COMMAND}" "-DINPUT=${default_photo_jpg}" "-DOUTPUT=${default_photo_cpp}"
          "-DHEADER=request/resnet/default_photo.h" "-DFUNCTION=sl::request::default_photo_jpeg"
          -P "${PROJECT_SOURCE_DIR}/cmake/EmbedBytes.cmake"
  DEPENDS "${default_photo_jpg}" "${PROJECT_SOURCE_DIR}/cmake/EmbedBytes.cmake"
  COMMENT "Embedding the default photo"
  VERBATIM)
target_sources(sl_core PRIVATE "${default_photo_cpp}")
set_source_files_properties("${PROJECT_SOURCE_DIR}/src/request/resnet/default_photo.cpp" PROPERTIES
                            COMPILE_DEFINITIONS SL_PHOTO_BUILTIN=1)
