// Cell llm/batched-decode. One decode step of B sequences, each with C tokens of context (step_time.h):
//   T(B) = max((weights + B x C x KV/token) / BW, (2 P B + 4 L H d B C) / (peak x efficiency)) + layers x tax.
// Each sequence gets one token per step, so TPOT = T(B) and throughput = B / T(B). The weight read is shared
// and the KV reads and FLOPs grow with B, so throughput rises towards a ceiling of 1 / (per-sequence cost):
// the knee is where it reaches half of it. Memory caps B at the sequences the KV reserve holds (kv_memory.h:
// 72 GiB / (C x KV/token) by default, as llm/llama3-8b-case); the TPOT SLO caps it again. Book targets (§28): TTFT < 500 ms for a 1,000-token prompt, TPOT < 50 ms, > 1,000 tokens/s.
#include <algorithm>
#include <cmath>
#include <string>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/preset.h"
#include "core/units.h"
#include "llm/analytic_cells.h"
#include "llm/model/kv_memory.h"
#include "llm/model/model_inputs.h"
#include "llm/model/step_time.h"

namespace sl::llm {
namespace {

using units::kGB;
constexpr std::int64_t kSearchCap = std::int64_t{1} << 30;  // searches stop here (x 10^7 context fits int64)
using units::kSPerMs;

struct BatchedDecodeParams : ModelAndGpu {
  std::int64_t context_tokens = 0;
  double kv_reserve_bytes = 0;  ///< the KV cache's share of the GPU memory (kv_memory.h)
  std::int64_t max_batch = 0;
  std::int64_t prompt_tokens = 0;
  double tpot_slo_s = 0;
  double ttft_slo_s = 0;
  double target_tok_per_s = 0;
};

Result<BatchedDecodeParams> validate_batched_decode(const Inputs& in) {
  auto choices = validate_model_and_gpu(in);
  if (!choices.ok()) return choices.error();
  BatchedDecodeParams p{choices.value()};
  p.context_tokens = in.count("context");
  p.max_batch = in.count("max_batch");
  p.prompt_tokens = in.count("prompt");
  p.tpot_slo_s = in.real("tpot_slo_ms") * kSPerMs;
  p.ttft_slo_s = in.real("ttft_slo_ms") * kSPerMs;
  p.target_tok_per_s = in.real("target_tok_per_s");
  if (auto e = check_weights_fit(p.model, p.gpu)) return *e;
  auto reserve = validate_kv_reserve(p.model, p.gpu, in.real("kv_reserve_gib"));
  if (!reserve.ok()) return reserve.error();
  p.kv_reserve_bytes = reserve.value();
  const double per_seq = static_cast<double>(p.model.kv_bytes_per_token() * p.context_tokens);
  if (per_seq > p.kv_reserve_bytes)
    return too_large("context", per_seq / kGB, p.kv_reserve_bytes / kGB, "GB",
                     "the KV cache of one sequence of " + std::to_string(p.context_tokens) +
                         " tokens (within kv_reserve_gib)");
  return p;
}

StepTime decode_step(const BatchedDecodeParams& p, std::int64_t batch) {
  StepWork w;
  w.num_decode_seqs = batch;
  w.decode_context_tokens = batch * p.context_tokens;
  return step_time(p.model, p.gpu, w);
}

double tok_per_s(const BatchedDecodeParams& p, std::int64_t batch) {
  return static_cast<double>(batch) / decode_step(p, batch).total_s;
}

/// Smallest batch in [1, kSearchCap] where a monotone predicate holds, or 0 if it never does.
template <class Pred>
std::int64_t first_batch_where(Pred pred) {
  if (!pred(kSearchCap)) return 0;
  std::int64_t lo = 1, hi = kSearchCap;  // pred(hi) holds
  while (lo < hi) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    if (pred(mid)) hi = mid; else lo = mid + 1;
  }
  return lo;
}

/// Batches to draw: every batch up to max_points, else about max_points geometrically spaced ones.
std::vector<std::int64_t> sweep_batches(std::int64_t max_batch, int max_points) {
  std::vector<std::int64_t> batches;
  if (max_batch <= max_points) {
    for (std::int64_t b = 1; b <= max_batch; ++b) batches.push_back(b);
    return batches;
  }
  const double ratio = std::pow(static_cast<double>(max_batch), 1.0 / (max_points - 1));
  double x = 1;
  for (int i = 0; i < max_points; ++i, x *= ratio) {
    const std::int64_t b = std::min<std::int64_t>(max_batch, std::llround(x));
    if (batches.empty() || b > batches.back()) batches.push_back(b);
  }
  if (batches.back() != max_batch) batches.push_back(max_batch);
  return batches;
}

/// One row per batch size: the decode step's time split and the throughput it gives.
struct StepRows {
  std::vector<double> batch, tpot_ms, tok_per_s, memory_ms, compute_ms, overhead_ms;
  void add(std::int64_t b, const StepTime& t) {
    batch.push_back(static_cast<double>(b));
    tpot_ms.push_back(t.total_s * units::kMsPerS);
    tok_per_s.push_back(static_cast<double>(b) / t.total_s);
    memory_ms.push_back(t.memory_s * units::kMsPerS);
    compute_ms.push_back(t.compute_s * units::kMsPerS);
    overhead_ms.push_back(t.overhead_s * units::kMsPerS);
  }
  Table& write(Table& table) const {
    return table.column("batch", batch)
        .column("tpot_ms", tpot_ms)
        .column("tok_per_s", tok_per_s)
        .column("memory_ms", memory_ms)
        .column("compute_ms", compute_ms);
  }
};

void add_sweep(const BatchedDecodeParams& p, int max_points, RunResult& result) {
  StepRows rows;
  for (std::int64_t b : sweep_batches(p.max_batch, max_points)) rows.add(b, decode_step(p, b));
  rows.write(result.table("sweep")).column("overhead_ms", rows.overhead_ms);
}

/// The result table: batches 1, 2, 4, … up to max_batch (every 2^k-th power of two where that would pass
/// kMaxTableRows rows), each with its step time split and whether it fits in memory and meets the TPOT target.
void add_batch_table(const BatchedDecodeParams& p, std::int64_t max_fit, RunResult& result) {
  constexpr int kMaxTableRows = 12;
  int num_doublings = 0;
  while ((std::int64_t{1} << (num_doublings + 1)) <= p.max_batch) ++num_doublings;
  const int stride = (num_doublings + kMaxTableRows - 2) / (kMaxTableRows - 1);  // ceil: at most 12 rows
  StepRows rows;
  std::vector<double> fits;
  for (int k = 0; k <= num_doublings; k += std::max(1, stride)) {
    const std::int64_t b = std::int64_t{1} << k;
    const StepTime t = decode_step(p, b);
    rows.add(b, t);
    fits.push_back(b <= max_fit && t.total_s <= p.tpot_slo_s ? 1.0 : 0.0);
  }
  rows.write(result.table("batches")).column("fits", fits);
}

Result<RunResult> run_batched_decode(const BatchedDecodeParams& p, std::uint64_t /*seed*/, RunControl& ctl) {
  RunResult result;
  note_ignored_custom_fields(p, result);
  add_model_outputs(p.model, result);

  const StepTime one = decode_step(p, 1);
  // Per-sequence slopes of the two roofs; the larger one bounds throughput as B grows.
  const double kv_seq_s = static_cast<double>(p.model.kv_bytes_per_token() * p.context_tokens) / p.gpu.hbm_bytes_per_s;
  const double flop_seq_s = one.compute_s;  // compute time is linear in B with no fixed part
  const double ceiling = 1.0 / std::max(kv_seq_s, flop_seq_s);
  const std::int64_t knee = first_batch_where([&](std::int64_t b) { return tok_per_s(p, b) >= 0.5 * ceiling; });
  const std::int64_t compute_bound = first_batch_where([&](std::int64_t b) { return decode_step(p, b).is_compute_bound(); });
  const std::int64_t max_fit = max_resident_sequences(p.model, p.kv_reserve_bytes, p.context_tokens);
  const std::int64_t past_slo = first_batch_where([&](std::int64_t b) { return decode_step(p, b).total_s > p.tpot_slo_s; });
  const std::int64_t slo_batch = std::min(max_fit, past_slo == 0 ? kSearchCap : past_slo - 1);
  const std::int64_t target_batch = first_batch_where([&](std::int64_t b) { return tok_per_s(p, b) >= p.target_tok_per_s; });
  const double ttft_s = prefill_s(p.model, p.gpu, p.prompt_tokens);

  result.output("tpot_b1_ms", one.total_s * units::kMsPerS);
  result.output("tok_per_s_b1", 1.0 / one.total_s);
  result.output("ceiling_tok_per_s", ceiling);
  result.output("knee_batch", static_cast<double>(knee));
  if (compute_bound > 0) result.output("compute_bound_batch", static_cast<double>(compute_bound));
  else result.notice("memory_bound", "With this context the step stays memory-bound at every batch: each sequence's "
                                     "KV read costs more time than its arithmetic.");
  result.output("max_batch_memory", static_cast<double>(max_fit));
  result.output("max_batch_slo", static_cast<double>(slo_batch));
  if (slo_batch > 0) {
    result.output("tpot_at_max_ms", decode_step(p, slo_batch).total_s * units::kMsPerS);
    result.output("tok_per_s_at_max", tok_per_s(p, slo_batch));
  } else {
    result.notice("slo_unreachable", "Even one sequence misses the TPOT target: a step takes " +
                                         format_number(one.total_s * units::kMsPerS) + " ms.");
  }
  if (target_batch > 0) result.output("min_batch_target", static_cast<double>(target_batch));
  if (target_batch == 0 || target_batch > slo_batch)
    result.notice("target_unreachable", "No batch that fits in memory and meets the TPOT target reaches " +
                                            format_number(p.target_tok_per_s) + " tokens/s.");
  result.output("ttft_ms", ttft_s * units::kMsPerS);
  if (ttft_s > p.ttft_slo_s)
    result.notice("ttft_over", "The prompt's prefill alone (" + format_number(ttft_s * units::kMsPerS) +
                                   " ms) exceeds the TTFT target.");

  add_sweep(p, ctl.max_points, result);
  add_batch_table(p, max_fit, result);
  result.table("limits")
      .column("max_batch_memory", {static_cast<double>(max_fit)})
      .column("knee_batch", {static_cast<double>(knee)})
      .column("tpot_slo_ms", {p.tpot_slo_s * units::kMsPerS})
      .column("target_tok_per_s", {p.target_tok_per_s});
  return result;
}

}  // namespace

