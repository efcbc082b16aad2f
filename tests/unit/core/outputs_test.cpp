#include "core/outputs.h"

#include <catch2/catch.hpp>

namespace SL_UNITY_ID {

using sl::unit_of_output;

TEST_CASE("An output's unit is the one its name's suffix states, the longest suffix first", "[core][outputs]") {
  CHECK(unit_of_output("W_ms") == "ms");
  CHECK(unit_of_output("decode_s") == "s");
  CHECK(unit_of_output("serving_req_per_s") == "1/s");          // _per_s before _s
  CHECK(unit_of_output("offered_tok_per_s") == "tokens/s");     // _tok_per_s before _per_s
  CHECK(unit_of_output("b1_gb_per_s") == "GB/s");
  CHECK(unit_of_output("ridge_flop_per_byte") == "FLOP/B");
  CHECK(unit_of_output("json_full_encode_us") == "µs");
  CHECK(unit_of_output("queue_gain_x") == "×");
  CHECK(unit_of_output("remaining_vram_gib") == "GiB");
  CHECK(unit_of_output("remaining_vram_gb") == "GB");
  CHECK(unit_of_output("total_mj") == "mJ");
  CHECK(unit_of_output("response_j") == "J");
  CHECK(unit_of_output("kv_per_token_bytes") == "B");
  CHECK(unit_of_output("p_empty_sim_frac") == "");
  CHECK(unit_of_output("rho") == "");
  CHECK(unit_of_output("_ms") == "");  // a suffix alone names nothing
}

TEST_CASE("An outputs() list keeps its order, derives the units of bare names and keeps explicit ones",
          "[core][outputs]") {
  const auto specs = sl::outputs({"W_ms", sl::out("mean_batch", "sequences"), sl::sometimes("p99_closed_ms"),
                                  sl::browser_only("js_call_us")});
  REQUIRE(specs.size() == 4);
  CHECK((specs[0].name == "W_ms" && specs[0].unit == "ms" && specs[0].presence == sl::Presence::Always));
  CHECK((specs[1].name == "mean_batch" && specs[1].unit == "sequences"));
  CHECK((specs[2].unit == "ms" && specs[2].presence == sl::Presence::SomeInputs));
  CHECK((specs[3].unit == "µs" && specs[3].presence == sl::Presence::BrowserOnly));
}

}  // namespace SL_UNITY_ID
