#pragma once
// Preprocessing of the digit classifier, where training-serving skew hides. A client sends a 64 x 64 8-bit
// image (the 28 x 28 MNIST digit enlarged bilinearly, as a camera or canvas would deliver it); the model
// reads 28 x 28 floats. The training transform shrinks with antialiased bilinear (PIL's BILINEAR), scales
// by 1/255 and standardizes with MNIST's mean 0.1307 and std 0.3081. Serving variants change one step:
// plain bilinear (OpenCV's INTER_LINEAR, which skips pixels when shrinking 2.3x), nearest neighbour,
// ImageNet's statistics (grey: mean 0.449, std 0.226), or no 1/255. The parity check runs two transforms on
// the same images and reports the largest difference of the tensors they produce.
#include <cstdint>
#include <string>
#include <vector>

#include "kernels/resize.h"
#include "request/digits/mnist_digits.h"

namespace sl::request {

constexpr std::int64_t kRawSide = 64;
constexpr std::int64_t kRawPixels = kRawSide * kRawSide;

enum class ServingVariant { Shared, BilinearNoAntialias, Nearest, ImagenetStats, NoScale };
constexpr int kNumServingVariants = 5;

/// One preprocessing function: resize 64 -> 28 with `filter`, multiply by `scale`, standardize.
struct DigitTransform {
  kernels::ResizeFilter filter = kernels::ResizeFilter::BilinearAntialias;
  float scale = 1.0f / 255.0f;
  float mean = 0.1307f;
  float std = 0.3081f;
};

/// The transform used in training (and, when shared, in serving).
DigitTransform training_transform();

/// The transform a serving variant applies.
DigitTransform serving_transform(ServingVariant v);

/// The client's image: digit i enlarged to 64 x 64 (bilinear), rounded to 8 bits.
std::vector<std::uint8_t> raw_digit_images(const MnistDigits& digits, std::int64_t first, std::int64_t count);

/// count raw 64 x 64 images -> count x 784 model inputs.
void preprocess_digits(const DigitTransform& t, const std::uint8_t* raw, std::int64_t count, float* out);

/// The parity check: max |train(x) - serve(x)| over every value of `count` images' model inputs.
double parity_max_abs_diff(const DigitTransform& train, const DigitTransform& serve, const std::uint8_t* raw,
                           std::int64_t count);

}  // namespace sl::request
