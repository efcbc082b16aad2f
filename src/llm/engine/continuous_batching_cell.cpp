// Cell llm/continuous-batching. One workload (Poisson or burstier arrivals, lognormal prompt and answer lengths;
// or a trace replayed, trace_inputs.h) served three ways on the same step-time model (step_time.h, Llama-3-8B on an H100 by default):
//   continuous — vLLM's iteration-level scheduler over paged KV blocks (scheduler.h, kv_cache_manager.h);
//   naive      — the same scheduler, each request reserving max_model_len tokens of KV at admission;
//   static     — static batches of up to B requests run until their longest finishes (static_batching.h).
// Beside them, three experiments without timing (batching_waste.h): the book's 8-sequence example (a slot done
// at 10 of 100 tokens is 90 % idle), slot-step utilisation static vs continuous, and the KV a contiguous
// max-length reservation wastes against 16-token blocks at a random point of each generation (§28).
#include <algorithm>
#include <cmath>

#include "core/checked_run.h"
#include "core/preset.h"
#include "core/rng.h"
#include "core/table_columns.h"
#include "core/units.h"
#include "llm/engine/batching_waste.h"
#include "llm/simulator_cells.h"
#include "llm/engine/engine.h"
#include "llm/engine/engine_budget.h"
#include "llm/engine/engine_setup.h"
#include "llm/model/power_model.h"
#include "llm/engine/request_trace.h"
#include "llm/engine/serving_metrics.h"
#include "llm/engine/static_batching.h"
#include "llm/engine/trace_inputs.h"

namespace sl::llm {
namespace {

constexpr std::int64_t kReservationSamples = 100'000;  // sequences in the reservation-waste experiment
constexpr std::int64_t kSlotAnswers = 4'000;           // answers in the slot-step experiment
constexpr int kNumPolicies = 3;
constexpr double kSaturatedFrac = 0.9;  // delivered / offered tokens per second below this: cannot keep up
constexpr std::int64_t kMaxTraceTokens = 100'000;  // token times the trace keeps (2.4 MB as three columns)

struct ContinuousBatchingParams {
  EngineHardware hw;
  OpenLoopParams workload;
  SchedulerInputs scheduler;  ///< the scheduler's knobs and max_waiting
  double ttft_slo_s = 0.5, tpot_slo_s = 0.05;
  ServingEconomics economics;
  bool prefix_caching = true;
  std::int64_t static_batch = 32;
  std::int64_t example_batch = 8, example_short_tokens = 10, example_long_tokens = 100;
  std::int32_t trace_requests = 20;  ///< the paged engine's first requests traced (request_trace.h); 0 = none
  std::optional<TraceInput> trace;   ///< a replayed trace instead of the length laws (workload = trace)

