#pragma once
// The published measurements (measured_points.h) as serving points the simulator runs (serving_calibration.h), or
// the reason one cannot be: llm/validation's mapping. A point is modelled when its GPU has a preset here (H100 SXM,
// A100 80 GB), its model is dense and given by its architecture (the custom model's fields), its weights are
// 16- or 8-bit, it runs on one pipeline stage, its lengths are stated (fixed, or a mean: run as fixed at the mean),
// and any prompt sharing is stated in numbers. What each source leaves unstated takes its engine's default:
//   vLLM (V1): chunked prefill and prefix caching on, block 16, KV pool 0.9 x memory - weights;
//   TensorRT-LLM, in-flight batching: trtllm-build's max_batch_size 2048 and max_num_tokens 8192, chunked context
//     off, 64-token blocks, KV pool 0.9 of the memory the weights leave free;
//   TensorRT-LLM, static batching (gptSessionBenchmark): one batch of batch_size requests, prefilled in one step;
//   KV unstated: 16-bit (vLLM's kv_cache_dtype auto); arrivals at a stated rate but unstated process: Poisson.
// Hardware facts beside the presets: FP8 weights on an H100 run on its FP8 tensor cores, 1,979 TFLOP/s dense
// (NVIDIA H100 datasheet: 3,958 with sparsity); an A100's NVLink moves 300 GB/s each way (datasheet: 600 GB/s).
// Compared figures (Target): TTFT (mean, else median), TPOT (mean, else median) or else ITL mean, E2E (mean, else
// median) and output tokens/s. A saturated point (completed rate under 95 % of the offered rate) simulated with
// fewer requests than the source sent keeps only its throughput: its latencies grow with the request count.
#include <cstdint>
#include <string>
#include <vector>

#include "llm/measured_points.h"
#include "llm/serving_calibration.h"

namespace sl::llm {

/// Why a point is not simulated (the validation table's `exclusion` codes).
/// Moe: a mixture-of-experts model (its experts are not mapped onto the step model yet), checked before the others.
enum class Exclusion { None = 0, Gpu = 1, Lengths = 2, PrefixUnquantified = 3, Precision = 4, Pipeline = 5, Engine = 6, Moe = 7 };

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

/// The knobs every page cell starts from (GpuSpec's defaults): efficiency 0.4, bandwidth efficiency 1, layer and
/// dispatch taxes 0.01 ms.
StepKnobs page_default_knobs();

/// The source files' order (measured_points()), as the table's `source` codes: index of a point's source.
std::int64_t source_code(const MeasuredPoint& point);

}  // namespace sl::llm
