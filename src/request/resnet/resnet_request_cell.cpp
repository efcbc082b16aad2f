// Cell request/resnet-request. One image-classification request measured on this CPU, phase by phase, as
// Table 3 budgets it on a GPU server: decode the JPEG (the built-in photo or the user's file, stb_image),
// resize it to the network's input (bilinear), normalize it into a float tensor, run ResNet-50 (true layer
// shapes, seeded weights, BNs folded as a deployed engine does) and take softmax + top-5. The forward pass
// is timed in NCHW and in NHWC layout on the same weights; their logits differ only by float rounding.
// Amdahl: with preprocessing P and model M, the model must get k = M / P times faster before P is half
// of the request. In the browser the probe image_bitmap times createImageBitmap on the same JPEG.
#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "core/checked_run.h"
#include "core/outputs.h"
#include "core/stats.h"
#include "core/units.h"
#include "kernels/resize.h"
#include "kernels/softmax.h"
#include "kernels/timing.h"
#include "request/resnet/bn_fold.h"
#include "request/cells.h"
#include "request/resnet/default_photo.h"
#include "request/resnet/image_pipeline.h"
#include "request/resnet/jpeg_decode.h"
#include "request/resnet/resnet_forward.h"
#include "request/resnet/resnet_timing.h"

namespace sl::request {
namespace {

// Phases of Table 3, in order; this CPU-only request has no host-to-device copy (its time is 0).
enum Phase { kDecode, kResize, kNormalize, kTransfer, kForward, kPost, kNumPhases };
constexpr std::int64_t kDefaultResolution = 224;
// The request's buffers must fit a browser tab comfortably (wasm memory may grow to 2 GiB).
constexpr double kMaxRequestBytes = 1024.0 * units::kMiB;
constexpr int kTopK = 5;
// Table 3 (book §23): JPEG decode, resize, normalize, CPU -> GPU copy, forward pass, softmax + top-5 (ms).
constexpr double kTable3Ms[kNumPhases] = {3.0, 1.0, 0.5, 0.5, 5.0, 0.1};
constexpr int kAmdahlPoints = 41;
// Preprocessing phases last a few ms: many short samples, so one preemption on a busy machine moves no median.
// Each sample lasts at least twice the protocol's minimum (kernels/timing_protocol.h).
const kernels::TimingPlan kPhaseTiming{2 * kernels::kTimingProtocol.min_sample_s, 9};
// A layout is called faster only from at least this many timed passes each, outside their spread.
constexpr std::int64_t kMinPassesForWinner = 3;
// Most convolution work one run may do, over every pass (warm-up included) of every layout: 40 GMAC, about
// 10 s natively here (width 1 at 224 px, both layouts, 3 repeats: 4 x 2 x 4.1 = 33 GMAC).
constexpr double kMaxRunGmac = 40;
constexpr double kMaxPhotoBytes = 16.0 * units::kMiB;
constexpr int kBitmapRepeats = 5;
// The sliders stop where one run (width 0.25) still takes a second or two in a browser tab (Chromium on a
// busy 2-core machine: 1.3 s at 224 px, 2.7 s at 256, 4.3 s at 320; each further repeat adds ~0.5 s); the
// text fields accept the whole range.
constexpr std::int64_t kMaxSliderResolution = 256;
constexpr std::int64_t kMaxSliderRepeats = 3;

struct ResnetRequestParams {
  ResnetConfig net;
  const std::string* jpeg = nullptr;  ///< the user's file or the built-in photo
  bool builtin_photo = true;
  std::int64_t photo_height = 0;      ///< from the JPEG's header
  std::int64_t photo_width = 0;
  std::int64_t repeats = 1;           ///< timed forward passes per layout
  bool with_nhwc = true;              ///< layouts = nchw+nhwc
  std::vector<double> bitmap_decode_s;  ///< the browser's createImageBitmap samples; empty when not measured
};

double width_of(const std::string& choice) { return choice == "0.25" ? 0.25 : choice == "0.5" ? 0.5 : 1.0; }

std::int64_t peak_bytes_estimate(const ResnetRequestParams& p, const ResnetPlan& plan) {
  const std::int64_t f = sizeof(float);
  const std::int64_t weights = (plan.conv_weight_params() + plan.fc_params() + 2 * plan.bn_params()) * f;
  const std::int64_t r = p.net.resolution;
  // The decoded photo twice (the one resized, and the one each timed decode makes and frees).
  const std::int64_t images = 2 * p.photo_height * p.photo_width * 3 + p.photo_height * r * 3 * f + r * r * 3 +
                              2 * r * r * 3 * f + 2 * plan.fc_out * f;
  return weights * (p.with_nhwc ? 2 : 1) + forward_scratch_bytes(plan) + images;
}

/// Every input read once; the photo's header must parse and the request must fit a browser tab.
Result<ResnetRequestParams> validate_resnet_request(const Inputs& in) {
  ResnetRequestParams p;
  p.net.resolution = in.count("resolution");
  p.net.width = width_of(in.choice("width"));
  const std::string& file = in.bytes("photo");
  p.builtin_photo = file.empty();
  p.jpeg = p.builtin_photo ? default_photo(in) : &file;  // the user's file, or the built-in photo
  if (p.jpeg == nullptr)
    return Error{"missing_asset", "asset." + default_photo_asset().name,
                 "the default photo (" + default_photo_asset().path + ") was not passed in as asset." +
                     default_photo_asset().name + "; choose a photo of your own instead",
                 {}};
  const auto header = read_jpeg_header(*p.jpeg, "photo");
  if (!header.ok()) return header.error();
  p.photo_height = header.value().height;
  p.photo_width = header.value().width;
  p.repeats = in.count("repeats");
  p.with_nhwc = in.choice("layouts") == "nchw+nhwc";
  if (const auto* bitmap = in.measured("image_bitmap.decode")) p.bitmap_decode_s = *bitmap;
  const ResnetPlan plan = resnet50_plan(p.net);
  const double run_gmac = static_cast<double>(p.repeats + 1) * (p.with_nhwc ? 2.0 : 1.0) *
                          static_cast<double>(plan.conv_macs()) * 1e-9;
  if (run_gmac > kMaxRunGmac)
    return too_large("repeats", run_gmac, kMaxRunGmac, "GMAC",
                     "the convolution work of every forward pass ((repeats + 1 warm-up) x layouts x " +
                         format_number(std::round(static_cast<double>(plan.conv_macs()) * 1e-7) / 100) +
                         " GMAC, which bounds a run's time)");
  const double peak = static_cast<double>(peak_bytes_estimate(p, plan));
  if (peak > kMaxRequestBytes)
    return too_large("resolution", peak / units::kMiB, kMaxRequestBytes / units::kMiB, "MiB",
                     "the memory this request needs in a browser tab");
  return p;
}

struct Measured {
  double phase_s[kNumPhases] = {};
  double photo_megapixels = 0;
  ForwardTiming nchw;
  std::optional<ForwardTiming> nhwc;
  std::vector<std::int64_t> top5;
  std::vector<float> probs;
};

/// Times the preprocessing steps on the decoded photo; leaves the normalized tensors in nchw_input /
/// nhwc_input. The photo decoded once already (decode errors are reported before any work).
void measure_preprocessing(const ResnetRequestParams& p, const DecodedImage& photo, std::vector<float>& nchw_input,
                           std::vector<float>& nhwc_input, Measured& m) {
  const std::int64_t r = p.net.resolution;
  m.phase_s[kDecode] = kernels::time_per_call([&] { decode_jpeg(*p.jpeg, "photo"); }, kPhaseTiming).median_s;
  m.photo_megapixels = static_cast<double>(photo.width * photo.height) * 1e-6;
  std::vector<std::uint8_t> resized(static_cast<std::size_t>(r * r * 3));
  const kernels::ResizeShape rs{photo.height, photo.width, r, r, 3};
  m.phase_s[kResize] = kernels::time_per_call([&] { kernels::resize_u8(rs, kernels::ResizeFilter::Bilinear, photo.rgb.get(), resized.data()); }, kPhaseTiming).median_s;
  nchw_input.resize(static_cast<std::size_t>(3 * r * r));
  m.phase_s[kNormalize] = kernels::time_per_call([&] { normalize_imagenet(resized.data(), r, r, Layout::Nchw, nchw_input.data()); }, kPhaseTiming).median_s;
  nhwc_input.resize(nchw_input.size());
  normalize_imagenet(resized.data(), r, r, Layout::Nhwc, nhwc_input.data());
}

void measure_postprocessing(const ResnetPlan& plan, Measured& m) {
  m.probs.resize(static_cast<std::size_t>(plan.fc_out));
  m.phase_s[kPost] = kernels::time_per_call([&] {
    kernels::softmax_rows(1, plan.fc_out, m.nchw.logits.data(), m.probs.data());
    m.top5 = top_k(m.probs.data(), plan.fc_out, kTopK);
  }, kPhaseTiming).median_s;
}

void budget_outputs(const Measured& m, RunResult& result) {
  double total_s = 0;
  for (double s : m.phase_s) total_s += s;
  const double model_s = m.phase_s[kForward];
  const double outside_s = total_s - model_s;
  const double pre_s = m.phase_s[kDecode] + m.phase_s[kResize] + m.phase_s[kNormalize];
  result.output("decode_ms", 1e3 * m.phase_s[kDecode]);
  result.output("resize_ms", 1e3 * m.phase_s[kResize]);
  result.output("normalize_ms", 1e3 * m.phase_s[kNormalize]);
  result.output("forward_ms", 1e3 * m.phase_s[kForward]);  // no transfer_ms: a CPU-only request copies nothing
  result.output("post_ms", 1e3 * m.phase_s[kPost]);
  result.output("total_ms", 1e3 * total_s);
  result.output("preprocess_frac", pre_s / total_s);
  result.output("model_frac", model_s / total_s);
  // Amdahl: outside / (outside + model / k) = 1/2 at k = model / outside.
  result.output("speedup_for_half", model_s / outside_s);
  result.output("amdahl_ceiling", total_s / outside_s);

  Table& t = result.table("budget");
  std::vector<double> phase, ours_ms, ours_frac, book_ms, book_frac;
  double book_total = 0;
  for (double ms : kTable3Ms) book_total += ms;
  for (int i = 0; i < kNumPhases; ++i) {
    phase.push_back(i);
    ours_ms.push_back(1e3 * m.phase_s[i]);
    ours_frac.push_back(m.phase_s[i] / total_s);
    book_ms.push_back(kTable3Ms[i]);
    book_frac.push_back(kTable3Ms[i] / book_total);
  }
  t.column("phase", phase).column("ours_ms", ours_ms).column("ours_frac", ours_frac).column("book_ms", book_ms)
      .column("book_frac", book_frac);

  std::vector<double> ks, outside_frac;
  for (int i = 0; i < kAmdahlPoints; ++i) {
    const double k = std::pow(10.0, 3.0 * i / (kAmdahlPoints - 1));  // 1 .. 1000
    ks.push_back(k);
    outside_frac.push_back(outside_s / (outside_s + model_s / k));
  }
  result.table("amdahl").column("k", ks).column("outside_frac", outside_frac);
}

/// The photo, our decoder's speed, and beside it the browser's own decoder (createImageBitmap, probe
/// image_bitmap) on the same bytes; natively a notice.
void photo_outputs(const ResnetRequestParams& p, const Measured& m, RunResult& result) {
  result.output("photo_width", static_cast<double>(p.photo_width));
  result.output("photo_height", static_cast<double>(p.photo_height));
  result.output("photo_file_bytes", static_cast<double>(p.jpeg->size()));
  result.output("photo_builtin", p.builtin_photo ? 1.0 : 0.0);
  result.output("decode_mpix_per_s", m.photo_megapixels / m.phase_s[kDecode]);
  if (p.bitmap_decode_s.empty()) {
    result.notice("image_bitmap_not_measured",
                  "the browser's own JPEG decoder (createImageBitmap) is timed only in the browser");
    return;
  }
  const double bitmap_s = quantile(p.bitmap_decode_s, 0.5);
  result.output("bitmap_decode_ms", 1e3 * bitmap_s);
  if (bitmap_s > 0) result.output("bitmap_vs_ours", m.phase_s[kDecode] / bitmap_s);
}

void forward_outputs(const ResnetPlan& plan, const Measured& m, std::int64_t peak_bytes, RunResult& result) {
  const double flop = 2.0 * static_cast<double>(plan.total_macs());
  const auto truth = resnet50_plan({});
  result.output("resnet50_gmac", static_cast<double>(truth.total_macs()) * 1e-9);
  result.output("resnet50_params_m", static_cast<double>(truth.total_params()) * 1e-6);
  result.output("run_gmac", static_cast<double>(plan.total_macs()) * 1e-9);
  result.output("run_params_m", static_cast<double>(plan.total_params()) * 1e-6);
  result.output("gflop_per_s", flop / m.nchw.median_s * 1e-9);
  result.output("peak_bytes", static_cast<double>(peak_bytes));
  result.output("top1_class", static_cast<double>(m.top5[0]));
  result.output("top1_prob", m.probs[static_cast<std::size_t>(m.top5[0])]);
  if (m.nhwc) {
    const OutputDifference d = output_difference(m.nchw.logits, m.nhwc->logits);
    result.output("forward_nhwc_ms", 1e3 * m.nhwc->median_s);
    result.output("nhwc_speedup", m.nchw.median_s / m.nhwc->median_s);
    const SpeedupRange range = speedup_range(m.nchw.pass_s, m.nhwc->pass_s);
    result.output("nhwc_speedup_lo", range.lo);
    result.output("nhwc_speedup_hi", range.hi);
    const auto passes = static_cast<std::int64_t>(m.nchw.pass_s.size());
    if (passes < kMinPassesForWinner)
      result.notice("layout_spread_unknown",
                    std::to_string(passes) + " timed pass" + (passes == 1 ? "" : "es") +
                        " per layout cannot show how much the times spread, so no layout is called faster: set "
                        "repeats to " + std::to_string(kMinPassesForWinner) + " or more.");
    else if (range.lo > 1 || range.hi < 1)
      result.output("nhwc_faster", range.lo > 1 ? 1.0 : 0.0);
    else
      result.notice("layout_within_spread",
                    "NHWC over NCHW is " + format_number(range.lo) + " to " + format_number(range.hi) +
                        " x across the passes, a range that holds 1: neither layout is faster beyond the run-to-run "
                        "spread on this machine.");
    result.output("gflop_per_s_nhwc", flop / m.nhwc->median_s * 1e-9);
    result.output("nhwc_max_abs_diff", d.max_abs);
    result.output("nhwc_max_rel_diff", d.max_rel);
  }
  std::vector<double> index, stage, mmacs, ms, gflops;
  for (std::size_t i = 0; i < plan.convs.size(); ++i) {
    index.push_back(static_cast<double>(i));
    stage.push_back(plan.convs[i].stage);
    mmacs.push_back(static_cast<double>(plan.convs[i].macs()) * 1e-6);
    ms.push_back(m.nchw.layer_ms[i]);
    gflops.push_back(layer_gflop_per_s(mmacs.back(), ms.back()));
  }
  result.table("layers").column("layer", index).column("stage", stage).column("mmac", mmacs).column("ms", ms)
      .column("gflop_per_s", gflops);
}

Result<RunResult> run_resnet_request(const ResnetRequestParams& p, std::uint64_t seed, RunControl& ctl) {
  auto photo = decode_jpeg(*p.jpeg, "photo");  // corrupt data is reported before the network is built
  if (!photo.ok()) return photo.error();
  const ResnetPlan plan = resnet50_plan(p.net);
  ResnetWeights w = make_resnet_weights(plan, seed);
  if (!w.ok()) return out_of_memory("resolution", static_cast<double>(peak_bytes_estimate(p, plan)));
  fold_batch_norms(plan, w);
  ResnetWeights w_nhwc;
  if (p.with_nhwc) {
    w_nhwc = to_ohwi(plan, w);
    if (!w_nhwc.ok()) return out_of_memory("resolution", static_cast<double>(peak_bytes_estimate(p, plan)));
  }
  ResnetWorkspace ws(plan);
  if (!ws.ok()) return out_of_memory("resolution", static_cast<double>(peak_bytes_estimate(p, plan)));

  Measured m;
  std::vector<float> nchw_input, nhwc_input;
  measure_preprocessing(p, photo.value(), nchw_input, nhwc_input, m);
  const double passes = static_cast<double>((p.repeats + 1) * (p.with_nhwc ? 2 : 1));
  PassProgress progress{ctl, passes * static_cast<double>(plan.conv_macs())};
  m.nchw = time_forward(plan, w, Layout::Nchw, nchw_input.data(), ws, p.repeats, progress);
  m.phase_s[kForward] = m.nchw.median_s;
  if (p.with_nhwc) m.nhwc = time_forward(plan, w_nhwc, Layout::Nhwc, nhwc_input.data(), ws, p.repeats, progress);
  measure_postprocessing(plan, m);

  RunResult result;
  budget_outputs(m, result);
  photo_outputs(p, m, result);
  forward_outputs(plan, m, peak_bytes_estimate(p, plan), result);
  return result;
}

/// In the browser: createImageBitmap on the same JPEG (nothing to measure when the file is rejected).
std::vector<ProbeTask> plan_image_bitmap(const Inputs& in) {
  const auto checked = validate_resnet_request(in);
  if (!checked.ok()) return {};
  return {{"image_bitmap", "decode", *checked.value().jpeg, 0, kBitmapRepeats}};
}

}  // namespace

CellSpec resnet_request_cell() {
  CellSpec cell = checked_cell<&validate_resnet_request, &run_resnet_request>("request/resnet-request",
      {bytes("photo", "image/jpeg", kMaxPhotoBytes),
       explored(count("resolution", "px", kDefaultResolution, 32, 448), 32, kMaxSliderResolution),
       choice("width", {"1", "0.5", "0.25"}, "0.25"),
       explored(aliased(count("repeats", "", 1, 1, 20), {"reps"}), 1, kMaxSliderRepeats),
       choice("layouts", {"nchw+nhwc", "nchw"}, "nchw+nhwc")});
  cell.deterministic = false;
  cell.assets = {default_photo_asset()};
  cell.probes = {"image_bitmap"};
  cell.plan_probes = &plan_image_bitmap;
  cell.outputs = outputs({"decode_ms", "resize_ms", "normalize_ms", "forward_ms", "post_ms", "total_ms", "preprocess_frac",
                  "model_frac", out("speedup_for_half", "×"), out("amdahl_ceiling", "×"), out("photo_width", "px"),
                  out("photo_height", "px"), out("photo_file_bytes", "bytes"), "photo_builtin", "decode_mpix_per_s",
                  browser_only("bitmap_decode_ms"), browser_only(out("bitmap_vs_ours", "×")), "resnet50_gmac",
                  "resnet50_params_m", "run_gmac", "run_params_m", out("gflop_per_s", "GFLOP/s"),
                  out("peak_bytes", "bytes"), "top1_class", "top1_prob", sometimes("forward_nhwc_ms"),
                  sometimes(out("nhwc_speedup", "×")), sometimes(out("nhwc_speedup_lo", "×")),
                  sometimes(out("nhwc_speedup_hi", "×")), sometimes("nhwc_faster"),
                  sometimes(out("gflop_per_s_nhwc", "GFLOP/s")), sometimes("nhwc_max_abs_diff"),
                  sometimes("nhwc_max_rel_diff")});
  cell.tables = {table("budget"), table("amdahl"), table("layers")};
  return cell;
}

}  // namespace sl::request
