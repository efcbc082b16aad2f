#include "cli/presets.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace SL_UNITY_ID {

// `serving-lab presets`: issue 36 asks for at least ten model and six GPU presets, each with its source.
TEST_CASE("presets lists at least ten models and six GPUs, each with the source of its figures", "[cli][presets]") {
  const auto all = nlohmann::json::parse(sl::cli::presets_json());
  REQUIRE(all["models"].size() >= 10);
  REQUIRE(all["gpus"].size() >= 6);
  for (const auto& m : all["models"]) {
    INFO(m["id"]);
    CHECK_FALSE(m["config_source"].get<std::string>().empty());
    CHECK_FALSE(m["params_source"].get<std::string>().empty());
    CHECK(m["active_params"].get<double>() <= m["params"].get<double>());
    // The count the cells use is the published one within 1 % (the book's two: its rounding, 8.03 and 70.6).
    CHECK(m["params"].get<double>() / 1e9 == Approx(m["published_params_b"].get<double>()).epsilon(0.01));
  }
  for (const auto& g : all["gpus"]) {
    INFO(g["id"]);
    CHECK_FALSE(g["source"].get<std::string>().empty());
    CHECK(g["peak_fp16_flop_per_s"].get<double>() > 0);
    CHECK(g["hbm_bytes_per_s"].get<double>() > 0);
  }
  const std::string text = sl::cli::presets_text();
  for (const auto& m : all["models"]) CHECK(text.find(m["id"].get<std::string>()) != std::string::npos);
}

}  // namespace SL_UNITY_ID
