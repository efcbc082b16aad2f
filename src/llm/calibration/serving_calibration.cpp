#include "llm/calibration/serving_calibration.h"

#include <algorithm>
#include <cmath>

#include "core/distributions.h"
#include "core/error.h"
#include "core/portable_log.h"

namespace sl::llm {
namespace {

// Lengths in units of knob_scale(). A simulated figure moves in small jumps as the knobs move (a batch gains or loses
// a request), so differences are taken over a step that spans many jumps; the trust region may still shrink far
// below it, since where the model fits exactly (synthetic points) the steps keep closing on the knobs.
constexpr double kDifferenceStep = 0.05;
constexpr double kInitialRadius = 0.5;
constexpr double kMinRadius = 1e-3;
constexpr int kInnerIterations = 40;  // trial steps of each model fit

std::vector<double> scaled(const StepKnobs& k) {
  std::vector<double> x = knob_vector(k);
  for (std::size_t j = 0; j < x.size(); ++j) x[j] /= knob_scale()[j];
  return x;
}

double scaled_distance(const StepKnobs& a, const StepKnobs& b) {
  const std::vector<double> x = scaled(a), y = scaled(b);
  double sum = 0;
  for (std::size_t j = 0; j < x.size(); ++j) sum += (x[j] - y[j]) * (x[j] - y[j]);
  return std::sqrt(sum);
}

using Jacobian = std::vector<std::vector<std::array<double, kNumKnobs>>>;

/// A figure's robust log-error at scaled knobs `to`, its log linearised around `from` (where it was `predicted`)
/// with gradient `row`: the prediction's log moves linearly, the robust weighting stays exact (no exp: its last
/// bit differs between glibc and Emscripten's musl; and the logs are core/portable_log.h's for the same reason).
double linearised(double predicted, double measured, const std::array<double, kNumKnobs>& row,
                  const std::vector<double>& from, const std::vector<double>& to) {
  double log_error = portable_log(predicted / measured);
  for (std::size_t j = 0; j < from.size(); ++j) log_error += row[j] * (to[j] - from[j]);
  return robust(log_error);
}

/// A target's figure of a run, as its client counts it: TTFT and E2E with the request's time outside the engine
/// (client-timed points), throughput in the client's tokens.
double client_value(const ServingPoint& point, const Target& t, const RecordedSchedule& s, const std::vector<double>& end_s,
                    std::vector<double>& scratch, const StepKnobs& k) {
  const double overhead_s = point.client_timed ? k.request_overhead_s : 0.0;
  const double lag = point.client_timed ? k.first_text_lag_tokens : 0.0;
  const double v = s.value(t.metric, t.stat, end_s, scratch, t.count_scale, overhead_s, lag);
  return t.metric == Metric::Throughput ? v * t.client_tokens_per_token : v;
}

/// A time-free point's figures at `k`, from its schedule re-timed (exact).
Predictions retimed(const ServingPoint& point, const RecordedSchedule& s, const StepKnobs& k, std::vector<double>& end_s,
                    std::vector<double>& scratch) {
  s.retime(k, end_s);
  Predictions p;
  for (const Target& t : point.targets) p.push_back(client_value(point, t, s, end_s, scratch, k));
  return p;
}

/// The knobs `k` moved by `step` (scaled) along knob j.
StepKnobs moved(const StepKnobs& k, std::size_t j, double step) {
  std::vector<double> x = knob_vector(k);
  x[j] += step * knob_scale()[j];
  return knobs_from(x);
}

/// A forward-difference step along knob j from `k`: backwards where forwards leaves the box.
double difference_step(const StepKnobs& k, std::size_t j) {
  return knob_vector(k)[j] + kDifferenceStep * knob_scale()[j] > knob_upper()[j] ? -kDifferenceStep : kDifferenceStep;
}

/// The box around `k` of half-width `radius` (scaled), inside knob_fit.h's box.
void region(const StepKnobs& k, double radius, std::vector<double>& lower, std::vector<double>& upper) {
  lower = knob_lower(), upper = knob_upper();
  const std::vector<double> x = knob_vector(k);
  for (std::size_t j = 0; j < x.size(); ++j) {
    lower[j] = std::max(lower[j], x[j] - radius * knob_scale()[j]);
    upper[j] = std::min(upper[j], x[j] + radius * knob_scale()[j]);
  }
}

/// The calibration's state: the points, which are time-free, their schedules, and the timed points' figures and
/// Jacobian at the current knobs.
class Fit {
 public:
  Fit(const std::vector<ServingPoint>& points, const KnobMask& free, std::uint64_t seed, RunControl& ctl, double planned)
      : points_(points), free_(free), seed_(seed), ctl_(ctl), planned_(planned), schedules_(points.size()),
        jacobian_(points.size()) {
    for (const ServingPoint& p : points) moving_.push_back(knobs_moving(p, free));
  }

