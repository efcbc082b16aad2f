#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "kernels/batch_norm.h"
#include "kernels/conv2d.h"
#include "kernels/kernel_test_util.h"
#include "request/resnet/bn_fold.h"
#include "request/resnet/image_pipeline.h"
#include "request/resnet/resnet_forward.h"
#include "request/resnet/resnet_timing.h"

namespace SL_UNITY_ID {

using namespace sl::request;

namespace {

sl::kernels::BatchNorm random_bn(std::uint64_t seed, std::int64_t channels) {
  sl::kernels::BatchNorm bn;
  bn.gamma = sl::kernels::test::random_floats(seed, channels, 1.0f);
  bn.beta = sl::kernels::test::random_floats(seed + 1, channels, 0.5f);
  bn.mean = sl::kernels::test::random_floats(seed + 2, channels, 0.5f);
  bn.var = sl::kernels::test::random_floats(seed + 3, channels, 0.5f);
  for (auto& v : bn.var) v += 0.75f;  // [0.25, 1.25)
  return bn;
}

}  // namespace

TEST_CASE("A folded conv equals conv then BN within float rounding, on small shapes", "[request][bn-fold]") {
  const sl::kernels::Conv2dShape s = GENERATE(sl::kernels::Conv2dShape{1, 3, 9, 9, 5, 3, 3, 1, 1},
                                              sl::kernels::Conv2dShape{1, 8, 7, 6, 4, 1, 1, 2, 0},
                                              sl::kernels::Conv2dShape{1, 3, 13, 13, 6, 7, 7, 2, 3});
  const bool with_bias = GENERATE(false, true);
  const auto x = sl::kernels::test::random_floats(51, s.input_size(), 1.0f);
  auto w = sl::kernels::test::random_floats(52, s.weight_size(), 0.5f);
  std::vector<float> bias = with_bias ? sl::kernels::test::random_floats(53, s.out_channels, 0.3f) : std::vector<float>{};
  const auto bn = random_bn(54, s.out_channels);

  std::vector<float> before(static_cast<std::size_t>(s.output_size())), after(before.size());
  sl::kernels::conv2d_f32_naive(s, x.data(), w.data(), bias.empty() ? nullptr : bias.data(), before.data(), false);
  sl::kernels::batch_norm_nchw_naive(bn, 1, s.out_height() * s.out_width(), before.data(), true);
  fold_into_conv(bn, s.out_channels, s.patch_size(), w.data(), bias);
  sl::kernels::conv2d_f32_naive(s, x.data(), w.data(), bias.data(), after.data(), true);
  // Each output is a sum of k = C_in kh kw <= 147 products of size <= 0.5, scaled by |gamma / sigma| <= 2:
  // rounding w' adds 2^-24 relative per term, so |error| <= (k + 2) 2^-24 x 147 x 0.5 x 2 + rounding of the
  // bias, below 2e-5 absolute.
  double worst = 0;
  for (std::size_t i = 0; i < before.size(); ++i) worst = std::max(worst, std::fabs(static_cast<double>(before[i]) - after[i]));
  CHECK(worst < 2e-5);
  // ... and folding is not a no-op: dropping the fold's bias would be visibly wrong.
  CHECK(std::any_of(bias.begin(), bias.end(), [](float b) { return std::fabs(b) > 1e-2f; }));
}

TEST_CASE("Folding all 53 batch norms of a small-resolution ResNet-50 changes its logits by ~1e-6 relative",
          "[request][bn-fold]") {
  const auto plan = resnet50_plan({48, 0.25, 100});
  ResnetWeights with_bn = make_resnet_weights(plan, 11);
  ResnetWeights folded = copy_weights(with_bn);
  REQUIRE(folded.ok());
  fold_batch_norms(plan, folded);
  CHECK(folded.is_folded());
  CHECK(folded.bn.empty());
  for (std::size_t i = 0; i < plan.convs.size(); ++i) CHECK(folded.bias(static_cast<int>(i)) != nullptr);

  const std::int64_t r = plan.config.resolution;
  const auto photo = synthetic_photo(r, r, 1);
  std::vector<float> image(static_cast<std::size_t>(3 * r * r)), a(100), b(100);
  normalize_imagenet(photo.data(), r, r, Layout::Nchw, image.data());
  ResnetWorkspace ws(plan);
  resnet_forward(plan, with_bn, Layout::Nchw, image.data(), ws, a.data());
  resnet_forward(plan, folded, Layout::Nchw, image.data(), ws, b.data());
  const auto d = output_difference(a, b);
  INFO("max rel " << d.max_rel);
  // Float rounding of the folded weights (2^-24 relative) accumulated over 53 layers: ~1e-6; a wrong fold
  // (sigma without eps, a missing bias, gamma applied twice) is off by more than 1e-2.
  CHECK(d.max_rel < 1e-4);
  CHECK(d.max_rel > 0.0);  // not bit-identical: the rounding happens in a different place
}

}  // namespace SL_UNITY_ID
