#include <catch2/catch.hpp>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"batching/phone-pipeline"};

TEST_CASE("Table 17: 45 ms and 2.98 mJ per photo, 22 FPS, 12.1 M inferences on 10 Wh, 66 mW", "[batching][phone][book]") {
  const auto r = cell.run({});
  CHECK_THAT(out(r, "total_ms"), WithinRel(45.0, 1e-12));    // 8 + 15 + 5 + 12 + 5
  CHECK_THAT(out(r, "total_mj"), WithinRel(2.98, 1e-12));    // 0.08 + 1.5 + 0.4 + 0.8 + 0.2
  CHECK_THAT(out(r, "fps"), WithinRel(1000.0 / 45, 1e-12));  // printed "22 FPS"
  CHECK_THAT(out(r, "inferences_per_charge"), WithinRel(36000 / 2.98e-3, 1e-12));
  cell.check_book(r, "inferences_per_charge");
  CHECK_THAT(out(r, "power_mw"), WithinRel(2.98 / 45 * 1000, 1e-12));
  cell.check_book(r, "power_mw");
}

TEST_CASE("Table 17's CPU fallback: 78 ms and 6.38 mJ (printed 6.4)", "[batching][phone][book]") {
  const auto r = cell.run({});
  CHECK_THAT(out(r, "cpu_total_ms"), WithinRel(78.0, 1e-12));
  CHECK_THAT(out(r, "cpu_total_mj"), WithinRel(6.38, 1e-12));
  CHECK(out(r, "cpu_inferences_per_charge") < out(r, "inferences_per_charge") / 2);
}

TEST_CASE("Phone pipeline: the timeline's bars tile each path and its energies sum to the totals", "[batching][phone]") {
  const auto r = cell.run({{"decode_ms", "7"}, {"decode_mj", "0.5"}});
  const auto& t = r.tables.front();
  REQUIRE(t.name == "timeline");
  const auto& lane = t.columns[0].second;
  const auto& from = t.columns[2].second;
  const auto& to = t.columns[3].second;
  const auto& mj = t.columns[4].second;
  double end[2] = {0, 0}, energy[2] = {0, 0};
  for (std::size_t i = 0; i < lane.size(); ++i) {
    const auto k = static_cast<std::size_t>(lane[i]);
    CHECK(from[i] == end[k]);  // each phase starts where the previous ended
    end[k] = to[i];
    energy[k] += mj[i];
  }
  CHECK_THAT(end[0], WithinRel(out(r, "total_ms"), 1e-12));
  CHECK_THAT(end[1], WithinRel(out(r, "cpu_total_ms"), 1e-12));
  CHECK_THAT(energy[0], WithinRel(out(r, "total_mj"), 1e-12));
  CHECK_THAT(energy[1], WithinRel(out(r, "cpu_total_mj"), 1e-12));
  CHECK_THAT(out(r, "total_ms"), WithinRel(37.0, 1e-12));
  // Overlapping frames: the CPU stages (8 + 7 + 5 + 5 = 25 ms) against the NPU's 12 ms set the pace.
  CHECK_THAT(out(r, "overlapped_fps"), WithinRel(1000.0 / 25, 1e-12));
}

TEST_CASE("Phone pipeline rejects a path with no time or energy, and negative values", "[batching][phone]") {
  const auto zero = cell.error({{"camera_ms", "0"}, {"decode_ms", "0"}, {"preprocess_ms", "0"}, {"npu_ms", "0"}, {"post_ms", "0"}});
  CHECK(zero.code == "invalid");
  CHECK(zero.param == "npu_ms");
  const auto neg = cell.error({{"npu_mj", "-1"}});
  CHECK(neg.code == "out_of_range");
  CHECK(neg.param == "npu_mj");
}

}  // namespace SL_UNITY_ID
