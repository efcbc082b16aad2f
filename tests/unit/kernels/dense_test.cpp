#include <catch2/catch.hpp>

#include <cmath>

#include "kernel_test_util.h"
#include "kernels/dense.h"

namespace SL_UNITY_ID {

using namespace sl::kernels;

TEST_CASE("Dense layer (GEMM + bias + ReLU) matches the naive layer within rounding", "[kernels][dense]") {
  const std::int64_t batch = GENERATE(1, 3, 17);
  const std::int64_t in = GENERATE(5, 31);
  const std::int64_t out = GENERATE(1, 13);
  sl::Rng rng(42);
  const DenseLayer layer = make_dense_layer(rng, in, out);
  const auto x = test::random_floats(7, batch * in);
  for (const Activation act : {Activation::None, Activation::Relu}) {
    std::vector<float> y(static_cast<std::size_t>(batch * out)), y_naive = y;
    dense_forward(layer, batch, x.data(), y.data(), act);
    dense_forward_naive(layer, batch, x.data(), y_naive.data(), act);
    for (std::size_t i = 0; i < y.size(); ++i) {
      // |x| < 1 and |w| < sqrt(6 / in): sum |x w| < in sqrt(6 / in); the bias adds one more rounding.
      const double bound = test::dot_error_bound(in + 1, static_cast<double>(in) * std::sqrt(6.0 / static_cast<double>(in)) + 0.1);
      CHECK(std::fabs(y[i] - y_naive[i]) <= bound);
      if (act == Activation::Relu) CHECK(y[i] >= 0.0f);
    }
  }
}

TEST_CASE("Dense layer weights are He-uniform from the seed, and the same seed gives the same layer",
          "[kernels][dense]") {
  sl::Rng r1(5), r2(5);
  const DenseLayer a = make_dense_layer(r1, 784, 256);
  const DenseLayer b = make_dense_layer(r2, 784, 256);
  CHECK(a.weight == b.weight);
  CHECK(a.bias == b.bias);
  const float limit = static_cast<float>(std::sqrt(6.0 / 784.0));
  double sum_sq = 0;
  for (float w : a.weight) {
    REQUIRE(std::fabs(w) <= limit);
    sum_sq += static_cast<double>(w) * w;
  }
  // Variance of U(-l, l) is l^2 / 3 = 2 / in; over 200,704 weights the sample variance has a relative
  // standard error of sqrt(0.8 / n) = 0.2 % (fourth moment 9/5 of the squared variance), so 1 % is 5 SE.
  CHECK_THAT(sum_sq / static_cast<double>(a.weight.size()), Catch::Matchers::WithinRel(2.0 / 784.0, 0.01));
  CHECK(dense_flop(a, 10) == 2 * 10 * 784 * 256);
}

}  // namespace SL_UNITY_ID
