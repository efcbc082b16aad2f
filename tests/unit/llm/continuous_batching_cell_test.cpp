#include <catch2/catch.hpp>

#include "cell_runner.h"
#include "llm/batching_waste.h"

using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;
using cell_test::out;

namespace {

const std::string kCell = "llm/continuous-batching";
sl::Result<sl::RunResult> try_run(std::map<std::string, std::string> raw) {
  return cell_test::try_run(kCell, std::move(raw));
}

sl::RunResult run(std::map<std::string, std::string> raw) { return cell_test::run(kCell, std::move(raw)); }

// Rows of the "policies" table.
enum Policy { kContinuous = 0, kNaive = 1, kStatic = 2 };

/// One policy's value of a column of the "policies" table.
double policy(const sl::RunResult& r, const std::string& column, Policy k) {
  const auto& values = cell_test::column(r, "policies", column);
  REQUIRE(values.size() == 3);
  return values[k];
}

}  // namespace

TEST_CASE("Book: a sequence done at 10 tokens in a static batch running to 100 leaves 90 % of its slot idle",
          "[llm][scheduler][book]") {
  CHECK_THAT(sl::llm::static_slot_waste_frac(10, 100), WithinRel(0.9, 1e-12));
  // The whole batch of 8: (10 + 7 x 100) / (8 x 100) = 88.75 % useful.
  CHECK_THAT(sl::llm::static_batch_util_frac(8, 10, 100), WithinRel(0.8875, 1e-12));
}

TEST_CASE("Book: the 72 GiB reserve holds 589,824 tokens; max-length reservation wastes 40-50 %, 16-token blocks "
          "under 4 %", "[llm][scheduler][book]") {
  const auto r = run({{"n", "20"}});
  CHECK(out(r, "kv_pool_tokens") == 589824);  // 72 x 2^30 / 131,072, exact (§21)
  CHECK(out(r, "kv_pool_blocks") == 36864);
  // The book prints ranges: "40-50 %" and "< 4 %".
  CHECK(out(r, "naive_reserve_waste_frac") >= 0.40);
  CHECK(out(r, "naive_reserve_waste_frac") <= 0.50);
  CHECK(out(r, "paged_reserve_waste_frac") < 0.04);
  CHECK(out(r, "naive_fit_seqs") == 288);  // 589,824 / 2,048
  CHECK(out(r, "paged_fit_seqs") > 1.8 * 288);
  CHECK_THAT(out(r, "example_slot_waste_frac"), WithinRel(0.9, 1e-12));
}

TEST_CASE("Reservation waste matches its closed form for fixed lengths", "[llm][scheduler]") {
  // Prompt 1,000 and answer 256 tokens, caught after u ~ uniform{1..256} generated tokens: E[held] = 1,000 +
  // 257/2 = 1,128.5, so max-length (2,048) waste = 1 - 1,128.5/2,048 = 0.448975. Monte Carlo SE of the mean
  // held: sd(u) / sqrt(n) = 73.9 / sqrt(100,000) = 0.234 tokens, i.e. 1.1e-4 of 2,048; allow 4 SE.
  sl::llm::OpenLoopParams p;
  p.prompt_tokens = sl::Distribution::deterministic(1000);
  p.output_tokens = sl::Distribution::deterministic(256);
  p.max_model_len = 2048;
  const auto w = sl::llm::reservation_waste(p, 16, 589824, 100000, 5);
  CHECK_THAT(w.mean_tokens, WithinAbs(1128.5, 4 * 0.234));
  CHECK_THAT(w.naive_waste_frac, WithinAbs(1 - 1128.5 / 2048, 4 * 1.15e-4));
  // Blocks: held rounds up to a multiple of 16; over u uniform the round-up averages 7.5 tokens (each residue
  // mod 16 is equally likely, as 256 is a multiple of 16), so waste = 7.5 / 1,136.
  CHECK_THAT(w.paged_waste_frac, WithinAbs(7.5 / 1136.0, 5e-4));
}

