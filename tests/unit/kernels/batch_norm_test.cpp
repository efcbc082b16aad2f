#include "matchers.h"

#include <cmath>

#include "kernel_test_util.h"
#include "kernels/batch_norm.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

namespace {

BatchNorm random_bn(std::uint64_t seed, std::int64_t channels) {
  BatchNorm bn;
  bn.gamma = test::random_floats(seed, channels, 1.5f);
  bn.beta = test::random_floats(seed + 1, channels, 0.5f);
  bn.mean = test::random_floats(seed + 2, channels, 0.5f);
  bn.var = test::random_floats(seed + 3, channels, 0.4f);
  for (auto& v : bn.var) v += 0.6f;  // [0.2, 1)
  return bn;
}

}  // namespace

TEST_CASE("Batch norm as scale and shift matches gamma (x - mean) / sigma + beta within float rounding",
          "[kernels][batch-norm]") {
  const bool relu = GENERATE(false, true);
  const std::int64_t batch = 2, channels = 5, plane = 13;
  const BatchNorm bn = random_bn(21, channels);
  const auto x = test::random_floats(25, batch * channels * plane, 3.0f);
  auto got = x, want = x;
  batch_norm_nchw(bn, batch, plane, got.data(), relu);
  batch_norm_nchw_naive(bn, batch, plane, want.data(), relu);
  // scale x + shift in float: |scale| <= 1.5 / sqrt(0.2) < 3.4, |x| < 3, |shift| < 0.5 + 3.4 x 0.5: each of the
  // rounded scale, shift, product and sum errs by at most 2^-24 relative, so |error| < 4 x 2^-24 x 13 < 4e-6.
  for (std::size_t i = 0; i < x.size(); ++i) CHECK_THAT(got[i], WithinAbs(want[i], 4e-6));
  if (relu)
    for (float v : got) CHECK(v >= 0.0f);
}

TEST_CASE("Batch norm gives the same bits in NCHW and NHWC", "[kernels][batch-norm]") {
  const std::int64_t channels = 6, plane = 10;
  const BatchNorm bn = random_bn(31, channels);
  const auto x = test::random_floats(35, channels * plane, 2.0f);
  auto nchw = x;
  std::vector<float> nhwc(x.size());
  for (std::int64_t c = 0; c < channels; ++c)
    for (std::int64_t q = 0; q < plane; ++q) nhwc[q * channels + c] = x[c * plane + q];
  batch_norm_nchw(bn, 1, plane, nchw.data(), true);
  batch_norm_nhwc(bn, plane, nhwc.data(), true);
  for (std::int64_t c = 0; c < channels; ++c)
    for (std::int64_t q = 0; q < plane; ++q) CHECK(nhwc[q * channels + c] == nchw[c * plane + q]);
}

TEST_CASE("A batch norm with gamma = sigma and beta = mean is the identity", "[kernels][batch-norm]") {
  BatchNorm bn;
  bn.var = {3.0f, 0.25f};
  bn.eps = 1.0f;  // sigma = 2 and 1.118
  bn.mean = {0.5f, -2.0f};
  bn.beta = bn.mean;
  bn.gamma = {2.0f, static_cast<float>(std::sqrt(1.25))};
  std::vector<float> x = {1.0f, -3.0f, 0.25f, 7.0f};
  auto y = x;
  batch_norm_nchw(bn, 1, 2, y.data(), false);
  for (std::size_t i = 0; i < x.size(); ++i) CHECK_THAT(y[i], WithinAbs(x[i], 1e-6));
}

}  // namespace SL_UNITY_ID
