#include <catch2/catch.hpp>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"request/latency-budget"};

TEST_CASE("Table 3: ResNet-50 takes 10.1 ms, 44.6 % of it preprocessing, 63.4 % with a 2 ms model",
          "[request][budget][book]") {
  const auto r = cell.run();
  // 3 + 1 + 0.5 + 0.5 + 5 + 0.1 ms, exact to rounding.
  CHECK_THAT(out(r, "resnet_total_ms"), WithinRel(10.1, 1e-12));
  CHECK_THAT(out(r, "preprocess_ms"), WithinRel(4.5, 1e-12));
  // The book prints one decimal of a percentage: half a unit of 0.1 % is 0.0005.
  cell.check_book(r, "preprocess_frac");
  CHECK_THAT(out(r, "fast_total_ms"), WithinRel(7.1, 1e-12));
  cell.check_book(r, "fast_preprocess_frac");
}

TEST_CASE("Amdahl: a 10x faster model speeds the ResNet-50 request up 1.8x, to 5.6 ms, under a 1.98x ceiling",
          "[request][budget][book]") {
  const auto r = cell.run();
  cell.check_book(r, "pre_and_transfer_frac");
  CHECK_THAT(out(r, "model_frac"), WithinRel(5.0 / 10.1, 1e-12));
  // 1 / ((1 - 5/10.1) + 0.5/10.1) = 10.1 / 5.6 = 1.8036; printed "1.8x" and "5.6 ms" (half a unit: 0.05).
  cell.check_book(r, "amdahl_speedup");
  CHECK_THAT(out(r, "amdahl_speedup"), WithinRel(10.1 / 5.6, 1e-12));
  CHECK_THAT(out(r, "amdahl_total_ms"), WithinRel(5.6, 1e-12));
  CHECK_THAT(out(r, "amdahl_ceiling"), WithinRel(10.1 / 5.1, 1e-12));
}

TEST_CASE("The Amdahl curve table follows the formula and marks the chosen k", "[request][budget]") {
  const auto r = cell.run({{"speedup_k", "40"}});
  const auto& k = column(r, "amdahl", "k");
  const auto& s = column(r, "amdahl", "speedup");
  const double f = out(r, "model_frac");
  REQUIRE(k.size() > 10);
  CHECK(k.front() == 1.0);
  CHECK(k.back() == 1000.0);
  for (std::size_t i = 0; i < k.size(); ++i) CHECK_THAT(s[i], WithinRel(1.0 / ((1 - f) + f / k[i]), 1e-12));
  CHECK(column(r, "amdahl_at_k", "k") == std::vector<double>{40});
  CHECK_THAT(out(r, "amdahl_total_ms") * out(r, "amdahl_speedup"), WithinRel(out(r, "resnet_total_ms"), 1e-12));
}

TEST_CASE("Table 4: DLRM uses 9 of its 10 ms, the MLP is ~17 %, and speeding up the MLP alone caps at 1.2x",
          "[request][budget][book]") {
  const auto r = cell.run();
  CHECK_THAT(out(r, "dlrm_total_ms"), WithinRel(9.0, 1e-12));
  CHECK_THAT(out(r, "dlrm_headroom_ms"), WithinRel(1.0, 1e-12));
  cell.check_book(r, "dlrm_mlp_frac");  // "~17 percent": 1.5 / 9 = 16.7 %
  CHECK_THAT(out(r, "dlrm_mlp_ceiling"), WithinRel(1.2, 1e-12));  // 1 / (1 - 1/6)
  CHECK_THAT(out(r, "dlrm_embed_frac"), WithinRel(2.0 / 3.0, 1e-12));
  CHECK(r.notices.empty());
}

TEST_CASE("A DLRM request over its budget is flagged, with negative headroom", "[request][budget]") {
  const auto r = cell.run({{"embed_ms", "9"}});
  CHECK(out(r, "dlrm_headroom_ms") < 0);
  REQUIRE(r.notices.size() == 1);
  CHECK(r.notices[0].code == "over_budget");
}

