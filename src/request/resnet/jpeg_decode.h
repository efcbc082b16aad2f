#pragma once
// JPEG decoding for the request lab: Debian's stb_image (libstb-dev), baseline and progressive JPEG only,
// from memory, always to 8-bit RGB (HWC). The marker segments are checked first (jpeg_segments.h), then the
// header is read, so a file that is not a JPEG is rejected as "invalid" and one whose pixels would take more
// than the run's budget as "too_large", before decoding.
#include <cstdint>
#include <memory>
#include <string>

#include "core/budget.h"
#include "core/error.h"

namespace sl::request {

/// What request/resnet-request spends on each megapixel of the photo (core/budget.h): the timed decodes and the
/// resize. Natively (CPU time) a 12 MP photo took 3.21 s and 111 MB, a 20 MP one 5.07 s and 171 MB: 0.23 s and
/// 7.5 MB per megapixel; in the browser a 40 MP photo took 19 s and 617 MB (issue 15), 15.4 MB per megapixel.
/// With 0.25 s and the browser's 15.4 MB the limit is 16 megapixels (a 12 MP phone photo passes; 48 MP does not).
inline constexpr budget::UnitCost kPhotoMegapixelCost{0.25, 15.4e6};

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
