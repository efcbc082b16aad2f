#include "request/resnet/resnet_timing.h"

#include <algorithm>
#include <cmath>

#include "core/clock.h"
#include "core/stats.h"

namespace sl::request {

ForwardTiming time_forward(const ResnetPlan& plan, const ResnetWeights& w, Layout layout, const float* image,
                           ResnetWorkspace& ws, std::int64_t repeats, PassProgress& progress) {
  ForwardTiming t;
  t.logits.resize(static_cast<std::size_t>(plan.fc_out));
  std::vector<double> pass_s;
  for (std::int64_t pass = 0; pass <= repeats; ++pass) {
    std::vector<double> ends_s;
    const double start_s = wall_now_s();
    resnet_forward(plan, w, layout, image, ws, t.logits.data(), [&](std::int64_t macs) {
      ends_s.push_back(wall_now_s());
      progress.ctl.report(progress.done_macs + static_cast<double>(macs), progress.total_macs);
    });
    const double end_s = wall_now_s();
    progress.done_macs += static_cast<double>(plan.conv_macs());
    if (pass == 0) continue;  // warm-up
    pass_s.push_back(end_s - start_s);
    t.layer_ms.clear();
    for (std::size_t i = 0; i < ends_s.size(); ++i)
      t.layer_ms.push_back(1e3 * (ends_s[i] - (i > 0 ? ends_s[i - 1] : start_s)));
  }
  t.median_s = std::max(quantile(pass_s, 0.5), 1e-9);
  t.pass_s = std::move(pass_s);
  return t;
}

double layer_gflop_per_s(double mmac, double ms) { return ms > 0 ? 2.0 * mmac / ms : 0.0; }

SpeedupRange speedup_range(const std::vector<double>& baseline_pass_s, const std::vector<double>& other_pass_s) {
  if (baseline_pass_s.empty() || other_pass_s.empty()) return {};
  const auto [b_min, b_max] = std::minmax_element(baseline_pass_s.begin(), baseline_pass_s.end());
  const auto [o_min, o_max] = std::minmax_element(other_pass_s.begin(), other_pass_s.end());
  return {*b_min / std::max(*o_max, 1e-12), *b_max / std::max(*o_min, 1e-12)};
}

OutputDifference output_difference(const std::vector<float>& a, const std::vector<float>& b) {
  OutputDifference d;
  double max_a = 0;
  for (std::size_t j = 0; j < a.size() && j < b.size(); ++j) {
    d.max_abs = std::max(d.max_abs, std::fabs(static_cast<double>(a[j]) - static_cast<double>(b[j])));
    max_a = std::max(max_a, std::fabs(static_cast<double>(a[j])));
  }
  d.max_rel = max_a > 0 ? d.max_abs / max_a : 0.0;
  return d;
}

}  // namespace sl::request
