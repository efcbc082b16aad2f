#pragma once
// The natural logarithm with the same last bit on every platform: std::log is within an ulp of ln x both in glibc
// and in Emscripten's musl, but not always the same double, and a fit that iterates on noisy simulations can turn
// one ulp into a different end point (llm/validation did, natively and in wasm). Only an exact split of x into
// m 2^e (frexp) and + - * / follow, compiled without contraction, so both targets compute the same bits.

namespace sl {

/// ln x for finite x > 0 (0 and negative x give -inf and NaN, as std::log): within 2 ulp of it.
double portable_log(double x);

}  // namespace sl