CellSpec batched_decode_cell() {
  std::vector<ParamSpec> params = model_and_gpu_params();
  params.push_back(explored(count("context", "tokens", 1256, 1, 10'000'000), 64, 131'072));
  params.push_back(kv_reserve_param());
  params.push_back(count("max_batch", "sequences", 512, 1, 1'000'000));
  params.push_back(count("prompt", "tokens", 1000, 1, 1'000'000));
  params.push_back(explored(real("tpot_slo_ms", "ms", 50, 0.001, 1e6), 1, 200));
  params.push_back(real("ttft_slo_ms", "ms", 500, 0.001, 1e7));
  params.push_back(explored(aliased(real("target_tok_per_s", "tokens/s", 1000, 1, 1e9), {"target_tok_s"}), 100, 100'000));
  CellSpec cell = checked_cell<&validate_batched_decode, &run_batched_decode>("llm/batched-decode", std::move(params));
  cell.presets = presets_of({{"llama-70b-a100", "model=llama3.1-70b gpu=a100 kv_reserve_gib=40"}});
  cell.uses_seed = false;
  cell.outputs = outputs({"tpot_b1_ms", out("tok_per_s_b1", "tokens/s"), "ceiling_tok_per_s", "knee_batch",
                  sometimes("compute_bound_batch"), "max_batch_memory", "max_batch_slo", sometimes("tpot_at_max_ms"),
                  sometimes(out("tok_per_s_at_max", "tokens/s")), sometimes("min_batch_target"), "ttft_ms"});
  for (OutputSpec& spec : model_outputs()) cell.outputs.push_back(std::move(spec));
  cell.tables = {table("sweep"), table("limits"), table("batches")};
  return cell;
}

}  // namespace sl::llm
