// Cell request/pipelining. Eq. 2: system efficiency = total compute time / (wall-clock time x resources).
// A request needs CPU preprocessing, then the accelerator. Served one at a time (figure 5A), each resource
// idles while the other works: 5 ms + 5 ms gives 50 %. Pipelined (figure 5B), CPU workers preprocess the
// next requests while the accelerator runs, so the slower stage sets the pace: throughput
// min(workers / pre, 1 / gpu), and the speedup over serial is at most (pre + gpu) / max(pre / workers, gpu),
// 2x when preprocessing is half the time. We simulate both schedules on the same requests, event by event.
#include <algorithm>
#include <cmath>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/stats.h"
#include "core/units.h"
#include "request/cells.h"
#include "request/budget/pipeline.h"

namespace sl::request {
namespace {

constexpr std::int64_t kTimelineRequests = 8;
constexpr int kCurvePoints = 49;  // preprocessing shares 0.02, 0.04, ..., 0.98

/// The law of both stages' times.
enum class StageLaw { Det, Exp, Lognormal };

struct PipeliningParams {
  double pre_s, gpu_s;  ///< mean preprocessing and accelerator time per request
  int num_workers;
  std::int64_t buffer;  ///< places in the FIFO between the stages
  StageLaw law;
  double cv;            ///< lognormal only
  std::int64_t num_requests;
};

Result<PipeliningParams> validate_pipelining(const Inputs& in) {
  const std::string& law = in.choice("law");
  return PipeliningParams{in.real("pre_ms") * 1e-3,
                          in.real("gpu_ms") * 1e-3,
                          static_cast<int>(in.count("workers")),
                          in.count("buffer"),
                          law == "exp" ? StageLaw::Exp : law == "lognormal" ? StageLaw::Lognormal : StageLaw::Det,
                          in.real("cv"),
                          in.count("n")};
}

Distribution stage_law(const PipeliningParams& p, double mean_s) {
  if (p.law == StageLaw::Exp) return Distribution::exponential(1.0 / mean_s);
  if (p.law == StageLaw::Lognormal) return Distribution::lognormal_mean_cv(mean_s, p.cv);
  return Distribution::deterministic(mean_s);
}

/// Throughput of two exponential stages (rates mu1 = 1/pre, mu2 = 1/gpu) with `buffer` places between
/// them, first stage never starved, blocking after service: a birth-death chain on 0..buffer+2 requests past
/// the first stage, pi_i ~ (mu1/mu2)^i, and throughput mu2 (1 - pi_0).
double exponential_tandem_per_s(double pre_s, double gpu_s, std::int64_t buffer) {
  const double ratio = gpu_s / pre_s;  // mu1 / mu2
  double sum = 0, term = 1;
  for (std::int64_t i = 0; i <= buffer + 2; ++i, term *= ratio) sum += term;
  return (1.0 - 1.0 / sum) / gpu_s;
}

struct Collected {
  RunningStats latency_s;
  std::vector<PipelineRecord> first;
};

OnRequestDone collect_into(Collected& c) {
  return [&c](const PipelineRecord& r) {
    c.latency_s.add(r.gpu_end_s - r.pre_start_s);
    if (r.id < kTimelineRequests) c.first.push_back(r);
  };
}

void timeline_table(RunResult& result, const std::string& name, std::vector<PipelineRecord> first) {
  std::sort(first.begin(), first.end(), [](const PipelineRecord& a, const PipelineRecord& b) { return a.id < b.id; });
  std::vector<double> request, stage, worker, start_ms, end_ms;
  for (const auto& r : first) {
    for (int s = 0; s < 2; ++s) {
      request.push_back(static_cast<double>(r.id));
      stage.push_back(s);
      worker.push_back(r.worker);
      start_ms.push_back((s == 0 ? r.pre_start_s : r.gpu_start_s) * units::kMsPerS);
      end_ms.push_back((s == 0 ? r.pre_end_s : r.gpu_end_s) * units::kMsPerS);
    }
  }
  result.table(name).column("request", std::move(request)).column("stage", std::move(stage))
      .column("worker", std::move(worker)).column("start_ms", std::move(start_ms)).column("end_ms", std::move(end_ms));
}

struct Mode {
  PipelineRun run;
  Collected seen;
};

/// What one schedule achieved, from its totals and its records.
struct ModeStats {
  double per_s, cpu_util_frac, gpu_util_frac, efficiency_frac, latency_ms;
};

/// The output names of one mode's stats, written out in full so that grep finds each.
struct ModeNames {
  const char *per_s, *cpu_util_frac, *gpu_util_frac, *efficiency_frac, *latency_ms;
};
constexpr ModeNames kSerialNames{"serial_per_s", "serial_cpu_util_frac", "serial_gpu_util_frac",
                                 "serial_efficiency_frac", "serial_latency_ms"};
constexpr ModeNames kPipelinedNames{"pipelined_per_s", "pipelined_cpu_util_frac", "pipelined_gpu_util_frac",
                                    "pipelined_efficiency_frac", "pipelined_latency_ms"};

void output_mode(const ModeNames& names, const ModeStats& s, RunResult& result) {
  result.output(names.per_s, s.per_s);
  result.output(names.cpu_util_frac, s.cpu_util_frac);
  result.output(names.gpu_util_frac, s.gpu_util_frac);
  result.output(names.efficiency_frac, s.efficiency_frac);
  result.output(names.latency_ms, s.latency_ms);
}

ModeStats mode_stats(const Mode& m, std::int64_t n) {
  const double compute_s = m.run.cpu_busy_s + m.run.gpu_busy_s;
  return {static_cast<double>(n) / m.run.wall_s, m.run.cpu_busy_s / (m.run.wall_s * m.run.num_workers),
          m.run.gpu_busy_s / m.run.wall_s,
          compute_s / (m.run.wall_s * (m.run.num_workers + 1)),  // eq. 2
          m.seen.latency_s.mean() * units::kMsPerS};
}

Result<RunResult> run_pipelining(const PipeliningParams& p, std::uint64_t seed, RunControl& ctl) {
  const double pre_s = p.pre_s, gpu_s = p.gpu_s;
  const int workers = p.num_workers;
  const std::int64_t buffer = p.buffer, n = p.num_requests;
  const StageTimes work = draw_stage_times(n, stage_law(p, pre_s), stage_law(p, gpu_s), seed);

  Mode serial, piped;
  serial.run = run_serial(work, collect_into(serial.seen));
  piped.run = run_pipelined(work, workers, buffer, ctl, collect_into(piped.seen));
  const ModeStats serial_stats = mode_stats(serial, n), piped_stats = mode_stats(piped, n);

  RunResult result;
  result.output("pre_frac", pre_s / (pre_s + gpu_s));
  output_mode(kSerialNames, serial_stats, result);
  output_mode(kPipelinedNames, piped_stats, result);
  const double speedup = serial.run.wall_s / piped.run.wall_s;
  result.output("speedup", speedup);
  result.output("bound_per_s", std::min(workers / pre_s, 1.0 / gpu_s));
  result.output("max_speedup", (pre_s + gpu_s) / std::max(pre_s / workers, gpu_s));
  if (p.law == StageLaw::Exp && workers == 1)
    result.output("tandem_closed_form_per_s", exponential_tandem_per_s(pre_s, gpu_s, buffer));

  result.table("utilization")
      .column("mode", {0, 0, 1, 1})
      .column("resource", {0, 1, 0, 1})
      .column("util_frac", {serial_stats.cpu_util_frac, serial_stats.gpu_util_frac, piped_stats.cpu_util_frac,
                            piped_stats.gpu_util_frac});
  timeline_table(result, "timeline_serial", serial.seen.first);
  timeline_table(result, "timeline_pipelined", piped.seen.first);

  // Best speedup for each preprocessing share f of a fixed request time: 1 / max(f / workers, 1 - f).
  std::vector<double> share, best;
  for (int i = 1; i <= kCurvePoints; ++i) {
    share.push_back(i / (kCurvePoints + 1.0));
    best.push_back(1.0 / std::max(share.back() / workers, 1.0 - share.back()));
  }
  result.table("speedup_curve").column("pre_frac", std::move(share)).column("max_speedup", std::move(best));
  result.table("speedup_point").column("pre_frac", {pre_s / (pre_s + gpu_s)}).column("speedup", {speedup});
  return result;
}

}  // namespace

CellSpec pipelining_cell() {
  CellSpec cell = checked_cell<&validate_pipelining, &run_pipelining>("request/pipelining",
      {explored(real("pre_ms", "ms", 5, 1e-6, 1e6), 0.1, 100),
       explored(real("gpu_ms", "ms", 5, 1e-6, 1e6), 0.1, 100),
       explored(count("workers", "workers", 1, 1, 256), 1, 16), count("buffer", "requests", 2, 0, 1'000'000),
       choice("law", {"det", "exp", "lognormal"}, "det"), real("cv", "", 0.5, 0.01, 10),
       count("n", "requests", 10'000, 1, 1'000'000)});
  cell.outputs = outputs({"pre_frac", out("serial_per_s", "req/s"), "serial_cpu_util_frac", "serial_gpu_util_frac",
                  "serial_efficiency_frac", "serial_latency_ms", out("pipelined_per_s", "req/s"),
                  "pipelined_cpu_util_frac", "pipelined_gpu_util_frac", "pipelined_efficiency_frac",
                  "pipelined_latency_ms", out("speedup", "×"), out("bound_per_s", "req/s"), out("max_speedup", "×"),
                  sometimes(out("tandem_closed_form_per_s", "req/s"))});
  cell.tables = {table("utilization"), table("timeline_serial"), table("timeline_pipelined"), table("speedup_curve"),
                 table("speedup_point")};
  return cell;
}

}  // namespace sl::request
