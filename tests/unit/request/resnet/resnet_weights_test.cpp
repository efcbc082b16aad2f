#include "matchers.h"

#include <algorithm>
#include <cmath>

#include "request/resnet/resnet_weights.h"

namespace SL_UNITY_ID {

using namespace sl::request;

namespace {
/// A small ResNet-50 (same 53 convs and block wiring, few channels, low resolution).
const ResnetConfig kSmall{64, 0.125, 10};

bool all_within(const std::vector<float>& xs, float lo, float hi) {
  return std::all_of(xs.begin(), xs.end(), [&](float x) { return x >= lo && x <= hi; });
}
}  // namespace

TEST_CASE("Seeded weights are reproducible and differ between seeds", "[request][resnet-weights]") {
  const auto plan = resnet50_plan(kSmall);
  const auto a = make_resnet_weights(plan, 5), b = make_resnet_weights(plan, 5), c = make_resnet_weights(plan, 6);
  REQUIRE(a.ok());
  CHECK(std::equal(a.conv.data(), a.conv.data() + a.conv.size(), b.conv.data()));
  CHECK_FALSE(std::equal(a.conv.data(), a.conv.data() + a.conv.size(), c.conv.data()));
  CHECK(a.bn.size() == 53);
  CHECK(a.conv.size() == plan.conv_weight_params());
}

TEST_CASE("Batch-norm statistics lie in their stated ranges, with a small gamma on each block's last BN",
          "[request][resnet-weights]") {
  const auto plan = resnet50_plan(kSmall);
  const auto w = make_resnet_weights(plan, 9);
  REQUIRE(w.ok());
  std::vector<bool> last(plan.convs.size(), false);
  for (const auto& b : plan.blocks) last[static_cast<std::size_t>(b.conv3)] = true;
  for (std::size_t i = 0; i < plan.convs.size(); ++i) {
    INFO("conv " << plan.convs[i].name);
    const auto& bn = w.bn[i];
    REQUIRE(bn.channels() == plan.convs[i].shape.out_channels);
    CHECK(all_within(bn.gamma, last[i] ? 0.1f : 0.5f, last[i] ? 0.3f : 1.5f));
    CHECK(all_within(bn.beta, -0.1f, 0.1f));
    CHECK(all_within(bn.mean, -0.1f, 0.1f));
    CHECK(all_within(bn.var, 0.5f, 1.5f));
    CHECK(w.bias(static_cast<int>(i)) == nullptr);  // no conv bias until folded
  }
}

TEST_CASE("Convolution weights are He-uniform: bounded by sqrt(6 / fan_in), variance 2 / fan_in",
          "[request][resnet-weights]") {
  const auto plan = resnet50_plan({64, 0.5, 10});
  const auto w = make_resnet_weights(plan, 4);
  REQUIRE(w.ok());
  for (int i : {0, 10, 30, 52}) {
    const auto& s = plan.convs[static_cast<std::size_t>(i)].shape;
    const double fan_in = static_cast<double>(s.patch_size()), bound = std::sqrt(6.0 / fan_in);
    const std::int64_t n = s.weight_size();
    double sum2 = 0, worst = 0;
    for (std::int64_t k = 0; k < n; ++k) {
      const double x = w.conv_weight(i)[k];
      sum2 += x * x;
      worst = std::max(worst, std::fabs(x));
    }
    INFO("conv " << i << ", " << n << " weights");
    CHECK(worst <= bound);
    // U[-b, b] has variance b^2 / 3 = 2 / fan_in and E[x^4] = b^4 / 5, so the mean of x^2 has standard error
    // sqrt((b^4 / 5 - b^4 / 9) / n) = b^2 sqrt(4 / 45 / n); 5 of them bound a correct fill.
    CHECK_THAT(sum2 / static_cast<double>(n), WithinAbs(2.0 / fan_in, 5 * bound * bound * std::sqrt(4.0 / 45.0 / n)));
  }
}

TEST_CASE("to_ohwi moves weight [o][i][y][x] to [o][y][x][i] and copy_weights is deep", "[request][resnet-weights]") {
  const auto plan = resnet50_plan(kSmall);
  auto w = make_resnet_weights(plan, 2);
  const auto nhwc = to_ohwi(plan, w);
  REQUIRE(nhwc.ok());
  CHECK(nhwc.layout == WeightLayout::Ohwi);
  for (int i : {0, 1, 25}) {
    const auto& s = plan.convs[static_cast<std::size_t>(i)].shape;
    for (std::int64_t o = 0; o < s.out_channels; ++o)
      for (std::int64_t c = 0; c < s.in_channels; ++c)
        for (std::int64_t y = 0; y < s.kernel_h; ++y)
          for (std::int64_t x = 0; x < s.kernel_w; ++x) {
            const float oihw = w.conv_weight(i)[((o * s.in_channels + c) * s.kernel_h + y) * s.kernel_w + x];
            const float ohwi = nhwc.conv_weight(i)[((o * s.kernel_h + y) * s.kernel_w + x) * s.in_channels + c];
            REQUIRE(oihw == ohwi);
          }
  }
  const auto copy = copy_weights(w);
  REQUIRE(copy.ok());
  CHECK(copy.bytes() == w.bytes());
  // bytes: every conv and fc float, fc bias, and 4 BN statistics per output channel.
  std::int64_t bn_channels = 0;
  for (const auto& c : plan.convs) bn_channels += c.shape.out_channels;
  CHECK(w.bytes() == 4 * (plan.conv_weight_params() + plan.fc_in * plan.fc_out + plan.fc_out + 4 * bn_channels));
  const float before = copy.conv_weight(3)[0];
  w.conv_weight(3)[0] += 1.0f;
  CHECK(copy.conv_weight(3)[0] == before);
}

}  // namespace SL_UNITY_ID