TEST_CASE("Table 5: serialization + dispatch + copy cost 160-1,050 us, 3.2-21 % of a 5 ms model call",
          "[request][budget][book]") {
  const auto r = cell.run();
  CHECK_THAT(out(r, "tax_low_us"), WithinRel(160.0, 1e-12));
  CHECK_THAT(out(r, "tax_high_us"), WithinRel(1050.0, 1e-12));
  CHECK_THAT(out(r, "tax_low_frac"), WithinRel(0.032, 1e-12));
  CHECK_THAT(out(r, "tax_high_frac"), WithinRel(0.21, 1e-12));
  // With network (1-5 ms) and queuing (0.1-10 ms) as well: 1.26 and 16.05 ms.
  CHECK_THAT(out(r, "tax_all_low_ms"), WithinRel(1.26, 1e-12));
  CHECK_THAT(out(r, "tax_all_high_ms"), WithinRel(16.05, 1e-12));
}

TEST_CASE("The stacked bars tile each scenario from 0 to its total without gaps", "[request][budget]") {
  const auto r = cell.run({{"jpeg_ms", "7"}, {"speedup_k", "4"}});
  const auto& scenario = column(r, "phases", "scenario");
  const auto& ms = column(r, "phases", "ms");
  const auto& start = column(r, "phases", "start_ms");
  const auto& share = column(r, "phases", "share_frac");
  REQUIRE(scenario.size() == 6 * 3 + 4);
  const std::vector<double> totals{out(r, "resnet_total_ms"), out(r, "fast_total_ms"), out(r, "amdahl_total_ms"),
                                   out(r, "dlrm_total_ms")};
  double end = 0, share_sum = 0;
  for (std::size_t i = 0; i < scenario.size(); ++i) {
    const bool first = i == 0 || scenario[i] != scenario[i - 1];
    if (first) end = share_sum = 0;
    CHECK(start[i] == end);
    end += ms[i];
    share_sum += share[i];
    const bool last = i + 1 == scenario.size() || scenario[i + 1] != scenario[i];
    if (last) {
      CHECK_THAT(end, WithinRel(totals[static_cast<std::size_t>(scenario[i])], 1e-12));
      CHECK_THAT(share_sum, WithinRel(1.0, 1e-12));
    }
  }
}

TEST_CASE("Latency-budget inputs are validated: reversed ranges and out-of-range phases", "[request][budget]") {
  SECTION("a tax range with low > high names the high end") {
    const auto e = cell.error({{"ser_lo_us", "600"}});
    CHECK(e.code == "invalid");
    CHECK(e.param == "ser_hi_us");
    CHECK_THAT(e.message, Catch::Matchers::Contains("600 us") && Catch::Matchers::Contains("500 us"));
  }
  SECTION("queuing range reversed") { CHECK(cell.error({{"queue_hi_ms", "0.01"}}).param == "queue_hi_ms"); }
  SECTION("a negative phase time") {
    const auto e = cell.error({{"jpeg_ms", "-1"}});
    CHECK(e.code == "out_of_range");
    CHECK(e.param == "jpeg_ms");
  }
  SECTION("a zero-length model") { CHECK(cell.error({{"forward_ms", "0"}}).code == "out_of_range"); }
  SECTION("k below 1") { CHECK(cell.error({{"speedup_k", "0.5"}}).param == "speedup_k"); }
}

TEST_CASE("With every non-model phase at zero, the model is the whole request and no ceiling is reported",
          "[request][budget]") {
  const auto r =
      cell.run({{"jpeg_ms", "0"}, {"resize_ms", "0"}, {"normalize_ms", "0"}, {"h2d_ms", "0"}, {"post_ms", "0"}});
  CHECK(out(r, "model_frac") == 1.0);
  CHECK_THAT(out(r, "amdahl_speedup"), WithinRel(10.0, 1e-12));
  CHECK(r.find_output("amdahl_ceiling") == nullptr);
}

}  // namespace SL_UNITY_ID
