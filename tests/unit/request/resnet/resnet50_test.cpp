#include <catch2/catch.hpp>

#include "cell_runner.h"

#include <cmath>

#include "request/resnet/resnet50.h"

namespace SL_UNITY_ID {

using sl::request::ResnetConfig;
using sl::request::resnet50_plan;

namespace {

std::int64_t stage_macs(const sl::request::ResnetPlan& plan, int stage) {
  std::int64_t sum = 0;
  for (const auto& c : plan.convs)
    if (c.stage == stage) sum += c.macs();
  return sum;
}

std::int64_t stage_params(const sl::request::ResnetPlan& plan, int stage) {
  std::int64_t sum = 0;
  for (const auto& c : plan.convs)
    if (c.stage == stage) sum += c.weight_params() + c.bn_params();
  return sum;
}

}  // namespace

TEST_CASE("ResNet-50 has 53 convolutions (4 of them shortcut projections), 16 bottlenecks and a 2048 -> 1000 fc",
          "[request][resnet]") {
  const auto plan = resnet50_plan({});
  CHECK(plan.convs.size() == 53);
  CHECK(plan.blocks.size() == 16);
  int projections = 0;
  for (const auto& b : plan.blocks) projections += b.downsample >= 0 ? 1 : 0;
  CHECK(projections == 4);
  CHECK(plan.fc_in == 2048);
  CHECK(plan.fc_out == 1000);
  CHECK(plan.final_side == 7);
  CHECK(plan.convs[0].name == "conv1");
  REQUIRE(plan.blocks[3].downsample >= 0);
  CHECK(plan.convs[plan.blocks[3].downsample].name == "layer2.0.downsample.0");
}

TEST_CASE("ResNet-50 totals: 25.6 M parameters and 4.1 G multiply-accumulates at 224 x 224 (book §7)",
          "[request][resnet][book]") {
  const auto plan = resnet50_plan({});
  // torchvision's resnet50 has 25,557,032 trainable parameters (conv weights, BN gamma/beta, fc).
  CHECK(plan.total_params() == 25'557'032);
  // The book prints "25.6 M" (rounded to 0.1 M: half a unit is 0.05 M) and "4.1 G" MACs (0.05 G).
  const cell_test::Cell cell{"request/resnet-request"};
  CHECK_THAT(static_cast<double>(plan.total_params()) * 1e-6,
             WithinAbs(cell.book("resnet50_params_m"), cell.tolerance("resnet50_params_m")));
  CHECK_THAT(static_cast<double>(plan.total_macs()) * 1e-9,
             WithinAbs(cell.book("resnet50_gmac"), cell.tolerance("resnet50_gmac")));
  // The exact count, summed by hand stage by stage below: 4,089,184,256 (fvcore's published 4.09 G).
  CHECK(plan.total_macs() == 4'089'184'256);
}

TEST_CASE("ResNet-50 per-stage spot checks: shapes, MACs and parameters", "[request][resnet]") {
  const auto plan = resnet50_plan({});
  // Stem: 7x7x3 x 64 = 9,408 weights over 112 x 112 outputs = 118,013,952 MACs.
  CHECK(plan.convs[0].weight_params() == 9'408);
  CHECK(plan.convs[0].shape.out_height() == 112);
  CHECK(stage_macs(plan, 0) == 118'013'952);
  CHECK(plan.max_pool.out_height() == 56);
  // layer1 at 56 x 56: block 0 has 64x64 + 64x64x9 + 64x256 + 64x256 (projection) = 73,728 weights,
  // blocks 1-2 have 256x64 + 64x64x9 + 64x256 = 69,632: (73,728 + 2 x 69,632) x 3,136 = 667,942,912 MACs.
  CHECK(stage_macs(plan, 1) == (73'728 + 2 * 69'632) * 3'136);
  // layer1 parameters with BN: 75,008 + 2 x 70,400 = 215,808; layer4: 6,039,552 + 2 x 4,462,592 = 14,964,736.
  CHECK(stage_params(plan, 1) == 215'808);
  CHECK(stage_params(plan, 4) == 14'964'736);
  // Each stage's output: 256 x 56², 512 x 28², 1024 x 14², 2048 x 7².
  const std::int64_t want_c[] = {256, 512, 1024, 2048}, want_side[] = {56, 28, 14, 7};
  for (int st = 0; st < 4; ++st) {
    int last_block = 0;
    for (int b = 0; b < 16; ++b)
      if (plan.convs[plan.blocks[b].conv3].stage == st + 1) last_block = b;
    const auto& s = plan.convs[plan.blocks[last_block].conv3].shape;
    CHECK(s.out_channels == want_c[st]);
    CHECK(s.out_height() == want_side[st]);
  }
  CHECK(plan.fc_params() == 2'049'000);
}

TEST_CASE("MACs scale with the square of the resolution and roughly the square of the width",
          "[request][resnet]") {
  const auto full = resnet50_plan({});
  const auto half_res = resnet50_plan({112, 1.0, 1000});
  // Every conv's output plane shrinks 4x at 112 (all sides stay even down to 7 -> 4 rounds up: not quite 4x
  // for the last stage), so the conv MACs drop by between 3x and 4x.
  const double r = static_cast<double>(full.conv_macs()) / static_cast<double>(half_res.conv_macs());
  CHECK(r > 3.0);
  CHECK(r <= 4.0);
  const auto half_width = resnet50_plan({224, 0.5, 1000});
  CHECK(half_width.convs.size() == 53);
  CHECK(half_width.fc_in == 1024);
  // Most MACs are C_in x C_out products, which drop 4x; the stem's C_in = 3 drops only 2x.
  const double w = static_cast<double>(full.conv_macs()) / static_cast<double>(half_width.conv_macs());
  CHECK(w > 3.5);
  CHECK(w < 4.0);
}

}  // namespace SL_UNITY_ID
