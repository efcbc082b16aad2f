#include "kernels/fill.h"

namespace sl::kernels {
namespace {

/// The top 24 bits of a 32-bit word as a float in [-1, 1): exact, since 24 bits fit a float's significand.
float signed_unit(std::uint32_t bits) {
  return static_cast<float>(static_cast<std::int32_t>(bits >> 8) - (1 << 23)) * 0x1.0p-23f;
}

}  // namespace

void fill_uniform(Rng& rng, float* x, std::int64_t n, float scale) {
  std::int64_t i = 0;
  for (; i + 2 <= n; i += 2) {
    const std::uint64_t r = rng.next_u64();
    x[i] = scale * signed_unit(static_cast<std::uint32_t>(r));
    x[i + 1] = scale * signed_unit(static_cast<std::uint32_t>(r >> 32));
  }
  if (i < n) x[i] = scale * signed_unit(static_cast<std::uint32_t>(rng.next_u64()));
}

void fill_uniform(Rng& rng, std::int8_t* x, std::int64_t n) {
  for (std::int64_t i = 0; i < n; i += 8) {
    std::uint64_t r = rng.next_u64();
    for (std::int64_t j = i; j < i + 8 && j < n; ++j, r >>= 8) {
      // Map a byte 0..255 to -127..127 by scaling (255 values): (b * 255) >> 8 is in 0..254.
      x[j] = static_cast<std::int8_t>(static_cast<int>(((r & 0xFF) * 255) >> 8) - 127);
    }
  }
}

}  // namespace sl::kernels
