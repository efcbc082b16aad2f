#pragma once
// A JPEG's marker segments, checked before stb_image sees them. Debian's stb_image (0.0~git20220908)
// writes past its Huffman arrays when a DHT table's 16 code counts sum past 256 (upstream stb #1289,
// fixed by PR #1297), and it trusts segment lengths and frame sizes; this walk rejects those files first.
#include <cstdint>
#include <string>

#include "core/error.h"

namespace sl::request {

/// The frame header (SOFn) of a JPEG whose segments are well formed.
struct JpegFrame {
  std::int64_t width = 0;
  std::int64_t height = 0;
  int components = 0;
};

/// Walks the segments from SOI to EOI (skipping entropy-coded data): every segment's length fits in the
/// file, every DHT table holds at most 256 codes and every DQT table is complete, the frame (SOF) comes
/// before the first scan, with 1, 3 or 4 components of sampling factors 1-4, a width and height >= 1, and
/// width x height at most `max_pixels`. Errors: "invalid" (or "too_large" for the size), naming `param`.
Result<JpegFrame> check_jpeg_segments(const std::string& jpeg, const std::string& param, double max_pixels);

}  // namespace sl::request
