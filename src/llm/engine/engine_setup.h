#pragma once
// The hardware the serving engine runs on, as the analytic llm cells describe it (model_inputs.h: a model preset
// or a custom one, weight and KV precision, a GPU preset or a custom one, compute efficiency and taxes), plus
// what only a server has: the achieved share of HBM bandwidth, the share of GPU memory the server may use, and
// tensor parallelism over TP GPUs (step_time.h). The KV pool of each GPU (kv_pool) is a stated reserve (reserve:
// the book's 72 GiB of an H100's 80 GiB, §21), or, as vLLM sizes it, all that is left of mem_util_frac x memory
// after the GPU's share of the weights and an activation reserve (fill); it holds floor(pool / KV bytes per token
// per GPU) tokens, cut into blocks. Or the pool is stated as vLLM's start-up log reports it: in blocks (blocks,
// num_gpu_blocks: --num-gpu-blocks-override, the log's "# GPU blocks") or in tokens (tokens, kv_tokens: "GPU KV
// cache size: N tokens"), N tokens making floor(N / block_size) blocks.
#include <cstdint>
#include <string>
#include <vector>

#include "core/cell.h"
#include "core/units.h"
#include "llm/engine/engine.h"
#include "llm/model/model_inputs.h"
#include "llm/engine/scheduler.h"
#include "llm/engine/step_model.h"
#include "llm/model/step_time.h"

namespace sl::llm {

struct EngineHardware : ModelAndGpu {
  TensorParallel tp;
  double kv_bytes_per_token_per_gpu = 0;
  double kv_pool_bytes_per_gpu = 0;
  std::int64_t pool_tokens = 0;  ///< floor(KV pool per GPU / KV bytes per token per GPU)
  std::int64_t block_size = 16;
  std::int64_t num_blocks = 0;   ///< floor(pool_tokens / block_size)
  StepModelChoice step_model;    ///< where the step-time terms came from (step_model.h)
};

/// Parameters: model_params(llama3-8b), gpu_params(h100) but for its step-time terms, mem_util_frac, kv_pool
/// (reserve | fill | blocks | tokens), kv_gib, activation_gib, num_gpu_blocks, kv_tokens, block_size,
/// tensor_parallel_size, expert_parallel (off | on: an MoE's experts placed whole over the GPUs, vLLM's
/// --enable-expert-parallel; step_time.h), link_gb_per_s, link_latency_us, then add_step_model_params's (step_model.h:
/// step_model, and the terms and mechanisms it takes when custom, gpu_params' among them). activation_gib (fill, default 0) is what vLLM's profiler
/// measures before it sizes the cache (determine_available_memory): the peak activation memory of a dummy forward
/// pass of max_num_batched_tokens tokens, plus memory outside PyTorch's allocator (NCCL and cuBLAS buffers),
/// subtracted with the weights from gpu_memory_utilization x memory. num_gpu_blocks and kv_tokens default to the reserve's 36,864 blocks and
/// 589,824 tokens (Llama-3-8B, FP16 KV, 72 GiB).
std::vector<ParamSpec> engine_hardware_params();


/// Checked hardware. Errors: heads or KV heads that do not split over the GPUs ("invalid",
/// tensor_parallel_size); weights that leave no room ("too_large", weights); an activation reserve that leaves no
/// KV room ("too_large", activation_gib); a reserve, blocks or tokens beyond mem_util_frac x memory minus the
/// weights ("too_large", kv_gib, num_gpu_blocks or kv_tokens); a pool of more than 2^24 blocks ("too_large") or
/// shorter than `min_tokens` ("invalid", naming `shorten`), both naming the param that sized the pool: kv_gib,
/// mem_util_frac (fill), num_gpu_blocks or kv_tokens.
Result<EngineHardware> validate_engine_hardware(const Inputs& in, std::int64_t min_tokens, const std::string& shorten);

/// What every engine cell reports of its hardware, in this order: the notices of ignored custom fields (the
/// model's, then the GPU's), the notice of where the step-time terms came from (note_step_model), and the model's
/// outputs (add_model_outputs).
void add_hardware_outputs(const EngineHardware& hw, RunResult& result);

/// Mean tokens a request of `workload` holds when it finishes: prompt + max_tokens, averaged over its requests
/// (0 for none).
double mean_request_tokens(const Workload& workload);

/// Requests the KV pool holds at once, as vLLM's start-up log reports its "Maximum concurrency": pool tokens /
/// tokens per request. vLLM divides by max_model_len (the worst case); the cells divide by their workload's
/// mean_request_tokens (the book's 589,824 tokens / 1,256 = 469.6 requests of 1,000 + 256 tokens each).
double max_concurrency(std::int64_t pool_tokens, double tokens_per_request);

/// The scheduler's knobs, as vLLM names them, and the server's queue cap.
struct SchedulerInputs {
  SchedulerConfig scheduler;
  std::int64_t max_waiting = 0;  ///< arrivals beyond this many waiting are turned away
};

/// Parameters: scheduling_policy, max_num_seqs, max_num_batched_tokens, chunked_prefill,
/// long_prefill_token_threshold, max_waiting.
std::vector<ParamSpec> scheduler_params();

/// Checked scheduler knobs. Errors: a long-prefill cap without chunked prefill ("invalid",
/// long_prefill_token_threshold); a token budget below max_model_len without chunked prefill, or below max_num_seqs
/// ("invalid", max_num_batched_tokens).
Result<SchedulerInputs> validate_scheduler(const Inputs& in, std::int64_t max_model_len);

/// A server as the engine cells declare it: engine_hardware_params and scheduler_params, checked for requests of up
/// to max_model_len tokens (a KV pool shorter than that is "invalid", naming max_model_len).
struct ServerInputs {
  EngineHardware hw;
  SchedulerInputs scheduler;
};
Result<ServerInputs> validate_server(const Inputs& in, std::int64_t max_model_len);

/// An engine on this hardware under these scheduler knobs: the model, GPU, tensor parallelism and KV pool of
/// `hw`, the scheduler and max_waiting of `s`; prefix caching on (vLLM's default), everything else EngineConfig's.
EngineConfig engine_config(const EngineHardware& hw, const SchedulerInputs& s);

/// What a server costs: each GPU's hourly price and the power model (power_model.h).
struct ServingEconomics {
  double price_usd_per_h = 3.0;  ///< per GPU (§21: an H100 SXM at about $3/h)
  double gpu_w = 700, idle_w = 300, host_w = 300;  ///< napkin math 1.5
  /// GPU-hours per million output tokens x price, for `num_gpus` GPUs delivering tok_per_s.
  double usd_per_m_tokens(double num_gpus, double tok_per_s) const {
    return num_gpus * price_usd_per_h / units::kSPerHour / tok_per_s * 1e6;
  }
  /// Average power of a server of `num_gpus` GPUs busy util_frac of the time (server_power_w).
  double power_w(double util_frac, double num_gpus) const;
};

/// Parameters: price_usd_per_h, gpu_w, idle_w, host_w.
std::vector<ParamSpec> economics_params();

/// Checked economics: idle_w must not exceed gpu_w ("invalid", idle_w).
Result<ServingEconomics> validate_economics(const Inputs& in);

}  // namespace sl::llm
