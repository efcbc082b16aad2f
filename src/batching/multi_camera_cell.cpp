// Cell batching/multi-camera. Table 16 / Example 1.8: six cameras at 30 FPS feed one batch of six; the
// nominal timeline (frames in at 8, 10 and 15 ms, inference 15-25 ms, result at 32 ms) meets the 33 ms
// deadline with 1 ms to spare. With arrival jitter we simulate many frame sets: the batch waits for the
// last frame or the timeout (reusing stale frames), and we count deadline misses and stale frames, then
// sweep the timeout and the jitter on the same random draws. The jitter is normal (sd jitter_ms, delays clipped
// at 0) or, as in the companion notebook, exponential (mean jitter_ms: every frame late, a few by a lot).
#include <algorithm>
#include <array>
#include <cmath>
#include <string>

#include "batching/camera_sync.h"
#include "batching/cells.h"
#include "core/checked_run.h"
#include "core/distributions.h"
#include "core/outputs.h"
#include "core/stats.h"

namespace sl::batching {
namespace {

constexpr std::int64_t kSweepFrames = 5'000;  // per sweep point; the main run uses `frames`

/// The camera rig and its batch (CameraSyncParams, in seconds), the book's sync budget and the run length.
struct MultiCameraParams {
  CameraSyncParams sync;
  double sync_budget_ms = 12;
  std::int64_t num_frame_sets = 20'000;  ///< frames
  bool is_exponential_jitter = false;    ///< jitter_law = exp: delay = nominal + jitter_ms x Exp(1)
};

Result<MultiCameraParams> validate_multi_camera(const Inputs& in) {
  MultiCameraParams params;
  CameraSyncParams& p = params.sync;
  p.period_s = 1 / in.real("frames_per_s");
  p.deadline_s = in.real("deadline_ms") * 1e-3;
  const double mid = in.real("cam2to5_ms") * 1e-3;
  p.nominal_delay_s = {in.real("cam1_ms") * 1e-3, mid, mid, mid, mid, in.real("cam6_ms") * 1e-3};
  p.jitter_sd_s = in.real("jitter_ms") * 1e-3;
  p.timeout_s = in.real("timeout_ms") * 1e-3;
  p.inference_s = in.real("inference_ms") * 1e-3;
  p.post_s = in.real("post_ms") * 1e-3;
  params.sync_budget_ms = in.real("sync_budget_ms");
  params.num_frame_sets = in.count("frames");
  params.is_exponential_jitter = in.choice("jitter_law") == "exp";
  return params;
}

/// The standardised jitter of every camera in every frame set: standard normals, or Exp(1) draws (inverse
/// transform -log(1 - u)); the simulation delays each frame by jitter_ms times it.
std::vector<std::array<double, kNumCameras>> draw_jitters(std::int64_t frames, bool is_exponential, std::uint64_t seed) {
  Rng rng = Rng::stream(seed, Stream::Arrivals);
  std::vector<std::array<double, kNumCameras>> z(static_cast<std::size_t>(frames));
  for (auto& row : z)
    for (double& x : row) x = is_exponential ? -std::log1p(-rng.uniform()) : normal_quantile(rng.uniform());
  return z;
}

/// The book's timeline with no jitter: when each step happens and what is left of the deadline.
void output_nominal(RunResult& result, const CameraSyncParams& p, double sync_budget_ms) {
  const auto [first, last] = std::minmax_element(p.nominal_delay_s.begin(), p.nominal_delay_s.end());
  const double start_ms = *last * 1e3;
  result.output("period_ms", p.period_s * 1e3);
  result.output("arrival_spread_ms", (*last - *first) * 1e3);
  result.output("nominal_start_ms", start_ms);
  result.output("nominal_inference_done_ms", start_ms + p.inference_s * 1e3);
  result.output("nominal_result_ms", start_ms + (p.inference_s + p.post_s) * 1e3);
  result.output("nominal_slack_ms", p.deadline_s * 1e3 - (start_ms + (p.inference_s + p.post_s) * 1e3));
  result.output("sync_budget_frac", sync_budget_ms / (p.deadline_s * 1e3));
  // The batch must start by deadline - inference - post to make it; a timeout later than that cannot help.
  result.output("latest_start_ms", (p.deadline_s - p.inference_s - p.post_s) * 1e3);

  std::vector<double> lane, from_ms, to_ms;
  for (int i = 0; i < kNumCameras; ++i) {  // lanes 1-6: capture to arrival of each camera
    lane.push_back(i + 1);
    from_ms.push_back(0);
    to_ms.push_back(p.nominal_delay_s[static_cast<std::size_t>(i)] * 1e3);
  }
  lane.push_back(7);  // inference
  from_ms.push_back(start_ms);
  to_ms.push_back(start_ms + p.inference_s * 1e3);
  lane.push_back(8);  // post-processing
  from_ms.push_back(start_ms + p.inference_s * 1e3);
  to_ms.push_back(start_ms + (p.inference_s + p.post_s) * 1e3);
  std::vector<double> deadline(lane.size(), p.deadline_s * 1e3), timeout(lane.size(), p.timeout_s * 1e3);
  result.table("timeline")
      .column("lane", lane)
      .column("from_ms", from_ms)
      .column("to_ms", to_ms)
      .column("deadline_ms", deadline)
      .column("timeout_ms", timeout);
}

void output_simulation(RunResult& result, const CameraSyncParams& p, const std::vector<std::array<double, kNumCameras>>& z) {
  const CameraSyncRun run = simulate_camera_sync(p, z);
  result.output("miss_frac", run.miss_frac());
  result.output("stale_frac", run.stale_frac());
  const auto sets = static_cast<double>(run.num_sets);
  const double stale_sets = static_cast<double>(run.num_sets_with_stale) / sets;
  result.output("sets_with_stale_frac", stale_sets);
  // Frame sets are independent draws: binomial standard errors of the two shares.
  result.output("miss_se_frac", std::sqrt(run.miss_frac() * (1 - run.miss_frac()) / sets));
  result.output("sets_with_stale_se_frac", std::sqrt(stale_sets * (1 - stale_sets) / sets));
  result.output("max_consecutive_stale", static_cast<double>(run.max_consecutive_stale));
  RunningStats latency;
  for (double x : run.result_s) latency.add(x);
  result.output("result_mean_ms", latency.mean() * 1e3);
  result.output("result_p99_ms", quantile(run.result_s, 0.99) * 1e3);
}

void output_sweeps(RunResult& result, const CameraSyncParams& base, const std::vector<std::array<double, kNumCameras>>& z,
                   RunControl& ctl) {
  const std::vector<std::array<double, kNumCameras>> sub(z.begin(), z.begin() + std::min<std::size_t>(z.size(), kSweepFrames));
  std::vector<double> timeout_ms, t_miss, t_stale;
  for (int t = 8; t <= 30; ++t) {
    CameraSyncParams p = base;
    p.timeout_s = t * 1e-3;
    const CameraSyncRun run = simulate_camera_sync(p, sub);
    timeout_ms.push_back(t);
    t_miss.push_back(run.miss_frac());
    t_stale.push_back(run.stale_frac());
  }
  ctl.report(1, 2);
  result.table("by_timeout").column("timeout_ms", timeout_ms).column("miss_frac", t_miss).column("stale_frac", t_stale);
  std::vector<double> jitter_ms, j_miss, j_stale;
  for (int j = 0; j <= 12; ++j) {
    CameraSyncParams p = base;
    p.jitter_sd_s = 0.5e-3 * j;
    const CameraSyncRun run = simulate_camera_sync(p, sub);
    jitter_ms.push_back(0.5 * j);
    j_miss.push_back(run.miss_frac());
    j_stale.push_back(run.stale_frac());
  }
  result.table("by_jitter").column("jitter_ms", jitter_ms).column("miss_frac", j_miss).column("stale_frac", j_stale);
}

Result<RunResult> run_multi_camera(const MultiCameraParams& params, std::uint64_t seed, RunControl& ctl) {
  const CameraSyncParams& p = params.sync;
  const auto z = draw_jitters(params.num_frame_sets, params.is_exponential_jitter, seed);
  RunResult result;
  output_nominal(result, p, params.sync_budget_ms);
  output_simulation(result, p, z);
  output_sweeps(result, p, z, ctl);
  return result;
}

}  // namespace

CellSpec multi_camera_cell() {
  CellSpec cell = checked_cell<&validate_multi_camera, &run_multi_camera>("batching/multi-camera",
      {aliased(real("frames_per_s", "1/s", 30, 0.1, 1000), {"fps"}), real("deadline_ms", "ms", 33, 0.01, 1e5), real("cam1_ms", "ms", 8, 0, 1e4),
       real("cam2to5_ms", "ms", 10, 0, 1e4), explored(real("cam6_ms", "ms", 15, 0, 1e4), 8, 25),
       explored(real("jitter_ms", "ms", 1, 0, 1e3), 0, 5), choice("jitter_law", {"normal", "exp"}, "normal"),
       explored(real("timeout_ms", "ms", 20, 0, 1e5), 8, 30), real("inference_ms", "ms", 10, 0, 1e4), real("post_ms", "ms", 7, 0, 1e4),
       real("sync_budget_ms", "ms", 12, 0, 1e5), count("frames", "frame sets", 20'000, 100, 1'000'000)});
  cell.outputs = outputs({"period_ms", "arrival_spread_ms", "nominal_start_ms", "nominal_inference_done_ms",
                  "nominal_result_ms", "nominal_slack_ms", "sync_budget_frac", "latest_start_ms", "miss_frac",
                  "stale_frac", "sets_with_stale_frac", "miss_se_frac", "sets_with_stale_se_frac",
                  "max_consecutive_stale", "result_mean_ms", "result_p99_ms"});
  cell.tables = {table("timeline"), table("by_timeout"), table("by_jitter")};
  return cell;
}

}  // namespace sl::batching
