#include <catch2/catch.hpp>

#include "cell_runner.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using cell_test::column;
using cell_test::out;

namespace {

const std::string kCell = "llm/kv-growth";
sl::Result<sl::RunResult> try_run(const std::map<std::string, std::string>& raw) {
  return cell_test::try_run(kCell, raw);
}

sl::RunResult run(const std::map<std::string, std::string>& raw = {}) { return cell_test::run(kCell, raw); }

/// The output lies within the lab file's tolerance of the book's printed value (labs/llm/<cell>.json).
void check_book(const sl::RunResult& r, const std::string& output) {
  INFO("book value of " << output);
  CHECK_THAT(cell_test::out(r, output),
             Catch::Matchers::WithinAbs(cell_test::book_value(kCell, output), cell_test::book_tolerance(kCell, output)));
}

}  // namespace

TEST_CASE("Figure 7: Llama-3.1-70B keeps 327,680 B per token and batch 32 fills 45 GB at about 4.3k tokens",
          "[llm][model][book]") {
  const auto r = run();
  CHECK(out(r, "kv_per_token_bytes") == 327'680);           // 2 x 80 x 8 x 128 x 2 B
  CHECK(out(r, "kv_per_token_mib") == 0.3125);              // footnote "about 0.31 MB" read as MiB
  check_book(r, "kv_per_token_mib");
  // ...and not as decimal MB (0.328)
  CHECK(std::fabs(out(r, "kv_per_token_mb") - cell_test::book_value(kCell, "kv_per_token_mib")) >
        cell_test::book_tolerance(kCell, "kv_per_token_mib"));
  CHECK(out(r, "budget_gb") == 45.0);                        // 80 - 35 GB
  CHECK_THAT(out(r, "cross_b4_tok"), WithinRel(45e9 / (327'680.0 * 32), 1e-12));  // 4,291.5
  check_book(r, "cross_b4_tok");                             // printed "≈ 4.3k"
  CHECK_THAT(out(r, "cross_b3_tok"), WithinAbs(8583, 0.5));
  CHECK(out(r, "cross_b1_tok") > 32'000);                    // batch 1 never reaches it on the chart
  check_book(r, "kv_32x8k_gb");                              // "roughly 80 GB": 83.9 GB
  check_book(r, "model_weight_gb");                          // 35.3 GB, drawn as 35
}

TEST_CASE("Figure 7 only closes in decimal GB: in GiB batch 32 crosses at 4,608 tokens", "[llm][model][book]") {
  const auto r = run({{"units", "gib"}});
  CHECK_THAT(out(r, "cross_b4_tok"), WithinRel(4608, 1e-12));  // 45 x 2^30 / (327,680 x 32)
  CHECK(std::fabs(out(r, "cross_b4_tok") - cell_test::book_value(kCell, "cross_b4_tok")) >
        cell_test::book_tolerance(kCell, "cross_b4_tok"));
  CHECK(out(r, "budget_gib") == 45.0);
}

TEST_CASE("KV growth: the lines are straight through zero and the crossings sit on the budget", "[llm][model]") {
  const auto r = run();
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
  CHECK_THAT(out(run({{"kv", "fp8"}}), "cross_b4_tok"), WithinRel(2 * out(run(), "cross_b4_tok"), 1e-12));
}

TEST_CASE("KV growth: weights as large as the device leave no budget and are an error", "[llm][model]") {
  const auto r = try_run({{"weights_mem", "80"}});
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "invalid");
  CHECK(r.error().param == "weights_mem");
  CHECK_FALSE(try_run({{"b4", "0"}}).ok());
}
