#include "llm/calibration/workload_recipe.h"

#include <vector>

#include "core/distributions.h"
#include "core/error.h"

namespace sl::llm {
namespace {

/// Request i of a recipe, arriving at arrival_at_s (-1: a follow-up, timed by the run). With prompt reuse it
/// carries prompt i mod distinct: the same content ids as the request that first sent it, so the prefix cache
/// sees the repeat (workload.h: request j's own text is content 2 + 2j).
Request recipe_request(const WorkloadRecipe& w, std::int32_t i, double arrival_at_s) {
  const PromptReuse& reuse = w.reuse;
  std::int32_t prompt_of = i;
  std::int64_t group = -1;
  if (reuse.distinct_prompts > 0) {
    prompt_of = static_cast<std::int32_t>(i % reuse.distinct_prompts);
    if (reuse.system_prompt_tokens > 0) group = prompt_of * reuse.groups / reuse.distinct_prompts;
  }
  Request r = open_loop_request(i, arrival_at_s, group, reuse.system_prompt_tokens, w.prompt_tokens, w.output_tokens, 0);
  if (prompt_of != i)
    r.prompt = open_loop_request(prompt_of, 0, group, reuse.system_prompt_tokens, w.prompt_tokens, w.output_tokens, 0).prompt;
  return r;
}

}  // namespace

Workload make_recipe_workload(const WorkloadRecipe& w, std::uint64_t seed) {
  SL_ASSERT(w.num_requests >= 1 && w.num_warmup >= 0 && w.prompt_tokens > w.reuse.system_prompt_tokens &&
            w.output_tokens >= 1);
  const std::int64_t n = w.num_warmup + w.num_requests;
  // Poisson arrivals conditioned on their count: n + 1 exponential gaps scaled to n / rate in all, so the n
  // arrivals are uniform order statistics over [0, n / rate] (as inference-perf spaces them) and a run's realised
  // rate is the nominal one, without the +-1/sqrt(n) of a free Poisson stream.
  std::vector<double> at_s(static_cast<std::size_t>(n), 0.0);
  if (w.arrival == Arrival::Poisson) {
    Rng arrivals = Rng::stream(seed, Stream::Arrivals);
    const Distribution gap = Distribution::exponential(1.0);
    double t = 0;
    for (double& a : at_s) a = t += gap.sample(arrivals);
    const double scale = static_cast<double>(n) / w.rate_per_s / (t + gap.sample(arrivals));
    for (double& a : at_s) a *= scale;
  }
  Workload out;
  for (std::int64_t k = 0; k < n; ++k) {
    const auto i = static_cast<std::int32_t>(k);
    const bool follows = w.arrival == Arrival::ClosedLoop && k >= w.concurrency;
    Request r = recipe_request(w, i, follows ? -1.0 : at_s[static_cast<std::size_t>(k)]);
    if (!follows) {
      add_first_turn(out, std::move(r));
      continue;
    }
    // Client k mod C sends request k when its request k - C finishes, with no pause.
    out.requests.push_back(std::move(r));
    out.next_turn.push_back(-1);
    out.think_s.push_back(0);
    out.next_turn[static_cast<std::size_t>(k - w.concurrency)] = i;
  }
  return out;
}

}  // namespace sl::llm
