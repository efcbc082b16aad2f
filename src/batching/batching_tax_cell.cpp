// Cell batching/batching-tax. Eq. 4: a size-triggered batch of B under Poisson arrivals at rate lambda keeps
// its requests (B - 1)/(2 lambda) on average before inference starts — the first waits for B - 1 arrivals,
// the last for none. We simulate exactly that (the dynamic batcher with no window and an accelerator always
// free, so the wait is pure formation delay) and set it beside the formula, for the chosen B and a sweep of
// B on the same arrival stream. Latency adds T_inf(B), known at B = 1 and at the chosen B (the book's 2 and
// 15 ms); the sweep joins those two by a straight line — an assumption, stated in the text. The tail of the
// chosen B (p99 and maximum latency) comes with standard errors: batch means for the p99, block maxima for the
// maximum.
#include <algorithm>
#include <cmath>
#include <vector>

#include "batching/arrivals.h"
#include "batching/batch_formulas.h"
#include "batching/cells.h"
#include "batching/dynamic_batcher.h"
#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/stats.h"
#include "core/table_columns.h"
#include "queues/confidence_intervals.h"

namespace sl::batching {
namespace {

/// Mean formation delay of each complete batch: batches draw on disjoint inter-arrival gaps, so these
/// means are independent and their spread gives the standard error of the overall mean.
RunningStats per_batch_mean_wait_s(const BatchingRun& run) {
  RunningStats means;
  double sum_s = 0;
  std::int64_t count = 0;
  std::int64_t batch = -1;
  for (const auto& r : run.requests) {  // completion order keeps each batch together
    if (r.batch_id != batch && count > 0) {
      means.add(sum_s / static_cast<double>(count));
      sum_s = 0;
      count = 0;
    }
    batch = r.batch_id;
    sum_s += r.wait_s();
    ++count;
  }
  if (count > 0) means.add(sum_s / static_cast<double>(count));
  return means;
}

/// A run's p99 and maximum wait, with standard errors (waits in completion order: a batch's requests are
/// contiguous). The p99's by batch means (queues::summarize_series: the share below it over 32 contiguous
/// blocks). The maximum's by block maxima: the maxima of 32 contiguous blocks are independent (batches share
/// no gaps), and for a tail in the Gumbel domain (an Erlang wait) the maximum of k blocks has the same spread
/// as one block's maximum (only its location moves, by the tail's scale x ln k), so their standard deviation
/// is the overall maximum's standard error; slightly high, as the Erlang tail's scale shrinks towards 1/lambda.
struct TailStats {
  double p99_s = 0, p99_se_s = 0, max_s = 0, max_se_s = 0;
};

TailStats tail_stats(const std::vector<double>& waits_s) {
  TailStats s;
  if (waits_s.empty()) return s;
  s.max_s = *std::max_element(waits_s.begin(), waits_s.end());
  s.p99_s = quantile(waits_s, 0.99);
  const std::size_t blocks = queues::kNumBatches;
  if (waits_s.size() < 2 * blocks) return s;
  s.p99_se_s = queues::summarize_series(waits_s, 0.99).quantile.half_width() / queues::kStudentT31;
  RunningStats block_maxima;
  const std::size_t per_block = waits_s.size() / blocks;
  for (std::size_t b = 0; b < blocks; ++b) {
    const auto first = waits_s.begin() + static_cast<std::ptrdiff_t>(b * per_block);
    block_maxima.add(*std::max_element(first, first + static_cast<std::ptrdiff_t>(per_block)));
  }
  s.max_se_s = block_maxima.stddev();
  return s;
}

BatchingRun run_static(std::int64_t batch_size, const std::vector<double>& arrivals_s, RunControl& ctl) {
  BatcherParams p;
  p.max_batch_size = batch_size;
  p.max_wait_s = kNoTimeout;
  p.unlimited_accelerators = true;
  return simulate_dynamic_batching(p, arrivals_s, ctl);
}

/// T_inf on the straight line through (1, t1) and (B, tB); flat at t1 when B = 1.
double inference_ms(std::int64_t b, std::int64_t batch, double t1_ms, double tb_ms) {
  if (batch == 1) return t1_ms;
  return t1_ms + (tb_ms - t1_ms) * static_cast<double>(b - 1) / static_cast<double>(batch - 1);
}

/// Eq. 4's scenario: Poisson arrivals at lambda, batches of exactly `batch`, and the inference time at
/// batch 1 and at `batch`.
struct BatchingTaxParams {
  double lambda_per_s = 500;
  std::int64_t batch = 32;
  double t_inf_b1_ms = 2;
  double t_inf_ms = 15;  ///< at `batch`
  std::int64_t num_requests = 100'000;  ///< at least two full batches
};

Result<BatchingTaxParams> validate_batching_tax(const Inputs& in) {
  BatchingTaxParams p;
  p.lambda_per_s = in.real("lambda");
  p.batch = in.count("batch");
  p.t_inf_b1_ms = in.real("t_inf_b1_ms");
  p.t_inf_ms = in.real("t_inf_ms");
  p.num_requests = in.count("n");
  const std::int64_t n = p.num_requests;
  if (n < 2 * p.batch)
    return Error{"invalid", "n",
                 "n must hold at least two full batches: n >= 2 x batch = " + format_number(2.0 * p.batch) +
                     " requests, got " + format_number(static_cast<double>(n)),
                 {{"min", format_number(2.0 * p.batch)}, {"got", format_number(static_cast<double>(n))}, {"problem", "two_batches"},
                  {"other", "batch"}}};
  return p;
}

Result<RunResult> run_batching_tax(const BatchingTaxParams& params, std::uint64_t seed, RunControl& ctl) {
  const double lambda = params.lambda_per_s;
  const std::int64_t batch = params.batch;
  const double t1_ms = params.t_inf_b1_ms;
  const double tb_ms = params.t_inf_ms;
  const std::int64_t n = params.num_requests;

  Rng rng = Rng::stream(seed, Stream::Arrivals);
  const std::vector<double> arrivals_s = poisson_arrivals_s(lambda, n, rng);

  RunResult result;
  const double formation_ms = formation_delay_s(batch, lambda) * 1e3;
  result.output("formation_b1_ms", formation_delay_s(1, lambda) * 1e3);
  result.output("total_b1_ms", formation_delay_s(1, lambda) * 1e3 + t1_ms);
  result.output("formation_closed_ms", formation_ms);
  result.output("total_closed_ms", formation_ms + tb_ms);
  result.output("penalty_x", (formation_ms + tb_ms) / t1_ms);
  result.output("first_request_wait_ms", 2 * formation_ms);  // (B - 1)/lambda: the first waits for all

  RunControl quiet;  // the sweep below reports progress; the main run is one of its points
  const BatchingRun main_run = run_static(batch, arrivals_s, quiet);
  const RunningStats batch_means = per_batch_mean_wait_s(main_run);
  std::vector<double> waits_s;
  for (const auto& r : main_run.requests) waits_s.push_back(r.wait_s());
  result.output("formation_sim_ms", batch_means.mean() * 1e3);
  result.output("formation_sim_se_ms", batch_means.standard_error() * 1e3);
  result.output("formation_sim_p99_ms", quantile(waits_s, 0.99) * 1e3);
  result.output("total_sim_ms", batch_means.mean() * 1e3 + tb_ms);
  // Latency = wait + T_inf(B), the same for every request of a batch of B: its tail is the wait's, shifted.
  const TailStats tail = tail_stats(waits_s);
  result.output("total_sim_p99_ms", tail.p99_s * 1e3 + tb_ms);
  result.output("total_sim_p99_se_ms", tail.p99_se_s * 1e3);
  result.output("total_sim_max_ms", tail.max_s * 1e3 + tb_ms);
  result.output("total_sim_max_se_ms", tail.max_se_s * 1e3);
  result.output("num_batches", static_cast<double>(main_run.batches.size()));

  std::vector<std::int64_t> sweep = {1, 2, 4, 8, 16, 32, 64, 128, 256};
  sweep.erase(std::remove_if(sweep.begin(), sweep.end(), [&](std::int64_t b) { return 2 * b > n; }), sweep.end());
  if (std::find(sweep.begin(), sweep.end(), batch) == sweep.end()) sweep.push_back(batch);
  std::sort(sweep.begin(), sweep.end());
  TableColumns formation;
  for (std::size_t i = 0; i < sweep.size(); ++i) {
    const std::int64_t b = sweep[i];
    const double sim_s = b == batch ? batch_means.mean() : per_batch_mean_wait_s(run_static(b, arrivals_s, quiet)).mean();
    const double t_ms = inference_ms(b, batch, t1_ms, tb_ms);
    const double closed_ms = formation_delay_s(b, lambda) * 1e3;
    const double sim_ms = sim_s * 1e3;
    formation.put({{"batch", static_cast<double>(b)}, {"formation_closed_ms", closed_ms}, {"formation_sim_ms", sim_ms},
                   {"total_closed_ms", closed_ms + t_ms}, {"total_sim_ms", sim_ms + t_ms}});
    ctl.report(static_cast<double>(i + 1), static_cast<double>(sweep.size()));
  }
  formation.into(result.table("formation"));
  return result;
}

}  // namespace

CellSpec batching_tax_cell() {
  CellSpec cell = checked_cell<&validate_batching_tax, &run_batching_tax>("batching/batching-tax",
      {explored(real("lambda", "1/s", 500, 1e-3, 1e6), 10, 10000),
       explored(count("batch", "requests", 32, 1, 4096), 1, 256),
       real("t_inf_b1_ms", "ms", 2.0, 1e-3, 1e5), explored(real("t_inf_ms", "ms", 15.0, 1e-3, 1e5), 2, 60),
       count("n", "requests", 100'000, 2, 2'000'000)});
  cell.outputs = outputs({"formation_b1_ms", "total_b1_ms", "formation_closed_ms", "total_closed_ms", "penalty_x",
                   "first_request_wait_ms", "formation_sim_ms", "formation_sim_se_ms", "formation_sim_p99_ms",
                   "total_sim_ms", "num_batches", "total_sim_p99_ms", "total_sim_p99_se_ms", "total_sim_max_ms",
                   "total_sim_max_se_ms"});
  cell.tables = {table("formation")};
  return cell;
}

}  // namespace sl::batching
