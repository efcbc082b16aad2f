// Roof probes and decode-step timing for llm/cpu-decode-roofline. Everything here is measurement-only: no
// simulation calls it, so it may use this host's widest useful vectors and fused multiply-add (CMakeLists.txt
// compiles this file with -ffp-contract=fast natively) without touching the bit-identical results of the
// kernels in src/kernels. Natively the x86-64 baseline (SSE2, 128 bit) is what the CLI is built for; the
// 256-bit AVX2 + FMA versions (x86-64-v3) are chosen at run time when the CPU has them. In wasm everything is
// SIMD128. The peak probes run the kernels' own operation (a vector multiply-add into register-resident
// accumulators, operands from L1) at the kernels' vector width, so the flat roof is what these kernels could
// reach if memory never made them wait; the stream probe reads a buffer several times the last-level cache.
#include <algorithm>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "core/clock.h"
#include "kernels/dot.h"
#include "llm/cpu/cpu_decode_roofline.h"

#ifdef __wasm_simd128__
#include <wasm_simd128.h>
#endif
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__EMSCRIPTEN__)
#define SL_X86_DISPATCH 1
#include <immintrin.h>
#include <unistd.h>
#define SL_MEASURE_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#define SL_V3 __attribute__((target("arch=x86-64-v3")))
#else
#define SL_MEASURE_CLONES
#endif
#if defined(__SSE2__) && !defined(__wasm_simd128__)
#include <emmintrin.h>
#endif

