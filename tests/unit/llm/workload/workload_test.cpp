#include "llm/workload/workload.h"

#include "matchers.h"

#include <cmath>

#include "llm/conversation_workload.h"
#include "llm/lognormal_workload.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

TEST_CASE("Open-loop requests fit max_model_len, start with the shared prefix and arrive in order",
          "[llm][workload]") {
  // Heavy tails: many lengths are clamped.
  OpenLoopParams p = sl::llm::test::lognormal_workload(5000, 20, 800, 1.5, 400, 1.5, 2048);
  p.shared_prefix_tokens = 100;
  const Workload w = make_open_loop(p, 3);
  REQUIRE(w.requests.size() == 5000);
  REQUIRE(w.initial.size() == 5000);
  double previous_s = 0;
  for (std::size_t i = 0; i < w.requests.size(); ++i) {
    const Request& r = w.requests[i];
    CHECK(r.request_id == static_cast<std::int32_t>(i));
    CHECK(w.initial[i] == r.request_id);
    CHECK(r.arrival_at_s >= previous_s);
    previous_s = r.arrival_at_s;
    CHECK(r.num_prompt_tokens + r.max_tokens <= p.max_model_len);
    CHECK(r.max_tokens >= 1);
    REQUIRE(r.prompt.size() == 2);
    CHECK(r.prompt[0].content_id == kSystemPromptContent);
    CHECK(r.prompt[0].length == 100);
    CHECK(w.next_turn[i] == -1);
  }
  // Poisson arrivals: the mean gap is 1 / rate = 50 ms; the mean of n exponential gaps has SE (1 / rate) / sqrt(n).
  const double mean_gap_s = previous_s / 5000.0;
  CHECK_THAT(mean_gap_s, WithinAbs(0.05, 4 * 0.05 / std::sqrt(5000.0)));
}

TEST_CASE("Changing the length laws keeps the arrival times (arrivals and sizes are separate streams)",
          "[llm][workload]") {
  OpenLoopParams p;
  p.num_requests = 200;
  const Workload a = make_open_loop(p, 9);
  p.output_tokens = sl::Distribution::lognormal_mean_cv(100, 2);
  p.prompt_tokens = sl::Distribution::deterministic(300);
  const Workload b = make_open_loop(p, 9);
  for (std::size_t i = 0; i < a.requests.size(); ++i) CHECK(a.requests[i].arrival_at_s == b.requests[i].arrival_at_s);
  CHECK(b.requests[0].num_prompt_tokens == 300);
}

TEST_CASE("An arrival CV of 0 spaces requests evenly at 1 / rate", "[llm][workload]") {
  OpenLoopParams p;
  p.num_requests = 100;
  p.rate_per_s = 4;
  p.arrival_cv = 0;
  const Workload w = make_open_loop(p, 1);
  for (std::size_t i = 0; i < w.requests.size(); ++i)
    CHECK_THAT(w.requests[i].arrival_at_s, WithinRel(0.25 * static_cast<double>(i + 1), 1e-12));
}

TEST_CASE("A conversation's turn k resends the whole history: system + k (user + answer) + user",
          "[llm][workload]") {
  const ConversationParams p = sl::llm::test::conversations(3, 4, 2, 500, 30, 70, 2.5);
  const Workload w = make_conversations(p, 5);
  REQUIRE(w.requests.size() == 12);
  REQUIRE(w.initial.size() == 3);  // only first turns arrive up front
  std::int64_t longest = 0;
  for (std::size_t i = 0; i < w.requests.size(); ++i) {
    const Request& r = w.requests[i];
    const auto k = static_cast<std::int64_t>(i % 4);
    CHECK(r.num_prompt_tokens == 500 + k * (30 + 70) + 30);
    CHECK(r.max_tokens == 70);
    CHECK((k == 0) == (r.arrival_at_s >= 0));  // follow-ups get their arrival during the run
    CHECK(w.next_turn[i] == (k == 3 ? -1 : static_cast<std::int32_t>(i + 1)));
    CHECK(w.think_s[i] == (k == 3 ? 0.0 : 2.5));
    if (k > 0) {
      // The previous turn's answer is a prompt segment of this turn, with the content it was generated as.
      const Request& before = w.requests[i - 1];
      CHECK(r.prompt[r.prompt.size() - 2].content_id == before.output_content_id);
      CHECK(r.prompt[r.prompt.size() - 2].length == before.max_tokens);
    }
    longest = std::max(longest, r.num_prompt_tokens + r.max_tokens);
  }
  CHECK(conversation_max_tokens(p) == longest);  // 500 + 4 x 100
}

