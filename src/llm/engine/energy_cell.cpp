// Cell llm/energy. Napkin math 1.5, the energy of a chat: joules per token = power / throughput.
//   Busy:  114 requests x 8 tokens/s = 912 tokens/s at 700 W (GPU TDP) + 300 W (host) -> 1.0965 J/token;
//          a 500-token reply is 548.2 J (a phone charge is 40,000 J, a cup of water boiled 100,000 J).
//   Idle-ish: at 10 % utilisation the GPU still draws ~300 W: 600 W / 91.2 tokens/s = 6.6 J/token, 6x.
// Between the two points the book gives no curve; we draw three power assumptions (GPU at TDP, linear in
// utilisation, at idle power). Beside them, the decode step model says how many tokens/s one H100 would
// give Llama-3-8B at this concurrency, and so what a joule buys when the batch is really full.
// Last, J per conversation turn from the serving simulator (engine.h), with the prefix cache on and off: the
// same multi-turn chats, energy = (GPU + host power) x time the GPU spends in steps / turns. Prefix caching
// "skips the energy-intensive prefill phase for shared context" (§25): here is by how much.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "core/units.h"
#include "llm/analytic_cells.h"
#include "llm/engine/engine.h"
#include "llm/engine/engine_budget.h"
#include "llm/model/kv_memory.h"
#include "llm/model/model_inputs.h"
#include "llm/model/power_model.h"
#include "llm/model/step_time.h"
#include "llm/workload/workload.h"

