#pragma once
// The CPU steps around an image classifier's forward pass (Table 3): a source photo, resize to the
// network's input, normalize with ImageNet's per-channel mean and standard deviation into the float tensor
// the network reads, and after the network, softmax and top-5. The synthetic photo here (smooth gradients,
// seeded discs and a checkerboard, integer arithmetic only) feeds bn-folding and the kernel tests;
// request/resnet-request decodes a real JPEG instead (request/resnet/jpeg_decode.h).
#include <cstdint>
#include <vector>

#include "request/resnet/resnet_forward.h"

namespace sl::request {

/// A deterministic RGB photo, height x width x 3 (HWC), 8 bits per channel.
std::vector<std::uint8_t> synthetic_photo(std::int64_t height, std::int64_t width, std::uint64_t seed);

/// ImageNet normalization: out = (v / 255 - mean_c) / std_c with mean (0.485, 0.456, 0.406) and std
/// (0.229, 0.224, 0.225), from an HWC 8-bit image into a 3 x H x W (Nchw) or H x W x 3 (Nhwc) tensor.
void normalize_imagenet(const std::uint8_t* hwc, std::int64_t height, std::int64_t width, Layout layout, float* out);

/// Indices of the k largest values, largest first (ties: lower index first).
std::vector<std::int64_t> top_k(const float* x, std::int64_t n, int k);

}  // namespace sl::request
