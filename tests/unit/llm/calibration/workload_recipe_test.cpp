// The workloads of measured serving points (workload_recipe.h) are what they claim: Poisson arrivals spread over
// exactly n / rate, closed loops chained client by client, re-sent prompts with the content of their first send.
#include "llm/calibration/workload_recipe.h"

#include <catch2/catch.hpp>

namespace SL_UNITY_ID {

using namespace sl::llm;

TEST_CASE("A Poisson recipe spreads its arrivals over exactly n / rate; a closed loop chains its clients' requests",
          "[llm][recipe]") {
  WorkloadRecipe w;
  w.arrival = Arrival::Poisson;
  w.rate_per_s = 5;
  w.num_requests = 400;
  w.num_warmup = 100;
  const Workload poisson = make_recipe_workload(w, 3);
  REQUIRE(poisson.requests.size() == 500);
  CHECK(poisson.requests.back().arrival_at_s < 100.0);  // n / rate = 500 / 5 s, the (n + 1)-th gap left out
  CHECK(poisson.requests.back().arrival_at_s > 99.0);
  w.arrival = Arrival::ClosedLoop;
  w.concurrency = 4;
  const Workload closed = make_recipe_workload(w, 3);
  CHECK(closed.initial.size() == 4);
  CHECK(closed.next_turn[0] == 4);
  CHECK(closed.next_turn[499] == -1);
  CHECK(closed.think_s[0] == 0.0);
}

TEST_CASE("Reused prompts repeat the content of the request that first sent them, system prompt per group",
          "[llm][recipe]") {
  WorkloadRecipe w;
  w.arrival = Arrival::Burst;
  w.num_requests = 30;
  w.prompt_tokens = 500;
  w.reuse = {10, 2, 100};
  const Workload load = make_recipe_workload(w, 1);
  const auto& a = load.requests[3].prompt;
  const auto& b = load.requests[23].prompt;  // 23 mod 10 = 3
  REQUIRE(a.size() == 2);
  CHECK(a[0].content_id == b[0].content_id);
  CHECK(a[1].content_id == b[1].content_id);
  CHECK(load.requests[3].prompt[0].content_id != load.requests[7].prompt[0].content_id);  // groups 0 and 1
  CHECK(load.requests[3].num_prompt_tokens == 500);
  CHECK(load.requests[23].output_content_id != load.requests[3].output_content_id);
}

}  // namespace SL_UNITY_ID
