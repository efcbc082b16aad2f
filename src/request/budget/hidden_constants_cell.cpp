// Cell request/hidden-constants. Table 6 prints, for four resolutions, an activation term and a modeled
// arithmetic intensity AI(r) = F s / (W + k A224 s), s = (r/224)^2, but not F (work per image), W (weight
// bytes) or k (how many times activations are moved). Dividing through by k shows that only F/k and W/k
// matter, so two rows give a 2x2 linear system for them; the other two rows then check the answer to the
// printed digit. Eq. 1 is the same pixel-count scaling applied to throughput: 224 -> 448 is 4x the work,
// and a measured 3.6x implies a fixed, resolution-independent share of the time. The solved pair is then
// confirmed from ResNet-50's own layer table (resnet50.h, computed from the architecture): F/k is its
// multiply-accumulate count and W/k its parameters at 2 bytes, so k = 2 reads as FLOPs and FP32 weights.
#include <cmath>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/units.h"
#include "request/cells.h"
#include "request/resnet/resnet50.h"
#include "request/budget/table6.h"

namespace sl::request {
namespace {

constexpr double kCurveMinResolution = 112;
constexpr double kCurveMaxResolution = 1024;
constexpr double kCurveStep = 16;

int row_index(const std::string& resolution) {
  const auto& rows = table6_rows();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (std::to_string(static_cast<int>(rows[i].resolution)) == resolution) return static_cast<int>(i);
  SL_ASSERT(false && "choice values are the table's resolutions");
  return 0;
}

struct HiddenConstantsParams {
  int row_a, row_b;           ///< indices into table6_rows(), different
  std::int64_t act_rw_factor; ///< k: how many times activations are moved
  double params_m;            ///< ResNet-50's parameters, millions
  double cand_ops_g, cand_weights_mb;  ///< candidate F/k (1e9 operations) and W/k (MB)
  double peak_flop_per_s, bw_bytes_per_s;
  double r_from_px, r_to_px;
  double measured_slowdown;   ///< T(r_to) / T(r_from), between 1 and the pixel ratio
};

Result<HiddenConstantsParams> validate_hidden_constants(const Inputs& in) {
  const std::string& row_a = in.choice("row_a");
  const std::string& row_b = in.choice("row_b");
  if (row_a == row_b)
    return Error{"invalid", "row_b", "row_b must differ from row_a (both " + row_a +
                                         "): one row gives one equation for two unknowns", {{"got", row_b}, {"problem", "same_rows"}, {"other", "row_a"}}};
  HiddenConstantsParams p{row_index(row_a), row_index(row_b), in.count("act_rw_factor"), in.real("params_m"),
                          in.real("cand_ops_g"), in.real("cand_weights_mb"), in.real("peak_tflop_per_s") * units::kTera,
                          in.real("bw_gb_per_s") * units::kGB, in.real("r_from"), in.real("r_to"),
                          in.real("measured_slowdown")};
  const double t = resolution_scale(p.r_to_px) / resolution_scale(p.r_from_px);
  if (p.r_to_px == p.r_from_px)
    return Error{"invalid", "r_to", "r_to must differ from r_from (" + format_number(p.r_from_px) + " px)",
                 {{"got", format_number(p.r_to_px)}, {"problem", "same_resolution"}, {"other", "r_from"}}};
  const double m = p.measured_slowdown;
  const double lo = std::fmin(1.0, t), hi = std::fmax(1.0, t);
  if (m < lo || m > hi)
    return Error{"invalid", "measured_slowdown",
                 "measured_slowdown must lie between 1 and the pixel-count ratio " + format_number(t) +
                     " for a fixed share to explain it, got " + format_number(m),
                 {{"min", format_number(lo)}, {"max", format_number(hi)}, {"got", format_number(m)}, {"problem", "slowdown_range"},
                  {"ratio", format_number(t)}}};
  return p;
}

/// The 2x2 solve from the chosen rows and its check on the other two rows.
void solve_outputs(const HiddenConstantsParams& p, RunResult& result, const HiddenConstants& h) {
  const int a = p.row_a, b = p.row_b;
  result.output({{"ops_g", h.ops_g}, {"weights_mb", h.weights_mb}, {"ops_lo_g", h.ops_lo_g}, {"ops_hi_g", h.ops_hi_g},
                 {"weights_lo_mb", h.weights_lo_mb}, {"weights_hi_mb", h.weights_hi_mb}});
  int reproduced = 0;
  const auto& rows = table6_rows();
  for (int i = 0; i < static_cast<int>(rows.size()); ++i) {
    if (i == a || i == b) continue;
    const auto& row = rows[static_cast<std::size_t>(i)];
    reproduced += prints_as(modeled_ai(h.ops_g, h.weights_mb, row.resolution), row.ai_flop_per_byte, row.ai_decimals);
  }
  result.output("other_rows_reproduced", reproduced);
  // Identifiability: k = 1 reads (F, W) as multiply-accumulates and FP16 weights, k = 2 as FLOPs and FP32.
  const double k = static_cast<double>(p.act_rw_factor);
  result.output("flop_per_image_g", k * h.ops_g);
  result.output("weight_bytes_mb", k * h.weights_mb);
  result.output("bytes_per_param", k * h.weights_mb / p.params_m);
}

/// The solved constants against ResNet-50's layer table at 224 x 224: F/k against its MACs and W/k against its
/// parameters at 2 bytes (both readings with k = 1), then F = k F/k against k MACs and W = k W/k against
/// parameters at 2k bytes (k = 2: 2 FLOP per MAC and FP32 weights).
void layer_table_outputs(const HiddenConstantsParams& p, RunResult& result, const HiddenConstants& h) {
  const ResnetPlan net = resnet50_plan({});
  const double macs_g = static_cast<double>(net.total_macs()) * 1e-9;
  const double params = static_cast<double>(net.total_params());
  const double fp16_mb = params * 2 * 1e-6;
  const double k = static_cast<double>(p.act_rw_factor);
  result.output("resnet_macs_g", macs_g);
  result.output("resnet_flop_g", 2 * macs_g);
  result.output("resnet_params_m", params * 1e-6);
  result.output("resnet_fp16_mb", fp16_mb);
  result.output("resnet_fp32_mb", 2 * fp16_mb);
  result.output("ops_minus_macs_g", h.ops_g - macs_g);
  result.output("ops_over_macs_frac", h.ops_g / macs_g - 1);
  result.output("weights_minus_fp16_mb", h.weights_mb - fp16_mb);
  result.output("weights_over_fp16_frac", h.weights_mb / fp16_mb - 1);
  // Does the exact count fit the printed digits? (The book's code uses the rounded 8.2e9 FLOP and 25.6 M.)
  result.output("macs_in_box", macs_g >= h.ops_lo_g && macs_g <= h.ops_hi_g ? 1 : 0);
  result.output("fp16_in_box", fp16_mb >= h.weights_lo_mb && fp16_mb <= h.weights_hi_mb ? 1 : 0);
  result.output("table_ops_k_g", k * macs_g);
  result.output("flop_minus_table_g", k * h.ops_g - k * macs_g);
  result.output("table_weight_k_mb", k * fp16_mb);
  result.output("weight_bytes_minus_table_mb", k * h.weights_mb - k * fp16_mb);
  result.output("bytes_per_param_table", k * h.weights_mb * units::kMB / params);
}

/// Table 6 recomputed from candidate constants (the book's code: 4.1e9 and 51.2 MB per unit of k).
void candidate_outputs(const HiddenConstantsParams& p, RunResult& result, const HiddenConstants& h) {
  const double ops = p.cand_ops_g, weights = p.cand_weights_mb;
  std::vector<double> r, s, act, printed, solved, candidate;
  int reproduced = 0;
  for (const auto& row : table6_rows()) {
    r.push_back(row.resolution);
    s.push_back(resolution_scale(row.resolution));
    act.push_back(kActivation224Mb * s.back());
    printed.push_back(row.ai_flop_per_byte);
    solved.push_back(modeled_ai(h.ops_g, h.weights_mb, row.resolution));
    candidate.push_back(modeled_ai(ops, weights, row.resolution));
    reproduced += prints_as(candidate.back(), row.ai_flop_per_byte, row.ai_decimals);
  }
  // Table 6's rows one by one (the book's references name them): 224, 384, 512, 640.
  static_assert(std::tuple_size<std::decay_t<decltype(table6_rows())>>::value == 4, "four printed rows");
  result.output("act_224_mb", act[0]);
  result.output("ai_224", candidate[0]);
  result.output("act_384_mb", act[1]);
  result.output("ai_384", candidate[1]);
  result.output("act_512_mb", act[2]);
  result.output("ai_512", candidate[2]);
  result.output("act_640_mb", act[3]);
  result.output("ai_640", candidate[3]);
  result.output("cand_rows_reproduced", reproduced);
  result.output("cand_in_box", ops >= h.ops_lo_g && ops <= h.ops_hi_g && weights >= h.weights_lo_mb &&
                                   weights <= h.weights_hi_mb);
  result.table("table6")
      .column("resolution", r)
      .column("scale", std::move(s))
      .column("activation_mb", std::move(act))
      .column("ai_printed", std::move(printed))
      .column("ai_solved", std::move(solved))
      .column("ai_candidate", std::move(candidate));
}

void ridge_outputs(const HiddenConstantsParams& p, RunResult& result, const HiddenConstants& h) {
  const double ridge = p.peak_flop_per_s / p.bw_bytes_per_s;
  result.output("ridge_flop_per_byte", ridge);
  result.output("ai_224_over_ridge", modeled_ai(h.ops_g, h.weights_mb, 224) / ridge);
  std::vector<double> r, ai, ai_candidate, ridge_col;
  for (double x = kCurveMinResolution; x <= kCurveMaxResolution; x += kCurveStep) {
    r.push_back(x);
    ai.push_back(modeled_ai(h.ops_g, h.weights_mb, x));
    ai_candidate.push_back(modeled_ai(p.cand_ops_g, p.cand_weights_mb, x));
    ridge_col.push_back(ridge);
  }
  result.table("ai_curve").column("resolution", std::move(r)).column("ai", std::move(ai))
      .column("ai_candidate", std::move(ai_candidate)).column("ridge", std::move(ridge_col));
}

/// Eq. 1: T(r) = a + b s. The theoretical slowdown is the pixel ratio t; a measured m in [1, t] gives the
/// fixed share a / T at each resolution: (t - m) / (t - 1) at r_from, (t - m) / (m (t - 1)) at r_to.
void eq1_outputs(const HiddenConstantsParams& p, RunResult& result) {
  const double t = resolution_scale(p.r_to_px) / resolution_scale(p.r_from_px);
  const double m = p.measured_slowdown;
  result.output("theoretical_slowdown", t);
  result.output("fixed_share_from_frac", (t - m) / (t - 1));
  result.output("fixed_share_to_frac", (t - m) / (m * (t - 1)));
}

Result<RunResult> run_hidden_constants(const HiddenConstantsParams& p, std::uint64_t /*seed*/, RunControl& /*ctl*/) {
  const HiddenConstants h = solve_hidden_constants(p.row_a, p.row_b);
  RunResult result;
  solve_outputs(p, result, h);
  layer_table_outputs(p, result, h);
  candidate_outputs(p, result, h);
  ridge_outputs(p, result, h);
  eq1_outputs(p, result);
  return result;
}

}  // namespace

CellSpec hidden_constants_cell() {
  const std::vector<std::string> rows{"224", "384", "512", "640"};
  CellSpec cell = checked_cell<&validate_hidden_constants, &run_hidden_constants>("request/hidden-constants",
      {choice("row_a", rows, "224"), choice("row_b", rows, "640"), count("act_rw_factor", "", 2, 1, 8),
       real("params_m", "M", 25.6, 1e-3, 1e6), explored(real("cand_ops_g", "G", 4.1, 1e-6, 1e6), 2, 8),
       explored(real("cand_weights_mb", "MB", 51.2, 0, 1e9), 0, 200),
       explored(aliased(real("peak_tflop_per_s", "TFLOP/s", 14, 1e-6, 1e6), {"peak_tflops"}), 1, 1000),
       real("bw_gb_per_s", "GB/s", 900, 1e-6, 1e7), real("r_from", "px", 224, 1, 1e5),
       real("r_to", "px", 448, 1, 1e5), explored(real("measured_slowdown", "×", 3.6, 1e-6, 1e10), 1, 4)});
  cell.uses_seed = false;
  cell.outputs = outputs({"ops_g", "weights_mb", "ops_lo_g", "ops_hi_g", "weights_lo_mb", "weights_hi_mb",
                  "other_rows_reproduced", "flop_per_image_g", "weight_bytes_mb", "bytes_per_param", "resnet_macs_g",
                  "resnet_flop_g", "resnet_params_m", "resnet_fp16_mb", "resnet_fp32_mb", "ops_minus_macs_g",
                  "ops_over_macs_frac", "weights_minus_fp16_mb", "weights_over_fp16_frac", "macs_in_box", "fp16_in_box",
                  "table_ops_k_g", "flop_minus_table_g", "table_weight_k_mb", "weight_bytes_minus_table_mb",
                  "bytes_per_param_table", "act_224_mb", "act_384_mb", "act_512_mb", "act_640_mb", "ai_224", "ai_384",
                  "ai_512", "ai_640", "cand_rows_reproduced", "cand_in_box", out("ridge_flop_per_byte", ""),
                  "ai_224_over_ridge", out("theoretical_slowdown", "×"), "fixed_share_from_frac",
                  "fixed_share_to_frac"});
  cell.tables = {table("table6"), table("ai_curve")};
  return cell;
}

}  // namespace sl::request