  /// A fresh copy of the run's requests: drawn from the laws, or the trace's rows.
  Workload make_workload(std::uint64_t seed) const {
    return trace ? trace->workload(workload.max_model_len) : make_open_loop(workload, seed);
  }
  /// The requests' lengths, each within max_model_len: the trace's in turn, or drawn from the laws.
  std::vector<RequestLengths> trace_lengths() const {
    std::vector<RequestLengths> lengths;
    for (const Request& r : trace->workload(workload.max_model_len).requests)
      lengths.push_back({r.num_prompt_tokens, r.max_tokens});
    return lengths;
  }
};

/// The three policies' work (engine_budget.h): continuous pages its KV and hashes blocks; naive reserves
/// max_model_len per request; static visits every slot of a batch at each step until the batch's longest answer is
/// done, whose mean is at most mean + sd (b - 1) / sqrt(2b - 1) for any law (Hartley and David's bound), and
/// never more than max_model_len.
std::optional<Error> check_budget(const ContinuousBatchingParams& p) {
  const OpenLoopParams& w = p.workload;
  const double b = static_cast<double>(p.static_batch);
  EnginePool pool{p.hw.model, p.hw.gpu, p.hw.num_blocks, p.hw.block_size, p.scheduler.scheduler, p.prefix_caching};
  const auto work_on = [&](const EnginePool& on) {
    return p.trace ? trace_work(*p.trace, w.max_model_len, on) : open_loop_work(w, on);
  };
  const EngineWork paged = work_on(pool);
  const double n = paged.num_requests;
  pool.caching = false;
  pool.reserve_tokens = w.max_model_len;
  EngineWork naive = work_on(pool);
  naive.blocks = n * std::ceil(static_cast<double>(w.max_model_len) / static_cast<double>(p.hw.block_size));
  naive.block_segments = 0;  // no prefix cache: nothing hashed
  // A trace's answers: their mean and standard deviation as replayed; the laws': the output law's.
  double mean = w.output_tokens.mean(), sd = std::sqrt(w.output_tokens.variance());
  if (p.trace) {
    double sum = 0, sum_sq = 0;
    for (const RequestLengths& l : p.trace_lengths()) {
      const auto o = static_cast<double>(l.output_tokens);
      sum += o, sum_sq += o * o;
    }
    mean = sum / n;
    sd = std::sqrt(std::max(0.0, sum_sq / n - mean * mean));
  }
  const double longest = std::min(static_cast<double>(w.max_model_len), mean + 1 + sd * (b - 1) / std::sqrt(2 * b - 1));
  EngineWork total = paged;
  total += naive;
  // Static: n / b batches, each stepping until its longest answer is done.
  total += EngineWork{n, 0, 2 * n * longest, 0, 0, n, std::ceil(n / b) * longest, 0};
  return check_engine_budget(total, paged, "n", "the three policies (n requests x their tokens)");
}

/// The clip bounds of one length law: min <= max, or an error naming the min.
std::optional<Error> check_clip(const std::string& what, std::int64_t lo, std::int64_t hi) {
  if (lo <= hi) return std::nullopt;
  return Error{"invalid", what + "_min",
               what + "_min = " + std::to_string(lo) + " tokens must not exceed " + what + "_max = " +
                   std::to_string(hi) + " tokens",
               {{"max", std::to_string(hi)}, {"unit", "tokens"}, {"got", std::to_string(lo)}, {"problem", "at_most_other"}, {"other", what + "_max"}}};
}

Result<ContinuousBatchingParams> validate_continuous_batching(const Inputs& in) {
  ContinuousBatchingParams p;
  OpenLoopParams& w = p.workload;
  w.num_requests = in.count("n");
  w.rate_per_s = in.real("lambda");
  w.arrival_cv = in.real("arrival_cv");
  w.prompt_tokens = Distribution::lognormal_mean_cv(in.real("prompt_mean"), in.real("prompt_cv"));
  w.output_tokens = Distribution::lognormal_mean_cv(in.real("output_mean"), in.real("output_cv"));
  w.prompt_min_tokens = in.count("prompt_min");
  w.prompt_max_tokens = in.count("prompt_max");
  w.output_min_tokens = in.count("output_min");
  w.output_max_tokens = in.count("output_max");
  w.batch_frac = in.real("batch_frac");
  w.max_model_len = in.count("max_model_len");
  if (auto e = check_clip("prompt", w.prompt_min_tokens, w.prompt_max_tokens)) return *e;
  if (auto e = check_clip("output", w.output_min_tokens, w.output_max_tokens)) return *e;
  auto trace = validate_trace(in, w.num_requests, w.max_model_len);
  if (!trace.ok()) return trace.error();
  p.trace = std::move(trace.value());
  auto server = validate_server(in, w.max_model_len);
  if (!server.ok()) return server.error();
  p.hw = server.value().hw;
  p.scheduler = server.value().scheduler;
  p.ttft_slo_s = in.real("ttft_slo_ms") * units::kSPerMs;
  p.tpot_slo_s = in.real("tpot_slo_ms") * units::kSPerMs;
  auto economics = validate_economics(in);
  if (!economics.ok()) return economics.error();
  p.economics = economics.value();
  p.prefix_caching = in.choice("prefix_caching") == "on";
  p.static_batch = in.count("static_batch");
  p.example_batch = in.count("example_batch");
  p.example_short_tokens = in.count("example_short_tokens");
  p.example_long_tokens = in.count("example_long_tokens");
  p.trace_requests = static_cast<std::int32_t>(in.count("trace_requests"));
  const std::int64_t slot_blocks = (w.max_model_len + p.hw.block_size - 1) / p.hw.block_size;
  const std::int64_t max_static = p.hw.num_blocks / slot_blocks;
  if (p.static_batch > max_static)
    return too_large("static_batch", static_cast<double>(p.static_batch), static_cast<double>(max_static), "requests",
                     "static_batch (slots of max_model_len = " + std::to_string(w.max_model_len) +
                         " tokens in the KV pool of " + std::to_string(p.hw.num_blocks * p.hw.block_size) + " tokens)");
  if (auto e = check_budget(p)) return *e;
  if (p.example_short_tokens > p.example_long_tokens)
    return Error{"invalid", "example_short_tokens",
                 "the short sequence must end no later than the long ones: example_short_tokens = " +
                     std::to_string(p.example_short_tokens) + " > example_long_tokens = " +
                     std::to_string(p.example_long_tokens) + " tokens",
                 {{"max", std::to_string(p.example_long_tokens)}, {"unit", "tokens"}, {"got", std::to_string(p.example_short_tokens)},
                  {"problem", "short_after_long"}, {"other", "example_long_tokens"}}};
  return p;
}

/// One policy's summary, SLO results and unit costs.
struct PolicyResult {
  ServingSummary summary;
  SloSummary slo;
  double usd_per_m_tokens = 0;  ///< GPU-hours of the makespan x price / million output tokens
  double j_per_token = 0;       ///< average server power (power_model.h) / output tokens per second
};

PolicyResult evaluate(const EngineRun& run, const ContinuousBatchingParams& p) {
  PolicyResult r;
  r.summary = summarize(run);
  r.slo = summarize_slo(run, p.ttft_slo_s, p.tpot_slo_s);
  const ServingEconomics& e = p.economics;
  const auto num_gpus = static_cast<double>(p.hw.tp.size);
  const double tok_per_s = r.summary.output_tok_per_s;
  if (tok_per_s > 0) {
    r.usd_per_m_tokens = e.usd_per_m_tokens(num_gpus, tok_per_s);
    r.j_per_token = e.power_w(r.summary.busy_frac, num_gpus) / tok_per_s;
  }
  return r;
}

/// One row per policy (0 continuous, 1 naive reservation, 2 static): latency percentiles, throughput, KV use,
/// SLO attainment and unit costs.
void policies_table(RunResult& result, const PolicyResult (&results)[kNumPolicies]) {
  TableColumns cols;
  for (int k = 0; k < kNumPolicies; ++k) {
    const ServingSummary& s = results[k].summary;
    const SloClass& all = results[k].slo.by_class[2];
    cols.put("policy", k);
    cols.put_scaled(units::kMsPerS,
                    {{"ttft_p50_ms", s.ttft_p50_s}, {"ttft_p90_ms", s.ttft_p90_s}, {"ttft_p99_ms", s.ttft_p99_s},
                     {"tpot_p50_ms", s.tpot_p50_s}, {"tpot_p90_ms", s.tpot_p90_s}, {"tpot_p99_ms", s.tpot_p99_s},
                     {"itl_p50_ms", s.itl_p50_s}, {"itl_p90_ms", s.itl_p90_s}, {"itl_p99_ms", s.itl_p99_s},
                     {"queue_p50_ms", s.queue_p50_s}, {"queue_p99_ms", s.queue_p99_s},
                     {"queue_mean_ms", s.queue_mean_s}, {"mean_step_ms", s.mean_step_s}});
    cols.put({{"e2e_p50_s", s.e2e_p50_s}, {"e2e_p90_s", s.e2e_p90_s}, {"e2e_p99_s", s.e2e_p99_s},
              {"tok_per_s", s.output_tok_per_s}, {"mean_batch", s.mean_batch}, {"kv_usage_frac", s.kv_usage_frac},
              {"kv_waste_frac", s.kv_waste_frac}, {"preemptions", static_cast<double>(s.num_preemptions)},
              {"preemptions_per_request", s.preemptions_per_request}, {"prefix_hit_frac", s.prefix_hit_frac},
              {"rejected", static_cast<double>(s.num_rejected)}, {"slo_attainment_frac", all.attainment_frac},
              {"goodput_req_per_s", all.goodput_req_per_s}, {"usd_per_m_tokens", results[k].usd_per_m_tokens},
              {"j_per_token", results[k].j_per_token}});
  }
  cols.into(result.table("policies"));
}

/// The continuous engine's SLO results per request class: rows 0 interactive, 1 batch, 2 all.
void slo_classes_table(RunResult& result, const SloSummary& slo) {
  std::vector<double> cls, arrived, attainment, goodput, ttft_p99, tpot_p99;
  for (int k = 0; k < 3; ++k) {
    const SloClass& c = slo.by_class[k];
    cls.push_back(k);
    arrived.push_back(static_cast<double>(c.num_arrived));
    attainment.push_back(c.attainment_frac);
    goodput.push_back(c.goodput_req_per_s);
    ttft_p99.push_back(c.ttft_p99_s * units::kMsPerS);
    tpot_p99.push_back(c.tpot_p99_s * units::kMsPerS);
  }
  result.table("slo_classes")
      .column("request_class", std::move(cls))
      .column("requests", std::move(arrived))
      .column("slo_attainment_frac", std::move(attainment))
      .column("goodput_req_per_s", std::move(goodput))
      .column("ttft_p99_ms", std::move(ttft_p99))
      .column("tpot_p99_ms", std::move(tpot_p99));
}

/// The engine of policy 0 (continuous, paged) or 1 (naive reservation).
EngineConfig policy_config(int index, const ContinuousBatchingParams& p, double bucket_s) {
  EngineConfig c = engine_config(p.hw, p.scheduler);
  c.kv_cache.enable_caching = index == 0 && p.prefix_caching;
  c.kv_cache.reserve_tokens_per_request = index == 1 ? p.workload.max_model_len : 0;
  c.series_bucket_s = bucket_s;
  return c;
}

/// Runs one policy on a fresh copy of the workload, reporting progress as part `index` of kNumPolicies.
EngineRun run_policy(int index, const ContinuousBatchingParams& p, std::uint64_t seed, double bucket_s, RunControl& ctl,
                     RequestTrace* trace = nullptr) {
  RunControl part([&ctl, index](double f) { ctl.report(index + f, kNumPolicies); });
  Workload workload = p.make_workload(seed);
  if (index == 2) {
    StaticBatchingConfig c{p.hw.model, p.hw.gpu, p.static_batch, p.workload.max_model_len, p.hw.num_blocks,
                           p.hw.block_size, bucket_s, p.hw.tp};
    return run_static(c, workload, part);
  }
  return run_continuous(policy_config(index, p, bucket_s), workload, part, {}, trace);
}

/// The trace's tables, and request 0's queue time and TTFT read from its spans and token times.
void trace_outputs(RunResult& result, const RequestTrace& trace) {
  trace_tables(trace, result);
  double arrival_s = -1, admitted_s = -1, first_token_s = -1;
  for (const TraceSpan& s : trace.spans())
    if (s.request_id == 0 && s.kind == TraceSpanKind::Queue) arrival_s = s.start_s, admitted_s = s.end_s;
  for (const TraceToken& t : trace.tokens())
    if (t.request_id == 0 && t.index == 0) first_token_s = t.at_s;
  if (arrival_s >= 0) result.output("trace_queue_ms", (admitted_s - arrival_s) * units::kMsPerS);
  if (arrival_s >= 0 && first_token_s >= 0) result.output("trace_ttft_ms", (first_token_s - arrival_s) * units::kMsPerS);
  if (trace.is_truncated())
    result.notice("trace_truncated", "the trace keeps the times of its first " + std::to_string(kMaxTraceTokens) +
                                         " output tokens; lower trace_requests to see every token of the traced requests.");
}

/// One table of the three policies' occupancy and KV usage over time, padded with zeros (an empty engine)
/// to the longest run, then downsampled to at most max_points rows.
void timeline_table(RunResult& result, const EngineRun (&runs)[kNumPolicies], int max_points) {
  std::size_t n = 0;
  for (const EngineRun& r : runs) n = std::max(n, r.running.bucket_means().size());
  std::vector<double> t_s = runs[0].running.bucket_starts_s();
  const double bucket_s = t_s.size() > 1 ? t_s[1] - t_s[0] : 0.0;
  t_s.resize(n);
  for (std::size_t i = 0; i < n; ++i) t_s[i] = static_cast<double>(i) * bucket_s;
  Table& table = result.table("timeline");
  // Column names per policy (continuous, naive reservation, static) and series (running, waiting, KV in use).
  static const char* const kColumns[kNumPolicies][3] = {
      {"running", "waiting", "kv_usage_frac"},
      {"naive_running", "naive_waiting", "naive_kv_usage_frac"},
      {"static_running", "static_waiting", "static_kv_usage_frac"}};
  std::vector<double> t_out;
  for (int k = 0; k < kNumPolicies; ++k) {
    const std::pair<const queues::StepSeries*, const char*> series[] = {
        {&runs[k].running, kColumns[k][0]}, {&runs[k].waiting, kColumns[k][1]}, {&runs[k].kv_usage, kColumns[k][2]}};
    for (const auto& [s, name] : series) {
      std::vector<double> means = s->bucket_means();
      means.resize(n, 0.0);
      std::vector<double> starts = t_s;
      downsample_series(starts, means, max_points);
      if (t_out.empty()) table.column("t_s", t_out = starts);
      table.column(name, std::move(means));
    }
  }
}

/// Output tokens of the requests drawn over the span of their arrivals (first to last); with one request, its
/// tokens at the nominal rate.
double drawn_tok_per_s(const std::vector<RequestRecord>& records, double rate_per_s) {
  double num_output = 0, first_s = records.front().arrival_at_s, last_s = first_s;
  for (const RequestRecord& r : records) {
    num_output += static_cast<double>(r.num_output_tokens);
    first_s = std::min(first_s, r.arrival_at_s);
    last_s = std::max(last_s, r.arrival_at_s);
  }
  if (last_s > first_s) return num_output / (last_s - first_s);
  return num_output * rate_per_s / static_cast<double>(records.size());
}

void slot_util_table(RunResult& result, const std::vector<std::int64_t>& answers) {
  std::vector<double> batch, static_frac, continuous_frac;
  for (std::int64_t b = 1; b <= 256; b *= 2) {
    const SlotStepUtil u = slot_step_utilisation(answers, b);
    batch.push_back(static_cast<double>(b));
    static_frac.push_back(u.static_frac);
    continuous_frac.push_back(u.continuous_frac);
  }
  result.table("slot_util").column("batch", std::move(batch)).column("static_frac", std::move(static_frac))
      .column("continuous_frac", std::move(continuous_frac));
}

/// Reservation waste (batching_waste.h) of the laws' lengths, or of the replayed trace's (`replayed`).
ReservationWaste waste(const ContinuousBatchingParams& p, const std::vector<RequestLengths>& replayed,
                       std::int64_t block_size, std::int64_t samples, std::uint64_t seed) {
  if (p.trace) return reservation_waste(replayed, p.workload.max_model_len, block_size, p.hw.pool_tokens, samples, seed);
  return reservation_waste(p.workload, block_size, p.hw.pool_tokens, samples, seed);
}

void block_size_table(RunResult& result, const ContinuousBatchingParams& p, const std::vector<RequestLengths>& replayed,
                      std::uint64_t seed) {
  std::vector<double> block, waste_frac, fit;
  for (std::int64_t b = 1; b <= 512; b *= 2) {
    const ReservationWaste w = waste(p, replayed, b, kReservationSamples / 10, seed);
    block.push_back(static_cast<double>(b));
    waste_frac.push_back(w.paged_waste_frac);
    fit.push_back(static_cast<double>(w.paged_fit_seqs));
  }
  result.table("block_waste").column("block_tokens", std::move(block)).column("waste_frac", std::move(waste_frac))
      .column("fit_seqs", std::move(fit));
}

void batching_experiments(RunResult& result, const ContinuousBatchingParams& p, std::uint64_t seed) {
  result.output("example_slot_waste_frac", static_slot_waste_frac(p.example_short_tokens, p.example_long_tokens));
  result.output("example_batch_util_frac", static_batch_util_frac(p.example_batch, p.example_short_tokens, p.example_long_tokens));

  Rng sizes = Rng::stream(seed, Stream::Service);
  std::vector<std::int64_t> answers;
  const std::vector<RequestLengths> replayed = p.trace ? p.trace_lengths() : std::vector<RequestLengths>{};
  for (std::int64_t i = 0; i < kSlotAnswers; ++i)
    answers.push_back(p.trace ? replayed[static_cast<std::size_t>(i) % replayed.size()].output_tokens
                              : sample_request_lengths(p.workload, sizes).output_tokens);
  const SlotStepUtil u = slot_step_utilisation(answers, p.static_batch);
  result.output("static_slot_util_frac", u.static_frac);
  result.output("continuous_slot_util_frac", u.continuous_frac);
  slot_util_table(result, answers);

  const ReservationWaste w = waste(p, replayed, p.hw.block_size, kReservationSamples, seed);
  result.output("reserve_mean_tokens", w.mean_tokens);
  result.output("naive_reserve_waste_frac", w.naive_waste_frac);
  result.output("paged_reserve_waste_frac", w.paged_waste_frac);
  result.output("naive_fit_seqs", static_cast<double>(w.naive_fit_seqs));
  result.output("paged_fit_seqs", static_cast<double>(w.paged_fit_seqs));
  block_size_table(result, p, replayed, seed);
}

/// The continuous (paged) engine's headline figures beyond the policies table: the p99 token gap, the queue in
/// steps, SLO results, costs, the KV share of reads and the all-reduces' share of step time.
void engine_outputs(RunResult& result, const ContinuousBatchingParams& p, const EngineRun& run, const PolicyResult& r) {
  const ServingSummary& s = r.summary;
  result.output("itl_p99_ms", s.itl_p99_s * units::kMsPerS);
  // Queue waits counted in engine steps, as the companion notebook counts them (its clock ticks once per decode
  // step): the mean wait over the mean step time, with its batch-means standard error.
  result.output("queue_mean_steps", s.mean_step_s > 0 ? s.queue_mean_s / s.mean_step_s : 0.0);
  result.output("queue_mean_steps_se", s.mean_step_s > 0 ? s.queue_mean_se_s / s.mean_step_s : 0.0);
  result.output("slo_attainment_frac", r.slo.by_class[2].attainment_frac);
  result.output("goodput_req_per_s", r.slo.by_class[2].goodput_req_per_s);
  result.output("usd_per_m_tokens", r.usd_per_m_tokens);
  result.output("j_per_token", r.j_per_token);
  result.output("kv_read_frac", s.kv_read_frac);
  result.output("all_reduce_frac", run.busy_s > 0 ? run.all_reduce_s / run.busy_s : 0.0);
  add_hardware_outputs(p.hw, result);
  if (s.num_rejected > 0)
    result.notice("rejected", std::to_string(s.num_rejected) + " requests arrived while max_waiting = " +
                                  std::to_string(p.scheduler.max_waiting) + " waited and were turned away; they count as "
                                  "missing their SLO.");
}

Result<RunResult> run_continuous_batching(const ContinuousBatchingParams& p, std::uint64_t seed, RunControl& ctl) {
  // The time series' buckets: the arrivals' span (a trace's, at least a second) over max_points.
  const double arrivals_s = p.trace ? std::max(1.0, p.trace->replayed.rows.back().arrival_s)
                                    : static_cast<double>(p.workload.num_requests) / p.workload.rate_per_s;
  const double bucket_s = arrivals_s / ctl.max_points;

  RunResult result;
  result.output("kv_pool_tokens", static_cast<double>(p.hw.pool_tokens));
  result.output("kv_pool_blocks", static_cast<double>(p.hw.num_blocks));
  result.output("max_concurrency", max_concurrency(p.hw.pool_tokens, mean_request_tokens(p.make_workload(seed))));
  EngineRun runs[kNumPolicies];
  PolicyResult results[kNumPolicies];
  ServingSummary summaries[kNumPolicies];
  RequestTrace trace(p.trace_requests, kMaxTraceTokens);
  for (int k = 0; k < kNumPolicies; ++k) {
    runs[k] = run_policy(k, p, seed, bucket_s, ctl, k == 0 && p.trace_requests > 0 ? &trace : nullptr);
    results[k] = evaluate(runs[k], p);
    summaries[k] = results[k].summary;
  }
  policies_table(result, results);
  slo_classes_table(result, results[0].slo);
  engine_outputs(result, p, runs[0], results[0]);
  result.output("preemptions", static_cast<double>(summaries[0].num_preemptions));
  result.output("preempted_frac", summaries[0].preempted_request_frac);
  result.output("naive_preemptions", static_cast<double>(summaries[1].num_preemptions));
  result.output("speedup_vs_static", summaries[0].output_tok_per_s / summaries[2].output_tok_per_s);
  result.output("speedup_vs_naive", summaries[0].output_tok_per_s / summaries[1].output_tok_per_s);
  // The policies table's figures the chart summaries quote.
  result.output("tok_per_s", summaries[0].output_tok_per_s);
  result.output("ttft_p99_ms", summaries[0].ttft_p99_s * units::kMsPerS);
  result.output("static_ttft_p99_ms", summaries[2].ttft_p99_s * units::kMsPerS);
  result.output("mean_batch", summaries[0].mean_batch);
  result.output("naive_mean_batch", summaries[1].mean_batch);
  result.output("static_mean_batch", summaries[2].mean_batch);
  result.output("kv_usage_frac", summaries[0].kv_usage_frac);
  result.output("naive_kv_usage_frac", summaries[1].kv_usage_frac);
  timeline_table(result, runs, ctl.max_points);
  if (p.trace_requests > 0) trace_outputs(result, trace);
  if (p.trace) {
    replay_outputs(*p.trace, result);
    replay_notices(*p.trace, p.workload.num_requests, p.workload.max_model_len, result);
  }
  batching_experiments(result, p, seed);

  // Saturation: a policy that cannot keep up delivers fewer tokens per second than arrive. The offered rate is
  // the answers actually drawn over the span their arrivals actually took (not lambda x the mean answer, which
  // a bursty or short draw misses); delivered = the same tokens over the span until the last one finished, so
  // their ratio is the arrival span over the makespan: a stable run loses only the drain at the end.
  const double offered_tok_per_s = drawn_tok_per_s(runs[0].records, p.workload.rate_per_s);
  result.output("offered_tok_per_s", offered_tok_per_s);
  const char* names[kNumPolicies] = {"continuous", "naive-reservation", "static"};
  const char* codes[kNumPolicies] = {"saturated", "naive_saturated", "static_saturated"};
  for (int k = 0; k < kNumPolicies; ++k) {
    const double frac = summaries[k].output_tok_per_s / offered_tok_per_s;
    if (frac < kSaturatedFrac)
      result.notice(codes[k],
                    std::string(names[k]) + " batching delivers " + format_number(std::round(frac * 1000) / 10) +
                        " % of the offered " + format_number(std::round(offered_tok_per_s)) +
                        " tokens/s: it cannot keep up with lambda, so its queue and latencies grow with n.");
  }
  return result;
}

}  // namespace

CellSpec continuous_batching_cell() {
  std::vector<ParamSpec> params = engine_hardware_params();
  for (ParamSpec& spec : params)
    if (spec.name == "kv_gib") spec = explored(spec, 8, 72);  // below 8 GiB 32 static slots of 2,048 tokens no longer fit
  const auto law = [](ParamSpec spec) { return used_when(std::move(spec), "workload", {"laws"}); };
  std::vector<ParamSpec> rest = {
      law(explored(real("lambda", "1/s", 18, 0.001, 10000), 1, 60)),
      explored(count("n", "requests", 2000, 1, 50000), 1, 40000)};  // 50,000 at the defaults: 1.8 s in wasm (node)
  const std::vector<ParamSpec> replay = trace_params();  // the workload choice, then how a trace is replayed
  rest.insert(rest.end(), replay.begin(), replay.end());
  const std::vector<ParamSpec> laws = {
      law(real("arrival_cv", "", 1, 0, 20)),
      law(real("prompt_mean", "tokens", 1000, 1, 1e6)), law(real("prompt_cv", "", 0.5, 0, 10)),
      law(count("prompt_min", "tokens", 1, 1, 1e6)), law(count("prompt_max", "tokens", 1e6, 1, 1e6)),
      law(real("output_mean", "tokens", 256, 1, 1e6)), law(real("output_cv", "", 1, 0, 10)),
      law(count("output_min", "tokens", 1, 1, 1e6)), law(count("output_max", "tokens", 1e6, 1, 1e6)),
      law(real("batch_frac", "", 0, 0, 1)),
      count("max_model_len", "tokens", 2048, 2, 131072)};
  rest.insert(rest.end(), laws.begin(), laws.end());
  params.insert(params.end(), rest.begin(), rest.end());
  const std::vector<ParamSpec> scheduler = scheduler_params();
  params.insert(params.end(), scheduler.begin(), scheduler.end());
  const std::vector<ParamSpec> more = {
      choice("prefix_caching", {"on", "off"}, "on"),
      real("ttft_slo_ms", "ms", 500, 0.001, 1e7), real("tpot_slo_ms", "ms", 50, 0.001, 1e6)};
  params.insert(params.end(), more.begin(), more.end());
  const std::vector<ParamSpec> economics = economics_params();
  params.insert(params.end(), economics.begin(), economics.end());
  const std::vector<ParamSpec> examples = {
      explored(count("static_batch", "requests", 32, 1, 4096), 1, 256),
      aliased(count("example_batch", "sequences", 8, 1, 4096), {"ex_batch"}),
      aliased(count("example_short_tokens", "tokens", 10, 1, 1e6), {"ex_short"}),
      aliased(count("example_long_tokens", "tokens", 100, 1, 1e6), {"ex_long"}),
      count("trace_requests", "requests", 20, 0, 100)};
  params.insert(params.end(), examples.begin(), examples.end());
  CellSpec cell = checked_cell<&validate_continuous_batching, &run_continuous_batching>("llm/continuous-batching", std::move(params));
  cell.presets = presets_of({{"chat-h100", "model=llama3.1-8b gpu=h100 lambda=10 prompt_mean=500 output_mean=200"},
                             {"long-docs-h200", "model=llama3.1-8b gpu=h200 lambda=2 prompt_mean=8000 "
                                                "output_mean=400 max_model_len=16384"}});
  cell.outputs = {out("kv_pool_tokens", "tokens"), out("kv_pool_blocks", "blocks"), out("max_concurrency", "requests"),
                  out("preemptions", ""),
                  out("preempted_frac", ""), out("naive_preemptions", ""), out("speedup_vs_static", ""),
                  out("speedup_vs_naive", ""), out("tok_per_s", "tokens/s"), out("ttft_p99_ms", "ms"),
                  out("static_ttft_p99_ms", "ms"), out("mean_batch", "sequences"), out("naive_mean_batch", "sequences"),
                  out("static_mean_batch", "sequences"), out("kv_usage_frac", ""), out("naive_kv_usage_frac", ""),
                  out("offered_tok_per_s", "tokens/s"), out("example_slot_waste_frac", ""),
                  out("example_batch_util_frac", ""), out("static_slot_util_frac", ""),
                  out("continuous_slot_util_frac", ""), out("reserve_mean_tokens", ""),
                  out("naive_reserve_waste_frac", ""), out("paged_reserve_waste_frac", ""), out("naive_fit_seqs", ""),
                  out("paged_fit_seqs", ""), out("itl_p99_ms", "ms"), out("queue_mean_steps", "steps"),
                  out("queue_mean_steps_se", "steps"), out("slo_attainment_frac", ""), out("goodput_req_per_s", "1/s"),
                  out("usd_per_m_tokens", "$"), out("j_per_token", "J"), out("kv_read_frac", ""),
                  out("all_reduce_frac", ""), sometimes(out("trace_queue_ms", "ms")), sometimes(out("trace_ttft_ms", "ms"))};
  for (OutputSpec& spec : model_outputs()) cell.outputs.push_back(std::move(spec));
  for (OutputSpec& spec : replay_output_specs()) cell.outputs.push_back(std::move(spec));
  cell.tables = {table("policies"), table("slo_classes"), table("timeline"), table("slot_util"), table("block_waste"),
                 table("trace_spans", Presence::SomeInputs), table("trace_tokens", Presence::SomeInputs)};
  cell.budget = {describe_engine_budget() + ", over the three policies"};
  cell.assets = {sample_trace_asset()};
  return cell;
}

}  // namespace sl::llm
