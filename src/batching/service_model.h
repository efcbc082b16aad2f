#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/cell.h"

namespace sl::batching {

/// Service time of one batch on an accelerator, T_svc(B). Two laws: the book's linear model
/// T_svc(B) = fixed + per_item * B (eq. 10 and Table 11: 5 ms + 0.6 ms * B), and measured points joined by
/// straight lines (Table 9's ResNet-50/V100 sweep). A small value type: a simulator asks only service_s(B),
/// so another law (such as a fit measured on this CPU) is one more factory, not a change to the simulators.
class ServiceModel {
 public:
  /// T_svc(B) = fixed_s + per_item_s * B. Needs fixed_s >= 0, per_item_s >= 0 and T_svc(1) > 0.
  static ServiceModel linear(double fixed_s, double per_item_s);
  /// Piecewise linear through (batch, seconds) points with strictly increasing batches (at least two).
  /// Beyond the last point the last segment is extended; below the first, the first one.
  static ServiceModel interpolated(std::vector<std::pair<std::int64_t, double>> points_s);

  /// Seconds to serve a batch of `batch_size` >= 1 requests.
  double service_s(std::int64_t batch_size) const;
  /// Requests per second when every batch holds `batch_size` (eq. 10): B / T_svc(B).
  double throughput_per_s(std::int64_t batch_size) const;
  /// True for the linear law, false for interpolated points.
  bool is_linear() const { return points_s_.empty(); }
  /// The linear law's coefficients (0 for interpolated points).
  double fixed_s() const { return fixed_s_; }
  double per_item_s() const { return per_item_s_; }

 private:
  ServiceModel() = default;
  double fixed_s_ = 0;
  double per_item_s_ = 0;
  std::vector<std::pair<std::int64_t, double>> points_s_;  // empty for the linear law
};

/// Table 9's measured inference times (ResNet-50 on a V100): batch 1, 4, 8, 16, 32 -> 5.0, 7.2, 9.1,
/// 14.0, 25.0 ms.
std::vector<std::pair<std::int64_t, double>> table9_points_s();

/// The parameters a cell adds to let the reader pick T_svc(B): `service` {linear, table9, cpu_fit},
/// `svc_fixed_ms` (default 5) and `svc_per_item_ms` (default 0.6) for the linear law. cpu_fit measures
/// this CPU now (cell cpu-batch-measure's MLP, B = 1 ... 128) and uses its line a + b B.
std::vector<ParamSpec> service_model_params();

/// Which law T_svc(B) follows, as the `service` choice picks it.
enum class ServiceLaw { Linear, Table9, CpuFit };

/// The linear law's coefficients as the parameters svc_fixed_ms and svc_per_item_ms give them: T_svc(B) =
/// fixed_ms + per_item_ms x B, the book's 5 + 0.6 B ms by default.
struct LinearServiceMs {
  double fixed_ms = 5.0;
  double per_item_ms = 0.6;

  ServiceModel model() const { return ServiceModel::linear(fixed_ms * 1e-3, per_item_ms * 1e-3); }
};

/// Reads svc_fixed_ms and svc_per_item_ms; an error naming svc_fixed_ms ("invalid") when a batch takes no time:
/// fixed + per item <= 0 ms. A cell calls it where its own checks put this one.
Result<LinearServiceMs> validate_linear_service(const Inputs& in);

/// The checked service-model parameters of a cell: the law and, for the linear one, its coefficients.
struct ServiceModelParams {
  ServiceLaw law = ServiceLaw::Linear;
  LinearServiceMs linear;
};

/// Reads the parameters of service_model_params(); an error when the linear law's coefficients are both zero.
Result<ServiceModelParams> validate_service_model(const Inputs& in);

/// The model those parameters describe. With cpu_fit the measurement runs here (about a second), and
/// `notes` receives what the reader must know (a negative fitted a, set to 0).
ServiceModel make_service_model(const ServiceModelParams& params, std::uint64_t seed, std::vector<Notice>* notes);

/// Outputs describing the model used: service_a_ms and service_b_ms for a linear law (the measured
/// ones for cpu_fit), and any notes as notices.
void output_service_model(RunResult& result, const ServiceModel& model, const std::vector<Notice>& notes);

}  // namespace sl::batching
