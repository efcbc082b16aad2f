#pragma once
// The request lab's default photo: assets/photo/default.jpg (640 x 480, baseline JPEG, quality 90, drawn by
// tools/make_photo.cpp), compiled in by cmake/DefaultPhoto.cmake.
#include <string>

namespace sl::request {

/// The JPEG file's bytes.
const std::string& default_photo_jpeg();

}  // namespace sl::request
