// T_svc(B): the one question every batching simulator asks of the accelerator.
#include "batching/service_model.h"

#include <cmath>

#include "batching/cpu_batch_measure.h"

namespace sl::batching {
namespace {
/// cpu_fit times batches up to Table 13's largest cap.
constexpr std::int64_t kCpuFitMaxBatch = 128;
}  // namespace

ServiceModel ServiceModel::linear(double fixed_s, double per_item_s) {
  SL_ASSERT(fixed_s >= 0 && per_item_s >= 0 && fixed_s + per_item_s > 0);
  ServiceModel m;
  m.fixed_s_ = fixed_s;
  m.per_item_s_ = per_item_s;
  return m;
}

ServiceModel ServiceModel::interpolated(std::vector<std::pair<std::int64_t, double>> points_s) {
  SL_ASSERT(points_s.size() >= 2);
  for (std::size_t i = 1; i < points_s.size(); ++i) SL_ASSERT(points_s[i].first > points_s[i - 1].first);
  ServiceModel m;
  m.points_s_ = std::move(points_s);
  return m;
}

double ServiceModel::service_s(std::int64_t batch_size) const {
  SL_ASSERT(batch_size >= 1);
  const auto b = static_cast<double>(batch_size);
  if (points_s_.empty()) return fixed_s_ + per_item_s_ * b;
  // The segment holding b; the end segments extend outwards.
  std::size_t hi = 1;
  while (hi + 1 < points_s_.size() && points_s_[hi].first < batch_size) ++hi;
  const auto& [b0, t0] = points_s_[hi - 1];
  const auto& [b1, t1] = points_s_[hi];
  const double slope_s = (t1 - t0) / static_cast<double>(b1 - b0);
  const double t = t0 + slope_s * (b - static_cast<double>(b0));
  SL_ASSERT(t > 0);
  return t;
}

double ServiceModel::throughput_per_s(std::int64_t batch_size) const {
  return static_cast<double>(batch_size) / service_s(batch_size);
}

std::vector<std::pair<std::int64_t, double>> table9_points_s() {
  return {{1, 5.0e-3}, {4, 7.2e-3}, {8, 9.1e-3}, {16, 14.0e-3}, {32, 25.0e-3}};
}

void output_service_model(RunResult& result, const ServiceModel& model, const std::vector<Notice>& notes) {
  if (model.is_linear()) {
    result.output("service_a_ms", model.fixed_s() * 1e3);
    result.output("service_b_ms", model.per_item_s() * 1e3);
  }
  for (const auto& n : notes) result.notice(n.code, n.message);
}

std::vector<ParamSpec> service_model_params() {
  return {choice("service", {"linear", "table9", "cpu_fit"}, "linear"),
          used_when(explored(real("svc_fixed_ms", "ms", 5.0, 0, 1e4), 0, 20), "service", {"linear"}),
          used_when(explored(real("svc_per_item_ms", "ms", 0.6, 0, 1e4), 0, 2), "service", {"linear"})};
}

Result<ServiceModelParams> validate_service_model(const Inputs& in) {
  ServiceModelParams p;
  const std::string& law = in.choice("service");
  p.law = law == "table9" ? ServiceLaw::Table9 : law == "cpu_fit" ? ServiceLaw::CpuFit : ServiceLaw::Linear;
  if (p.law != ServiceLaw::Linear) return p;
  auto linear = validate_linear_service(in);
  if (!linear.ok()) return linear.error();
  p.linear = linear.value();
  return p;
}

Result<LinearServiceMs> validate_linear_service(const Inputs& in) {
  const LinearServiceMs s{in.real("svc_fixed_ms"), in.real("svc_per_item_ms")};
  if (s.fixed_ms + s.per_item_ms > 0) return s;
  return Error{"invalid", "svc_fixed_ms",
               "a batch must take time: svc_fixed_ms + svc_per_item_ms must be > 0 ms, got " +
                   format_number(s.fixed_ms) + " + " + format_number(s.per_item_ms),
               {{"got", format_number(s.fixed_ms + s.per_item_ms)}, {"problem", "zero_sum"}, {"other", "svc_per_item_ms"},
                {"unit", "ms"}}};
}

ServiceModel make_service_model(const ServiceModelParams& params, std::uint64_t seed, std::vector<Notice>* notes) {
  if (params.law == ServiceLaw::Table9) return ServiceModel::interpolated(table9_points_s());
  if (params.law == ServiceLaw::CpuFit) {
    const CpuServiceFit fit = measure_cpu_service_fit(kCpuFitMaxBatch, seed);
    double a_ms = fit.a_ms;
    if (a_ms < 0) {
      if (notes != nullptr)
        notes->push_back({"cpu_fit_negative_a", "the fitted fixed time a = " + format_number(a_ms) +
                                                    " ms is negative (per-item time grows with the batch here); "
                                                    "a = 0 is used"});
      a_ms = 0;
    }
    return ServiceModel::linear(a_ms * 1e-3, fit.b_ms * 1e-3);  // b > 0: time grows with the batch
  }
  return params.linear.model();
}

}  // namespace sl::batching
