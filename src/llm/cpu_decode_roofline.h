#pragma once
// One decode step measured on THIS CPU (cell llm/cpu-decode-roofline): a stack of `layers` square weight
// matrices (hidden x hidden, stored [out][in]) multiplied by the activations of a batch of B sequences,
// matrix-vector at B = 1 and matrix-matrix above, in FP32 and in INT8 (int32 accumulation). Every step
// reads all weights once, so at small B it moves 4 (or 1) bytes per 2 FLOP and runs at memory speed
// (eq. 18: T_token ~ weight bytes / bandwidth); as B grows, the same bytes serve B times the FLOPs until
// the arithmetic peak is reached: the knee of the roofline, at the ridge point peak / bandwidth.
#include <cstdint>
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

/// Measured roofs of this machine.
struct Roofs {
  double copy_bytes_per_s = 0;     ///< memcpy of half the weight buffer into the other half: 2 x half / t
  double read_bytes_per_s = 0;     ///< streaming sum over the whole weight buffer
  double fp32_flop_per_s = 0;      ///< blocked GEMM on cache-resident matrices
  double int8_op_per_s = 0;        ///< INT8 GEMM on cache-resident matrices
  double memory_bytes_per_s() const { return copy_bytes_per_s > read_bytes_per_s ? copy_bytes_per_s : read_bytes_per_s; }
};

/// A contiguous byte buffer the probes may overwrite (the weight buffer, before the weights are drawn).
struct ProbeBuffer {
  unsigned char* data = nullptr;
  std::int64_t bytes = 0;
};

/// Memory probes over `buffer` (copy, then read), timed with `plan`.
void probe_memory(ProbeBuffer buffer, const kernels::TimingPlan& plan, Roofs& roofs,
                  const std::function<void()>& on_sample);
/// Arithmetic peaks: FP32 and INT8 GEMM of kPeakProbeSize^3 on data that stays in cache.
void probe_peaks(const kernels::TimingPlan& plan, Roofs& roofs, const std::function<void()>& on_sample);
constexpr std::int64_t kPeakProbeSize = 192;

/// Times one FP32 decode step (all layers) at each batch size. weights: layers x hidden x hidden.
std::vector<kernels::Timing> time_decode_fp32(const DecodeShape& s, const float* weights,
                                              const std::vector<std::int64_t>& batches, float* x, float* y,
                                              const kernels::TimingPlan& plan, const std::function<void()>& on_sample);
/// The same in INT8 with int32 outputs.
std::vector<kernels::Timing> time_decode_int8(const DecodeShape& s, const std::int8_t* weights,
                                              const std::vector<std::int64_t>& batches, std::int8_t* x,
                                              std::int32_t* y, const kernels::TimingPlan& plan,
                                              const std::function<void()>& on_sample);

/// Most memory the cell allocates (weights of both precisions and activations): 1,536 MiB, so a run fits
/// the 2 GiB wasm heap beside the module's own memory.
constexpr double kMaxDecodeBytes = 1536.0 * units::kMiB;

/// Cell `llm/cpu-decode-roofline` (Lab 3, cell 2).
CellSpec cpu_decode_roofline_cell();

}  // namespace sl::llm
