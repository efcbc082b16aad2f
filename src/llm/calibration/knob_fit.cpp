#include "llm/calibration/knob_fit.h"

#include <algorithm>
#include <cmath>

#include "core/error.h"
#include "core/portable_log.h"

namespace sl::llm {
namespace {

/// A knob the residuals do not move: nudged by 1 % of its scale (inside the box), not one residual changes. A knob
/// the fit does not free is unseen.
std::vector<bool> unseen_knobs(const KnobResiduals& residuals, const std::vector<double>& theta, std::int64_t m,
                               const KnobMask& free) {
  std::vector<double> base(static_cast<std::size_t>(m)), moved(static_cast<std::size_t>(m));
  std::vector<bool> unseen(kNumKnobs, false);
  for (std::size_t j = 0; j < unseen.size(); ++j) unseen[j] = !free[j];
  if (!residuals(theta, base)) return unseen;
  for (std::size_t j = 0; j < static_cast<std::size_t>(kNumKnobs); ++j) {
    if (!free[j]) continue;
    std::vector<double> t = theta;
    const double step = 0.01 * knob_scale()[j];
    t[j] += t[j] + step <= knob_upper()[j] ? step : -step;
    unseen[j] = residuals(t, moved) && moved == base;
  }
  return unseen;
}

}  // namespace

double robust(double r) {
  const double a = portable_log(std::fabs(r) + std::sqrt(r * r + 1.0));
  return r < 0 ? -a : a;
}

double robust_log_error(double predicted, double measured) { return robust(portable_log(predicted / measured)); }

std::vector<double> knob_vector(const StepKnobs& k) {
  return {k.compute_efficiency, k.bandwidth_efficiency, k.layer_tax_s, k.dispatch_tax_s,
          k.step_host_s, k.request_overhead_s, k.half_efficiency_tokens, k.low_precision_efficiency, k.expert_efficiency,
          k.first_text_lag_tokens};
}

StepKnobs knobs_from(const std::vector<double>& theta) {
  SL_ASSERT(theta.size() == static_cast<std::size_t>(kNumKnobs));
  return {theta[0], theta[1], theta[2], theta[3], theta[4], theta[5], theta[6], theta[7], theta[8], theta[9]};
}

const std::vector<double>& knob_lower() {
  static const std::vector<double> lower = {0.05, 0.05, 0.0, 0.0, 0.0, 0.0, 0.0, 0.2, 0.1, 0.0};
  return lower;
}

const std::vector<double>& knob_upper() {
  static const std::vector<double> upper = {1.0, 1.0, 1e-3, 0.05, 0.02, 0.5, 2048.0, 1.0, 1.0, 16.0};
  return upper;
}

const std::vector<double>& knob_scale() {
  static const std::vector<double> scale = {0.4, 1.0, 1e-4, 1e-3, 1e-3, 1e-2, 64.0, 0.2, 0.2, 1.0};
  return scale;
}

StepKnobs clamped_to_box(const StepKnobs& knobs) {
  std::vector<double> theta = knob_vector(knobs);
  for (std::size_t j = 0; j < theta.size(); ++j) theta[j] = std::clamp(theta[j], knob_lower()[j], knob_upper()[j]);
  return knobs_from(theta);
}

Result<KnobFit> fit_knobs(const KnobResiduals& residuals, std::int64_t num_residuals, const StepKnobs& start,
                          const std::vector<double>& lower, const std::vector<double>& upper, int max_iterations,
                          const KnobMask& free) {
  // The problem over the free knobs only; the residuals see every knob, the fixed ones at their start.
  const std::vector<double> all = knob_vector(start);
  std::vector<std::size_t> index;
  for (std::size_t j = 0; j < all.size(); ++j)
    if (free[j]) index.push_back(j);
  SL_ASSERT(!index.empty());
  const auto full = [all, index](const std::vector<double>& theta) {
    std::vector<double> x = all;
    for (std::size_t i = 0; i < index.size(); ++i) x[index[i]] = theta[i];
    return x;
  };
  LsqProblem p;
  for (const std::size_t j : index) {
    p.initial.push_back(all[j]);
    p.lower.push_back(lower[j]);
    p.upper.push_back(upper[j]);
    p.scale.push_back(knob_scale()[j]);
  }
  p.num_residuals = num_residuals;
  p.residuals = [&residuals, &full](const std::vector<double>& theta, std::vector<double>& r) { return residuals(full(theta), r); };
  LsqOptions o;
  o.max_iterations = max_iterations;
  o.tolerance = 1e-8;
  auto r = fit_least_squares(p, o);
  if (!r.ok()) return r.error();
  KnobFit f;
  const std::vector<double> theta = full(r.value().theta);
  f.knobs = knobs_from(theta);
  f.lsq = std::move(r.value());
  f.lsq.theta = theta;
  // Per knob, in Knob order: a fixed knob has no spread and sits on no bound.
  std::vector<double> std_errors(f.lsq.std_errors.empty() ? 0 : all.size(), 0.0);
  std::vector<bool> at_bound(all.size(), false);
  for (std::size_t i = 0; i < index.size(); ++i) {
    if (!std_errors.empty()) std_errors[index[i]] = f.lsq.std_errors[i];
    if (i < f.lsq.at_bound.size()) at_bound[index[i]] = f.lsq.at_bound[i];
  }
  f.lsq.std_errors = std::move(std_errors);
  f.lsq.at_bound = std::move(at_bound);
  f.is_unseen = unseen_knobs(residuals, theta, num_residuals, free);
  return f;
}

StepWork decode_work(const StepSample& s) {
  StepWork w;
  w.num_decode_seqs = s.batch;
  w.decode_context_tokens = s.batch * s.context_tokens;
  return w;
}

Result<KnobFit> fit_step_times(const ModelSpec& model, const GpuSpec& gpu, const TensorParallel& tp,
                               const std::vector<StepSample>& samples, const StepKnobs& start, int max_iterations) {
  const KnobResiduals residuals = [&](const std::vector<double>& theta, std::vector<double>& r) {
    const StepTimeModel step_time(model, with_knobs(gpu, knobs_from(theta)), tp);
    for (std::size_t i = 0; i < samples.size(); ++i)
      r[i] = robust_log_error(step_time(decode_work(samples[i])).total_s, samples[i].step_s);
    return true;
  };
  return fit_knobs(residuals, static_cast<std::int64_t>(samples.size()), clamped_to_box(start), knob_lower(), knob_upper(),
                   max_iterations, kBookKnobs);
}

}  // namespace sl::llm
