#include "matchers.h"

#include <cmath>

#include "request/resnet/image_pipeline.h"
#include "request/resnet/resnet_timing.h"

namespace SL_UNITY_ID {

using namespace sl::request;

TEST_CASE("output_difference: the largest |a - b|, and that over the largest |a|", "[request][resnet-timing]") {
  const auto d = output_difference({1.0f, -2.0f, 4.0f}, {1.0f, -1.5f, 4.5f});
  CHECK(d.max_abs == 0.5);
  CHECK(d.max_rel == 0.125);  // 0.5 / 4
  const auto zero = output_difference({0.0f, 0.0f}, {0.5f, -1.0f});
  CHECK(zero.max_abs == 1.0);
  CHECK(zero.max_rel == 0.0);  // no scale to be relative to
}

TEST_CASE("time_forward: one warm-up and `repeats` timed passes, the logits of a plain forward pass, one time per conv",
          "[request][resnet-timing]") {
  const auto plan = resnet50_plan({32, 0.125, 10});
  const auto w = make_resnet_weights(plan, 3);
  REQUIRE(w.ok());
  const std::int64_t r = plan.config.resolution;
  const auto photo = synthetic_photo(r, r, 3);
  std::vector<float> image(static_cast<std::size_t>(3 * r * r)), logits(10);
  normalize_imagenet(photo.data(), r, r, Layout::Nchw, image.data());
  ResnetWorkspace ws(plan);
  resnet_forward(plan, w, Layout::Nchw, image.data(), ws, logits.data());

  sl::RunControl ctl;
  const std::int64_t repeats = 3;
  PassProgress progress{ctl, static_cast<double>((repeats + 1) * plan.conv_macs())};
  const auto t = time_forward(plan, w, Layout::Nchw, image.data(), ws, repeats, progress);
  CHECK(t.logits == logits);  // the same arithmetic in the same order: bit for bit
  CHECK(t.layer_ms.size() == plan.convs.size());
  CHECK(t.median_s > 0);
  CHECK(progress.done_macs == progress.total_macs);  // every pass counted once, the warm-up included
  double layers_ms = 0;
  for (double ms : t.layer_ms) {
    CHECK(ms >= 0);
    layers_ms += ms;
  }
  CHECK(std::isfinite(layers_ms));
}

TEST_CASE("A layer's GFLOP/s is 2 x MMAC over its milliseconds", "[request][resnet-timing]") {
  // Issue 14: layer 0 of --width 1, 118.01 M MAC in 44.7 ms, is 5.28 GFLOP/s (was printed 0.0053).
  CHECK_THAT(sl::request::layer_gflop_per_s(118.013952, 44.7), WithinRel(2 * 118.013952e6 / 44.7e-3 / 1e9, 1e-12));
  CHECK_THAT(sl::request::layer_gflop_per_s(118.013952, 44.7), WithinRel(5.280, 1e-3));
  CHECK(sl::request::layer_gflop_per_s(1.0, 0.0) == 0.0);
}

TEST_CASE("The layout speedup range runs from the fastest baseline over the slowest other pass up", "[request][resnet-timing]") {
  const auto r = sl::request::speedup_range({1.0, 1.2, 1.1}, {0.8, 1.0});
  CHECK_THAT(r.lo, WithinRel(1.0 / 1.0, 1e-12));
  CHECK_THAT(r.hi, WithinRel(1.2 / 0.8, 1e-12));
  const auto none = sl::request::speedup_range({}, {1.0});
  CHECK(none.lo == 0.0);
}

}  // namespace SL_UNITY_ID
