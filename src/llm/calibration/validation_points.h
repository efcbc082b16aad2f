#pragma once
// The published measurements (measured_points.h) as serving points the simulator runs (serving_calibration.h), or
// the reason one cannot be: llm/validation's mapping. A point is modelled when its GPU SKU names a GPU preset
// (model_architecture.h: H100 SXM or PCIe, A100 80 or 40 GB, H200, B200, L40S, MI300X, MI325X), its model is given
// by its architecture (a dense one by its total count, layers and heads; a mixture of experts by its preset's
// architecture, else its model block's), its weights are 16-, 8- or 4-bit, it runs on one pipeline stage, its
// lengths are stated (fixed, or a mean: run as fixed at the mean), any prompt sharing is stated in numbers, and at
// most 1 % of the requests the source sent failed (the simulator has no client timeout, and a source's figures count
// only the requests that finished; 1 % is inference-sim/training's own gate on its traces).
// What each source leaves unstated takes its engine's default:
//   vLLM (V1): chunked prefill and prefix caching on, block 16, KV pool 0.9 x memory - weights;
//   TensorRT-LLM, in-flight batching: trtllm-build's max_batch_size 2048 and max_num_tokens 8192, chunked context
//     off, 64-token blocks, KV pool 0.9 of the memory the weights leave free;
//   TensorRT-LLM, static batching (gptSessionBenchmark): one batch of batch_size requests, prefilled in one step;
//   KV unstated: 16-bit (vLLM's kv_cache_dtype auto); arrivals at a stated rate but unstated process: Poisson;
//   a mixture of experts: its experts split over the TP GPUs like every other layer (no expert parallelism),
//     routing uniform; every weight at the point's precision (gpt-oss's MXFP4 experts beside BF16 attention: all
//     4-bit).
// Hardware from the preset: FP8 weights compute at its dense FP8 peak (H100: 1,979 TFLOP/s), FP4 weights at its
// FP4 peak (B200: 9,000), and a point whose FP4 weights the GPU has no FP4 tensor cores for is excluded
// (Precision); INT8, and FP8 on a GPU without FP8 tensor cores, compute at the 16-bit peak. Tensor parallelism's
// all-reduces run over the preset's link (A100: 300 GB/s each way; H100: 450).
// Compared figures (Target): TTFT (mean, else median), TPOT (mean, else median) or else ITL mean, E2E (mean, else
// median) and output tokens/s. A saturated point (completed rate under 95 % of the offered rate) simulated with
// fewer requests than the source sent keeps only its throughput: its latencies grow with the request count.
#include <cstdint>
#include <string>
#include <vector>

#include "llm/calibration/measured_points.h"
#include "llm/calibration/serving_calibration.h"

namespace sl::llm {

struct GpuPreset;

/// Why a point is not simulated (the validation table's `exclusion` codes).
/// Moe: a mixture-of-experts model with neither a preset nor a complete architecture, checked before the others.
/// Precision: weights or KV at a precision the step model does not take (or unstated), FP4 weights on a GPU without
/// FP4 tensor cores, or weights that leave no room for one request.
/// Failures: over 1 % of the requests sent failed (inference-sim's overloaded reasoning runs, cut by a client timeout).
enum class Exclusion {
  None = 0, Gpu = 1, Lengths = 2, PrefixUnquantified = 3, Precision = 4, Pipeline = 5, Engine = 6, Moe = 7, Failures = 8
};

/// How a modelled point's requests arrive (the table's `arrival` codes).
enum class ArrivalCode { Poisson = 0, Burst = 1, ClosedLoop = 2, StaticBatch = 3, RateAssumedPoisson = 4 };

/// Which engines' points a validation takes.
enum class EngineFilter { All, Vllm, TensorRtLlm };

struct ValidationPoint {
  std::int64_t index = 0;  ///< into measured_points()
  Exclusion exclusion = Exclusion::None;
  ArrivalCode arrival = ArrivalCode::Poisson;
  ServingPoint serving;           ///< when modelled
  std::vector<std::string> keys;  ///< the measured key each target compares with
  bool dropped_latency = false;   ///< saturated and capped: latencies left out
};

/// Every measured point the filter takes, mapped; at most max_requests requests each for a Poisson point, 8 x as
/// many for a burst or a closed loop (simulated once, then re-timed), and a static batch never cut (its batch is the
/// configuration).
std::vector<ValidationPoint> validation_points(std::int64_t max_requests, EngineFilter filter);

/// The GPU preset a measured SKU names ("H100 SXM 80GB (...)": h100; "H100 PCIe ...": h100-pcie; "A100 ... 40GB":
/// a100-40gb), from its words before any parenthesis, or nullptr ("GeForce RTX 4090 24GB").
const GpuPreset* gpu_preset_of(const std::string& sku);

/// The book's knobs (GpuSpec's defaults: efficiency 0.4, bandwidth efficiency 1, layer and dispatch taxes 0.01 ms,
/// no mechanism's term), where llm/validation's fits start: not the engine cells' defaults, which are its fit
/// (step_model.h), so that a held-out point never starts from a fit that saw it.
StepKnobs book_knobs();

/// The source files' order (measured_points()), as the table's `source` codes: index of a point's source.
std::int64_t source_code(const MeasuredPoint& point);

}  // namespace sl::llm
