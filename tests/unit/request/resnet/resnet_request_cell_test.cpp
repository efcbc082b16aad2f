#include <catch2/catch.hpp>

#include <numeric>

#include "cell_runner.h"

namespace SL_UNITY_ID {

using cell_test::column;
using cell_test::out;

namespace {
const cell_test::Cell cell{"request/resnet-request"};
// A small, fast configuration: the phases and formulas are the same at any size.
const std::map<std::string, std::string> kSmall = {{"resolution", "64"}, {"width", "0.25"}};
}  // namespace

TEST_CASE("The request's phases add up to the total and their shares to 1", "[request][resnet]") {
  const auto r = cell.run(kSmall);
  const double total = out(r, "decode_ms") + out(r, "resize_ms") + out(r, "normalize_ms") + out(r, "forward_ms") + out(r, "post_ms");
  CHECK_THAT(out(r, "total_ms"), WithinRel(total, 1e-12));
  const auto& ours = column(r, "budget", "ours_frac");
  const auto& book = column(r, "budget", "book_frac");
  CHECK_THAT(std::accumulate(ours.begin(), ours.end(), 0.0), WithinAbs(1.0, 1e-12));
  CHECK_THAT(std::accumulate(book.begin(), book.end(), 0.0), WithinAbs(1.0, 1e-12));
  // Table 3's shares: 3 / 10.1 = 29.70 % for the JPEG decode, 5 / 10.1 = 49.50 % for the forward pass.
  CHECK_THAT(book[0], WithinAbs(0.2970, 0.00005));
  CHECK_THAT(book[4], WithinAbs(0.4950, 0.00005));
  CHECK(ours[3] == 0.0);  // no device copy on a CPU
}

TEST_CASE("Amdahl: the model must get M / R times faster before the rest is half the request", "[request][resnet]") {
  const auto r = cell.run(kSmall);
  const double m = out(r, "forward_ms");
  const double rest = out(r, "total_ms") - m;
  CHECK_THAT(out(r, "speedup_for_half"), WithinRel(m / rest, 1e-9));
  CHECK_THAT(out(r, "amdahl_ceiling"), WithinRel(out(r, "total_ms") / rest, 1e-9));
  // The curve crosses 1/2 at k = M / R: outside share R / (R + M / k).
  const auto& k = column(r, "amdahl", "k");
  const auto& share = column(r, "amdahl", "outside_frac");
  for (std::size_t i = 0; i < k.size(); ++i) CHECK_THAT(share[i], WithinRel(rest / (rest + m / k[i]), 1e-9));
}

TEST_CASE("GFLOP/s is 2 x MACs over the median forward time; NHWC agrees with NCHW", "[request][resnet]") {
  const auto r = cell.run(kSmall);
  CHECK_THAT(out(r, "gflop_per_s"), WithinRel(2.0 * out(r, "run_gmac") / (1e-3 * out(r, "forward_ms")), 1e-9));
  CHECK(out(r, "nhwc_max_rel_diff") < 1e-4);
  CHECK_THAT(out(r, "nhwc_speedup"), WithinRel(out(r, "forward_ms") / out(r, "forward_nhwc_ms"), 1e-9));
  CHECK(out(r, "top1_prob") > 0.0);
  CHECK(out(r, "top1_prob") <= 1.0);
  CHECK(column(r, "layers", "ms").size() == 53);
}

TEST_CASE("The layer table's GFLOP/s is 2 x MMAC / ms; a layout wins only outside the passes' spread",
          "[request][resnet]") {
  auto raw = kSmall;
  raw["repeats"] = "3";
  const auto r = cell.run(raw);
  const auto& mmac = column(r, "layers", "mmac");
  const auto& ms = column(r, "layers", "ms");
  const auto& gflop = column(r, "layers", "gflop_per_s");
  for (std::size_t i = 0; i < mmac.size(); ++i)
    if (ms[i] > 0) CHECK_THAT(gflop[i], WithinRel(2.0 * mmac[i] * 1e6 / (ms[i] * 1e-3) * 1e-9, 1e-12));
  const double lo = out(r, "nhwc_speedup_lo"), hi = out(r, "nhwc_speedup_hi");
  CHECK(lo <= out(r, "nhwc_speedup"));
  CHECK(out(r, "nhwc_speedup") <= hi);
  const bool called = r.find_output("nhwc_faster") != nullptr;
  CHECK(called == (lo > 1 || hi < 1));
  CHECK(called != cell_test::has_notice(r, "layout_within_spread"));
  if (called) CHECK(out(r, "nhwc_faster") == (lo > 1 ? 1.0 : 0.0));
  // One pass per layout shows no spread: no winner.
  const auto one = cell.run(kSmall);
  CHECK(one.find_output("nhwc_faster") == nullptr);
  CHECK(cell_test::has_notice(one, "layout_spread_unknown"));
}

TEST_CASE("The true ResNet-50 totals are reported whatever the run's size", "[request][resnet][book]") {
  const auto r = cell.run(kSmall);
  // Table 6 prints 4.1 GMAC and 25.6 M, to 0.1: the lab file's tolerance is half a unit, 0.05.
  for (const char* name : {"resnet50_gmac", "resnet50_params_m"})
    cell.check_book(r, name);
  CHECK(out(r, "run_gmac") < out(r, "resnet50_gmac"));
}

TEST_CASE("Peak memory counts the weights, both layouts' copies and the activation buffers", "[request][resnet]") {
  const auto both = cell.run(kSmall);
  auto one_layout = kSmall;
  one_layout["layouts"] = "nchw";
  const auto one = cell.run(one_layout);
  // The NHWC copy doubles the weights: the difference is one copy, 4 bytes per parameter plus BN.
  const double params = out(one, "run_params_m") * 1e6;
  CHECK(out(both, "peak_bytes") - out(one, "peak_bytes") >= 4.0 * params);
  CHECK(one.find_output("forward_nhwc_ms") == nullptr);
  CHECK(out(one, "peak_bytes") < 64.0 * 1048576.0);
}

TEST_CASE("Bad resnet-request inputs are rejected with the parameter named", "[request][resnet]") {
  CHECK(cell.error({{"resolution", "16"}}).param == "resolution");
  CHECK(cell.error({{"width", "2"}}).param == "width");
  CHECK(cell.error({{"repeats", "0"}}).code == "out_of_range");
  // Width 1 at 448 px is 16.4 GMAC a pass: 2 passes x 2 layouts exceed the 40 GMAC a run may do.
  CHECK(cell.error({{"width", "1"}, {"resolution", "448"}}).code == "too_large");
  CHECK(cell.error({{"width", "1"}, {"resolution", "448"}}).param == "repeats");
  CHECK(cell.error({{"reps", "0"}}).param == "repeats");  // the old name still works (an alias)
}

}  // namespace SL_UNITY_ID
