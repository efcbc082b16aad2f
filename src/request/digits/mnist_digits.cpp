#include "request/digits/mnist_digits.h"

#include "core/error.h"

namespace sl::request {

bool decode_mnist_rle(const unsigned char* rle, std::int64_t num_bytes, std::int64_t count, std::vector<std::uint8_t>& pixels) {
  const std::int64_t total = count * kMnistPixels;
  pixels.assign(static_cast<std::size_t>(total), 0);
  std::int64_t out = 0;
  for (std::int64_t i = 0; i < num_bytes; ++i) {
    if (rle[i] != 0) {
      if (out >= total) return false;
      pixels[static_cast<std::size_t>(out++)] = rle[i];
      continue;
    }
    if (i + 1 >= num_bytes || rle[i + 1] == 0) return false;
    out += rle[++i];  // zeros are already there
    if (out > total) return false;
  }
  return out == total;
}

const MnistDigits& mnist_digits() {
  static const MnistDigits digits = [] {
    MnistDigits d;
    d.count = kMnistNumDigits;
    const bool ok = decode_mnist_rle(reinterpret_cast<const unsigned char*>(kMnistRle), kMnistRleBytes, d.count, d.pixels);
    SL_ASSERT(ok);  // the generator wrote exactly count x 784 pixels
    (void)ok;
    d.labels.assign(kMnistLabels, kMnistLabels + d.count);
    return d;
  }();
  return digits;
}

}  // namespace sl::request
