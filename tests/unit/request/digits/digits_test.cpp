#include <catch2/catch.hpp>

#include <cmath>

#include "cell_runner.h"
#include "request/digits/digit_preprocess.h"
#include "request/digits/mlp.h"
#include "request/digits/mnist_digits.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using cell_test::error_of;
using cell_test::out;
using namespace sl::request;

TEST_CASE("The compiled-in MNIST digits decode to 6,000 images, 600 per class, with MNIST's pixel statistics",
          "[request][mnist]") {
  const MnistDigits& d = mnist_digits();
  REQUIRE(d.count == 6000);
  REQUIRE(d.pixels.size() == 6000u * 784u);
  int per_class[10] = {};
  for (auto l : d.labels) ++per_class[l];
  for (int c : per_class) CHECK(c == 600);
  // MNIST is white strokes on black: the mean grey level is 0.13 of full scale (0.1307 over the training
  // set, 0.1325 over the test set this package ships) and corners are background.
  double sum = 0;
  for (auto p : d.pixels) sum += p;
  CHECK_THAT(sum / static_cast<double>(d.pixels.size()) / 255.0, WithinAbs(0.13, 0.01));
  for (std::int64_t i = 0; i < d.count; i += 97) CHECK(d.image(i)[0] == 0);
}

TEST_CASE("Run-length decoding restores pixels and rejects malformed streams", "[request][mnist]") {
  // One image: 5 zeros, 200, 255, then 777 zeros (255 + 255 + 255 + 12).
  std::vector<unsigned char> rle = {0, 5, 200, 255, 0, 255, 0, 255, 0, 255, 0, 12};
  std::vector<std::uint8_t> px;
  REQUIRE(decode_mnist_rle(rle.data(), static_cast<std::int64_t>(rle.size()), 1, px));
  CHECK(px[4] == 0);
  CHECK(px[5] == 200);
  CHECK(px[6] == 255);
  CHECK(px[783] == 0);
  CHECK_FALSE(decode_mnist_rle(rle.data(), static_cast<std::int64_t>(rle.size()) - 1, 1, px));  // 1 pixel short
  CHECK_FALSE(decode_mnist_rle(rle.data(), static_cast<std::int64_t>(rle.size()), 2, px));      // 784 short
  const std::vector<unsigned char> dangling = {7, 0};
  CHECK_FALSE(decode_mnist_rle(dangling.data(), 2, 1, px));
}

TEST_CASE("The parity check passes the shared transform exactly and catches every skewed variant",
          "[request][skew]") {
  const auto raw = raw_digit_images(mnist_digits(), 0, 50);
  CHECK(parity_max_abs_diff(training_transform(), serving_transform(ServingVariant::Shared), raw.data(), 50) == 0.0);
  // Each skew changes some model input by far more than the 1e-4 tolerance: a stroke pixel of 0.8 is
  // standardized to (0.8 - 0.1307) / 0.3081 = 2.17 by MNIST's statistics but to 1.55 by ImageNet's; without
  // /255 it becomes 663; nearest and non-antialiased bilinear move edge pixels by tenths.
  const ServingVariant skews[] = {ServingVariant::BilinearNoAntialias, ServingVariant::Nearest,
                                  ServingVariant::ImagenetStats, ServingVariant::NoScale};
  for (auto v : skews) {
    INFO("variant " << static_cast<int>(v));
    CHECK(parity_max_abs_diff(training_transform(), serving_transform(v), raw.data(), 50) > 0.1);
  }
}

TEST_CASE("Backpropagation's gradient matches finite differences of the cross-entropy", "[request][skew]") {
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

TEST_CASE("The skew-parity cell: the shared transform reproduces offline accuracy and every skew fails parity",
          "[request][skew]") {
  const auto r = cell_test::run("request/skew-parity");
  // A 784-256-10 MLP after one epoch over 5,000 digits: about 93 % on held-out digits (a broken training or
  // data path gives ~10 %).
  CHECK(out(r, "offline_accuracy_frac") > 0.88);
  CHECK(out(r, "accuracy_shared_frac") == out(r, "offline_accuracy_frac"));
  CHECK(out(r, "parity_shared") == 0.0);
  CHECK(out(r, "parity_failures") == 4);
  // Standardizing with the wrong statistics shifts every input and costs several points.
  CHECK(out(r, "accuracy_imagenet_frac") < out(r, "offline_accuracy_frac") - 0.02);
  CHECK_THAT(out(r, "book_drop_pp"), WithinRel(5.0, 1e-12));
}

TEST_CASE("Training is deterministic: the same seed gives the same model, another seed another one",
          "[request][skew]") {
  const std::map<std::string, std::string> small = {{"train_n", "500"}, {"hidden", "32"}};
  const auto a = cell_test::run("request/skew-parity", small, "3");
  const auto b = cell_test::run("request/skew-parity", small, "4");
  const auto a2 = cell_test::run("request/skew-parity", small, "3");
  CHECK(out(a, "train_accuracy_frac") == out(a2, "train_accuracy_frac"));
  CHECK(out(a, "accuracy_nearest_frac") == out(a2, "accuracy_nearest_frac"));
  CHECK(out(a, "train_accuracy_frac") != out(b, "train_accuracy_frac"));
  CHECK(error_of("request/skew-parity", {{"train_n", "6000"}}).param == "train_n");
}
