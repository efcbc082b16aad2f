// Kernel timings on this machine (never part of the tests): naive vs blocked FP32 GEMM in GFLOP/s and
// their ratio, then FP32 vs INT8 matrix-vector products in GB/s of weights streamed.
//   build/<dir>/kernels_bench            (a few seconds)
#include <cstdio>
#include <vector>

#include "core/rng.h"
#include "kernels/fill.h"
#include "kernels/gemm.h"
#include "kernels/gemv.h"
#include "kernels/int8.h"
#include "kernels/timing.h"

namespace {

using namespace sl::kernels;

constexpr TimingPlan kPlan{0.05, 5};

double gflop_per_s(std::int64_t flop, const Timing& t) { return static_cast<double>(flop) / t.median_s * 1e-9; }

void bench_gemm(std::int64_t m, std::int64_t n, std::int64_t k, BLayout layout, bool run_naive) {
  sl::Rng rng(1);
  std::vector<float> a(static_cast<std::size_t>(m * k)), b(static_cast<std::size_t>(k * n)),
      c(static_cast<std::size_t>(m * n));
  fill_uniform(rng, a.data(), m * k, 1.0f);
  fill_uniform(rng, b.data(), k * n, 1.0f);
  const GemmShape s{m, n, k, layout};
  const std::int64_t ldb = layout == BLayout::Normal ? n : k;
  const Timing blocked = time_per_call([&] { gemm_f32(s, a.data(), k, b.data(), ldb, c.data(), n); }, kPlan);
  const char* name = layout == BLayout::Normal ? "A*B  " : "A*B^T";
  if (!run_naive) {
    std::printf("%s %5lld x %5lld x %5lld   naive      -         blocked %7.2f GFLOP/s\n", name,
                static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k),
                gflop_per_s(gemm_flop(s), blocked));
    return;
  }
  const Timing naive = time_per_call([&] { gemm_f32_naive(s, a.data(), k, b.data(), ldb, c.data(), n); }, kPlan);
  std::printf("%s %5lld x %5lld x %5lld   naive %7.2f   blocked %7.2f GFLOP/s   ratio %5.1fx\n", name,
              static_cast<long long>(m), static_cast<long long>(n), static_cast<long long>(k),
              gflop_per_s(gemm_flop(s), naive), gflop_per_s(gemm_flop(s), blocked), naive.median_s / blocked.median_s);
}

void bench_gemv(std::int64_t m, std::int64_t k) {
  sl::Rng rng(2);
  std::vector<float> w(static_cast<std::size_t>(m * k)), x(static_cast<std::size_t>(k)), y(static_cast<std::size_t>(m));
  std::vector<std::int8_t> w8(static_cast<std::size_t>(m * k)), x8(static_cast<std::size_t>(k));
  std::vector<std::int32_t> y32(static_cast<std::size_t>(m));
  fill_uniform(rng, w.data(), m * k, 1.0f);
  fill_uniform(rng, x.data(), k, 1.0f);
  fill_uniform(rng, w8.data(), m * k);
  fill_uniform(rng, x8.data(), k);
  const Timing f32 = time_per_call([&] { gemv_f32(m, k, w.data(), k, x.data(), y.data()); }, kPlan);
  const Timing f32_naive = time_per_call([&] { gemv_f32_naive(m, k, w.data(), k, x.data(), y.data()); }, kPlan);
  const Timing i8 = time_per_call([&] { gemv_i8(m, k, w8.data(), k, x8.data(), y32.data()); }, kPlan);
  const double weights = static_cast<double>(m * k);
  std::printf("GEMV %5lld x %5lld (%6.1f MB FP32)   FP32 %6.2f GB/s %6.2f GFLOP/s (naive %6.2f GFLOP/s)   "
              "INT8 %6.2f GB/s %6.2f GOP/s   INT8/FP32 speed %4.2fx\n",
              static_cast<long long>(m), static_cast<long long>(k), 4 * weights * 1e-6, 4 * weights / f32.median_s * 1e-9,
              2 * weights / f32.median_s * 1e-9, 2 * weights / f32_naive.median_s * 1e-9, weights / i8.median_s * 1e-9,
              2 * weights / i8.median_s * 1e-9, f32.median_s / i8.median_s);
}

void bench_gemm_i8(std::int64_t m, std::int64_t n, std::int64_t k) {
  sl::Rng rng(3);
  std::vector<std::int8_t> a(static_cast<std::size_t>(m * k)), w(static_cast<std::size_t>(n * k));
  std::vector<std::int32_t> c(static_cast<std::size_t>(m * n));
  fill_uniform(rng, a.data(), m * k);
  fill_uniform(rng, w.data(), n * k);
  const Timing t = time_per_call([&] { gemm_i8(m, n, k, a.data(), k, w.data(), k, c.data(), n); }, kPlan);
  std::printf("INT8 A*W^T %5lld x %5lld x %5lld   %7.2f GOP/s\n", static_cast<long long>(m), static_cast<long long>(n),
              static_cast<long long>(k), gflop_per_s(2 * m * n * k, t));
}

}  // namespace

int main() {
#ifdef __wasm_simd128__
  std::printf("build: wasm SIMD128\n");
#else
  std::printf("build: plain C++ (compiler auto-vectorisation)\n");
#endif
  std::printf("timer resolution %.3g s\n", timer_resolution_s());
  for (std::int64_t size : {64, 128, 256, 512}) bench_gemm(size, size, size, BLayout::Normal, true);
  bench_gemm(255, 257, 263, BLayout::Transposed, true);
  bench_gemm(1024, 1024, 1024, BLayout::Normal, false);
  for (std::int64_t m : {1, 2, 4, 8, 16, 32, 64}) bench_gemm(m, 1024, 1024, BLayout::Transposed, false);
  for (std::int64_t m : {1, 4, 16, 64}) bench_gemm_i8(m, 1024, 1024);
  bench_gemm_i8(256, 256, 256);
  bench_gemv(256, 256);
  bench_gemv(1024, 1024);
  bench_gemv(4096, 4096);
  return 0;
}
