#include "llm/calibration/validation_points.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/units.h"
#include "llm/engine/step_model.h"
#include "llm/model/model_architecture.h"

namespace sl::llm {
namespace {

constexpr double kSaturatedFrac = 0.95;           // completed / offered rate below this: the queue grew
constexpr double kQueuedTtftRatio = 1.5;          // mean TTFT over its median above this: long waits
constexpr double kMaxFailedFrac = 0.01;           // failed / sent above this: the figures count only the survivors
// A time-free point (a burst, a closed loop) is simulated once and re-timed exactly (serving_calibration.h), a
// Poisson point about 15 times in a calibration: the former may hold this many times as many requests.
constexpr std::int64_t kTimeFreeCapFactor = 4;
// Engine defaults for what a source leaves unstated (the header says where each comes from).
constexpr double kVllmMemoryFrac = 0.9;
constexpr double kTrtFreeMemoryFrac = 0.9;
constexpr std::int64_t kTrtMaxBatchSize = 2048, kTrtMaxNumTokens = 8192, kTrtBlockSize = 64;
constexpr std::int64_t kVllmBlockSize = 16;

/// Bytes of one element at a precision the step model takes (16-, 8- and 4-bit), or 0.
double bytes_of(const std::string& precision) {
  if (precision == "fp16" || precision == "bf16") return 2.0;
  if (precision == "fp8" || precision == "int8") return 1.0;
  if (precision == "fp4") return 0.5;
  return 0.0;
}

/// The architecture the point's model block gives, when every field the counts need is stated and consistent.
std::optional<ModelArchitecture> architecture_of(const MeasuredPoint& m) {
  for (const std::int64_t x : {m.hidden_size, m.intermediate_size, m.vocab_size, m.num_experts, m.experts_per_token,
                               m.moe_intermediate_size, m.num_shared_experts})
    if (x < 0) return std::nullopt;
  if (m.tie_embeddings < 0) return std::nullopt;
  ModelArchitecture a = with_experts(dense_decoder(m.model_name, m.hidden_size, m.intermediate_size, m.layers, m.heads,
                                                   m.kv_heads, m.head_dim, m.vocab_size),
                                     m.num_experts, m.experts_per_token, m.moe_intermediate_size);
  a.tie_embeddings = m.tie_embeddings == 1;
  a.num_shared_experts = m.num_shared_experts;
  if (check_architecture(a)) return std::nullopt;
  return a;
}

/// A mixture of experts' architecture: its preset's, else its model block's, else none.
std::optional<ModelArchitecture> moe_architecture_of(const MeasuredPoint& m) {
  if (const ModelPreset* preset = find_model_preset(m.preset)) return preset->arch;
  return architecture_of(m);
}

/// The peak the point's weights compute at: FP8 and FP4 on the GPU's tensor cores of that precision; FP8 on a GPU
/// without them, and INT8, as 16-bit (weight-only quantisation); 0 for FP4 on a GPU without FP4 tensor cores.
double peak_flop_per_s_of(const GpuSpec& gpu, const std::string& weights) {
  if (weights == "fp8" && gpu.peak_fp8_flop_per_s > 0) return gpu.peak_fp8_flop_per_s;
  if (weights == "fp4") return gpu.peak_fp4_flop_per_s;
  return gpu.peak_flop_per_s;
}

/// Why the point cannot be simulated, or None.
Exclusion exclusion_of(const MeasuredPoint& m) {
  if (m.is_moe() && !moe_architecture_of(m)) return Exclusion::Moe;
  const GpuPreset* gpu = gpu_preset_of(m.gpu_sku);
  if (gpu == nullptr) return Exclusion::Gpu;
  if (bytes_of(m.weights) == 0 || (!m.kv.empty() && bytes_of(m.kv) == 0)) return Exclusion::Precision;
  if (peak_flop_per_s_of(gpu->spec, m.weights) == 0) return Exclusion::Precision;
  if (m.pp != 1) return Exclusion::Pipeline;
  if (m.input_mean < 1 || m.output_mean < 1) return Exclusion::Lengths;
  if (m.has_shared_prefix == 1 && m.reuse_distinct_prompts == 0) return Exclusion::PrefixUnquantified;
  const double failed = m.value("failed_requests"), completed = m.value("completed_requests");
  if (failed > 0 && completed >= 0 && failed > kMaxFailedFrac * (failed + completed)) return Exclusion::Failures;
  return Exclusion::None;
}

/// A dense model from its total count (as the points were first mapped); a mixture of experts from its
/// architecture, whose counts split the experts from the rest.
ModelSpec model_of(const MeasuredPoint& m) {
  const double bytes_per_weight = bytes_of(m.weights), bytes_per_kv = m.kv.empty() ? 2.0 : bytes_of(m.kv);
  if (m.is_moe()) {
    ModelSpec model = model_spec_of(*moe_architecture_of(m), bytes_per_weight, bytes_per_kv);
    model.name = m.model_name;
    return model;
  }
  ModelSpec model;
  model.name = m.model_name;
  model.params = std::llround(m.params_b * 1e9);
  model.num_layers = m.layers;
  model.num_heads = m.heads;
  model.num_kv_heads = m.kv_heads;
  model.head_dim = m.head_dim;
  model.bytes_per_weight = bytes_per_weight;
  model.bytes_per_kv = bytes_per_kv;
  if (m.vocab_size > 0 && m.hidden_size > 0 && m.tie_embeddings >= 0) {  // for the LM head and embedding mechanism
    model.embedding_params = m.vocab_size * m.hidden_size;
    model.tied_embeddings = m.tie_embeddings == 1;
  }
  return model;
}

GpuSpec gpu_spec_of(const MeasuredPoint& m) {
  GpuSpec g = gpu_preset_of(m.gpu_sku)->spec;
  g.peak_flop_per_s = peak_flop_per_s_of(g, m.weights);
  g.low_precision_peak = g.peak_flop_per_s != gpu_preset_of(m.gpu_sku)->spec.peak_flop_per_s;
  return g;
}

/// The engine as the source ran it, its unstated knobs at their engine's defaults; 0 blocks if it cannot hold one
/// request.
EngineConfig config_of(const MeasuredPoint& m, std::int64_t prompt_tokens, std::int64_t output_tokens) {
  EngineConfig c;
  c.model = model_of(m);
  c.gpu = gpu_spec_of(m);
  c.tp.size = m.tp;
  if (c.gpu.link_bytes_per_s > 0) c.tp.link_bytes_per_s = c.gpu.link_bytes_per_s;
  const bool is_trt = m.engine == "tensorrt-llm", is_static = m.arrival == "static_batch";
  SchedulerConfig& s = c.scheduler;
  const std::int64_t longest = prompt_tokens + output_tokens;
  if (is_static) {  // one batch, prefilled together, then decoded together
    s.max_num_seqs = m.batch_size;
    s.max_num_batched_tokens = m.batch_size * prompt_tokens;
    s.enable_chunked_prefill = false;
  } else {
    s.max_num_seqs = m.max_num_seqs > 0 ? m.max_num_seqs : is_trt ? kTrtMaxBatchSize : 256;
    s.max_num_batched_tokens = m.max_num_batched_tokens > 0 ? m.max_num_batched_tokens : is_trt ? kTrtMaxNumTokens : 8192;
    s.enable_chunked_prefill = m.chunked_prefill >= 0 ? m.chunked_prefill == 1 : !is_trt;
    if (!s.enable_chunked_prefill) s.max_num_batched_tokens = std::max(s.max_num_batched_tokens, longest);
  }
  // The mechanisms every real server has (step_time.h; llm/validation's ablation turns each off): kernels launch
  // layer by layer in every step; vLLM replays CUDA graphs padded to their capture sizes (TensorRT-LLM's C++ runtime
  // runs its engines without them by default); neither overlaps its host work with the GPU by default (vLLM V1's
  // --async-scheduling is opt-in). The host and request times are fitted knobs.
  real_server_mechanisms(!is_trt, c.gpu, c.tp);
  c.kv_cache.enable_caching = m.prefix_caching >= 0 ? m.prefix_caching == 1 : !is_trt;
  c.kv_cache.block_size = m.block_size > 0 ? m.block_size : is_trt ? kTrtBlockSize : kVllmBlockSize;
  const double memory = static_cast<double>(c.gpu.memory_bytes);
  const double weights = c.tp.weight_bytes_per_gpu(c.model);
  double pool_bytes = 0;
  if (is_static) pool_bytes = memory - weights;  // the session allocates what its batch needs
  else if (is_trt) pool_bytes = kTrtFreeMemoryFrac * (memory - weights);
  else pool_bytes = (m.gpu_memory_utilization > 0 ? m.gpu_memory_utilization : kVllmMemoryFrac) * memory - weights;
  const auto tokens = static_cast<std::int64_t>(std::floor(std::max(0.0, pool_bytes) / c.tp.kv_bytes_per_token_per_gpu(c.model)));
  c.kv_cache.num_blocks = tokens / c.kv_cache.block_size;
  if (c.kv_cache.num_blocks * c.kv_cache.block_size < longest) c.kv_cache.num_blocks = 0;
  return c;
}

/// The targets a point's measurements give, each with its key.
void add_targets(const MeasuredPoint& m, bool with_latency, ValidationPoint& v) {
  const auto add = [&](Metric metric, std::initializer_list<std::pair<const char*, Stat>> keys, double to_base) {
    for (const auto& [key, stat] : keys) {
      const double x = m.value(key);
      if (x <= 0) continue;
      v.serving.targets.push_back({metric, stat, x * to_base});
      v.keys.emplace_back(key);
      return true;
    }
    return false;
  };
  const double per_ms = 1.0 / units::kMsPerS;
  if (with_latency) {
    add(Metric::Ttft, {{"ttft_mean_ms", Stat::Mean}, {"ttft_p50_ms", Stat::P50}}, per_ms);
    if (!add(Metric::Tpot, {{"tpot_p50_ms", Stat::P50}, {"tpot_mean_ms", Stat::Mean}}, per_ms))
      add(Metric::Itl, {{"itl_mean_ms", Stat::Mean}}, per_ms);
    add(Metric::E2e, {{"e2e_mean_s", Stat::Mean}, {"e2e_p50_s", Stat::P50}}, 1.0);
    add(Metric::E2e, {{"e2e_p99_s", Stat::P99}}, 1.0);
  }
  add(Metric::Throughput, {{"output_tok_per_s", Stat::Mean}}, 1.0);
}

ValidationPoint map_point(std::int64_t index, const MeasuredPoint& m, std::int64_t max_requests) {
  ValidationPoint v;
  v.index = index;
  v.exclusion = exclusion_of(m);
  if (v.exclusion != Exclusion::None) return v;
  WorkloadRecipe& w = v.serving.workload;
  w.prompt_tokens = std::llround(m.input_mean);
  // With EOS ignored the server generated max_tokens for every request, whatever the client counted.
  const bool exact_output = m.ignore_eos == 1 && m.max_tokens > 0;
  w.output_tokens = exact_output ? m.max_tokens : std::llround(m.output_mean);
  if (m.reuse_distinct_prompts > 0) {
    w.reuse = {m.reuse_distinct_prompts, m.reuse_groups, m.reuse_system_prompt_tokens};
    w.num_warmup = m.reuse_distinct_prompts;  // the benchmark's first pass over its prompts: a small share of it
  }
  const bool is_static = m.arrival == "static_batch";
  const bool is_timed = m.arrival == "poisson" || m.arrival == "rate_process_unstated";
  w.num_requests = is_static ? m.batch_size : std::min(m.num_prompts, is_timed ? max_requests : kTimeFreeCapFactor * max_requests);
  if (is_timed) {
    w.arrival = Arrival::Poisson;
    w.rate_per_s = m.rate_per_s;
    v.arrival = m.arrival == "poisson" ? ArrivalCode::Poisson : ArrivalCode::RateAssumedPoisson;
  } else if (m.arrival == "closed") {
    w.arrival = Arrival::ClosedLoop;
    w.concurrency = m.max_concurrency;
    v.arrival = ArrivalCode::ClosedLoop;
  } else {
    w.arrival = Arrival::Burst;
    v.arrival = is_static ? ArrivalCode::StaticBatch : ArrivalCode::Burst;
  }
  v.serving.config = config_of(m, w.prompt_tokens, w.output_tokens);
  // A static batch is timed inside the process (gptSessionBenchmark), as are LLMServingSim's engine timestamps: no
  // request path outside the engine.
  v.serving.client_timed = !is_static && m.source != "llmservingsim-bench-examples";
  if (v.serving.config.kv_cache.num_blocks == 0) {
    v.exclusion = Exclusion::Precision;  // the weights leave no room for one request at this precision
    return v;
  }
  // The source's queue grew: requests completed slower than they came, or rare long waits pulled the mean TTFT
  // far above its median.
  const double completed_per_s = m.value("req_per_s"), ttft_mean = m.value("ttft_mean_ms"), ttft_p50 = m.value("ttft_p50_ms");
  const bool saturated = w.arrival == Arrival::Poisson &&
                         ((completed_per_s > 0 && completed_per_s < kSaturatedFrac * m.rate_per_s) ||
                          (ttft_mean > 0 && ttft_p50 > 0 && ttft_mean > kQueuedTtftRatio * ttft_p50));
  v.dropped_latency = saturated && w.num_requests < m.num_prompts;
  add_targets(m, !v.dropped_latency, v);
  if (exact_output)
    for (Target& t : v.serving.targets) t.client_tokens_per_token = m.output_mean / static_cast<double>(m.max_tokens);
  if (w.arrival == Arrival::Poisson && w.num_requests < m.num_prompts)
    for (Target& t : v.serving.targets)
      if (t.metric == Metric::Throughput) t.count_scale = static_cast<double>(m.num_prompts) / static_cast<double>(w.num_requests);
  return v;
}

bool takes(EngineFilter filter, const MeasuredPoint& m) {
  if (filter == EngineFilter::Vllm) return m.engine == "vllm";
  if (filter == EngineFilter::TensorRtLlm) return m.engine == "tensorrt-llm";
  return true;
}

}  // namespace

std::vector<ValidationPoint> validation_points(std::int64_t max_requests, EngineFilter filter) {
  std::vector<ValidationPoint> points;
  const std::vector<MeasuredPoint>& all = measured_points();
  for (std::size_t i = 0; i < all.size(); ++i) {
    if (!takes(filter, all[i])) {
      ValidationPoint v;
      v.index = static_cast<std::int64_t>(i);
      v.exclusion = Exclusion::Engine;
      points.push_back(std::move(v));
      continue;
    }
    points.push_back(map_point(static_cast<std::int64_t>(i), all[i], max_requests));
  }
  return points;
}

const GpuPreset* gpu_preset_of(const std::string& sku) {
  // (family, a word that picks a variant or "", preset), the first match wins.
  static const char* const kRules[][3] = {{"H100", "PCIe", "h100-pcie"}, {"H100", "", "h100"}, {"A100", "40GB", "a100-40gb"},
                                          {"A100", "", "a100"},           {"H200", "", "h200"},  {"B200", "", "b200"},
                                          {"L40S", "", "l40s"},           {"MI300X", "", "mi300x"}, {"MI325X", "", "mi325x"}};
  const std::string head = " " + sku.substr(0, sku.find(" (")) + " ";
  for (const auto& [family, variant, id] : kRules)
    if (head.find(" " + std::string(family) + " ") != std::string::npos &&
        (*variant == '\0' || head.find(variant) != std::string::npos))
      return find_gpu_preset(id);
  return nullptr;
}

StepKnobs book_knobs() { return knobs_of(GpuSpec{}); }

std::int64_t source_code(const MeasuredPoint& point) {
  std::int64_t code = -1;
  std::string last;
  for (const MeasuredPoint& p : measured_points()) {
    if (p.source != last) ++code, last = p.source;
    if (p.source == point.source) return code;
  }
  return -1;
}

}  // namespace sl::llm
