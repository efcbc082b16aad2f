// Cell llm/prefix-caching. The simulator's prefix cache (block_pool.h): a full block's hash is chained to its
// parent block's, so a block hits only if every token before it matches too; only full blocks are cached; a
// request's last block is always recomputed; unreferenced cached blocks are evicted least recently freed first.
// Two workloads, each run with the cache on and off:
//   shared prefix — N requests whose prompts start with the same S-token system prompt then U tokens of their
//                   own: the cache saves (N - 1) S prefill tokens when S is a whole number of blocks (§25);
//   conversations — multi-turn chats whose every turn resends the whole history: only new tokens need prefill,
//                   as long as the history is still cached when the user comes back. Hit rate vs cache size.
// Plus the cost of bringing offloaded KV back over PCIe: bytes / bandwidth (§25: 1,256 tokens >= 5.1 ms).
#include <algorithm>
#include <cmath>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "core/units.h"
#include "llm/engine/engine.h"
#include "llm/engine/engine_budget.h"
#include "llm/engine/serving_metrics.h"
#include "llm/engine/serving_setup.h"
#include "llm/simulator_cells.h"

namespace sl::llm {
namespace {

constexpr int kCacheSizes = 12;  // points of the hit-rate-vs-cache-size sweep
constexpr std::int64_t kMaxContextTokens = 131072;  // Llama 3.1's context; longer requests are refused

struct PrefixCachingParams {
  ServingHardware hw;
  OpenLoopParams shared;
  ConversationParams chats;
  SchedulerConfig scheduler;  // vLLM's defaults (max_num_seqs 256, 8,192-token budget, chunked prefill)
  std::int64_t max_model_len = 0;
  std::int64_t unique_tokens = 0;
  std::int64_t request_tokens = 0, long_tokens = 0;
  double pcie_bytes_per_s = 0;
};

/// The shared-prefix workload runs twice (cache on, off) on the whole pool, the conversations twice on it and
/// kCacheSizes times (cache on) on pools from one longest conversation up; the parameter named is the one whose
/// workload costs more (users or chats; a larger block_size helps both).
std::optional<Error> check_budget(const PrefixCachingParams& p) {
  EnginePool pool{p.hw.model, p.hw.gpu, p.hw.num_blocks, p.hw.block_size, p.scheduler, true};
  EngineWork shared = open_loop_work(p.shared, pool);
  EngineWork chats = conversation_work(p.chats, pool);
  pool.caching = false;
  shared += open_loop_work(p.shared, pool);
  chats += conversation_work(p.chats, pool);
  // The cache-size sweep: the smallest pool (one longest conversation) is the slowest; all at its cost.
  pool.caching = true;
  pool.num_blocks = (p.max_model_len + p.hw.block_size - 1) / p.hw.block_size;
  chats += conversation_work(p.chats, pool).times(kCacheSizes);
  EngineWork total = shared;
  total += chats;
  const bool chats_cost_more = chats.work_units() > shared.work_units();
  const EngineWork one_shared = open_loop_work(p.shared, p.hw.block_size);
  const EngineWork one_chats = conversation_work(p.chats, p.hw.block_size);
  const EngineWork& largest = one_chats.bytes() > one_shared.bytes() ? one_chats : one_shared;
  return check_engine_budget(total, largest, chats_cost_more ? "chats" : "users",
                             chats_cost_more ? "the conversations (chats x turns, each turn resending the history)"
                                             : "the shared-prefix requests (users x tokens)");
}

Result<PrefixCachingParams> validate_prefix_caching(const Inputs& in) {
  PrefixCachingParams p;
  OpenLoopParams& s = p.shared;
  s.num_requests = in.count("users");
  s.rate_per_s = in.real("lambda");
  s.shared_prefix_tokens = in.count("prefix_tokens");
  p.unique_tokens = in.count("unique_tokens");
  s.prompt_tokens = Distribution::deterministic(static_cast<double>(p.unique_tokens));
  s.output_tokens = Distribution::deterministic(static_cast<double>(in.count("answer_tokens")));
  s.max_model_len = s.shared_prefix_tokens + in.count("unique_tokens") + in.count("answer_tokens");
  ConversationParams& c = p.chats;
  c.num_conversations = in.count("chats");
  c.num_turns = in.count("turns");
  c.rate_per_s = in.real("chat_per_s");
  c.system_prompt_tokens = s.shared_prefix_tokens;
  c.user_tokens = in.count("user_tokens");
  c.answer_tokens = in.count("answer_tokens");
  c.think_s = in.real("think_s");
  p.max_model_len = std::max(s.max_model_len, conversation_max_tokens(c));
  p.request_tokens = in.count("request_tokens");
  p.long_tokens = in.count("long_tokens");
  p.pcie_bytes_per_s = in.real("pcie_gb_per_s") * units::kGB;
  if (p.max_model_len > kMaxContextTokens)
    return too_large("turns", static_cast<double>(p.max_model_len), static_cast<double>(kMaxContextTokens), "tokens",
                     "the longest request, within the model's context (use fewer turns or shorter prompts, messages "
                     "or answers)");
  auto hw = validate_serving_hardware(in, p.max_model_len, "the prompts, the conversations or the answers");
  if (!hw.ok()) return hw.error();
  p.hw = hw.value();
  if (auto e = check_budget(p)) return *e;
  return p;
}

EngineRun run_workload(const PrefixCachingParams& p, Workload workload, std::int64_t num_blocks, bool caching,
                       RunControl& ctl) {
  EngineConfig c;
  c.model = p.hw.model;
  c.gpu = p.hw.gpu;
  c.scheduler = p.scheduler;
  c.kv_cache.num_blocks = num_blocks;
  c.kv_cache.block_size = p.hw.block_size;
  c.kv_cache.enable_caching = caching;
  return run_continuous(c, workload, ctl);
}

std::int64_t saved_tokens(const EngineRun& run) {
  std::int64_t saved = 0;
  for (const RequestRecord& r : run.records) saved += r.num_cached_tokens;
  return saved;
}

std::int64_t prompt_tokens(const EngineRun& run) {
  std::int64_t total = 0;
  for (const RequestRecord& r : run.records) total += r.num_prompt_tokens;
  return total;
}

void shared_prefix_outputs(RunResult& result, const PrefixCachingParams& p, std::uint64_t seed, RunControl& ctl) {
  const EngineRun on = run_workload(p, make_open_loop(p.shared, seed), p.hw.num_blocks, true, ctl);
  const EngineRun off = run_workload(p, make_open_loop(p.shared, seed), p.hw.num_blocks, false, ctl);
  const ServingSummary s_on = summarize(on), s_off = summarize(off);
  const std::int64_t n = p.shared.num_requests, prefix = p.shared.shared_prefix_tokens;
  const std::int64_t saved = saved_tokens(on);
  result.output("saved_prefill_tokens", static_cast<double>(saved));
  result.output("saved_formula_tokens", static_cast<double>((n - 1) * prefix));
  // Only full blocks hit: with S not a multiple of the block size the saving is (N - 1) floor(S / block) block.
  result.output("saved_block_formula_tokens", static_cast<double>((n - 1) * (prefix / p.hw.block_size) * p.hw.block_size));
  result.output("saved_prefill_frac", static_cast<double>(saved) / static_cast<double>(prompt_tokens(on)));
  result.output("shared_hit_frac", s_on.prefix_hit_frac);
  result.output("shared_ttft_mean_ms", s_on.ttft_mean_s * units::kMsPerS);
  result.output("shared_ttft_mean_nocache_ms", s_off.ttft_mean_s * units::kMsPerS);
  result.output("shared_ttft_p99_ms", s_on.ttft_p99_s * units::kMsPerS);
  result.output("shared_ttft_p99_nocache_ms", s_off.ttft_p99_s * units::kMsPerS);
  // One request alone: prefill of the whole prompt, or of its own tokens over a cached prefix.
  const std::int64_t unique = p.unique_tokens;
  const std::int64_t hit = std::min(prefix, prefix + unique - 1) / p.hw.block_size * p.hw.block_size;
  StepWork warm;
  warm.num_prefill_tokens = prefix + unique - hit;
  warm.num_prefill_chunks = 1;
  warm.prefill_context_tokens = hit;
  warm.prefill_attention_pairs = prefill_attention_pairs(hit, prefix + unique - hit);
  result.output("alone_ttft_cold_ms", prefill_s(p.hw.model, p.hw.gpu, prefix + unique) * units::kMsPerS);
  result.output("alone_ttft_warm_ms", step_time(p.hw.model, p.hw.gpu, warm).total_s * units::kMsPerS);
}

void conversation_outputs(RunResult& result, const PrefixCachingParams& p, std::uint64_t seed, RunControl& ctl) {
  const EngineRun on = run_workload(p, make_conversations(p.chats, seed), p.hw.num_blocks, true, ctl);
  const EngineRun off = run_workload(p, make_conversations(p.chats, seed), p.hw.num_blocks, false, ctl);
  const ServingSummary s_on = summarize(on), s_off = summarize(off);
  result.output("chat_hit_frac", s_on.prefix_hit_frac);
  result.output("chat_saved_prefill_tokens", static_cast<double>(saved_tokens(on)));
  result.output("chat_saved_prefill_frac", static_cast<double>(saved_tokens(on)) / static_cast<double>(prompt_tokens(on)));
  result.output("chat_ttft_mean_ms", s_on.ttft_mean_s * units::kMsPerS);
  result.output("chat_ttft_mean_nocache_ms", s_off.ttft_mean_s * units::kMsPerS);

  // Hit rate vs cache size, log-spaced: from one longest conversation's worth of KV up to the blocks the run
  // with the whole pool handed out (a cache that large never has to evict, so it behaves as the whole pool).
  const std::int64_t min_blocks = (p.max_model_len + p.hw.block_size - 1) / p.hw.block_size;
  const std::int64_t max_blocks = std::max(min_blocks, std::min(p.hw.num_blocks, on.num_blocks_handed_out));
  std::vector<double> cache_tokens, cache_gib, hit_frac, ttft_ms, preemptions;
  std::int64_t last = 0;
  for (int i = 0; i < kCacheSizes; ++i) {
    const double f = static_cast<double>(i) / (kCacheSizes - 1);
    const auto blocks = static_cast<std::int64_t>(
        std::llround(static_cast<double>(min_blocks) * std::pow(static_cast<double>(max_blocks) / min_blocks, f)));
    if (blocks <= last) continue;
    last = blocks;
    const ServingSummary s = summarize(run_workload(p, make_conversations(p.chats, seed), blocks, true, ctl));
    const double tokens = static_cast<double>(blocks * p.hw.block_size);
    cache_tokens.push_back(tokens);
    cache_gib.push_back(tokens * static_cast<double>(p.hw.kv_bytes_per_token) / units::kGiB);
    hit_frac.push_back(s.prefix_hit_frac);
    ttft_ms.push_back(s.ttft_mean_s * units::kMsPerS);
    preemptions.push_back(static_cast<double>(s.num_preemptions));
  }
  result.table("cache_size").column("cache_tokens", std::move(cache_tokens)).column("cache_gib", std::move(cache_gib))
      .column("hit_frac", std::move(hit_frac)).column("ttft_mean_ms", std::move(ttft_ms))
      .column("preemptions", std::move(preemptions));
}

void reload_outputs(RunResult& result, const PrefixCachingParams& p) {
  const auto reload_ms = [&](std::int64_t tokens) {
    return static_cast<double>(tokens * p.hw.kv_bytes_per_token) / p.pcie_bytes_per_s * units::kMsPerS;
  };
  result.output("kv_bytes_per_token", static_cast<double>(p.hw.kv_bytes_per_token));
  result.output("reload_request_ms", reload_ms(p.request_tokens));
  result.output("reload_prefix_ms", reload_ms(p.shared.shared_prefix_tokens));
  result.output("reload_long_ms", reload_ms(p.long_tokens));
  result.output("reload_request_gb", static_cast<double>(p.request_tokens * p.hw.kv_bytes_per_token) / units::kGB);
  // Recomputing the same prefix instead: one prefill of that many tokens on this GPU.
  result.output("recompute_prefix_ms", prefill_s(p.hw.model, p.hw.gpu, p.shared.shared_prefix_tokens) * units::kMsPerS);
  std::vector<double> tokens, load_ms, recompute_ms;
  for (std::int64_t t = 256; t <= 65536; t *= 2) {
    tokens.push_back(static_cast<double>(t));
    load_ms.push_back(reload_ms(t));
    recompute_ms.push_back(prefill_s(p.hw.model, p.hw.gpu, t) * units::kMsPerS);
  }
  result.table("reload").column("tokens", std::move(tokens)).column("reload_ms", std::move(load_ms))
      .column("recompute_ms", std::move(recompute_ms));
}

Result<RunResult> run_prefix_caching(const PrefixCachingParams& p, std::uint64_t seed, RunControl& ctl) {
  RunResult result;
  note_ignored_custom_fields(p.hw, result);
  add_model_outputs(p.hw.model, result);
  RunControl quiet;  // the sub-runs are short; progress is reported per part below
  shared_prefix_outputs(result, p, seed, quiet);
  ctl.report(1, 3);
  conversation_outputs(result, p, seed, quiet);
  ctl.report(3, 3);
  reload_outputs(result, p);
  return result;
}

}  // namespace

CellSpec prefix_caching_cell() {
  std::vector<ParamSpec> params = serving_hardware_params();
  const std::vector<ParamSpec> rest = {
      count("users", "requests", 100, 1, 20000), explored(count("prefix_tokens", "tokens", 2000, 0, 100000), 0, 8000),
      count("unique_tokens", "tokens", 200, 1, 100000), count("answer_tokens", "tokens", 100, 1, 10000),
      real("lambda", "1/s", 5, 0.001, 10000),
      count("chats", "conversations", 50, 1, 2000), explored(count("turns", "turns", 4, 1, 100), 1, 10),
      count("user_tokens", "tokens", 100, 1, 100000), aliased(real("chat_per_s", "1/s", 2, 0.001, 10000), {"chat_lambda"}),
      explored(real("think_s", "s", 5, 0, 3600), 0, 60),
      count("request_tokens", "tokens", 1256, 1, 10000000), count("long_tokens", "tokens", 32000, 1, 10000000),
      real("pcie_gb_per_s", "GB/s", 32, 0.001, 10000)};
  params.insert(params.end(), rest.begin(), rest.end());
  CellSpec cell = checked_cell<&validate_prefix_caching, &run_prefix_caching>("llm/prefix-caching", std::move(params));
  cell.presets = presets_of({{"long-system-prompt", "prefix_tokens=8000 unique_tokens=100"}});
  cell.outputs = outputs({"saved_prefill_tokens", "saved_formula_tokens", "saved_block_formula_tokens", "saved_prefill_frac",
                  "shared_hit_frac", "shared_ttft_mean_ms", "shared_ttft_mean_nocache_ms", "shared_ttft_p99_ms",
                  "shared_ttft_p99_nocache_ms", "alone_ttft_cold_ms", "alone_ttft_warm_ms", "chat_hit_frac",
                  "chat_saved_prefill_tokens", "chat_saved_prefill_frac", "chat_ttft_mean_ms",
                  "chat_ttft_mean_nocache_ms", out("kv_bytes_per_token", "bytes"), "reload_request_ms",
                  "reload_prefix_ms", "reload_long_ms", "reload_request_gb", "recompute_prefix_ms"});
  for (OutputSpec& spec : model_outputs()) cell.outputs.push_back(std::move(spec));
  cell.tables = {table("cache_size"), table("reload")};
  cell.budget = {describe_engine_budget() + ", over 2 shared-prefix runs and " + std::to_string(2 + kCacheSizes) +
                 " conversation runs"};
  return cell;
}

}  // namespace sl::llm
