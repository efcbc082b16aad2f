#include "matchers.h"

#include <cmath>

#include "request/digits/mlp.h"

namespace SL_UNITY_ID {

using namespace sl::request;

TEST_CASE("Backpropagation's gradient matches finite differences of the cross-entropy", "[request][mlp]") {
  sl::Rng rng(3);
  Mlp m = make_mlp(rng, 6, 5, 4);
  const std::vector<float> x = {0.5f, -1.0f, 0.25f, 2.0f, 0.0f, -0.5f, 1.0f, 1.5f, -0.25f, 0.75f, -2.0f, 0.5f};
  const std::vector<std::uint8_t> y = {2, 0};
  auto loss = [&](const Mlp& mm) {
    std::vector<float> z(8);
    mlp_logits(mm, x.data(), 2, z.data());
    double l = 0;
    for (int i = 0; i < 2; ++i) {
      double mx = -1e30, s = 0;
      for (int c = 0; c < 4; ++c) mx = std::max(mx, static_cast<double>(z[i * 4 + c]));
      for (int c = 0; c < 4; ++c) s += std::exp(z[i * 4 + c] - mx);
      l += -(z[i * 4 + y[i]] - mx - std::log(s));
    }
    return l / 2;
  };
  // One SGD step with learning rate 1 on the whole batch moves each weight by minus its gradient.
  Mlp stepped = m;
  sl::Rng order(1);
  train_sgd(stepped, x.data(), y.data(), 2, {1, 2, 1.0}, order);
  const double h = 1e-2;
  for (int i : {0, 7, 13, 29}) {
    Mlp plus = m, minus = m;
    plus.hidden.weight[i] += static_cast<float>(h);
    minus.hidden.weight[i] -= static_cast<float>(h);
    const double numeric = (loss(plus) - loss(minus)) / (2 * h);
    const double analytic = m.hidden.weight[i] - stepped.hidden.weight[i];
    INFO("hidden weight " << i);
    // Central differences err by O(h^2) times the third derivative, plus float rounding of the loss (~1e-7 / h).
    CHECK_THAT(analytic, WithinAbs(numeric, 2e-3));
  }
  for (int i : {0, 5, 11}) {
    Mlp plus = m, minus = m;
    plus.output.weight[i] += static_cast<float>(h);
    minus.output.weight[i] -= static_cast<float>(h);
    CHECK_THAT(m.output.weight[i] - stepped.output.weight[i], WithinAbs((loss(plus) - loss(minus)) / (2 * h), 2e-3));
  }
}

}  // namespace SL_UNITY_ID