  /// Records the time-free points once (exact at any knobs) and simulates the timed ones at `k`.
  std::vector<Predictions> start(const StepKnobs& k) {
    std::vector<Predictions> p(points_.size());
    for (std::size_t i = 0; i < points_.size(); ++i)
      if (is_time_free(points_[i].workload)) p[i] = simulate(i, k, &schedules_[i]);
    center_ = simulate_timed(k, kNumKnobs, &center_schedules_);
    knobs_ = k;
    for (std::size_t i = 0; i < points_.size(); ++i)
      if (!is_time_free(points_[i].workload)) p[i] = center_[i];
    return p;
  }

  /// Forward differences of the timed points' log-figures at the current knobs (simulated; 0 without simulating
  /// where the knob cannot move the point, knobs_moving).
  void difference_jacobian() {
    for (std::size_t j = 0; j < static_cast<std::size_t>(kNumKnobs); ++j) {
      if (!free_[j]) continue;  // its column stays 0: the model never moves it
      const double h = difference_step(knobs_, j);
      // A knob of the client's timing alone: the same steps, timed again (exact, no simulation).
      const std::vector<Predictions> p = moves_steps(j) ? simulate_timed(moved(knobs_, j, h), j) : reclocked(moved(knobs_, j, h), j);
      for (std::size_t i = 0; i < points_.size(); ++i) {
        if (is_time_free(points_[i].workload)) continue;
        jacobian_[i].resize(center_[i].size());
        for (std::size_t t = 0; t < center_[i].size(); ++t)
          jacobian_[i][t][j] = p[i].empty() ? 0.0 : portable_log(p[i][t] / center_[i][t]) / h;
      }
    }
    is_fresh_ = true;
  }

  /// The same differences for the time-free points, re-timed (for leave-one-out's linear model).
  void retimed_jacobian() {
    std::vector<double> end_s, scratch;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      if (!is_time_free(points_[i].workload)) continue;
      const Predictions at = retimed(points_[i], schedules_[i], knobs_, end_s, scratch);
      jacobian_[i].resize(at.size());
      for (std::size_t j = 0; j < static_cast<std::size_t>(kNumKnobs); ++j) {
        if (!free_[j]) continue;
        const double h = difference_step(knobs_, j);
        const Predictions p = retimed(points_[i], schedules_[i], moved(knobs_, j, h), end_s, scratch);
        for (std::size_t t = 0; t < p.size(); ++t) jacobian_[i][t][j] = portable_log(p[t] / at[t]) / h;
      }
    }
  }

  /// Best knobs of the model (timed points linearised, time-free ones re-timed) inside the box and `radius` of the
  /// current knobs.
  Result<KnobFit> step(double radius, int max_iterations) const {
    std::vector<double> lower, upper;
    region(knobs_, radius, lower, upper);
    std::int64_t m = 0;
    for (const ServingPoint& p : points_) m += static_cast<std::int64_t>(p.targets.size());
    std::vector<double> end_s, scratch;
    const KnobResiduals residuals = [this, end_s, scratch](const std::vector<double>& theta,
                                                           std::vector<double>& r) mutable {
      return model_residuals(knobs_from(theta), r, end_s, scratch);
    };
    return fit_knobs(residuals, m, knobs_, lower, upper, max_iterations, free_);
  }

  /// Simulates the timed points at `k`; returns the true cost there and keeps their figures in `at`.
  double cost_at(const StepKnobs& k, std::vector<Predictions>& at) {
    at = simulate_timed(k, kNumKnobs, &trial_schedules_);
    std::vector<Predictions> all = at;
    std::vector<double> end_s, scratch;
    for (std::size_t i = 0; i < points_.size(); ++i)
      if (is_time_free(points_[i].workload)) all[i] = retimed(points_[i], schedules_[i], k, end_s, scratch);
    return cost_of(all);
  }

