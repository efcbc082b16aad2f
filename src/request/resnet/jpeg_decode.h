#pragma once
// JPEG decoding for the request lab: Debian's stb_image (libstb-dev), baseline and progressive JPEG only,
// from memory, always to 8-bit RGB (HWC). The marker segments are checked first (jpeg_segments.h), then the
// header is read, so a file that is not a JPEG is
// rejected as "invalid" and one whose pixels would exceed kMaxJpegPixels as "too_large", before decoding.
#include <cstdint>
#include <memory>
#include <string>

#include "core/error.h"

namespace sl::request {

/// Largest photo decoded: 40 megapixels (120 MB of RGB), above any phone camera's default.
constexpr double kMaxJpegPixels = 40e6;

struct JpegHeader {
  std::int64_t width = 0;
  std::int64_t height = 0;
};

/// Reads a JPEG's size without decoding; `param` names the parameter in errors.
Result<JpegHeader> read_jpeg_header(const std::string& jpeg, const std::string& param);

struct FreeDecoded {
  void operator()(std::uint8_t* pixels) const;
};

/// A decoded image: height x width x 3 bytes, owned by the decoder's allocator.
struct DecodedImage {
  std::int64_t width = 0;
  std::int64_t height = 0;
  std::unique_ptr<std::uint8_t, FreeDecoded> rgb;
};

/// Checks the header (read_jpeg_header) and decodes; corrupt data is an "invalid" error, never a crash.
Result<DecodedImage> decode_jpeg(const std::string& jpeg, const std::string& param);

}  // namespace sl::request
