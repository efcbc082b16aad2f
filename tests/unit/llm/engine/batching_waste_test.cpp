#include "llm/engine/batching_waste.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>

#include "cell_runner.h"
#include "core/rng.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

TEST_CASE("Book: a sequence done at 10 tokens in a static batch running to 100 leaves 90 % of its slot idle",
          "[llm][batching_waste][book]") {
  const double book = cell_test::book_value("llm/continuous-batching", "example_slot_waste_frac");
  CHECK_THAT(static_slot_waste_frac(10, 100), WithinRel(book, 1e-12));
  // The whole batch of 8: (10 + 7 x 100) / (8 x 100) = 88.75 % useful.
  CHECK_THAT(static_batch_util_frac(8, 10, 100), WithinRel(0.8875, 1e-12));
}

TEST_CASE("Slot-step utilisation: continuous refills slots, static waits for the longest", "[llm][batching_waste]") {
  SECTION("equal answers waste nothing either way") {
    const auto u = slot_step_utilisation(std::vector<std::int64_t>(64, 50), 8);
    CHECK(u.static_frac == 1.0);
    CHECK(u.continuous_frac == 1.0);
  }
  SECTION("one short answer per batch of 8: static wastes its slot, continuous does not") {
    std::vector<std::int64_t> answers;
    for (int b = 0; b < 100; ++b) {
      answers.push_back(10);
      for (int i = 0; i < 7; ++i) answers.push_back(100);
    }
    const auto u = slot_step_utilisation(answers, 8);
    CHECK_THAT(u.static_frac, WithinRel(0.8875, 1e-12));
    CHECK(u.continuous_frac > 0.98);
  }
}

TEST_CASE("Continuous batching never needs more steps than static, nor fewer than the work allows",
          "[llm][batching_waste]") {
  // Any order of answers and any B: continuous steps >= max(longest answer, ceil(total / B)) (B slots do at most
  // B useful slot-steps per step), and <= static steps (static is one feasible schedule of the same slots).
  sl::Rng rng = sl::Rng::stream(4, sl::Stream::Sizes);
  for (int trial = 0; trial < 200; ++trial) {
    const auto batch = static_cast<std::int64_t>(1 + rng.below(16));
    std::vector<std::int64_t> answers(1 + rng.below(60));
    for (auto& n : answers) n = static_cast<std::int64_t>(1 + rng.below(300));
    const SlotStepUtil u = slot_step_utilisation(answers, batch);
    const std::int64_t total = std::accumulate(answers.begin(), answers.end(), std::int64_t{0});
    const std::int64_t longest = *std::max_element(answers.begin(), answers.end());
    CHECK(u.continuous_steps >= std::max(longest, (total + batch - 1) / batch));
    CHECK(u.continuous_steps <= u.static_steps);
    CHECK(u.static_frac <= u.continuous_frac);
    CHECK(u.continuous_frac <= 1.0);
  }
}

TEST_CASE("Reservation waste matches its closed form for fixed lengths", "[llm][batching_waste]") {
  // Prompt 1,000 and answer 256 tokens, caught after u ~ uniform{1..256} generated tokens: E[held] = 1,000 +
  // 257/2 = 1,128.5, so max-length (2,048) waste = 1 - 1,128.5/2,048 = 0.448975. Monte Carlo SE of the mean
  // held: sd(u) / sqrt(n) = 73.9 / sqrt(100,000) = 0.234 tokens, i.e. 1.1e-4 of 2,048; allow 4 SE.
  OpenLoopParams p;
  p.prompt_tokens = sl::Distribution::deterministic(1000);
  p.output_tokens = sl::Distribution::deterministic(256);
  p.max_model_len = 2048;
  const auto w = reservation_waste(p, 16, 589824, 100000, 5);
  CHECK_THAT(w.mean_tokens, WithinAbs(1128.5, 4 * 0.234));
  CHECK_THAT(w.naive_waste_frac, WithinAbs(1 - 1128.5 / 2048, 4 * 1.15e-4));
  // Blocks: held rounds up to a multiple of 16; over u uniform the round-up averages 7.5 tokens (each residue
  // mod 16 is equally likely, as 256 is a multiple of 16), so waste = 7.5 / 1,136.
  CHECK_THAT(w.paged_waste_frac, WithinAbs(7.5 / 1136.0, 5e-4));
  // The reserve fits floor(589,824 / 2,048) = 288 max-length slots, and reserve / mean block slots paged ones.
  CHECK(w.naive_fit_seqs == 288);
  CHECK(w.paged_fit_seqs == static_cast<std::int64_t>(589824 / w.mean_paged_slots));
}

TEST_CASE("With one-token blocks paged reservation wastes nothing", "[llm][batching_waste]") {
  OpenLoopParams p;
  p.prompt_tokens = sl::Distribution::lognormal_mean_cv(500, 1);
  p.output_tokens = sl::Distribution::lognormal_mean_cv(200, 1);
  const auto w = reservation_waste(p, 1, 100000, 2000, 2);
  CHECK(w.paged_waste_frac == 0.0);
  CHECK(w.mean_paged_slots == w.mean_tokens);
}

}  // namespace SL_UNITY_ID