  /// 0.5 x the sum of squared log-errors of every point's figures.
  double cost_of(const std::vector<Predictions>& p) const {
    double cost = 0;
    for (std::size_t i = 0; i < points_.size(); ++i)
      for (std::size_t t = 0; t < p[i].size(); ++t)
        cost += 0.5 * square(robust_log_error(p[i][t], points_[i].targets[t].measured));
    return cost;
  }

  /// Moves to `k` (timed figures `at`), updating the Jacobian by Broyden's rule: each row gains the change it
  /// missed along the step, so the model agrees with both simulations.
  void move_to(const StepKnobs& k, std::vector<Predictions> at) {
    const std::vector<double> from = scaled(knobs_), to = scaled(k);
    std::array<double, kNumKnobs> s{};
    double ss = 0;
    for (std::size_t j = 0; j < s.size(); ++j) s[j] = to[j] - from[j], ss += s[j] * s[j];
    for (std::size_t i = 0; i < points_.size() && ss > 0; ++i)
      for (std::size_t t = 0; t < jacobian_[i].size(); ++t) {
        double missed = portable_log(at[i][t] / center_[i][t]);
        for (std::size_t j = 0; j < s.size(); ++j) missed -= jacobian_[i][t][j] * s[j];
        for (std::size_t j = 0; j < s.size(); ++j) jacobian_[i][t][j] += missed * s[j] / ss;
      }
    knobs_ = k;
    center_ = std::move(at);
    center_schedules_.swap(trial_schedules_);
    is_fresh_ = false;
  }

  /// Every point's figures at the current knobs (timed: as simulated there).
  std::vector<Predictions> figures() const {
    std::vector<Predictions> p = center_;
    std::vector<double> end_s, scratch;
    for (std::size_t i = 0; i < points_.size(); ++i)
      if (is_time_free(points_[i].workload)) p[i] = retimed(points_[i], schedules_[i], knobs_, end_s, scratch);
    return p;
  }

  const StepKnobs& knobs() const { return knobs_; }
  bool is_fresh() const { return is_fresh_; }
  std::int64_t num_simulations() const { return num_simulations_; }
  std::vector<RecordedSchedule>& schedules() { return schedules_; }
  Jacobian& jacobian() { return jacobian_; }

 private:
  static double square(double x) { return x * x; }

  Predictions simulate(std::size_t i, const StepKnobs& k, RecordedSchedule* schedule) {
    ++num_simulations_;
    ctl_.report(static_cast<double>(num_simulations_), planned_);
    return simulate_point(points_[i], k, seed_ + i, schedule);
  }

  /// The timed points at `k`; with `knob`, only those it moves (the others' figures left empty). With `schedules`,
  /// keeps the schedules of the points a client's knob moves (reclocked's).
  std::vector<Predictions> simulate_timed(const StepKnobs& k, std::size_t knob = kNumKnobs,
                                          std::vector<RecordedSchedule>* schedules = nullptr) {
    std::vector<Predictions> p(points_.size());
    if (schedules != nullptr) schedules->resize(points_.size());
    for (std::size_t i = 0; i < points_.size(); ++i) {
      if (is_time_free(points_[i].workload) || (knob != kNumKnobs && !moving_[i][knob])) continue;
      const bool keep = schedules != nullptr && is_client_moved(i);
      p[i] = simulate(i, k, keep ? &(*schedules)[i] : nullptr);
    }
    return p;
  }

  /// The timed points `knob` (a client's) moves, at `k`: their current schedules timed as the client would.
  std::vector<Predictions> reclocked(const StepKnobs& k, std::size_t knob) const {
    std::vector<Predictions> p(points_.size());
    std::vector<double> scratch;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      if (is_time_free(points_[i].workload) || !moving_[i][knob]) continue;
      const RecordedSchedule& s = center_schedules_[i];
      for (const Target& t : points_[i].targets) p[i].push_back(client_value(points_[i], t, s, s.recorded_end_s(), scratch, k));
    }
    return p;
  }

  bool is_client_moved(std::size_t i) const {
    for (std::size_t j = 0; j < static_cast<std::size_t>(kNumKnobs); ++j)
      if (!moves_steps(j) && moving_[i][j]) return true;
    return false;
  }

