#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "core/cell.h"
#include "core/distributions.h"

namespace sl::request {

/// Work of each request in a two-stage pipeline: CPU preprocessing, then the accelerator. Drawn once, so
/// the serial and the pipelined schedule see exactly the same requests.
struct StageTimes {
  std::vector<double> pre_s;
  std::vector<double> gpu_s;
  std::int64_t size() const { return static_cast<std::int64_t>(pre_s.size()); }
};

/// n requests: preprocessing times from `pre` (stream Misc), accelerator times from `gpu` (stream Service).
StageTimes draw_stage_times(std::int64_t n, const Distribution& pre, const Distribution& gpu, std::uint64_t seed);

/// What happened to one request (immutable once complete). Times in seconds from the start of the run.
struct PipelineRecord {
  std::int64_t id;
  int worker;  ///< CPU worker that preprocessed it
  double pre_start_s, pre_end_s, gpu_start_s, gpu_end_s;
};

/// Totals of one run; eq. 2's system efficiency is (cpu_busy_s + gpu_busy_s) / (wall_s * (num_workers + 1)).
struct PipelineRun {
  double wall_s = 0;
  double cpu_busy_s = 0;
  double gpu_busy_s = 0;
  int num_workers = 1;
};

using OnRequestDone = std::function<void(const PipelineRecord&)>;

/// Figure 5A: one request at a time; the next one's preprocessing starts when the accelerator finishes.
PipelineRun run_serial(const StageTimes& work, const OnRequestDone& on_done);

/// Figure 5B, simulated event by event: `num_workers` CPU workers preprocess requests from an endless
/// backlog, in id order; a finished request goes to the accelerator if it is idle, else waits in a FIFO of
/// at most `buffer` preprocessed requests, else its worker holds it (blocked) until there is room. The
/// accelerator serves the FIFO in order, then blocked workers in the order they blocked.
PipelineRun run_pipelined(const StageTimes& work, int num_workers, std::int64_t buffer, RunControl& ctl,
                          const OnRequestDone& on_done);

}  // namespace sl::request