TEST_CASE("Clip bounds hold every drawn length in [min, max], as the notebook clips answers to 1..1,000 tokens",
          "[llm][workload]") {
  OpenLoopParams p;
  p.num_requests = 5000;
  p.prompt_tokens = sl::Distribution::lognormal_mean_cv(300, 1.0);
  p.output_tokens = sl::Distribution::lognormal_mean_cv(197.8, 1.31);  // median 120, sigma 1
  p.prompt_min_tokens = 50, p.prompt_max_tokens = 1500;  // P(prompt < 50) = 4 %
  p.output_min_tokens = 1, p.output_max_tokens = 1000;
  p.max_model_len = 4096;
  const Workload w = make_open_loop(p, 3);
  std::int64_t at_max = 0, at_min = 0;
  for (const Request& r : w.requests) {
    CHECK(r.num_prompt_tokens >= 50);
    CHECK(r.num_prompt_tokens <= 1500);
    CHECK(r.max_tokens <= 1000);
    at_max += r.max_tokens == 1000;
    at_min += r.num_prompt_tokens == 50;
  }
  // P(answer > 1,000) = P(Z > ln(1000/120) / 1) = P(Z > 2.12) = 1.7 %: about 85 of 5,000 sit at the bound.
  CHECK(at_max > 40);
  CHECK(at_max < 150);
  CHECK(at_min > 0);
}

TEST_CASE("The batch-class share changes neither arrivals nor lengths", "[llm][workload]") {
  OpenLoopParams p;
  p.num_requests = 4000;
  p.prompt_tokens = sl::Distribution::lognormal_mean_cv(500, 0.5);
  const Workload one = make_open_loop(p, 9);
  p.batch_frac = 0.25;
  const Workload mixed = make_open_loop(p, 9);
  std::int64_t num_batch = 0;
  for (std::size_t i = 0; i < one.requests.size(); ++i) {
    CHECK(one.requests[i].request_class == 0);
    CHECK(mixed.requests[i].arrival_at_s == one.requests[i].arrival_at_s);
    CHECK(mixed.requests[i].num_prompt_tokens == one.requests[i].num_prompt_tokens);
    num_batch += mixed.requests[i].request_class;
  }
  // Binomial(4000, 0.25): mean 1,000, sd 27.4; 5 sd either side.
  CHECK(std::abs(static_cast<double>(num_batch) - 1000) < 5 * 27.4);
}

TEST_CASE("The batch class's own length laws give its requests their own mean lengths", "[llm][workload]") {
  OpenLoopParams p;
  p.num_requests = 6000;
  p.max_model_len = 1 << 16;
  p.prompt_tokens = sl::Distribution::lognormal_mean_cv(500, 0.5);
  p.output_tokens = sl::Distribution::deterministic(100);
  p.batch_frac = 0.3;
  p.has_batch_lengths = true;
  p.batch_prompt_tokens = sl::Distribution::lognormal_mean_cv(5000, 0.5);
  p.batch_output_tokens = sl::Distribution::deterministic(300);
  const Workload w = make_open_loop(p, 12);
  double sum[2] = {0, 0}, sq[2] = {0, 0}, n[2] = {0, 0};
  for (const Request& r : w.requests) {
    const int k = r.request_class;
    sum[k] += static_cast<double>(r.num_prompt_tokens);
    sq[k] += static_cast<double>(r.num_prompt_tokens * r.num_prompt_tokens);
    n[k] += 1;
    CHECK(r.max_tokens == (k == 1 ? 300 : 100));
  }
  for (const auto& [k, mean] : {std::pair{0, 500.0}, std::pair{1, 5000.0}}) {
    const double m = sum[k] / n[k], se = std::sqrt((sq[k] / n[k] - m * m) / n[k]);
    INFO("class " << k << ": " << m << " +- " << se);
    CHECK(std::abs(m - mean) < 4 * se + 0.5);  // + 0.5: lengths are rounded
  }
}

TEST_CASE("Several shared prefixes: each request starts with one, drawn uniformly, and one prefix is the system prompt",
          "[llm][workload]") {
  OpenLoopParams p;
  p.num_requests = 4000;
  p.shared_prefix_tokens = 64;
  p.num_prefixes = 4;
  const Workload w = make_open_loop(p, 3);
  std::int64_t per_prefix[4] = {0, 0, 0, 0};
  for (const Request& r : w.requests) {
    REQUIRE(r.prompt.size() == 2);
    CHECK(r.prompt[0].length == 64);
    const std::int64_t j = prefix_of(r.prompt[0].content_id);
    REQUIRE(j >= 0);
    REQUIRE(j < 4);
    CHECK(prefix_content(j) == r.prompt[0].content_id);
    ++per_prefix[j];
  }
  // Binomial(4000, 1/4): mean 1,000, sd 27.4; 5 sd either side.
  for (const std::int64_t c : per_prefix) CHECK(std::abs(static_cast<double>(c) - 1000) < 5 * 27.4);
  p.num_prefixes = 1;
  for (const Request& r : make_open_loop(p, 3).requests) CHECK(r.prompt[0].content_id == kSystemPromptContent);
}

}  // namespace SL_UNITY_ID