TEST_CASE("Slot-step utilisation: continuous refills slots, static waits for the longest", "[llm][scheduler]") {
  SECTION("equal answers waste nothing either way") {
    const auto u = sl::llm::slot_step_utilisation(std::vector<std::int64_t>(64, 50), 8);
    CHECK(u.static_frac == 1.0);
    CHECK(u.continuous_frac == 1.0);
  }
  SECTION("one short answer per batch of 8: static wastes its slot, continuous does not") {
    std::vector<std::int64_t> answers;
    for (int b = 0; b < 100; ++b) {
      answers.push_back(10);
      for (int i = 0; i < 7; ++i) answers.push_back(100);
    }
    const auto u = sl::llm::slot_step_utilisation(answers, 8);
    CHECK_THAT(u.static_frac, WithinRel(0.8875, 1e-12));
    CHECK(u.continuous_frac > 0.98);
  }
  SECTION("heavy-tailed answers at the defaults") {
    const auto r = run({{"n", "20"}});
    CHECK(out(r, "static_slot_util_frac") < 0.5);
    CHECK(out(r, "continuous_slot_util_frac") > 0.95);
  }
}

TEST_CASE("At the defaults continuous batching beats static batching on throughput and meets the book's LLM targets",
          "[llm][scheduler]") {
  const auto r = run({});
  CHECK(policy(r, "tok_per_s", kContinuous) > 2 * policy(r, "tok_per_s", kStatic));
  CHECK(policy(r, "kv_waste_frac", kContinuous) < 0.04);
  CHECK(policy(r, "kv_waste_frac", kNaive) > 0.3);
  // §28 targets: TTFT < 500 ms, TPOT < 50 ms, > 1,000 tokens/s aggregate (medians here).
  CHECK(policy(r, "ttft_p50_ms", kContinuous) < 500);
  CHECK(policy(r, "tpot_p50_ms", kContinuous) < 50);
  CHECK(policy(r, "tok_per_s", kContinuous) > 1000);
  // The speedup scalars are ratios of the table's throughputs.
  CHECK(out(r, "speedup_vs_static") == policy(r, "tok_per_s", kContinuous) / policy(r, "tok_per_s", kStatic));
  CHECK(policy(r, "preemptions", kNaive) == out(r, "naive_preemptions"));
  bool static_saturated = false;
  for (const auto& n : r.notices) static_saturated = static_saturated || n.code == "static_saturated";
  CHECK(static_saturated);
}

TEST_CASE("A small KV pool makes the paged engine preempt and the naive one queue", "[llm][scheduler]") {
  const auto r = run({{"kv_gib", "8"}, {"n", "600"}});
  CHECK(out(r, "preemptions") > 0);
  CHECK(out(r, "naive_preemptions") == 0);
  CHECK(policy(r, "mean_batch", kContinuous) > policy(r, "mean_batch", kNaive));
  CHECK(policy(r, "ttft_p50_ms", kNaive) > policy(r, "ttft_p50_ms", kContinuous));
}

TEST_CASE("Continuous batching cell rejects impossible setups with a clear error", "[llm][scheduler]") {
  SECTION("KV reserve beside the 70B weights") {
    auto r = try_run({{"model", "llama3.1-70b"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "too_large");
    CHECK(r.error().param == "kv_gib");
  }
  SECTION("static batch larger than the pool's max-length slots") {
    auto r = try_run({{"static_batch", "289"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "static_batch");
  }
  SECTION("prompts that cannot fit one step without chunked prefill") {
    auto r = try_run({{"chunked_prefill", "off"}, {"max_num_batched_tokens", "1024"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid");
    CHECK(r.error().param == "max_num_batched_tokens");
  }
  SECTION("the same under the parameter's old name, max_batched_tokens") {
    auto r = try_run({{"chunked_prefill", "off"}, {"max_batched_tokens", "1024"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "max_num_batched_tokens");
  }
  SECTION("a pool smaller than one request") {
    auto r = try_run({{"kv_gib", "0.1"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "kv_gib");
  }
  SECTION("a negative rate") {
    auto r = try_run({{"lambda", "-1"}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "lambda");
  }
}