namespace sl::llm {
namespace {

constexpr int kUtilPoints = 96;
constexpr double kMinUtilFrac = 0.05;
constexpr std::int64_t kBlockSize = 16;                   // vLLM's default block

/// The inputs, with the model and GPU the step model and the simulator use (model_inputs.h; Llama-3-8B INT4 on an
/// H100 by default, the book's case study) and their KV reserve (72 GiB, §21).
struct EnergyParams : ModelAndGpu {
  double kv_reserve_bytes = 0;
  std::int64_t concurrent = 0;
  double req_tok_per_s = 0;
  double gpu_w = 0;
  double host_w = 0;
  std::int64_t response_tokens = 0;
  double low_util_frac = 0;
  double idle_w = 0;
  double phone_j = 0;
  double cup_j = 0;
  std::int64_t context_tokens = 0;
  std::int64_t max_fit = 0;  ///< sequences of context_tokens the KV reserve holds
  ConversationParams chats;
  std::int64_t num_blocks = 0;  ///< the KV pool of the simulated GPU, in blocks
  double tok_per_s() const { return static_cast<double>(concurrent) * req_tok_per_s; }
  double busy_w() const { return gpu_w + host_w; }
};

Result<EnergyParams> validate_energy(const Inputs& in) {
  auto choices = validate_model_and_gpu(in);
  if (!choices.ok()) return choices.error();
  EnergyParams p{choices.value()};
  if (auto e = check_weights_fit(p.model, p.gpu)) return *e;
  auto reserve = validate_kv_reserve(p.model, p.gpu, in.real("kv_reserve_gib"));
  if (!reserve.ok()) return reserve.error();
  p.kv_reserve_bytes = reserve.value();
  p.concurrent = in.count("concurrent");
  p.req_tok_per_s = in.real("req_tok_per_s");
  p.gpu_w = in.real("gpu_w");
  p.host_w = in.real("host_w");
  p.response_tokens = in.count("response");
  p.low_util_frac = in.real("low_util_pct") * 0.01;
  p.idle_w = in.real("idle_w");
  p.phone_j = in.real("phone_j");
  p.cup_j = in.real("cup_j");
  p.context_tokens = in.count("context");
  if (auto e = check_idle_power(p.gpu_w, p.idle_w)) return *e;
  if (p.busy_w() <= 0)
    return Error{"invalid", "gpu_w", "gpu_w + host_w must be positive, got 0 W",
                 {{"problem", "zero_sum"}, {"other", "host_w"}, {"unit", "W"}}};
  const ModelSpec& m = p.model;
  p.max_fit = max_resident_sequences(m, p.kv_reserve_bytes, p.context_tokens);
  if (p.max_fit < 1)
    return too_large("context", static_cast<double>(p.context_tokens),
                     static_cast<double>(kv_token_capacity(m, p.kv_reserve_bytes)), "tokens",
                     "the context of one sequence in the KV reserve (kv_reserve_gib) beside the weights");
  ConversationParams& c = p.chats;
  c.num_conversations = in.count("chats");
  c.num_turns = in.count("turns");
  c.rate_per_s = in.real("chat_per_s");
  c.system_prompt_tokens = in.count("system_tokens");
  c.user_tokens = in.count("user_tokens");
  c.answer_tokens = in.count("answer_tokens");
  c.think_s = in.real("think_s");
  p.num_blocks = static_cast<std::int64_t>(p.kv_reserve_bytes / static_cast<double>(m.kv_bytes_per_token())) / kBlockSize;
  const std::int64_t longest = conversation_max_tokens(c);
  if (longest > p.num_blocks * kBlockSize)
    return too_large("turns", static_cast<double>(longest), static_cast<double>(p.num_blocks * kBlockSize), "tokens",
                     "the last turn of a conversation (within the KV pool, kv_reserve_gib; use fewer turns or shorter messages)");
  // The conversations run twice through the simulator (prefix cache on, off).
  EnginePool pool{m, p.gpu, p.num_blocks, kBlockSize, SchedulerConfig{}, true};
  const EngineWork cached = conversation_work(c, pool);
  pool.caching = false;
  EngineWork total = conversation_work(c, pool);
  total += cached;
  if (auto e = check_engine_budget(total, cached, "chats", "the conversations (chats x turns, each turn resending the history)"))
    return *e;
  return p;
}

/// J/token against utilisation for three assumptions about GPU power below full load.
void add_utilisation_curves(const EnergyParams& p, RunResult& result) {
  std::vector<double> util, at_tdp, linear, at_idle;
  for (int i = 0; i < kUtilPoints; ++i) {
    const double u = kMinUtilFrac + (1.0 - kMinUtilFrac) * i / (kUtilPoints - 1);
    const double tokens = p.tok_per_s() * u;
    util.push_back(u);
    at_tdp.push_back(p.busy_w() / tokens);
    linear.push_back(server_power_w(p.gpu_w, p.idle_w, p.host_w, u) / tokens);
    at_idle.push_back((p.idle_w + p.host_w) / tokens);
  }
  result.table("utilisation")
      .column("util_frac", util)
      .column("j_at_tdp", at_tdp)
      .column("j_linear", linear)
      .column("j_at_idle", at_idle);
  result.table("book_points")
      .column("util_frac", {1.0, p.low_util_frac})
      .column("j_per_token", {p.busy_w() / p.tok_per_s(), (p.idle_w + p.host_w) / (p.tok_per_s() * p.low_util_frac)});
}

/// J/token against batch from the decode step model (the chosen model and GPU, the GPU at full power).
void add_batch_curve(const EnergyParams& p, std::int64_t max_fit, int max_points, RunResult& result) {
  const ModelSpec& m = p.model;
  const GpuSpec& g = p.gpu;
  std::vector<double> batch, j_per_token;
  const double ratio = std::pow(static_cast<double>(max_fit), 1.0 / std::max(1, max_points - 1));
  double x = 1;
  for (int i = 0; i < max_points; ++i, x *= ratio) {
    const std::int64_t b = std::min<std::int64_t>(max_fit, std::llround(x));
    if (!batch.empty() && static_cast<double>(b) <= batch.back()) continue;
    const double step_s = decode_step_s(m, g, b, b * p.context_tokens);
    batch.push_back(static_cast<double>(b));
    j_per_token.push_back(p.busy_w() * step_s / static_cast<double>(b));
  }
  result.table("batch").column("batch", batch).column("j_per_token", j_per_token);
}

/// Energy of the same conversations with the prefix cache on or off (the chosen model and GPU, its KV reserve).
struct TurnEnergy {
  double j_per_turn = 0;
  double prefill_tokens_per_turn = 0;  ///< prompt tokens actually computed (not served from the cache)
};

TurnEnergy simulate_turns(const EnergyParams& p, bool caching, std::uint64_t seed, RunControl& ctl) {
  EngineConfig c;
  c.model = p.model;
  c.gpu = p.gpu;
  c.kv_cache.num_blocks = p.num_blocks;
  c.kv_cache.block_size = kBlockSize;
  c.kv_cache.enable_caching = caching;
  Workload workload = make_conversations(p.chats, seed);
  const EngineRun run = run_continuous(c, workload, ctl);
  std::int64_t computed = 0;
  for (const RequestRecord& r : run.records) computed += r.num_prompt_tokens - r.num_cached_tokens;
  const double turns = static_cast<double>(run.records.size());
  return {p.busy_w() * run.busy_s / turns, static_cast<double>(computed) / turns};
}

Result<RunResult> run_energy(const EnergyParams& p, std::uint64_t seed, RunControl& ctl) {
  RunResult result;
  note_ignored_custom_fields(p, result);
  add_model_outputs(p.model, result);

  const double j_per_token = p.busy_w() / p.tok_per_s();
  const double response_j = j_per_token * static_cast<double>(p.response_tokens);
  result.output("tok_per_s", p.tok_per_s());
  result.output("power_w", p.busy_w());
  result.output("j_per_token", j_per_token);
  result.output("response_j", response_j);
  result.output("responses_per_phone", p.phone_j / response_j);
  result.output("responses_per_cup", p.cup_j / response_j);

  // Poor batching: the same GPU at a fraction of the throughput, still drawing its idle power.
  const double low_tok_per_s = p.tok_per_s() * p.low_util_frac;
  const double low_w = p.idle_w + p.host_w;
  const double low_j_per_token = low_w / low_tok_per_s;
  result.output("low_util_tok_per_s", low_tok_per_s);
  result.output("low_util_power_w", low_w);
  result.output("low_util_j_per_token", low_j_per_token);
  result.output("low_util_ratio", low_j_per_token / j_per_token);

  // The step model's view of the same concurrency (capped at what fits beside the weights).
  const std::int64_t batch = std::min(p.concurrent, p.max_fit);
  if (batch < p.concurrent)
    result.notice("batch_capped", std::to_string(p.concurrent) + " sequences of " + std::to_string(p.context_tokens) +
                                      " tokens do not fit in one " + p.gpu.name + "'s KV reserve; the step model uses " +
                                      std::to_string(batch) + ".");
  const double step_s = decode_step_s(p.model, p.gpu, batch, batch * p.context_tokens);
  const double model_tok_per_s = static_cast<double>(batch) / step_s;
  result.output("model_batch", static_cast<double>(batch));
  result.output("model_tok_per_req_s", 1.0 / step_s);
  result.output("model_tok_per_s", model_tok_per_s);
  result.output("model_j_per_token", p.busy_w() / model_tok_per_s);

  // Conversations through the simulator, prefix cache on and off, on the same arrivals.
  RunControl quiet;
  const TurnEnergy cached = simulate_turns(p, true, seed, quiet);
  ctl.report(1, 2);
  const TurnEnergy uncached = simulate_turns(p, false, seed, quiet);
  ctl.report(2, 2);
  result.output("turn_j_cached", cached.j_per_turn);
  result.output("turn_j_nocache", uncached.j_per_turn);
  result.output("turn_saving_frac", 1.0 - cached.j_per_turn / uncached.j_per_turn);
  result.output("turn_prefill_tok_cached", cached.prefill_tokens_per_turn);
  result.output("turn_prefill_tok_nocache", uncached.prefill_tokens_per_turn);

  add_utilisation_curves(p, result);
  add_batch_curve(p, p.max_fit, std::min(ctl.max_points, 200), result);
  return result;
}

}  // namespace

CellSpec energy_cell() {
  CellSpec cell = checked_cell<&validate_energy, &run_energy>("llm/energy",
      {explored(count("concurrent", "requests", 114, 1, 1'000'000), 1, 1000),
       explored(aliased(real("req_tok_per_s", "tokens/s", 8, 0.001, 1e6), {"req_tok_s"}), 1, 200),
       real("gpu_w", "W", 700, 0, 100'000), real("host_w", "W", 300, 0, 100'000),
       count("response", "tokens", 500, 1, 10'000'000), real("low_util_pct", "%", 10, 0.1, 100),
       real("idle_w", "W", 300, 0, 100'000), real("phone_j", "J", 40'000, 1, 1e12),
       real("cup_j", "J", 100'000, 1, 1e12), count("context", "tokens", 1256, 1, 10'000'000),
       count("chats", "conversations", 25, 1, 1000), count("turns", "turns", 4, 1, 100),
       aliased(real("chat_per_s", "1/s", 2, 0.001, 10'000), {"chat_lambda"}), count("system_tokens", "tokens", 2000, 0, 100'000),
       count("user_tokens", "tokens", 100, 1, 100'000), count("answer_tokens", "tokens", 200, 1, 10'000),
       real("think_s", "s", 5, 0, 3600)});
  cell.presets = presets_of({{"llama-70b-h200", "model=llama3.1-70b gpu=h200"}});
  // The model and GPU the step model and the simulator use, and their KV reserve (§21's 72 GiB by default).
  for (ParamSpec& spec : model_and_gpu_params()) cell.params.push_back(std::move(spec));
  cell.params.push_back(kv_reserve_param());
  cell.outputs = outputs({out("tok_per_s", "tokens/s"), "power_w", out("j_per_token", "J"), "response_j", "responses_per_phone",
                  "responses_per_cup", "low_util_tok_per_s", "low_util_power_w", out("low_util_j_per_token", "J"),
                  "low_util_ratio", "model_batch", out("model_tok_per_req_s", "tokens/s"), "model_tok_per_s",
                  out("model_j_per_token", "J"), out("turn_j_cached", "J"), out("turn_j_nocache", "J"),
                  "turn_saving_frac", "turn_prefill_tok_cached", "turn_prefill_tok_nocache"});
  for (OutputSpec& spec : model_outputs()) cell.outputs.push_back(std::move(spec));
  cell.tables = {table("utilisation"), table("book_points"), table("batch")};
  cell.budget = {describe_engine_budget() + ", over 2 conversation runs"};
  return cell;
}

}  // namespace sl::llm