  bool model_residuals(const StepKnobs& k, std::vector<double>& r, std::vector<double>& end_s,
                       std::vector<double>& scratch) const {
    const std::vector<double> from = scaled(knobs_), to = scaled(k);
    std::size_t n = 0;
    for (std::size_t i = 0; i < points_.size(); ++i) {
      const std::vector<Target>& targets = points_[i].targets;
      if (is_time_free(points_[i].workload)) {
        const Predictions p = retimed(points_[i], schedules_[i], k, end_s, scratch);
        for (std::size_t t = 0; t < p.size(); ++t) {
          if (!(p[t] > 0)) return false;
          r[n++] = robust_log_error(p[t], targets[t].measured);
        }
        continue;
      }
      for (std::size_t t = 0; t < targets.size(); ++t) r[n++] = linearised(center_[i][t], targets[t].measured, jacobian_[i][t], from, to);
    }
    return true;
  }

  const std::vector<ServingPoint>& points_;
  KnobMask free_;
  std::vector<KnobMask> moving_;  ///< per point, the free knobs that can move it
  std::uint64_t seed_;
  RunControl& ctl_;
  double planned_;
  std::vector<RecordedSchedule> schedules_;  ///< time-free points only
  /// Timed points a client's knob moves: their schedules at knobs_, and at the last trial (cost_at's).
  std::vector<RecordedSchedule> center_schedules_, trial_schedules_;
  Jacobian jacobian_;                        ///< timed points only, per scaled knob
  std::vector<Predictions> center_;          ///< timed points' figures at knobs_
  StepKnobs knobs_;
  bool is_fresh_ = false;
  std::int64_t num_simulations_ = 0;
};

}  // namespace

Predictions simulate_point(const ServingPoint& point, const StepKnobs& knobs, std::uint64_t seed,
                           RecordedSchedule* schedule) {
  EngineConfig config = point.config;
  config.gpu = with_knobs(config.gpu, knobs);
  config.keep_series = false;
  Workload w = make_recipe_workload(point.workload, seed);
  RunControl quiet;
  RecordedSchedule s = record_schedule(config, w, quiet, point.workload.num_warmup);
  Predictions p;
  std::vector<double> scratch;
  for (const Target& t : point.targets)
    p.push_back(client_value(point, t, s, s.recorded_end_s(), scratch, knobs));
  if (schedule != nullptr) *schedule = std::move(s);
  return p;
}

KnobMask knobs_moving(const ServingPoint& point, KnobMask free) {
  free[static_cast<std::size_t>(Knob::ExpertEfficiency)] &= point.config.model.is_moe();
  free[static_cast<std::size_t>(Knob::LowPrecisionEfficiency)] &= point.config.gpu.low_precision_peak;
  bool ttft = false, latency = false;  // figures a client's timing moves
  for (const Target& t : point.targets) {
    ttft = ttft || t.metric == Metric::Ttft || t.metric == Metric::Tpot;
    latency = latency || t.metric == Metric::Ttft || t.metric == Metric::E2e;
  }
  free[static_cast<std::size_t>(Knob::RequestOverhead)] &= point.client_timed && latency;
  free[static_cast<std::size_t>(Knob::FirstTextLag)] &= point.client_timed && ttft;
  return free;
}

EngineWork calibration_work(const std::vector<ServingPoint>& points, int max_iterations, const KnobMask& free) {
  EngineWork total;
  for (const ServingPoint& p : points) {
    const WorkloadRecipe& w = p.workload;
    OpenLoopParams o;
    o.num_requests = w.num_warmup + w.num_requests;
    o.rate_per_s = w.arrival == Arrival::Poisson ? w.rate_per_s : 1e9;  // a burst: everything in flight at once
    o.prompt_tokens = Distribution::deterministic(static_cast<double>(w.prompt_tokens - w.reuse.system_prompt_tokens));
    o.output_tokens = Distribution::deterministic(static_cast<double>(w.output_tokens));
    o.shared_prefix_tokens = w.reuse.system_prompt_tokens;
    o.max_model_len = w.prompt_tokens + w.output_tokens + 1;
    const EnginePool pool{p.config.model, p.config.gpu, p.config.kv_cache.num_blocks, p.config.kv_cache.block_size,
                          p.config.scheduler, p.config.kv_cache.enable_caching};
    const double runs = is_time_free(w) ? 1.0
                                        : static_cast<double>(planned_timed_simulations(max_iterations, knobs_moving(p, free)));
    total += open_loop_work(o, pool).times(runs);
  }
  return total;
}