namespace sl::llm {
namespace {

#define SL_ALWAYS_INLINE inline __attribute__((always_inline))
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic ignored "-Wpsabi"  // 256-bit vector values only inside always-inlined helpers
#endif

typedef float F32x8 __attribute__((vector_size(32)));

SL_ALWAYS_INLINE F32x8 load8(const float* p) {
  F32x8 v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

/// out[r] = sum_p a[p] * b_r[p] for R rows b_r = b + r * ldb: 8-lane vector sums (one 256-bit register, or
/// two 128-bit ones), then the tail.
template <int R>
SL_ALWAYS_INLINE void dot_rows(const float* a, const float* b, std::int64_t ldb, std::int64_t k, float* out) {
  F32x8 s[R];
  for (int r = 0; r < R; ++r) s[r] = F32x8{};
  std::int64_t p = 0;
  for (; p + 8 <= k; p += 8) {
    const F32x8 av = load8(a + p);
    for (int r = 0; r < R; ++r) s[r] += av * load8(b + r * ldb + p);
  }
  for (int r = 0; r < R; ++r) {
    float t = 0;
    for (int l = 0; l < 8; ++l) t += s[r][l];
    for (std::int64_t q = p; q < k; ++q) t += a[q] * b[r * ldb + q];
    out[r] = t;
  }
}

/// Wrapping sum of a buffer read as 64-bit words into eight independent accumulators: one load and one add
/// per 8 bytes, so the loop is limited by memory, not by arithmetic.
SL_MEASURE_CLONES std::uint64_t read_all(const unsigned char* data, std::int64_t bytes) {
  std::uint64_t s[8] = {};
  std::int64_t i = 0;
  for (; i + 64 <= bytes; i += 64)
    for (int l = 0; l < 8; ++l) {
      std::uint64_t w;
      std::memcpy(&w, data + i + 8 * l, 8);
      s[l] += w;
    }
  std::uint64_t sum = ((s[0] + s[1]) + (s[2] + s[3])) + ((s[4] + s[5]) + (s[6] + s[7]));
  for (; i < bytes; ++i) sum += data[i];
  return sum;
}

// ---- peak probes: kProbeAcc register-resident vector accumulators, each taking one multiply-add per
// iteration with one operand loaded from a small L1-resident table (as the kernels load theirs), so the
// compiler can neither hoist the product nor drop the loop. ----
constexpr int kProbeAcc = 12;
constexpr int kProbeIters = 2048;
constexpr int kProbeRotate = 31;  // iteration i reads table vectors (i & 31) .. (i & 31) + 11
constexpr int kProbeTable = kProbeRotate + 1 + kProbeAcc;  // vectors in the operand table (1.4 KiB at 256 bit)

alignas(64) float g_probe_f32[kProbeTable * 8];
alignas(64) std::int16_t g_probe_i16[kProbeTable * 16];

template <class V, int L>
SL_ALWAYS_INLINE float fma_probe_body() {
  V acc[kProbeAcc];
  for (int i = 0; i < kProbeAcc; ++i)
    for (int l = 0; l < L; ++l) acc[i][l] = 1e-3f * static_cast<float>(i + 1);
  V y;
  for (int l = 0; l < L; ++l) y[l] = 1e-4f;
  for (int it = 0; it < kProbeIters; ++it) {
    const float* base = g_probe_f32 + (it & kProbeRotate) * L;
    for (int i = 0; i < kProbeAcc; ++i) {
      V x;
      std::memcpy(&x, base + i * L, sizeof x);
      acc[i] += x * y;
    }
  }
  float total = 0;
  for (int i = 0; i < kProbeAcc; ++i)
    for (int l = 0; l < L; ++l) total += acc[i][l];
  return total;
}

typedef float F32x4 __attribute__((vector_size(16)));

float fma_probe_128() { return fma_probe_body<F32x4, 4>(); }

#ifdef SL_X86_DISPATCH
SL_V3 float fma_probe_256() { return fma_probe_body<F32x8, 8>(); }

SL_V3 std::int32_t int8_probe_256() {
  __m256i acc[kProbeAcc];
  for (int i = 0; i < kProbeAcc; ++i) acc[i] = _mm256_set1_epi32(i);
  const __m256i y = _mm256_set1_epi16(3);
  for (int it = 0; it < kProbeIters; ++it)
    for (int i = 0; i < kProbeAcc; ++i) {
      const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(g_probe_i16 + ((it & kProbeRotate) + i) * 16));
      acc[i] = _mm256_add_epi32(acc[i], _mm256_madd_epi16(x, y));
    }
  __m256i t = acc[0];
  for (int i = 1; i < kProbeAcc; ++i) t = _mm256_add_epi32(t, acc[i]);
  return _mm256_extract_epi32(t, 0) + _mm256_extract_epi32(t, 7);
}
#endif

std::int32_t int8_probe_128() {
#ifdef __wasm_simd128__
  v128_t acc[kProbeAcc];
  for (int i = 0; i < kProbeAcc; ++i) acc[i] = wasm_i32x4_splat(i);
  const v128_t y = wasm_i16x8_splat(3);
  for (int it = 0; it < kProbeIters; ++it)
    for (int i = 0; i < kProbeAcc; ++i) {
      const v128_t x = wasm_v128_load(g_probe_i16 + ((it & kProbeRotate) + i) * 8);
      acc[i] = wasm_i32x4_add(acc[i], wasm_i32x4_dot_i16x8(x, y));
    }
  v128_t t = acc[0];
  for (int i = 1; i < kProbeAcc; ++i) t = wasm_i32x4_add(t, acc[i]);
  return wasm_i32x4_extract_lane(t, 0) + wasm_i32x4_extract_lane(t, 3);
#elif defined(__SSE2__)
  __m128i acc[kProbeAcc];
  for (int i = 0; i < kProbeAcc; ++i) acc[i] = _mm_set1_epi32(i);
  const __m128i y = _mm_set1_epi16(3);
  for (int it = 0; it < kProbeIters; ++it)
    for (int i = 0; i < kProbeAcc; ++i) {
      const __m128i x = _mm_loadu_si128(reinterpret_cast<const __m128i*>(g_probe_i16 + ((it & kProbeRotate) + i) * 8));
      acc[i] = _mm_add_epi32(acc[i], _mm_madd_epi16(x, y));
    }
  __m128i t = acc[0];
  for (int i = 1; i < kProbeAcc; ++i) t = _mm_add_epi32(t, acc[i]);
  return _mm_cvtsi128_si32(t);
#else
  // No 128-bit integer vectors: the scalar pair multiply-add (the kernels' plain path).
  std::int32_t acc[kProbeAcc * 4] = {};
  for (int it = 0; it < kProbeIters; ++it)
    for (int i = 0; i < kProbeAcc * 4; ++i) {
      const std::int16_t* x = g_probe_i16 + ((it & kProbeRotate) + i);
      acc[i] += std::int32_t{x[0]} * 3 + std::int32_t{x[1]} * 3;
    }
  std::int32_t t = 0;
  for (auto a : acc) t += a;
  return t;
#endif
}

template <class Sink>
void settle(Sink&& sink) {
  for (const double start_s = wall_now_s(); wall_now_s() - start_s < kProbeSettleS;) sink();
}

template <class Sink>
kernels::Timing time_probe(const kernels::TimingPlan& plan, const std::function<void()>& on_sample, Sink&& sink) {
  settle(sink);
  return kernels::time_per_call(sink, plan, [&](int) { on_sample(); });
}

}  // namespace

int measure_vector_bits() {
#ifdef SL_X86_DISPATCH
  return __builtin_cpu_supports("x86-64-v3") ? 256 : 128;
#else
  return 128;
#endif
}

double last_level_cache_bytes() {
#if defined(__EMSCRIPTEN__)
  return 0;
#else
  // Linux sysfs: the largest data or unified cache of cpu0, at the highest level.
  double best = 0;
  int best_level = 0;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    std::ifstream level_file(dir + "level"), type_file(dir + "type"), size_file(dir + "size");
    int level = 0;
    std::string type, size;
    if (!(level_file >> level) || !(type_file >> type) || !(size_file >> size) || type == "Instruction") continue;
    double bytes = std::atof(size.c_str());
    if (!size.empty() && (size.back() == 'K' || size.back() == 'k')) bytes *= 1024;
    if (!size.empty() && size.back() == 'M') bytes *= 1024 * 1024;
    if (level > best_level || (level == best_level && bytes > best)) best = bytes, best_level = level;
  }
#ifdef _SC_LEVEL3_CACHE_SIZE
  if (best == 0) {
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    if (l3 > 0) best = static_cast<double>(l3);
  }
#endif
  return best;
#endif
}

