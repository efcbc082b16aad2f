#include "request/resnet/default_photo.h"

namespace sl::request {

DataAsset default_photo_asset() { return {"default-photo", "data/default-photo.jpg", false}; }

const std::string* default_photo(const Inputs& in) {
  if (const std::string* bytes = in.asset(default_photo_asset().name)) return bytes;
  // SL_PHOTO_BUILTIN (cmake/DefaultPhoto.cmake, native builds): the generated source defines the bytes.
#if SL_PHOTO_BUILTIN
  return &default_photo_jpeg();
#else
  return nullptr;
#endif
}

}  // namespace sl::request
