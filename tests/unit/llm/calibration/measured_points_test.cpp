// The published measurements compiled into C++ (measured_points.h, generated from labs/llm/measured/*.json by
// scripts/labs/measured.mjs): every point of every file, in order, with its numbers as the file states them.
#include "llm/calibration/measured_points.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace SL_UNITY_ID {

namespace {

namespace fs = std::filesystem;

/// The measured files' points, files in name order (as the generator reads them).
std::vector<nlohmann::json> file_points() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(fs::path(SERVING_LAB_SOURCE_DIR) / "labs" / "llm" / "measured"))
    if (e.path().extension() == ".json") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  std::vector<nlohmann::json> points;
  for (const fs::path& f : files) {
    std::ifstream in(f);
    const nlohmann::json doc = nlohmann::json::parse(in);
    for (const auto& p : doc["points"]) points.push_back(p);
  }
  return points;
}

}  // namespace

TEST_CASE("The compiled measured points are the files' points, in order, with every measured value",
          "[llm][measured]") {
  const std::vector<nlohmann::json> expected = file_points();
  const auto& points = sl::llm::measured_points();
  REQUIRE(points.size() == expected.size());
  CHECK(points.size() >= 12);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const nlohmann::json& e = expected[i];
    INFO(e["id"].get<std::string>());
    CHECK(points[i].id == e["id"].get<std::string>());
    CHECK(points[i].params_b == e["model"]["params_b"].get<double>());
    CHECK(points[i].layers == e["model"]["layers"].get<std::int64_t>());
    CHECK(points[i].tp == e["gpu"]["tp"].get<std::int64_t>());
    CHECK(points[i].arrival == e["workload"]["arrival"].get<std::string>());
    const nlohmann::json& m = e["model"];
    const auto count = [&](const char* key) { return m.value(key, nlohmann::json()).is_null() ? -1 : m[key].get<std::int64_t>(); };
    CHECK(points[i].num_experts == count("num_experts"));
    CHECK(points[i].experts_per_token == count("experts_per_token"));
    CHECK(points[i].moe_intermediate_size == count("moe_intermediate_size"));
    CHECK(points[i].hidden_size == count("hidden_size"));
    CHECK(points[i].vocab_size == count("vocab_size"));
    const nlohmann::json preset = m.value("preset", nlohmann::json());
    CHECK(points[i].preset == (preset.is_null() ? std::string() : preset.get<std::string>()));
    if (points[i].is_moe()) CHECK(points[i].experts_per_token >= 1);
    CHECK(points[i].measured.size() == e["measured"].size());
    for (const auto& [key, value] : e["measured"].items()) CHECK(points[i].value(key) == value.get<double>());
    const nlohmann::json& rate = e["workload"]["rate_per_s"];
    CHECK(points[i].rate_per_s == (rate.is_null() ? -1.0 : rate.get<double>()));
  }
}

TEST_CASE("Unknown values are -1 or empty, and prompt reuse is carried where a file states it", "[llm][measured]") {
  for (const auto& p : sl::llm::measured_points()) {
    INFO(p.id);
    if (p.source == "inference-sim-training") {
      CHECK(p.kv.empty());  // the file says null: vLLM's auto
      CHECK(p.chunked_prefill == -1);
      CHECK(p.reuse_distinct_prompts == 100);
      CHECK(p.reuse_groups == 10);
    } else {
      CHECK(p.reuse_distinct_prompts == 0);
    }
    CHECK(p.value("no_such_key") == -1);
  }
}

}  // namespace SL_UNITY_ID