double spread(const kernels::Timing& t) { return t.p10_s > 0 ? t.p90_s / t.p10_s : 1.0; }

double fma_probe_flop(int vector_bits) {
  return 2.0 * kProbeAcc * (vector_bits / 32) * static_cast<double>(kProbeIters);
}
double int8_probe_op(int vector_bits) {
  // One pair multiply-add of int16 lanes into int32: a multiply and an add per int16 lane, as gemm_flop
  // counts an INT8 multiply-accumulate.
  return 2.0 * kProbeAcc * (vector_bits / 16) * static_cast<double>(kProbeIters);
}

kernels::Timing probe_stream(ProbeBuffer buffer, const kernels::TimingPlan& plan, Roofs& roofs,
                             const std::function<void()>& on_sample) {
  std::memset(buffer.data, 1, static_cast<std::size_t>(buffer.bytes));  // touch every page first
  volatile std::uint64_t sink = 0;  // keeps the read from being optimised away
  const kernels::Timing read = time_probe(plan, on_sample, [&] { sink = sink + read_all(buffer.data, buffer.bytes); });
  roofs.stream_buffer_bytes = static_cast<double>(buffer.bytes);
  roofs.stream_bytes_per_s = static_cast<double>(buffer.bytes) / read.best_s;
  roofs.llc_bytes = last_level_cache_bytes();
  roofs.stream_spread = spread(read);
  roofs.max_spread = std::max(roofs.max_spread, roofs.stream_spread);
  return read;
}

void probe_peaks(const kernels::TimingPlan& plan, Roofs& roofs, const std::function<void()>& on_sample) {
  for (int i = 0; i < kProbeTable * 8; ++i) g_probe_f32[i] = 1.0f + 1e-3f * static_cast<float>(i % 17);
  for (int i = 0; i < kProbeTable * 16; ++i) g_probe_i16[i] = static_cast<std::int16_t>(i % 97 - 48);
  roofs.vector_bits = measure_vector_bits();
  volatile float fsink = 0;
  volatile std::int32_t isink = 0;
  const bool wide = roofs.vector_bits == 256;
#ifdef SL_X86_DISPATCH
  const kernels::Timing fp32 =
      time_probe(plan, on_sample, [&] { fsink = fsink + (wide ? fma_probe_256() : fma_probe_128()); });
  const kernels::Timing int8 =
      time_probe(plan, on_sample, [&] { isink = isink + (wide ? int8_probe_256() : int8_probe_128()); });
#else
  (void)wide;
  const kernels::Timing fp32 = time_probe(plan, on_sample, [&] { fsink = fsink + fma_probe_128(); });
  const kernels::Timing int8 = time_probe(plan, on_sample, [&] { isink = isink + int8_probe_128(); });
#endif
  roofs.fma_flop_per_s = fma_probe_flop(roofs.vector_bits) / fp32.best_s;
  roofs.int8_probe_op_per_s = int8_probe_op(roofs.vector_bits) / int8.best_s;
  roofs.fma_spread = spread(fp32);
  roofs.int8_probe_spread = spread(int8);
  roofs.max_spread = std::max({roofs.max_spread, roofs.fma_spread, roofs.int8_probe_spread});
}

