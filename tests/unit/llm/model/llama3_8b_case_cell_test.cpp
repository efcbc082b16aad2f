#include <algorithm>

#include <catch2/catch.hpp>

#include "cell_runner.h"

namespace SL_UNITY_ID {

namespace {

const cell_test::Cell cell{"llm/llama3-8b-case"};

/// The GB/GiB table's value column for one item, as {decimal, binary, book} and their match flags.
std::vector<double> column_for_item(const sl::RunResult& r, const std::string& column, int item) {
  const auto found = std::find_if(r.tables.begin(), r.tables.end(), [](const sl::Table& t) { return t.name == "gb_gib"; });
  REQUIRE(found != r.tables.end());
  const auto& t = *found;
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
  const auto r = cell.run();
  // The lab file's tolerances are half a unit of the book's last printed digit.
  for (const char* name : {"weight_gb", "floor_ms", "floor_a100_ms", "intensity_flop_per_byte", "ttft_ms", "tpot_ms",
                           "decode_s", "kv_per_token_mb", "kv_tokens_million", "remaining_vram_gib",
                           "tokens_per_h_million", "usd_per_m_tokens"})
    cell.check_book(r, name);
  // Our own closed forms, exactly: 8.03e9 x 0.5 B; 2 FLOP per 0.5 B weight; 2 x 32 x 8 x 128 x 2 B per token.
  CHECK(out(r, "weight_gb") == 4.015);
  CHECK(out(r, "intensity_flop_per_byte") == 4.0);
  CHECK(out(r, "kv_per_token_bytes") == 131'072);
  // The book's own guards, exact: 72 x 2^30 / 131,072 tokens, floor(589,824 / 1,256) requests.
  CHECK(out(r, "kv_tokens") == cell.book("kv_tokens"));
  CHECK(out(r, "concurrent_requests") == cell.book("concurrent_requests"));
  CHECK(out(r, "prefill_req_per_s") == 10.0);                              // 10,000 tokens/s / 1,000
  CHECK_THAT(out(r, "tokens_per_h_million"), WithinRel(45.216, 1e-12));  // 10 x 3,600 x 1,256
}

TEST_CASE("Case study: the GB/GiB table closes the reserve figures only as GiB and the weights only as GB",
          "[llm][model][book]") {
  const auto r = cell.run();
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
  const auto preset = cell.run();
  const auto custom = cell.run({{"model", "custom"}, {"gpu", "custom"}});
  for (const auto& [name, value] : preset.outputs) CHECK_THAT(out(custom, name), WithinRel(value, 1e-12));
  CHECK(preset.notices.empty());
  const auto ignored = cell.run({{"layers", "40"}, {"bw_tb_per_s", "2"}});
  REQUIRE(ignored.notices.size() == 2);
  CHECK(ignored.notices[0].code == "custom_model_ignored");
  CHECK(ignored.notices[1].code == "custom_gpu_ignored");
  CHECK(out(ignored, "tpot_ms") == out(preset, "tpot_ms"));
}

TEST_CASE("Case study: presets and precisions move the numbers the right way", "[llm][model]") {
  const auto base = cell.run();
  // FP16 weights (16.06 GB, leaving 69.9 GiB) are 4x the INT4 bytes: the floor is 4x.
  CHECK_THAT(out(cell.run({{"weights", "fp16"}, {"kv_reserve_gib", "60"}}), "floor_ms"),
             WithinRel(4 * out(base, "floor_ms"), 1e-12));
  // FP8 KV halves the bytes per token and doubles the tokens the reserve holds.
  CHECK(out(cell.run({{"kv", "fp8"}}), "kv_tokens") == 2 * 589'824);
  // On the A100 the floor is eq. 18 with 2.039 TB/s.
  CHECK_THAT(out(cell.run({{"gpu", "a100"}}), "floor_ms"), WithinAbs(1.97, 0.005));
  // Llama-3.1-70B INT4 leaves 47.0 GiB; with a 40 GiB reserve, KV of 327,680 B/token holds 131,072 tokens.
  const auto big = cell.run({{"model", "llama3.1-70b"}, {"kv_reserve_gib", "40"}});
  CHECK(out(big, "kv_tokens") == 131'072);
  // TPOT = (35.3e9 + 327,680 x 1,256) / 3.35e12 + 80 x 0.01 ms = 11.460 ms.
  CHECK_THAT(out(big, "tpot_ms"), WithinRel((35.3e9 + 327'680.0 * 1256) / 3.35e12 * 1e3 + 0.8, 1e-12));
}

TEST_CASE("Case study: impossible configurations are errors naming the parameter", "[llm][model]") {
  cell_test::check_bad_inputs(cell, {
      {"FP16 Llama-3.1-70B (141 GB) does not fit in 80 GiB", {{"model", "llama3.1-70b"}, {"weights", "fp16"}},
       "too_large", "weights"},
      {"a 72 GiB reserve beside 35.3 GB of 70B weights", {{"model", "llama3.1-70b"}}, "", "kv_reserve_gib"},
      {"a request longer than the reserve", {{"prompt", "1000000"}, {"kv_reserve_gib", "1"}}, "", "prompt"},
      {"more KV heads than query heads", {{"model", "custom"}, {"kv_heads", "64"}}, "", "kv_heads"},
      {"an out-of-range efficiency", {{"efficiency_frac", "0"}}, "", "efficiency_frac"},
  });
}

TEST_CASE("Case study: the request-time parts add up to TTFT + decode", "[llm][model]") {
  const auto r = cell.run();
  const auto& ms = cell_test::column(r, "request_time", "ms");
  REQUIRE(ms.size() == 4);
  CHECK_THAT(ms[0], WithinRel(out(r, "ttft_ms"), 1e-12));
  CHECK_THAT(ms[1] + ms[2] + ms[3], WithinRel(out(r, "decode_s") * 1e3, 1e-12));
  // Framework tax: 256 steps x 32 layers x 0.01 ms = 81.92 ms; the weight read is 256 x 1.1985 ms = 306.8 ms.
  CHECK_THAT(ms[3], WithinRel(81.92, 1e-12));
  CHECK_THAT(ms[1], WithinRel(256 * out(r, "floor_ms"), 1e-9));
}

TEST_CASE("An MoE's batch-1 floor reads the routed experts, and no part of its request time is negative",
          "[llm][llama3-8b-case][moe]") {
  const auto dense = cell.run({{"model", "qwen3-32b"}, {"kv_reserve_gib", "20"}});
  const auto moe = cell.run({{"model", "qwen3-30b-a3b"}, {"kv_reserve_gib", "20"}});
  // A dense model's floor is one full read of its weights (Eq. 18).
  CHECK(out(dense, "floor_ms") == Approx(out(dense, "weight_gb") * 1e9 / 3.35e12 * 1e3));
  // Qwen3-30B-A3B: 8 of 128 experts a token; the floor reads the active share (3.3B of 30.5B), not the whole.
  const double full_read_ms = out(moe, "weight_gb") * 1e9 / 3.35e12 * 1e3;
  const double active_share = out(moe, "model_active_params_b") / out(moe, "model_params_b");
  CHECK(out(moe, "floor_ms") < 0.2 * full_read_ms);
  CHECK(out(moe, "floor_ms") == Approx(active_share * full_read_ms).epsilon(0.05));
  for (const auto* r : {&dense, &moe})
    for (double ms : column(*r, "request_time", "ms")) CHECK(ms >= 0);
}

}  // namespace SL_UNITY_ID
