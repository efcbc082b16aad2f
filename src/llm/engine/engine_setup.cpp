#include "llm/engine/engine_setup.h"

#include <cmath>
#include <optional>

#include "core/units.h"
#include "llm/model/power_model.h"

namespace sl::llm {

using units::kGiB;

std::vector<ParamSpec> engine_hardware_params() {
  std::vector<ParamSpec> params = model_and_gpu_params();
  const std::vector<ParamSpec> rest = {
      real("mem_util_frac", "", 1, 0.01, 1),
      choice("kv_pool", {"reserve", "fill", "blocks", "tokens"}, "reserve"),
      used_when(real("kv_gib", "GiB", 72, 0.001, 1024), "kv_pool", {"reserve"}),
      used_when(real("activation_gib", "GiB", 0, 0, 1024), "kv_pool", {"fill"}),
      used_when(count("num_gpu_blocks", "blocks", 36'864, 1, 1 << 24), "kv_pool", {"blocks"}),
      used_when(count("kv_tokens", "tokens", 589'824, 1, 1e10), "kv_pool", {"tokens"}),
      count("block_size", "tokens", 16, 1, 1024),
      count("tensor_parallel_size", "GPUs", 1, 1, 64),
      choice("expert_parallel", {"off", "on"}, "off"),
      real("link_gb_per_s", "GB/s", 450, 0.001, 1e5), real("link_latency_us", "µs", 5, 0, 1e5)};
  params.insert(params.end(), rest.begin(), rest.end());
  add_step_model_params(params);  // the GPU's step-time terms move under step_model
  return params;
}

namespace {

Error split_error(const std::string& what, std::int64_t heads, std::int64_t tp, const std::string& problem) {
  return Error{"invalid", "tensor_parallel_size",
               "tensor_parallel_size = " + std::to_string(tp) + " must " + what + " (" + std::to_string(heads) + ")",
               {{"got", std::to_string(tp)}, {"problem", problem}, {"heads", std::to_string(heads)}}};
}

/// The KV pool of one GPU as the inputs size it, and the parameter that sized it (named by the pool's errors).
struct KvPoolSize {
  double kv_gib = 0;             ///< KV bytes per GPU / 2^30
  std::int64_t pool_tokens = 0;  ///< tokens it holds
  std::string param;             ///< kv_gib (reserve), mem_util_frac (fill), num_gpu_blocks or kv_tokens
  double got = 0;                ///< that parameter's value, in `unit`, for the limit errors
  std::string unit;
};

/// An error when a pool of `kv_gib` does not fit the `room_gib` beside the weights: "too_large", naming the param
/// that sized it, in its own unit (its largest value that fits is `max`).
Error pool_too_large(const KvPoolSize& size, double max, const std::string& context) {
  return too_large(size.param, size.got, max, size.unit, "the KV cache of each GPU " + context);
}

/// The pool the `kv_pool` choice asks for (engine_setup.h): a stated reserve, vLLM's fill of the memory left
/// after the weights and an activation reserve, or vLLM's overrides of its profile, --num-gpu-blocks-override and
/// a KV cache size in tokens. Errors: a pool beyond the room beside the weights ("too_large", naming kv_gib,
/// num_gpu_blocks or kv_tokens), an activation reserve that leaves none ("too_large", activation_gib).
Result<KvPoolSize> validate_kv_pool(const Inputs& in, const EngineHardware& hw, double room_gib, double weights_gb,
                                double usable_gib) {
  const std::string& mode = in.choice("kv_pool");
  const double per_token = hw.kv_bytes_per_token_per_gpu;
  const std::string context = "beside its " + format_number(weights_gb) + " GB share of the " + hw.model.name +
                              " weights (" + format_number(usable_gib) + " GiB usable on the " + hw.gpu.name + ")";
  KvPoolSize size;
  if (mode == "fill") {
    const double activation_gib = in.real("activation_gib");
    if (activation_gib >= room_gib)
      return too_large("activation_gib", activation_gib, std::floor(room_gib * 100) / 100, "GiB",
                       "the activation reserve, which must leave room for the KV cache " + context);
    size = {room_gib - activation_gib, 0, "mem_util_frac", 0, "GiB"};
    size.got = size.kv_gib;
  } else if (mode == "reserve") {
    size = {in.real("kv_gib"), 0, "kv_gib", 0, "GiB"};
    size.got = size.kv_gib;
    if (size.kv_gib > room_gib) return pool_too_large(size, std::floor(room_gib * 100) / 100, context);
  } else {
    const bool is_blocks = mode == "blocks";
    const std::int64_t tokens =
        is_blocks ? in.count("num_gpu_blocks") * hw.block_size : in.count("kv_tokens");
    const double unit_tokens = is_blocks ? static_cast<double>(hw.block_size) : 1.0;
    size = {static_cast<double>(tokens) * per_token / kGiB, tokens, is_blocks ? "num_gpu_blocks" : "kv_tokens",
            static_cast<double>(tokens) / unit_tokens, is_blocks ? "blocks" : "tokens"};
    if (size.kv_gib > room_gib)
      return pool_too_large(size, std::floor(room_gib * kGiB / per_token / unit_tokens), context);
    return size;
  }
  size.pool_tokens = static_cast<std::int64_t>(std::floor(size.kv_gib * kGiB / per_token));
  return size;
}

/// The simulator's limits on a pool, whatever sized it: at most 2^24 blocks ("too_large") and room for the longest
/// request in whole blocks ("invalid", naming `shorten` too), both naming the param that sized the pool.
std::optional<Error> check_pool_limits(const EngineHardware& hw, const KvPoolSize& size, std::int64_t min_tokens,
                                       const std::string& shorten) {
  // The block pool keeps ~20 B per block (block_pool.h); 2^24 blocks is 320 MiB, and BlockId is 32-bit.
  constexpr std::int64_t kMaxBlocks = std::int64_t{1} << 24;
  const double max_tokens = static_cast<double>(kMaxBlocks * hw.block_size);
  const double max_in_unit = size.unit == "GiB"      ? max_tokens * hw.kv_bytes_per_token_per_gpu / kGiB
                             : size.unit == "blocks" ? static_cast<double>(kMaxBlocks)
                                                     : max_tokens;
  if (hw.num_blocks > kMaxBlocks)
    return too_large(size.param, size.got, max_in_unit, size.unit,
                     "the KV pool (" + std::to_string(hw.num_blocks) + " blocks of " + std::to_string(hw.block_size) +
                         " tokens; at most " + std::to_string(kMaxBlocks) + " blocks are simulated)");
  if (hw.num_blocks * hw.block_size < min_tokens)
    return Error{"invalid", size.param,
                 "a KV pool of " + format_number(size.kv_gib) + " GiB per GPU holds " +
                     std::to_string(hw.num_blocks * hw.block_size) + " tokens in whole blocks, fewer than the " +
                     std::to_string(min_tokens) + " tokens the longest request needs; raise " + size.param +
                     " or shorten " + shorten,
                 {{"min", std::to_string(min_tokens)}, {"unit", "tokens"}, {"got", format_number(size.got)}, {"problem", "gpu_pool_below_request"},
                  {"pool_gib", format_number(size.kv_gib)}, {"tokens", std::to_string(hw.num_blocks * hw.block_size)}}};
  return std::nullopt;
}

}  // namespace

Result<EngineHardware> validate_engine_hardware(const Inputs& in, std::int64_t min_tokens, const std::string& shorten) {
  auto choices = validate_model_and_gpu(in);
  if (!choices.ok()) return choices.error();
  EngineHardware hw{choices.value()};
  hw.tp.size = in.count("tensor_parallel_size");
  hw.tp.link_bytes_per_s = in.real("link_gb_per_s") * units::kGB;
  hw.tp.link_latency_s = in.real("link_latency_us") / units::kUsPerS;
  hw.tp.expert_parallel = in.choice("expert_parallel") == "on";  // a dense model has no experts to place
  hw.step_model = validate_step_model(in, hw.gpu, hw.tp);  // the terms, the mechanisms and the all-reduce
  hw.block_size = in.count("block_size");
  const std::int64_t tp = hw.tp.size;
  // vLLM's rules: the query heads split evenly; KV heads split evenly or are replicated evenly.
  if (hw.model.num_heads % tp != 0) return split_error("divide the query heads", hw.model.num_heads, tp, "tp_query_heads");
  if (hw.model.num_kv_heads % tp != 0 && tp % hw.model.num_kv_heads != 0)
    return split_error("divide the KV heads or be a multiple of them", hw.model.num_kv_heads, tp, "tp_kv_heads");

  const double usable = in.real("mem_util_frac") * static_cast<double>(hw.gpu.memory_bytes);
  const double weights = hw.tp.weight_bytes_per_gpu(hw.model);
  if (weights >= usable)
    return too_large("weights", weights / units::kGB, usable / units::kGB, "GB",
                     "the weights each GPU holds (" + hw.model.name + " over " + std::to_string(tp) +
                         " GPU(s), within mem_util_frac x GPU memory; use more GPUs, a lower precision or a larger GPU)");
  hw.kv_bytes_per_token_per_gpu = hw.tp.kv_bytes_per_token_per_gpu(hw.model);
  auto pool = validate_kv_pool(in, hw, (usable - weights) / kGiB, weights / units::kGB, usable / kGiB);
  if (!pool.ok()) return pool.error();
  const KvPoolSize& size = pool.value();
  hw.kv_pool_bytes_per_gpu = size.kv_gib * kGiB;
  hw.pool_tokens = size.pool_tokens;
  hw.num_blocks = hw.pool_tokens / hw.block_size;
  if (auto e = check_pool_limits(hw, size, min_tokens, shorten)) return *e;
  return hw;
}

void add_hardware_outputs(const EngineHardware& hw, RunResult& result) {
  note_ignored_custom_fields(hw, result);
  note_step_model(hw.step_model, hw.gpu.name, result);
  add_model_outputs(hw.model, result);
}

double mean_request_tokens(const Workload& workload) {
  if (workload.requests.empty()) return 0;
  double sum = 0;
  for (const Request& r : workload.requests) sum += static_cast<double>(r.num_prompt_tokens + r.max_tokens);
  return sum / static_cast<double>(workload.requests.size());
}

double max_concurrency(std::int64_t pool_tokens, double tokens_per_request) {
  return tokens_per_request > 0 ? static_cast<double>(pool_tokens) / tokens_per_request : 0.0;
}

}  // namespace sl::llm

namespace sl::llm {
namespace {

SchedulingPolicy policy_of(const std::string& name) {
  if (name == "priority") return SchedulingPolicy::Priority;
  if (name == "shortest-prompt") return SchedulingPolicy::ShortestPromptFirst;
  return SchedulingPolicy::Fcfs;
}

}  // namespace

std::vector<ParamSpec> scheduler_params() {
  return {choice("scheduling_policy", {"fcfs", "priority", "shortest-prompt"}, "fcfs"),
          count("max_num_seqs", "requests", 256, 1, 4096),
          aliased(count("max_num_batched_tokens", "tokens", 8192, 1, 1 << 20), {"max_batched_tokens"}),
          choice("chunked_prefill", {"on", "off"}, "on"),
          count("long_prefill_token_threshold", "tokens", 0, 0, 1 << 20),
          count("max_waiting", "requests", 100'000, 1, 100'000)};
}

Result<SchedulerInputs> validate_scheduler(const Inputs& in, std::int64_t max_model_len) {
  SchedulerInputs s;
  SchedulerConfig& c = s.scheduler;
  c.policy = policy_of(in.choice("scheduling_policy"));
  c.max_num_seqs = in.count("max_num_seqs");
  c.max_num_batched_tokens = in.count("max_num_batched_tokens");
  c.enable_chunked_prefill = in.choice("chunked_prefill") == "on";
  c.long_prefill_token_threshold = in.count("long_prefill_token_threshold");
  s.max_waiting = in.count("max_waiting");
  if (c.long_prefill_token_threshold > 0 && !c.enable_chunked_prefill)
    return Error{"invalid", "long_prefill_token_threshold",
                 "long_prefill_token_threshold caps the chunks of chunked prefill: it needs chunked_prefill = on "
                 "(or 0 for no cap), got " + std::to_string(c.long_prefill_token_threshold) + " tokens",
                 {{"got", std::to_string(c.long_prefill_token_threshold)}, {"problem", "needs_chunked_prefill"},
                  {"other", "chunked_prefill"}}};
  const std::int64_t budget = c.max_num_batched_tokens;
  if (!c.enable_chunked_prefill && budget < max_model_len)
    return Error{"invalid", "max_num_batched_tokens",
                 "without chunked prefill a whole prompt must fit one step: max_num_batched_tokens must be at least "
                 "max_model_len = " + std::to_string(max_model_len) + " tokens, got " + std::to_string(budget),
                 {{"min", std::to_string(max_model_len)}, {"unit", "tokens"}, {"got", std::to_string(budget)}, {"problem", "whole_prompt_step"},
                  {"other", "max_model_len"}}};
  if (budget < c.max_num_seqs)
    return Error{"invalid", "max_num_batched_tokens",
                 "max_num_batched_tokens must be at least max_num_seqs = " + std::to_string(c.max_num_seqs) +
                     " (one token per running sequence), got " + std::to_string(budget),
                 {{"min", std::to_string(c.max_num_seqs)}, {"unit", "tokens"}, {"got", std::to_string(budget)}, {"problem", "token_per_sequence"},
                  {"other", "max_num_seqs"}}};
  return s;
}

Result<ServerInputs> validate_server(const Inputs& in, std::int64_t max_model_len) {
  auto hw = validate_engine_hardware(in, max_model_len, "max_model_len");
  if (!hw.ok()) return hw.error();
  auto scheduler = validate_scheduler(in, max_model_len);
  if (!scheduler.ok()) return scheduler.error();
  return ServerInputs{hw.value(), scheduler.value()};
}

EngineConfig engine_config(const EngineHardware& hw, const SchedulerInputs& s) {
  return EngineConfig{hw.model, hw.gpu, hw.tp, s.scheduler, {hw.num_blocks, hw.block_size}, s.max_waiting};
}

double ServingEconomics::power_w(double util_frac, double num_gpus) const {
  return server_power_w(gpu_w, idle_w, host_w, util_frac, num_gpus);
}

std::vector<ParamSpec> economics_params() {
  return {real("price_usd_per_h", "$/h", 3.0, 0, 10'000), real("gpu_w", "W", 700, 0, 100'000),
          real("idle_w", "W", 300, 0, 100'000), real("host_w", "W", 300, 0, 100'000)};
}

Result<ServingEconomics> validate_economics(const Inputs& in) {
  const ServingEconomics e{in.real("price_usd_per_h"), in.real("gpu_w"), in.real("idle_w"), in.real("host_w")};
  if (auto error = check_idle_power(e.gpu_w, e.idle_w)) return *error;
  return e;
}

}  // namespace sl::llm