SL_MEASURE_CLONES void decode_layer_f32(std::int64_t batch, std::int64_t n, std::int64_t k, const float* w,
                                        const float* x, float* y) {
  std::int64_t j = 0;
  for (; j + 4 <= n; j += 4)
    for (std::int64_t i = 0; i < batch; ++i) dot_rows<4>(x + i * k, w + j * k, k, k, y + i * n + j);
  for (; j < n; ++j)
    for (std::int64_t i = 0; i < batch; ++i) dot_rows<1>(x + i * k, w + j * k, k, k, y + i * n + j);
}

SL_MEASURE_CLONES void decode_layer_i8(std::int64_t batch, std::int64_t n, std::int64_t k, const std::int8_t* w,
                                       const std::int8_t* x, std::int16_t* x16, std::int32_t* y) {
  for (std::int64_t q = 0; q < batch * k; ++q) x16[q] = x[q];  // widened once per step, reused by every row
  std::int64_t j = 0;
  for (; j + 4 <= n; j += 4)
    for (std::int64_t i = 0; i < batch; ++i) {
      std::int32_t out[4];
      kernels::detail::dot_rows_i8<4>(x16 + i * k, w + j * k, k, k, out);
      for (int r = 0; r < 4; ++r) y[i * n + j + r] = out[r];
    }
  for (; j < n; ++j)
    for (std::int64_t i = 0; i < batch; ++i) kernels::detail::dot_rows_i8<1>(x16 + i * k, w + j * k, k, k, y + i * n + j);
}

double decode_step_flop(const DecodeShape& s, std::int64_t batch) {
  return 2.0 * static_cast<double>(batch) * static_cast<double>(s.hidden) * static_cast<double>(s.hidden) *
         static_cast<double>(s.layers);
}

double decode_step_bytes(const DecodeShape& s, const DecodePrecision& p, std::int64_t batch) {
  const auto h = static_cast<double>(s.hidden);
  return static_cast<double>(s.layers) *
         (h * h * static_cast<double>(p.weight_bytes) +
          static_cast<double>(batch) * h * static_cast<double>(p.input_bytes + p.output_bytes));
}

double knee_batch(const DecodeShape& s, const DecodePrecision& p, double ridge_flop_per_byte) {
  const auto h = static_cast<double>(s.hidden);
  const double denominator = 2.0 * h - ridge_flop_per_byte * static_cast<double>(p.input_bytes + p.output_bytes);
  if (denominator <= 0) return 0.0;
  return ridge_flop_per_byte * static_cast<double>(p.weight_bytes) * h / denominator;
}

std::vector<kernels::Timing> time_decode_fp32(const DecodeShape& s, const float* weights,
                                              const std::vector<std::int64_t>& batches, float* x, float* y,
                                              const kernels::TimingPlan& plan, const std::function<void()>& on_sample) {
  const std::int64_t h = s.hidden;
  std::vector<kernels::Timing> out;
  for (const std::int64_t batch : batches) {
    out.push_back(time_probe(plan, on_sample, [&] {
      for (std::int64_t l = 0; l < s.layers; ++l) decode_layer_f32(batch, h, h, weights + l * h * h, x, y);
    }));
  }
  return out;
}

std::vector<kernels::Timing> time_decode_int8(const DecodeShape& s, const std::int8_t* weights,
                                              const std::vector<std::int64_t>& batches, std::int8_t* x,
                                              std::int32_t* y, const kernels::TimingPlan& plan,
                                              const std::function<void()>& on_sample) {
  const std::int64_t h = s.hidden;
  std::vector<std::int16_t> x16(static_cast<std::size_t>(batches.empty() ? 0 : *std::max_element(batches.begin(), batches.end()) * h));
  std::vector<kernels::Timing> out;
  for (const std::int64_t batch : batches) {
    out.push_back(time_probe(plan, on_sample, [&] {
      for (std::int64_t l = 0; l < s.layers; ++l) decode_layer_i8(batch, h, h, weights + l * h * h, x, x16.data(), y);
    }));
  }
  return out;
}

}  // namespace sl::llm
