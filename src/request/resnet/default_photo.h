#pragma once
// The request lab's default photo: assets/photo/default.jpg (640 x 480, baseline JPEG, quality 90, drawn by
// tools/make_photo.cpp). Native builds compile it in (cmake/DefaultPhoto.cmake); the wasm module does not carry
// it (51 KB that brotli cannot shrink, on every page): the site serves it as a data asset.
#include <string>

#include "core/cell.h"

namespace sl::request {

/// The JPEG file's bytes, compiled in (native builds only).
const std::string& default_photo_jpeg();

/// The photo as the site serves it, data/default-photo.jpg: small enough to fetch without asking.
DataAsset default_photo_asset();

/// The default photo of a run: the host's asset "default-photo" if it passed one, else the compiled-in bytes
/// (native builds), else nullptr.
const std::string* default_photo(const Inputs& in);

}  // namespace sl::request
