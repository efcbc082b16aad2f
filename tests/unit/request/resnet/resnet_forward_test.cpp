#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "kernels/batch_norm.h"
#include "kernels/conv2d.h"
#include "request/resnet/bn_fold.h"
#include "request/resnet/image_pipeline.h"
#include "request/resnet/resnet_forward.h"
#include "request/resnet/resnet_timing.h"

namespace SL_UNITY_ID {

using namespace sl::request;

namespace {

/// A small ResNet-50 (same 53 convs and block wiring, few channels, low resolution) for exact checks.
const ResnetConfig kSmall{64, 0.125, 10};

std::vector<float> small_image(const ResnetPlan& plan, Layout layout) {
  const std::int64_t r = plan.config.resolution;
  const auto photo = synthetic_photo(r, r, 3);
  std::vector<float> x(static_cast<std::size_t>(3 * r * r));
  normalize_imagenet(photo.data(), r, r, layout, x.data());
  return x;
}

/// Reference forward pass written independently of resnet_forward: direct convolutions (the seven-loop
/// kernel), the textbook BN formula in double, and plain loops for pooling, residual and classifier.
std::vector<float> reference_forward(const ResnetPlan& plan, const ResnetWeights& w, const std::vector<float>& image) {
  auto conv_bn = [&](int i, const std::vector<float>& in, bool relu) {
    const auto& s = plan.convs[static_cast<std::size_t>(i)].shape;
    std::vector<float> out(static_cast<std::size_t>(s.output_size()));
    sl::kernels::conv2d_f32_naive(s, in.data(), w.conv_weight(i), w.bias(i), out.data(), false);
    if (!w.is_folded())
      sl::kernels::batch_norm_nchw_naive(w.bn[static_cast<std::size_t>(i)], 1, s.out_height() * s.out_width(), out.data(), false);
    if (relu)
      for (auto& v : out) v = std::max(v, 0.0f);
    return out;
  };
  auto stem = conv_bn(0, image, true);
  const auto& mp = plan.max_pool;
  std::vector<float> x(static_cast<std::size_t>(mp.channels * mp.out_height() * mp.out_width()));
  for (std::int64_t c = 0; c < mp.channels; ++c)
    for (std::int64_t oy = 0; oy < mp.out_height(); ++oy)
      for (std::int64_t ox = 0; ox < mp.out_width(); ++ox) {
        float m = -1e30f;
        for (std::int64_t u = 0; u < 3; ++u)
          for (std::int64_t v = 0; v < 3; ++v) {
            const std::int64_t iy = 2 * oy - 1 + u, ix = 2 * ox - 1 + v;
            if (iy >= 0 && iy < mp.height && ix >= 0 && ix < mp.width) m = std::max(m, stem[(c * mp.height + iy) * mp.width + ix]);
          }
        x[(c * mp.out_height() + oy) * mp.out_width() + ox] = m;
      }
  for (const auto& b : plan.blocks) {
    const auto y = conv_bn(b.conv3, conv_bn(b.conv2, conv_bn(b.conv1, x, true), true), false);
    const auto shortcut = b.downsample >= 0 ? conv_bn(b.downsample, x, false) : x;
    x.assign(y.size(), 0.0f);
    for (std::size_t i = 0; i < y.size(); ++i) x[i] = std::max(y[i] + shortcut[i], 0.0f);
  }
  const std::int64_t plane = plan.final_side * plan.final_side;
  std::vector<float> logits(static_cast<std::size_t>(plan.fc_out));
  for (std::int64_t j = 0; j < plan.fc_out; ++j) {
    double sum = w.fc_bias[static_cast<std::size_t>(j)];
    for (std::int64_t c = 0; c < plan.fc_in; ++c) {
      double mean = 0;
      for (std::int64_t q = 0; q < plane; ++q) mean += x[c * plane + q];
      sum += w.fc_weight[j * plan.fc_in + c] * (mean / static_cast<double>(plane));
    }
    logits[static_cast<std::size_t>(j)] = static_cast<float>(sum);
  }
  return logits;
}

std::vector<float> run_forward(const ResnetPlan& plan, const ResnetWeights& w, Layout layout) {
  ResnetWorkspace ws(plan);
  REQUIRE(ws.ok());
  std::vector<float> logits(static_cast<std::size_t>(plan.fc_out));
  resnet_forward(plan, w, layout, small_image(plan, layout).data(), ws, logits.data());
  return logits;
}

}  // namespace

TEST_CASE("The ResNet-50 forward pass matches a direct reference implementation (BN separate and folded)",
          "[request][resnet]") {
  const auto plan = resnet50_plan(kSmall);
  ResnetWeights w = make_resnet_weights(plan, 9);
  REQUIRE(w.ok());
  const bool fold = GENERATE(false, true);
  if (fold) fold_batch_norms(plan, w);
  const auto got = run_forward(plan, w, Layout::Nchw);
  const auto want = reference_forward(plan, w, small_image(plan, Layout::Nchw));
  // Same arithmetic in different summation orders (GEMM blocks vs the direct loop) through 53 layers: the
  // float rounding of each layer (~k 2^-24 relative, k <= 4,608) compounds to well under 1e-4 of the
  // logits' size; a wiring mistake (a missing shortcut or ReLU, a wrong buffer) changes them by O(1).
  const auto d = output_difference(want, got);
  INFO("max abs " << d.max_abs << ", max rel " << d.max_rel);
  CHECK(d.max_rel < 1e-4);
  CHECK(*std::max_element(want.begin(), want.end()) > 1e-3);  // not a degenerate all-zero network
}

TEST_CASE("NCHW and NHWC forward passes give the same logits up to float rounding", "[request][resnet]") {
  const auto plan = resnet50_plan(kSmall);
  ResnetWeights w = make_resnet_weights(plan, 4);
  REQUIRE(w.ok());
  fold_batch_norms(plan, w);
  const ResnetWeights w_nhwc = to_ohwi(plan, w);
  REQUIRE(w_nhwc.ok());
  const auto d = output_difference(run_forward(plan, w, Layout::Nchw), run_forward(plan, w_nhwc, Layout::Nhwc));
  INFO("max rel " << d.max_rel);
  CHECK(d.max_rel < 1e-4);
  CHECK(d.max_rel >= 0.0);
}

TEST_CASE("Per-layer progress covers every convolution's multiply-accumulates once", "[request][resnet]") {
  const auto plan = resnet50_plan(kSmall);
  const ResnetWeights w = make_resnet_weights(plan, 2);
  ResnetWorkspace ws(plan);
  std::vector<std::int64_t> reports;
  std::vector<float> logits(static_cast<std::size_t>(plan.fc_out));
  resnet_forward(plan, w, Layout::Nchw, small_image(plan, Layout::Nchw).data(), ws, logits.data(),
                 [&](std::int64_t macs) { reports.push_back(macs); });
  REQUIRE(reports.size() == 53);
  CHECK(std::is_sorted(reports.begin(), reports.end()));
  CHECK(reports.back() == plan.conv_macs());
}

}  // namespace SL_UNITY_ID
