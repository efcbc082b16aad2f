// Roof probes and decode-step timing for llm/cpu-decode-roofline. The probes use the same kernels as the
// step (kernels::gemm_f32, kernels::gemm_i8) on matrices small enough to stay in cache, so the compute roof
// is what these kernels can reach here; the memory probes run over the weight buffer itself, so the
// bandwidth roof is that of the memory level where the weights live.
#include <cstring>
#include <vector>

#include "core/rng.h"
#include "kernels/fill.h"
#include "kernels/gemm.h"
#include "kernels/gemv.h"
#include "kernels/int8.h"
#include "llm/cpu_decode_roofline.h"

namespace sl::llm {
namespace {

constexpr std::int64_t kReadChunkBytes = 32;

/// Wrapping sum of a buffer read as 64-bit words into four independent accumulators: one load and one add
/// per 8 bytes, so the loop is limited by memory, not by arithmetic. (memcpy reads the bytes without
/// breaking type aliasing; compilers turn it into plain loads.)
std::uint64_t read_all(const unsigned char* data, std::int64_t bytes) {
  std::uint64_t s0 = 0, s1 = 0, s2 = 0, s3 = 0;
  std::int64_t i = 0;
  for (; i + kReadChunkBytes <= bytes; i += kReadChunkBytes) {
    std::uint64_t w0, w1, w2, w3;
    std::memcpy(&w0, data + i, 8);
    std::memcpy(&w1, data + i + 8, 8);
    std::memcpy(&w2, data + i + 16, 8);
    std::memcpy(&w3, data + i + 24, 8);
    s0 += w0;
    s1 += w1;
    s2 += w2;
    s3 += w3;
  }
  std::uint64_t sum = (s0 + s1) + (s2 + s3);
  for (; i < bytes; ++i) sum += data[i];
  return sum;
}

}  // namespace

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

void probe_memory(ProbeBuffer buffer, const kernels::TimingPlan& plan, Roofs& roofs,
                  const std::function<void()>& on_sample) {
  const std::int64_t half = buffer.bytes / 2;
  const kernels::Timing copy = kernels::time_per_call(
      [&] { std::memcpy(buffer.data + half, buffer.data, static_cast<std::size_t>(half)); }, plan,
      [&](int) { on_sample(); });
  roofs.copy_bytes_per_s = 2.0 * static_cast<double>(half) / copy.median_s;
  volatile std::uint64_t sink = 0;  // keeps the read from being optimised away
  const kernels::Timing read = kernels::time_per_call(
      [&] { sink = sink + read_all(buffer.data, buffer.bytes); }, plan, [&](int) { on_sample(); });
  roofs.read_bytes_per_s = static_cast<double>(buffer.bytes) / read.median_s;
}

void probe_peaks(const kernels::TimingPlan& plan, Roofs& roofs, const std::function<void()>& on_sample) {
  const std::int64_t n = kPeakProbeSize;
  Rng rng(1);  // probe data only; its values do not matter
  std::vector<float> a(static_cast<std::size_t>(n * n)), b(a.size()), c(a.size());
  kernels::fill_uniform(rng, a.data(), n * n, 1.0f);
  kernels::fill_uniform(rng, b.data(), n * n, 1.0f);
  const kernels::GemmShape shape{n, n, n, kernels::BLayout::Transposed};
  const kernels::Timing fp32 = kernels::time_per_call(
      [&] { kernels::gemm_f32(shape, a.data(), n, b.data(), n, c.data(), n); }, plan, [&](int) { on_sample(); });
  roofs.fp32_flop_per_s = static_cast<double>(kernels::gemm_flop(shape)) / fp32.median_s;

  std::vector<std::int8_t> a8(a.size()), b8(a.size());
  std::vector<std::int32_t> c32(a.size());
  kernels::fill_uniform(rng, a8.data(), n * n);
  kernels::fill_uniform(rng, b8.data(), n * n);
  const kernels::Timing int8 = kernels::time_per_call(
      [&] { kernels::gemm_i8(n, n, n, a8.data(), n, b8.data(), n, c32.data(), n); }, plan, [&](int) { on_sample(); });
  roofs.int8_op_per_s = static_cast<double>(kernels::gemm_flop(shape)) / int8.median_s;
}

std::vector<kernels::Timing> time_decode_fp32(const DecodeShape& s, const float* weights,
                                              const std::vector<std::int64_t>& batches, float* x, float* y,
                                              const kernels::TimingPlan& plan, const std::function<void()>& on_sample) {
  const std::int64_t h = s.hidden;
  std::vector<kernels::Timing> out;
  for (const std::int64_t batch : batches) {
    out.push_back(kernels::time_per_call(
        [&] {
          for (std::int64_t l = 0; l < s.layers; ++l) {
            const float* w = weights + l * h * h;
            if (batch == 1) {
              kernels::gemv_f32(h, h, w, h, x, y);
            } else {
              kernels::gemm_f32({batch, h, h, kernels::BLayout::Transposed}, x, h, w, h, y, h);
            }
          }
        },
        plan, [&](int) { on_sample(); }));
  }
  return out;
}

std::vector<kernels::Timing> time_decode_int8(const DecodeShape& s, const std::int8_t* weights,
                                              const std::vector<std::int64_t>& batches, std::int8_t* x,
                                              std::int32_t* y, const kernels::TimingPlan& plan,
                                              const std::function<void()>& on_sample) {
  const std::int64_t h = s.hidden;
  std::vector<kernels::Timing> out;
  for (const std::int64_t batch : batches) {
    out.push_back(kernels::time_per_call(
        [&] {
          for (std::int64_t l = 0; l < s.layers; ++l) {
            const std::int8_t* w = weights + l * h * h;
            if (batch == 1) {
              kernels::gemv_i8(h, h, w, h, x, y);
            } else {
              kernels::gemm_i8(batch, h, h, x, h, w, h, y, h);
            }
          }
        },
        plan, [&](int) { on_sample(); }));
  }
  return out;
}

}  // namespace sl::llm
