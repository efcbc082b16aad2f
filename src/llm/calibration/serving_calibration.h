#pragma once
// Calibrating the step-time knobs to measured serving points (issue 32), shared by llm/validation and
// llm/calibration. A point is one engine (model, GPU, TP, KV pool, scheduler), a workload recipe and the figures
// measured on it. Two kinds of point, by whether the engine's decisions depend on its clock:
//   time-free: every request is there at t = 0 (a burst, a static batch) or arrives when another finishes (a
//     closed loop): the scheduler sees the same states whatever a step costs, so a schedule recorded once and
//     re-timed (step_schedule.h) is the simulation itself at any knobs: exact, O(steps) a trial;
//   timed (Poisson arrivals): a slower engine batches more requests per step, which a fixed schedule cannot
//     (re-timed 20 % slower, a moderately loaded schedule falls behind its arrivals and its queue grows without
//     bound), so these points are simulated, and between simulations their log-residuals are linearised.
// The fit is a trust-region Gauss-Newton: at the current knobs, simulate the timed points and their Jacobian
// (forward differences, one simulation per knob; later updated by Broyden's rule from each step taken); find the
// best knobs inside the trust region on [linearised timed residuals; exactly re-timed time-free residuals] by
// bounded least squares (knob_fit.h's box); simulate there; keep the step if the cost fell (growing the region if
// the model predicted the fall well), else shrink the region and refresh the Jacobian.
// Leave-one-out: each fold refits from the knobs fitted on all points on the same model without its point, then
// predicts the held-out point exactly (a simulation, or a re-timing).
#include <array>
#include <cstdint>
#include <vector>

#include "core/cell.h"
#include "llm/engine/engine.h"
#include "llm/engine/engine_budget.h"
#include "llm/calibration/knob_fit.h"
#include "llm/calibration/workload_recipe.h"

namespace sl::llm {

/// A measured serving point, as the simulator runs it (the config's GPU knobs are replaced by the fit's).
struct ServingPoint {
  EngineConfig config;
  WorkloadRecipe workload;
  std::vector<Target> targets;
  /// Timed by a client over the server's API (its TTFT and E2E include the request's time outside the engine,
  /// GpuSpec::request_overhead_s); false for an in-process benchmark (TensorRT-LLM's gptSessionBenchmark).
  bool client_timed = true;
};

/// A point's predicted figures (its targets' order) at some knobs.
using Predictions = std::vector<double>;

/// Simulates a point at `knobs`: its predictions, and its schedule when `schedule` is given.
Predictions simulate_point(const ServingPoint& point, const StepKnobs& knobs, std::uint64_t seed,
                           RecordedSchedule* schedule = nullptr);

/// What a calibration found, and the model it found it on (for leave-one-out).
struct Calibration {
  StepKnobs start, fitted;
  std::vector<Predictions> at_start, at_fitted;  ///< simulated (or exactly re-timed) at those knobs
  double start_cost = 0, fitted_cost = 0;        ///< 0.5 x sum of squared log-errors
  std::vector<bool> is_unseen;                   ///< knobs no measurement moves, or not freed (kept at their start)
  KnobMask free = kBookKnobs;                    ///< the knobs fitted
  int iterations = 0;                            ///< trust-region steps tried
  std::int64_t num_simulations = 0;              ///< point simulations run
  // The model at `fitted`: time-free points' schedules, timed points' log-residuals and their Jacobian
  // (d log(predicted) / d knob, per target).
  std::vector<RecordedSchedule> schedules;
  std::vector<std::vector<std::array<double, kNumKnobs>>> jacobian;
};

struct CalibrationOptions {
  int max_iterations = 6;  ///< trust-region steps
  KnobMask free = kBookKnobs;  ///< the knobs fitted; the others keep the start's values
  bool need_jacobian_at_fitted = false;  ///< the time-free points' Jacobian at the fitted knobs too (leave-one-out)
};

/// Calibrates from `start`. A point's workload seed is seed + its index, the same in every simulation (common
/// random numbers: the knobs alone move its figures). Progress goes to `ctl` as simulations done / planned.
Result<Calibration> calibrate_serving(const std::vector<ServingPoint>& points, const StepKnobs& start,
                                      const CalibrationOptions& options, std::uint64_t seed, RunControl& ctl);

struct LeaveOneOut {
  std::vector<StepKnobs> knobs;          ///< fold i: fitted without point i
  std::vector<Predictions> predictions;  ///< point i at fold i's knobs
};

/// Leave-one-out on a calibration made with need_jacobian_at_fitted (two points or more).
Result<LeaveOneOut> leave_one_out(const std::vector<ServingPoint>& points, const Calibration& calibration,
                                  std::uint64_t seed, RunControl& ctl);

/// Simulations of each timed point a calibration plans (its progress total): the start, a Jacobian (one per
/// free knob that changes the steps, moves_steps: a client's knob re-times the kept schedule), each step, one
/// refresh, and leave-one-out's.
inline int planned_timed_simulations(int max_iterations, const KnobMask& free = kBookKnobs) {
  int simulated = 0;
  for (std::size_t j = 0; j < free.size(); ++j) simulated += free[j] && moves_steps(j) ? 1 : 0;
  return 3 + 2 * simulated + max_iterations;
}

/// The knobs of `free` that can move a point's figures: the expert layers' share only on a mixture of experts, the
/// low-precision share only on a step at an FP8 or FP4 peak. A knob that cannot is not simulated for the point (its
/// Jacobian column is 0).
KnobMask knobs_moving(const ServingPoint& point, KnobMask free);

/// The simulator's work of a calibration with leave-one-out (engine_budget.h): each time-free point simulated
/// once, each timed point planned_timed_simulations times over the knobs of `free` that move it.
EngineWork calibration_work(const std::vector<ServingPoint>& points, int max_iterations, const KnobMask& free = kBookKnobs);

/// The relative error of a prediction: predicted / measured - 1.
inline double relative_error(double predicted, double measured) { return predicted / measured - 1.0; }

}  // namespace sl::llm
