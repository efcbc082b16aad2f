#include <catch2/catch.hpp>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"llm/kv-growth"};

TEST_CASE("Figure 7: Llama-3.1-70B keeps 327,680 B per token and batch 32 fills 45 GB at about 4.3k tokens",
          "[llm][model][book]") {
  const auto r = cell.run();
  CHECK(out(r, "kv_per_token_bytes") == 327'680);           // 2 x 80 x 8 x 128 x 2 B
  CHECK(out(r, "kv_per_token_mib") == 0.3125);              // footnote "about 0.31 MB" read as MiB
  cell.check_book(r, "kv_per_token_mib");
  // ...and not as decimal MB (0.328)
  CHECK(std::fabs(out(r, "kv_per_token_mb") - cell.book("kv_per_token_mib")) >
        cell.tolerance("kv_per_token_mib"));
  CHECK(out(r, "budget_gb") == 45.0);                        // 80 - 35 GB
  CHECK_THAT(out(r, "cross_b4_tok"), WithinRel(45e9 / (327'680.0 * 32), 1e-12));  // 4,291.5
  cell.check_book(r, "cross_b4_tok");                             // printed "≈ 4.3k"
  CHECK_THAT(out(r, "cross_b3_tok"), WithinAbs(8583, 0.5));
  CHECK(out(r, "cross_b1_tok") > 32'000);                    // batch 1 never reaches it on the chart
  cell.check_book(r, "kv_32x8k_gb");                              // "roughly 80 GB": 83.9 GB
  cell.check_book(r, "model_weight_gb");                          // 35.3 GB, drawn as 35
}

TEST_CASE("Figure 7 only closes in decimal GB: in GiB batch 32 crosses at 4,608 tokens", "[llm][model][book]") {
  const auto r = cell.run({{"units", "gib"}});
  CHECK_THAT(out(r, "cross_b4_tok"), WithinRel(4608, 1e-12));  // 45 x 2^30 / (327,680 x 32)
  CHECK(std::fabs(out(r, "cross_b4_tok") - cell.book("cross_b4_tok")) >
        cell.tolerance("cross_b4_tok"));
  CHECK(out(r, "budget_gib") == 45.0);
}

TEST_CASE("KV growth: the lines are straight through zero and the crossings sit on the budget", "[llm][model]") {
  const auto r = cell.run();
  const auto& context = column(r, "kv", "context_tok");
  const auto& batch = column(r, "kv", "batch");
  const auto& kv = column(r, "kv", "kv");
  REQUIRE(context.size() <= 404);
  for (std::size_t i = 0; i < context.size(); ++i)
    CHECK_THAT(kv[i], WithinRel(327'680.0 * context[i] * batch[i] / 1e9, 1e-12));
  // Two crossings within 32k tokens (batches 16 and 32); batches 1 and 4 cross off the chart.
  const auto& cross_batch = column(r, "crossings", "batch");
  CHECK(cross_batch == std::vector<double>{16, 32});
  for (double y : column(r, "crossings", "kv")) CHECK(y == 45.0);
}

TEST_CASE("KV growth: FP8 KV halves the slope and doubles every crossing", "[llm][model]") {
  CHECK_THAT(out(cell.run({{"kv", "fp8"}}), "cross_b4_tok"), WithinRel(2 * out(cell.run(), "cross_b4_tok"), 1e-12));
}

TEST_CASE("KV growth: weights as large as the device leave no budget and are an error, as is an empty batch",
          "[llm][model]") {
  cell_test::check_bad_inputs(cell, {
      {"weights as large as the device", {{"weights_mem", "80"}}, "invalid", "weights_mem"},
      {"a batch of no sequences", {{"b4", "0"}}, "", "b4"},
  });
}

TEST_CASE("KV growth: the curves table lists every batch with the crossing outputs, on the chart or not",
          "[llm][model]") {
  const auto r = cell.run();
  const auto& batch = cell_test::column(r, "curves", "batch");
  const auto& cross = cell_test::column(r, "curves", "cross_tok");
  REQUIRE(batch.size() == 4);
  CHECK(batch == std::vector<double>{1, 4, 16, 32});
  CHECK(cross[0] == out(r, "cross_b1_tok"));  // 137,329 tokens: past the 32,000 drawn, still listed
  CHECK(cross[3] == out(r, "cross_b4_tok"));
}

}  // namespace SL_UNITY_ID
