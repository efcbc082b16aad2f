#pragma once
// One decode step measured on THIS CPU (cell llm/cpu-decode-roofline): a stack of `layers` square weight
// matrices (hidden x hidden, stored [out][in]) multiplied by the activations of a batch of B sequences,
// matrix-vector at B = 1 and matrix-matrix above, in FP32 and in INT8 (int32 accumulation). Every step
// reads all weights once, so at small B it moves 4 (or 1) bytes per 2 FLOP and runs at memory speed
// (eq. 18: T_token ~ weight bytes / bandwidth); as B grows, the same bytes serve B times the FLOPs until
// the arithmetic peak is reached: the knee of the roofline, at the ridge point peak / bandwidth.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/cell.h"
#include "core/units.h"
#include "kernels/timing.h"

namespace sl::llm {

/// Element sizes of one precision: weights, input activations, outputs (INT8 products sum into int32).
struct DecodePrecision {
  const char* name;
  std::int64_t weight_bytes;
  std::int64_t input_bytes;
  std::int64_t output_bytes;
};
constexpr DecodePrecision kFp32{"fp32", 4, 4, 4};
constexpr DecodePrecision kInt8{"int8", 1, 1, 4};

/// The decode stack: `layers` matrices of hidden x hidden.
struct DecodeShape {
  std::int64_t hidden = 1024;
  std::int64_t layers = 16;
};

/// FLOPs of one step at batch B: 2 B hidden^2 layers (one multiply and one add per weight per sequence).
double decode_step_flop(const DecodeShape& s, std::int64_t batch);
/// Bytes one step moves at batch B: per layer, the weights once, the B input rows and the B output rows:
/// layers (hidden^2 w + B hidden (in + out)). FP32, hidden 1024, B 1: 16 x 4,202,496 B.
double decode_step_bytes(const DecodeShape& s, const DecodePrecision& p, std::int64_t batch);
/// Batch at which the step's arithmetic intensity reaches `ridge_flop_per_byte`, solving
/// 2 B h / (w h + B (in + out)) = r: B* = r w h / (2 h - r (in + out)); 0 when no batch reaches it.
double knee_batch(const DecodeShape& s, const DecodePrecision& p, double ridge_flop_per_byte);

/// The probes' view of this machine. The roofs drawn are the larger of each probe and the decode sweep's own
/// best rate (as the companion notebook derives them), so no measured point can lie above them.
struct Roofs {
  int vector_bits = 128;               ///< width of the measurement kernels and of the multiply-add probe
  double stream_bytes_per_s = 0;       ///< read-only stream over the stream buffer
  double stream_buffer_bytes = 0;
  double llc_bytes = 0;                ///< last-level cache of this host; 0 when unknown (a browser)
  double fma_flop_per_s = 0;           ///< register-resident FP32 multiply-add probe
  double int8_probe_op_per_s = 0;      ///< register-resident int16 pair multiply-add probe (INT8 kernels' op)
  double max_spread = 1;               ///< largest p90 / p10 among the probes and the sweep's steps
  double stream_spread = 1;            ///< p90 / p10 of the stream probe
  double fma_spread = 1;               ///< of the FP32 multiply-add probe
  double int8_probe_spread = 1;        ///< of the INT8 multiply-add probe
  /// The roofs drawn (probe, raised to the sweep's best when the sweep beat it).
  double bytes_per_s = 0;
  double fp32_flop_per_s = 0;
  double int8_op_per_s = 0;
};

/// Before the probes (stream and multiply-adds) are timed, each runs back to back for this long: at the start
/// of a run a browser is still compiling and optimising code in other threads (the first run in a page spread
/// 1.6-3.9x in 3 of 3 tries here, later runs in the same page 1.1-1.5x in 5 of 6), and a JIT may still be
/// swapping the probe's own code for a faster tier.
inline constexpr double kProbeSettleS = 0.1;

/// A contiguous byte buffer the stream probe reads (the weight buffer, before the weights are drawn).
struct ProbeBuffer {
  unsigned char* data = nullptr;
  std::int64_t bytes = 0;
};

/// Vector width, in bits, of the measurement kernels and probes on this host: 128 in wasm (SIMD128) and on
/// x86-64 without AVX2 + FMA, 256 with them (runtime dispatch; the kernels' 8-lane sums fill 256 bits, so
/// AVX-512 is not used).
int measure_vector_bits();
/// Size of the last-level cache of this host in bytes; 0 when it cannot be read (wasm).
double last_level_cache_bytes();

/// The read-only stream over `buffer`: sets stream_bytes_per_s (from the best sample) and the spread.
kernels::Timing probe_stream(ProbeBuffer buffer, const kernels::TimingPlan& plan, Roofs& roofs,
                             const std::function<void()>& on_sample);
/// Register-resident multiply-add probes, FP32 and INT8 (int16 pairs into int32), at measure_vector_bits().
void probe_peaks(const kernels::TimingPlan& plan, Roofs& roofs, const std::function<void()>& on_sample);
/// FLOPs (ops) of one call of each peak probe: accumulators x lanes x 2 x iterations.
double fma_probe_flop(int vector_bits);
double int8_probe_op(int vector_bits);

/// Times one FP32 decode step (all layers) at each batch size. weights: layers x hidden x hidden. The step
/// uses measurement-only kernels at measure_vector_bits() (fused multiply-add where the host has it), so
/// its results may differ in the last bits from kernels::gemv_f32 / gemm_f32, which simulations use.
std::vector<kernels::Timing> time_decode_fp32(const DecodeShape& s, const float* weights,
                                              const std::vector<std::int64_t>& batches, float* x, float* y,
                                              const kernels::TimingPlan& plan, const std::function<void()>& on_sample);
/// The same in INT8 with int32 outputs (exact, so equal to kernels::gemm_i8).
std::vector<kernels::Timing> time_decode_int8(const DecodeShape& s, const std::int8_t* weights,
                                              const std::vector<std::int64_t>& batches, std::int8_t* x,
                                              std::int32_t* y, const kernels::TimingPlan& plan,
                                              const std::function<void()>& on_sample);
/// The measurement-only steps themselves, for the tests (one layer: y (batch x n) = x (batch x k) W^T).
void decode_layer_f32(std::int64_t batch, std::int64_t n, std::int64_t k, const float* w, const float* x, float* y);
void decode_layer_i8(std::int64_t batch, std::int64_t n, std::int64_t k, const std::int8_t* w, const std::int8_t* x,
                     std::int16_t* x16, std::int32_t* y);

/// Spread of one timing: p90 / p10 of its samples.
double spread(const kernels::Timing& t);
/// A run whose spread exceeds this claims no verdict.
constexpr double kMaxSpread = 1.5;
/// The stream probe measures DRAM only over a buffer at least this many times the last-level cache.
constexpr double kStreamLlcMultiple = 4;

/// Cell `llm/cpu-decode-roofline` (Lab 3, cell 2).
CellSpec cpu_decode_roofline_cell();

}  // namespace sl::llm
