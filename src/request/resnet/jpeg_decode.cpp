// stb_image's implementation is compiled here, once, for JPEG only and without stdio. Natively on x86 it
// uses its SSE2 IDCT and colour conversion (bit-identical to its scalar code, says stb_image); under
// Emscripten no SSE2 is defined (we build with -msimd128, not -msse2), so the scalar code runs.
#include "request/resnet/jpeg_decode.h"

#include <climits>

#include "core/budget.h"
#include "request/resnet/jpeg_segments.h"

#define STB_IMAGE_IMPLEMENTATION
#define STBI_ONLY_JPEG
#define STBI_NO_STDIO
#define STBI_NO_LINEAR
#define STBI_NO_HDR
#if defined(__EMSCRIPTEN__)
#define STBI_NO_SIMD
#endif
#include <stb/stb_image.h>

namespace sl::request {

void FreeDecoded::operator()(std::uint8_t* pixels) const { stbi_image_free(pixels); }

namespace {

Error not_a_jpeg(const std::string& param, const std::string& why) {
  return Error{"invalid", param, param + " is not a JPEG file stb_image can decode (" + why + ")", {{"reason", why}, {"problem", "not_jpeg"}}};
}

}  // namespace

Result<JpegHeader> read_jpeg_header(const std::string& jpeg, const std::string& param) {
  if (jpeg.empty()) return not_a_jpeg(param, "the file is empty");
  if (jpeg.size() > static_cast<std::size_t>(INT_MAX)) return not_a_jpeg(param, "the file is over 2 GB");
  // Our own walk of the segments first: stb_image must never see a table it would overrun. Its pixel cap only
  // bounds what stb would allocate; the run's budget (below, kPhotoMegapixelCost) is the tighter limit.
  constexpr double kMaxSegmentPixels = 40e6;
  auto frame = check_jpeg_segments(jpeg, param, kMaxSegmentPixels);
  if (!frame.ok()) return frame.error();
  const auto* data = reinterpret_cast<const stbi_uc*>(jpeg.data());
  int width = 0, height = 0, channels = 0;
  if (stbi_info_from_memory(data, static_cast<int>(jpeg.size()), &width, &height, &channels) == 0)
    return not_a_jpeg(param, stbi_failure_reason() ? stbi_failure_reason() : "no JPEG header");
  const double megapixels = static_cast<double>(width) * static_cast<double>(height) / 1e6;
  budget::Estimate e;
  e.param_to_lower = param;
  e.what = "the photo's " + format_number(width) + " x " + format_number(height) + " pixels";
  e.unit = "megapixels";
  e.amount = megapixels;
  e.per_unit = kPhotoMegapixelCost;
  if (auto error = budget::check(e)) return *error;
  return JpegHeader{width, height};
}

Result<DecodedImage> decode_jpeg(const std::string& jpeg, const std::string& param) {
  auto header = read_jpeg_header(jpeg, param);
  if (!header.ok()) return header.error();
  int width = 0, height = 0, channels = 0;
  stbi_uc* rgb = stbi_load_from_memory(reinterpret_cast<const stbi_uc*>(jpeg.data()), static_cast<int>(jpeg.size()),
                                       &width, &height, &channels, 3);
  if (rgb == nullptr) return not_a_jpeg(param, stbi_failure_reason() ? stbi_failure_reason() : "corrupt data");
  DecodedImage image;
  image.width = width;
  image.height = height;
  image.rgb.reset(rgb);
  return image;
}

}  // namespace sl::request
