#include <catch2/catch.hpp>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"llm/energy"};

TEST_CASE("Napkin math 1.5: 912 tokens/s at 1,000 W is 1.0965 J/token and 548.2 J per 500-token reply",
          "[llm][model][book]") {
  const auto r = cell.run();
  CHECK(out(r, "tok_per_s") == cell.book("tok_per_s"));  // the book's own guard: 114 x 8
  CHECK(out(r, "power_w") == cell.book("power_w"));      // 700 + 300 W
  // Printed to 4 and 1 decimals; 40,000 / 548.2 = 72.96 and 100,000 / 548.2 = 182.4 phones and cups.
  for (const char* name : {"j_per_token", "response_j", "responses_per_phone", "responses_per_cup"})
    cell.check_book(r, name);
}

TEST_CASE("Napkin math 1.5: at 10 % utilisation 600 W over 91.2 tokens/s is 6.6 J/token, 6x", "[llm][model][book]") {
  const auto r = cell.run();
  CHECK_THAT(out(r, "low_util_tok_per_s"), WithinRel(91.2, 1e-12));
  CHECK(out(r, "low_util_power_w") == 600);
  cell.check_book(r, "low_util_j_per_token");  // 6.579, printed "6.6"
  CHECK_THAT(out(r, "low_util_ratio"), WithinRel(6.0, 1e-12));      // (600 / 0.1) / 1000
}

TEST_CASE("Energy curves: the book's two points lie on the curves, and the three assumptions are ordered",
          "[llm][model]") {
  const auto r = cell.run();
  const auto& util = column(r, "utilisation", "util_frac");
  const auto& tdp = column(r, "utilisation", "j_at_tdp");
  const auto& linear = column(r, "utilisation", "j_linear");
  const auto& idle = column(r, "utilisation", "j_at_idle");
  REQUIRE(util.back() == 1.0);
  // At full utilisation the TDP and linear assumptions both give the busy point.
  CHECK_THAT(tdp.back(), WithinRel(out(r, "j_per_token"), 1e-12));
  CHECK_THAT(linear.back(), WithinRel(out(r, "j_per_token"), 1e-12));
  for (std::size_t i = 0; i < util.size(); ++i) {
    CHECK(idle[i] <= linear[i]);
    CHECK(linear[i] <= tdp[i]);
    // The idle curve is the book's low-utilisation assumption: 600 W over 912 u tokens/s.
    CHECK_THAT(idle[i], WithinRel(600.0 / (912.0 * util[i]), 1e-12));
  }
  CHECK(column(r, "book_points", "j_per_token")[1] == out(r, "low_util_j_per_token"));
}

TEST_CASE("Energy: the step model's J/token falls with batch and beats the book's reading-pace scenario",
          "[llm][model]") {
  const auto r = cell.run();
  const auto& j = column(r, "batch", "j_per_token");
  for (std::size_t i = 1; i < j.size(); ++i) CHECK(j[i] < j[i - 1]);
  // Batch 1: 1,000 W x 1.5676 ms = 1.5676 J/token (the case study's TPOT at full power).
  CHECK_THAT(j.front(), WithinAbs(1.5676, 0.00005));
  // 114 sequences: TPOT = 1.5185 ms + 114 x 49.144 us = 7.121 ms -> 16,010 tokens/s, 0.0625 J/token.
  CHECK_THAT(out(r, "model_tok_per_s"), WithinRel(114 / 7.1208e-3, 1e-4));
  CHECK(out(r, "model_j_per_token") < out(r, "j_per_token") / 10);
  CHECK(r.notices.empty());
  const auto capped = cell.run({{"concurrent", "1000"}});
  CHECK(out(capped, "model_batch") == 469);  // the 72 GiB KV reserve holds 469 sequences of 1,256 tokens
  REQUIRE(capped.notices.size() == 1);
  CHECK(capped.notices[0].code == "batch_capped");
}

TEST_CASE("Energy: idle power above busy power and oversized contexts are errors", "[llm][model]") {
  CHECK(cell.error({{"idle_w", "800"}}).param == "idle_w");
  CHECK(cell.error({{"context", "10000000"}}).param == "context");
  CHECK_FALSE(cell.try_run({{"low_util_pct", "0"}}).ok());
}

TEST_CASE("Energy per conversation turn: the prefix cache cuts prefill and energy on multi-turn chats",
          "[llm][model]") {
  const auto r = cell.run();
  // Without the cache every turn recomputes its whole prompt: turn k (0-based) holds S + k (U + A) + U tokens,
  // so the mean over 4 turns is 2,000 + 100 + 1.5 x 300 = 2,550, exactly.
  CHECK(out(r, "turn_prefill_tok_nocache") == 2550);
  // With it, only what is new since the last turn (plus the partial last block) is computed.
  CHECK(out(r, "turn_prefill_tok_cached") < 0.1 * 2550);
  CHECK(out(r, "turn_j_cached") < out(r, "turn_j_nocache"));
  CHECK_THAT(out(r, "turn_saving_frac"), WithinRel(1 - out(r, "turn_j_cached") / out(r, "turn_j_nocache"), 1e-12));
  // Energy is charged only for busy time, which prefill tokens can shrink but not below the decode part:
  // the saving is well below the share of prefill tokens saved.
  CHECK(out(r, "turn_saving_frac") < 1 - out(r, "turn_prefill_tok_cached") / 2550);
  // Same seed, same numbers.
  CHECK(cell.run().outputs == r.outputs);
}

TEST_CASE("Energy per turn: with nothing shared between requests the prefix cache changes nothing",
          "[llm][model]") {
  const auto r = cell.run({{"turns", "1"}, {"system_tokens", "0"}});
  CHECK(out(r, "turn_prefill_tok_cached") == 100);
  CHECK(out(r, "turn_prefill_tok_nocache") == 100);
  CHECK(out(r, "turn_j_cached") == out(r, "turn_j_nocache"));
}

TEST_CASE("Energy per turn: a conversation longer than the KV pool is an error", "[llm][model]") {
  // 2,000 + 100 x (100 + 10,000) tokens > 589,824 tokens in 72 GiB.
  const auto e = cell.error({{"turns", "100"}, {"answer_tokens", "10000"}});
  CHECK(e.code == "too_large");
  CHECK(e.param == "turns");
}

}  // namespace SL_UNITY_ID
