#pragma once
// Seeded synthetic weights and inputs for the kernels: no downloads, the same numbers on every platform.
// Values come straight from the bits of sl::Rng (two floats or eight int8 per 64-bit draw), which is fast
// enough to fill hundreds of MB of weights in a measurement cell.
#include <cstdint>

#include "core/rng.h"

namespace sl::kernels {

/// Fills x[0..n) with values uniform on [-scale, scale), in steps of scale / 2^23.
void fill_uniform(Rng& rng, float* x, std::int64_t n, float scale);

/// Fills x[0..n) with int8 values uniform on [-127, 127] (-128 excluded, as symmetric quantisation does).
void fill_uniform(Rng& rng, std::int8_t* x, std::int64_t n);

}  // namespace sl::kernels