Result<Calibration> calibrate_serving(const std::vector<ServingPoint>& points, const StepKnobs& start,
                                      const CalibrationOptions& options, std::uint64_t seed, RunControl& ctl) {
  SL_ASSERT(!points.empty() && options.max_iterations >= 0);
  std::size_t num_timed = 0;
  double planned = static_cast<double>(points.size());
  for (const ServingPoint& p : points) {
    if (is_time_free(p.workload)) continue;
    ++num_timed;
    planned += planned_timed_simulations(options.max_iterations, knobs_moving(p, options.free));
  }
  Fit fit(points, options.free, seed, ctl, planned);
  Calibration c;
  c.free = options.free;
  c.start = clamped_to_box(start);
  c.at_start = fit.start(c.start);
  double cost = fit.cost_of(c.at_start);
  c.start_cost = cost;
  std::vector<Predictions> at;
  if (num_timed > 0) fit.difference_jacobian();
  double radius = kInitialRadius;
  for (c.iterations = 0; c.iterations < options.max_iterations && radius > kMinRadius; ++c.iterations) {
    auto best = fit.step(radius, kInnerIterations);
    if (!best.ok()) return best.error();
    const StepKnobs next = best.value().knobs;
    const double step = scaled_distance(next, fit.knobs());
    if (step < 0.5 * kMinRadius) break;
    const double predicted_fall = cost - best.value().lsq.cost;
    const double next_cost = fit.cost_at(next, at);  // no timed point: the model's own cost, re-timed again
    if (next_cost < cost) {
      const double agreement = predicted_fall > 0 ? (cost - next_cost) / predicted_fall : 0;
      fit.move_to(next, std::move(at));
      cost = next_cost;
      if (agreement > 0.75 && step > 0.9 * radius) radius *= 2;
      if (agreement < 0.25) radius /= 2;
    } else {
      radius /= 4;
      if (num_timed > 0 && !fit.is_fresh()) fit.difference_jacobian();
    }
  }
  if (options.need_jacobian_at_fitted) fit.retimed_jacobian();  // the timed points' is Broyden's, at these knobs
  c.fitted = fit.knobs();
  c.fitted_cost = cost;
  c.at_fitted = fit.figures();
  auto final_model = fit.step(kMinRadius, 1);  // which knobs the measurements see
  if (!final_model.ok()) return final_model.error();
  c.is_unseen = final_model.value().is_unseen;
  c.num_simulations = fit.num_simulations();
  c.schedules = std::move(fit.schedules());
  c.jacobian = std::move(fit.jacobian());
  return c;
}

Result<LeaveOneOut> leave_one_out(const std::vector<ServingPoint>& points, const Calibration& c, std::uint64_t seed,
                                  RunControl& ctl) {
  SL_ASSERT(points.size() >= 2 && c.schedules.size() == points.size() && c.jacobian.size() == points.size());
  // Each fold: one model fit from the knobs fitted on all points, every other point's log-error linearised there
  // (the Jacobian of the calibration's last step), then the held-out point predicted exactly.
  const std::vector<double> at = scaled(c.fitted);
  LeaveOneOut loo;
  std::vector<double> lower, upper, end_s, scratch;
  region(c.fitted, kInitialRadius, lower, upper);
  for (std::size_t held = 0; held < points.size(); ++held) {
    std::int64_t m = 0;
    for (std::size_t i = 0; i < points.size(); ++i)
      if (i != held) m += static_cast<std::int64_t>(points[i].targets.size());
    const KnobResiduals residuals = [&](const std::vector<double>& theta, std::vector<double>& r) {
      const std::vector<double> to = scaled(knobs_from(theta));
      std::size_t n = 0;
      for (std::size_t i = 0; i < points.size(); ++i) {
        if (i == held) continue;
        for (std::size_t t = 0; t < points[i].targets.size(); ++t)
          r[n++] = linearised(c.at_fitted[i][t], points[i].targets[t].measured, c.jacobian[i][t], at, to);
      }
      return true;
    };
    auto best = fit_knobs(residuals, m, c.fitted, lower, upper, kInnerIterations, c.free);
    if (!best.ok()) return best.error();
    const StepKnobs k = best.value().knobs;
    loo.knobs.push_back(k);
    const ServingPoint& p = points[held];
    loo.predictions.push_back(is_time_free(p.workload) ? retimed(p, c.schedules[held], k, end_s, scratch)
                                                       : simulate_point(p, k, seed + held));
    ctl.report(static_cast<double>(held + 1), static_cast<double>(points.size()));
  }
  return loo;
}

}  // namespace sl::llm
