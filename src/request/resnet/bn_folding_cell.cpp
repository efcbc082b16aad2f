// Cell request/bn-folding. Every one of ResNet-50's 53 batch norms (with random statistics, so the fold is
// not the identity) is folded into the convolution before it: w' = w gamma / sigma, b' = beta -
// gamma mean / sigma. The same image runs through the network before (conv, then a separate BN pass that
// reads and writes each conv output once more) and after (one conv with a bias); both are timed on this
// CPU. The fold removes 2 x 4 bytes per element of every BN output from the memory traffic and changes the
// logits only by float rounding (~1e-6 relative), not bit for bit.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/checked_run.h"
#include "core/clock.h"
#include "core/outputs.h"
#include "request/resnet/bn_fold.h"
#include "request/cells.h"
#include "request/resnet/image_pipeline.h"
#include "kernels/resize.h"
#include "request/resnet/resnet_timing.h"

namespace sl::request {
namespace {

constexpr std::int64_t kPhotoSide = 256;
constexpr int kNumStages = 5;  // stem + 4 stages
// The sliders stop where one run (width 0.25) still takes about a second in a browser tab (Chromium on a
// busy 2-core machine: 1.1 s at 256 px, 2.5 s at 320; each further repeat adds ~0.4 s); the text fields
// accept the whole range.
constexpr std::int64_t kMaxSliderResolution = 256;
constexpr std::int64_t kMaxSliderRepeats = 3;

double width_of(const std::string& choice) { return choice == "0.25" ? 0.25 : choice == "0.5" ? 0.5 : 1.0; }

struct BnFoldingParams {
  ResnetConfig net;
  std::int64_t repeats = 1;  ///< timed forward passes before and after folding
};

Result<BnFoldingParams> validate_bn_folding(const Inputs& in) {
  return BnFoldingParams{{in.count("resolution"), width_of(in.choice("width")), 1000}, in.count("repeats")};
}

/// Two copies of the weights (with BN and folded) did not fit.
Error allocation_error(const ResnetPlan& plan) {
  const double bytes = 2.0 * static_cast<double>(plan.conv_weight_params() + plan.fc_params()) * sizeof(float);
  return out_of_memory("width", bytes);
}

std::vector<float> input_image(std::int64_t resolution, std::uint64_t seed) {
  const auto photo = synthetic_photo(kPhotoSide, kPhotoSide, seed);
  std::vector<std::uint8_t> resized(static_cast<std::size_t>(resolution * resolution * 3));
  kernels::resize_u8({kPhotoSide, kPhotoSide, resolution, resolution, 3}, kernels::ResizeFilter::Bilinear,
                     photo.data(), resized.data());
  std::vector<float> x(resized.size());
  normalize_imagenet(resized.data(), resolution, resolution, Layout::Nchw, x.data());
  return x;
}

/// Per stage: the BN output megabytes and the milliseconds before and after folding.
void stage_table(const ResnetPlan& plan, const ForwardTiming& before, const ForwardTiming& after, RunResult& result) {
  std::vector<double> stage, bn_mb(kNumStages, 0.0), ms_before(kNumStages, 0.0), ms_after(kNumStages, 0.0);
  for (std::size_t i = 0; i < plan.convs.size(); ++i) {
    const int st = plan.convs[i].stage;
    bn_mb[st] += 2.0 * static_cast<double>(plan.convs[i].output_size()) * sizeof(float) * 1e-6;
    ms_before[st] += before.layer_ms[i];
    ms_after[st] += after.layer_ms[i];
  }
  for (int st = 0; st < kNumStages; ++st) stage.push_back(st);
  result.table("stages").column("stage", stage).column("bn_traffic_mb", bn_mb).column("ms_before", ms_before)
      .column("ms_after", ms_after);
}

Result<RunResult> run_bn_folding(const BnFoldingParams& checked, std::uint64_t seed, RunControl& ctl) {
  const ResnetPlan plan = resnet50_plan(checked.net);
  const std::int64_t repeats = checked.repeats;
  ResnetWeights with_bn = make_resnet_weights(plan, seed);
  if (!with_bn.ok()) return allocation_error(plan);
  ResnetWeights folded = copy_weights(with_bn);
  if (!folded.ok()) return allocation_error(plan);
  const double fold_start_s = wall_now_s();
  fold_batch_norms(plan, folded);
  const double fold_s = wall_now_s() - fold_start_s;
  ResnetWorkspace ws(plan);
  if (!ws.ok()) return allocation_error(plan);

  const auto image = input_image(plan.config.resolution, seed);
  PassProgress progress{ctl, 2.0 * static_cast<double>(repeats + 1) * static_cast<double>(plan.conv_macs())};
  const ForwardTiming before = time_forward(plan, with_bn, Layout::Nchw, image.data(), ws, repeats, progress);
  const ForwardTiming after = time_forward(plan, folded, Layout::Nchw, image.data(), ws, repeats, progress);
  const OutputDifference d = output_difference(before.logits, after.logits);

  RunResult result;
  const double flop = 2.0 * static_cast<double>(plan.total_macs());
  const double bn_bytes = 2.0 * static_cast<double>(plan.bn_output_floats()) * sizeof(float);
  result.output("num_bn", static_cast<double>(plan.convs.size()));
  result.output("forward_bn_ms", 1e3 * before.median_s);
  result.output("forward_folded_ms", 1e3 * after.median_s);
  result.output("speedup", before.median_s / after.median_s);
  result.output("saved_ms", 1e3 * (before.median_s - after.median_s));
  result.output("gflop_per_s_bn", flop / before.median_s * 1e-9);
  result.output("gflop_per_s_folded", flop / after.median_s * 1e-9);
  result.output("bn_traffic_bytes", bn_bytes);
  // Defined only when folding saved time: timing noise can make the folded pass the slower one.
  if (before.median_s > after.median_s)
    result.output("bn_traffic_gb_per_s", bn_bytes / (before.median_s - after.median_s) * 1e-9);
  result.output("max_abs_diff", d.max_abs);
  result.output("max_rel_diff", d.max_rel);
  result.output("fold_ms", 1e3 * fold_s);
  result.output("weights_bytes", static_cast<double>(folded.bytes()));
  stage_table(plan, before, after, result);
  return result;
}

}  // namespace

CellSpec bn_folding_cell() {
  CellSpec cell = checked_cell<&validate_bn_folding, &run_bn_folding>("request/bn-folding",
      {explored(count("resolution", "px", 224, 32, 448), 32, kMaxSliderResolution),
       choice("width", {"1", "0.5", "0.25"}, "0.25"),
       explored(aliased(count("repeats", "", 1, 1, 20), {"reps"}), 1, kMaxSliderRepeats)});
  cell.deterministic = false;
  cell.outputs = outputs({"num_bn", "forward_bn_ms", "forward_folded_ms", out("speedup", "×"), "saved_ms",
                  out("gflop_per_s_bn", "GFLOP/s"), out("gflop_per_s_folded", "GFLOP/s"), "bn_traffic_bytes",
                  sometimes("bn_traffic_gb_per_s"), "max_abs_diff", "max_rel_diff", "fold_ms",
                  out("weights_bytes", "bytes")});
  cell.tables = {table("stages")};
  return cell;
}

}  // namespace sl::request
