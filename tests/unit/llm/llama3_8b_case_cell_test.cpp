#include <catch2/catch.hpp>

#include "cell_runner.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using cell_test::out;

namespace {

const std::string kCell = "llm/llama3-8b-case";
sl::Result<sl::RunResult> try_run(const std::map<std::string, std::string>& raw) {
  return cell_test::try_run(kCell, raw);
}

sl::RunResult run(const std::map<std::string, std::string>& raw = {}) { return cell_test::run(kCell, raw); }

/// The GB/GiB table's value column for one item, as {decimal, binary, book} and their match flags.
std::vector<double> column_for_item(const sl::RunResult& r, const std::string& column, int item) {
  const auto& t = r.tables.at(0);
  REQUIRE(t.name == "gb_gib");
  std::vector<double> xs;
  const auto& items = t.columns[0].second;
  for (const auto& [name, values] : t.columns)
    if (name == column)
      for (std::size_t i = 0; i < values.size(); ++i)
        if (items[i] == item) xs.push_back(values[i]);
  REQUIRE(xs.size() == 3);
  return xs;
}

}  // namespace

TEST_CASE("Case study: every printed number of the Llama-3-8B on H100 study at the defaults",
          "[llm][model][book]") {
  const auto r = run();
  // Tolerances are half a unit of the book's last printed digit.
  CHECK(out(r, "weight_gb") == 4.015);                          // 8.03e9 x 0.5 B, printed "4.0 GB"
  CHECK_THAT(out(r, "floor_ms"), WithinAbs(1.2, 0.05));          // 1.1985 ms
  CHECK_THAT(out(r, "floor_a100_ms"), WithinAbs(1.97, 0.005));   // 1.9691 ms
  CHECK(out(r, "intensity_flop_per_byte") == 4.0);
  CHECK_THAT(out(r, "ttft_ms"), WithinAbs(41.9, 0.05));          // 41.93 ms
  CHECK_THAT(out(r, "tpot_ms"), WithinAbs(1.57, 0.005));         // 1.5676 ms
  CHECK_THAT(out(r, "decode_s"), WithinAbs(0.40, 0.005));        // 256 x 1.5676 ms = 0.4013 s
  CHECK(out(r, "kv_per_token_bytes") == 131'072);
  CHECK(out(r, "kv_tokens") == 589'824);                         // the book's own guard, exact
  CHECK(out(r, "concurrent_requests") == 469);                   // floor(589,824 / 1,256)
  CHECK_THAT(out(r, "remaining_vram_gib"), WithinAbs(76.3, 0.05));  // printed "~76.3 GB"
  CHECK(out(r, "prefill_req_per_s") == 10.0);
  CHECK_THAT(out(r, "tokens_per_h_million"), WithinRel(45.216, 1e-12));  // 10 x 3,600 x 1,256
  CHECK_THAT(out(r, "usd_per_m_tokens"), WithinAbs(0.066, 0.0005));       // $3 / 45.216
}

TEST_CASE("Case study: the GB/GiB table closes the reserve figures only as GiB and the weights only as GB",
          "[llm][model][book]") {
  const auto r = run();
  // Items: 0 weights, 1 GPU memory, 2 left after weights, 3 KV/token, 4 tokens in reserve (M), 5 requests.
  const auto requests = column_for_item(r, "value", 5);
  CHECK(requests[0] == 437);  // 72e9 / 131,072 = 549,316 tokens -> 437 requests (the decimal reading)
  CHECK(requests[1] == 469);
  const std::vector<double> gib_only{0, 1, 2};
  const std::vector<double> gb_only{1, 0, 2};
  CHECK(column_for_item(r, "match", 1) == gib_only);
  CHECK(column_for_item(r, "match", 2) == gib_only);
  CHECK(column_for_item(r, "match", 4) == gib_only);
  CHECK(column_for_item(r, "match", 5) == gib_only);
  CHECK(column_for_item(r, "match", 0) == gb_only);
  CHECK(column_for_item(r, "match", 3) == gb_only);
}

TEST_CASE("Case study: a custom model equal to the preset gives the preset's numbers", "[llm][model]") {
  const auto preset = run();
  const auto custom = run({{"model", "custom"}, {"gpu", "custom"}});
  for (const auto& [name, value] : preset.outputs) CHECK_THAT(out(custom, name), WithinRel(value, 1e-12));
  CHECK(preset.notices.empty());
  const auto ignored = run({{"layers", "40"}, {"bw_tb_per_s", "2"}});
  REQUIRE(ignored.notices.size() == 2);
  CHECK(ignored.notices[0].code == "custom_model_ignored");
  CHECK(ignored.notices[1].code == "custom_gpu_ignored");
  CHECK(out(ignored, "tpot_ms") == out(preset, "tpot_ms"));
}

TEST_CASE("Case study: presets and precisions move the numbers the right way", "[llm][model]") {
  const auto base = run();
  // FP16 weights (16.06 GB, leaving 69.9 GiB) are 4x the INT4 bytes: the floor is 4x.
  CHECK_THAT(out(run({{"weights", "fp16"}, {"kv_reserve_gib", "60"}}), "floor_ms"), WithinRel(4 * out(base, "floor_ms"), 1e-12));
  // FP8 KV halves the bytes per token and doubles the tokens the reserve holds.
  CHECK(out(run({{"kv", "fp8"}}), "kv_tokens") == 2 * 589'824);
  // On the A100 the floor is eq. 18 with 2.039 TB/s.
  CHECK_THAT(out(run({{"gpu", "a100"}}), "floor_ms"), WithinAbs(1.97, 0.005));
  // Llama-3.1-70B INT4 leaves 47.0 GiB; with a 40 GiB reserve, KV of 327,680 B/token holds 131,072 tokens.
  const auto big = run({{"model", "llama3.1-70b"}, {"kv_reserve_gib", "40"}});
  CHECK(out(big, "kv_tokens") == 131'072);
  // TPOT = (35.3e9 + 327,680 x 1,256) / 3.35e12 + 80 x 0.01 ms = 11.460 ms.
  CHECK_THAT(out(big, "tpot_ms"), WithinRel((35.3e9 + 327'680.0 * 1256) / 3.35e12 * 1e3 + 0.8, 1e-12));
}

TEST_CASE("Case study: impossible configurations are errors naming the parameter", "[llm][model]") {
  SECTION("FP16 Llama-3.1-70B (141 GB) does not fit in 80 GiB") {
    const auto r = try_run({{"model", "llama3.1-70b"}, {"weights", "fp16"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "too_large");
    CHECK(r.error().param == "weights");
  }
  SECTION("a 72 GiB reserve beside 35.3 GB of 70B weights") {
    const auto r = try_run({{"model", "llama3.1-70b"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "kv_reserve_gib");
  }
  SECTION("a request longer than the reserve") {
    const auto r = try_run({{"prompt", "1000000"}, {"kv_reserve_gib", "1"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "prompt");
  }
  SECTION("more KV heads than query heads") {
    const auto r = try_run({{"model", "custom"}, {"kv_heads", "64"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "kv_heads");
  }
  SECTION("an out-of-range efficiency") {
    const auto r = try_run({{"efficiency", "0"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "efficiency");
  }
}
