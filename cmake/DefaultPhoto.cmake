# The request lab's default photo (assets/photo/default.jpg, made by tools/make_photo.cpp) compiled into
# sl_core as a byte array: the wasm module has no file system. Included once, right after sl_core is defined.
set(default_photo_jpg "${PROJECT_SOURCE_DIR}/assets/photo/default.jpg")
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
