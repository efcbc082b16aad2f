# The request lab's default photo (assets/photo/default.jpg, made by tools/make_photo.cpp), a data asset
# (cmake/DataAsset.cmake) the site serves as data/default-photo.jpg. Included once, right after sl_core is defined.
include("${CMAKE_CURRENT_LIST_DIR}/DataAsset.cmake")
sl_data_asset(INPUT "${PROJECT_SOURCE_DIR}/assets/photo/default.jpg" SITE_NAME default-photo.jpg
              HEADER request/resnet/default_photo.h FUNCTION sl::request::default_photo_jpeg
              READER "${PROJECT_SOURCE_DIR}/src/request/resnet/default_photo.cpp" COMPILE_DEFINITION SL_PHOTO_BUILTIN)
