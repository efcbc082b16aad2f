#include "llm/fleet/capacity_search.h"

#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <string>

#include "core/registry.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

/// llm/capacity-search's inputs: its defaults, with `changes`.
sl::Inputs search_inputs(const std::map<std::string, std::string>& changes) {
  auto inputs = sl::parse_inputs(*sl::find_cell("llm/capacity-search"), changes);
  REQUIRE(inputs.ok());
  return inputs.value();
}

SearchParams checked(const std::map<std::string, std::string>& changes) {
  auto p = validate_search(search_inputs(changes));
  if (!p.ok()) FAIL(p.error().message);
  return p.value();
}

std::vector<SearchPoint> run_all(const SearchParams& p, std::uint64_t seed = 1) {
  std::vector<SearchPoint> points;
  sl::RunControl quiet;
  for (std::size_t d = 0; d < p.designs.size(); ++d)
    for (SearchPoint& pt : evaluate_design(p, d, seed, quiet)) points.push_back(std::move(pt));
  return points;
}

// A small grid where pruning has work to do: two GPUs, TP 1 and 2, 1..6 replicas, a light workload.
const std::map<std::string, std::string> kSmall = {{"gpus", "h100+a100"}, {"tp_max", "2"}, {"replicas_max", "6"},
                                                   {"n", "300"}, {"lambda", "20"}};

}  // namespace

TEST_CASE("Pruning never removes a point of the exhaustive grid's frontier, nor a cheaper point meeting the SLOs",
          "[llm][capacity-search]") {
  SearchParams pruned = checked(kSmall), exhaustive = pruned;
  exhaustive.prune = false;
  const std::vector<SearchPoint> a = run_all(pruned), b = run_all(exhaustive);
  REQUIRE(a.size() == b.size());
  std::size_t num_pruned = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    INFO("point " << i);
    CHECK(b[i].status != PointStatus::Pruned);
    if (a[i].status == PointStatus::Pruned) {
      ++num_pruned;
      continue;
    }
    // An evaluated point is the same run, pruning or not.
    CHECK(a[i].usd_per_m_tokens == b[i].usd_per_m_tokens);
    CHECK(a[i].slo_attainment_frac == b[i].slo_attainment_frac);
  }
  CHECK(num_pruned > 0);  // the check below has points to judge
  const std::vector<std::size_t> front_a = attainment_frontier(a), front_b = attainment_frontier(b);
  CHECK(front_a == front_b);
  // Each pruned point is strictly dominated in the exhaustive run: a point of its design costs less and attains
  // every request's SLO.
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (a[i].status != PointStatus::Pruned) continue;
    bool dominated = false;
    for (std::size_t j = 0; j < b.size(); ++j)
      dominated |= b[j].design == b[i].design && b[j].slo_attainment_frac == 1 &&
                   b[j].usd_per_m_tokens < b[i].usd_per_m_tokens && b[i].slo_attainment_frac <= 1;
    INFO("pruned point " << i);
    CHECK(dominated);
  }
  REQUIRE(cheapest_meeting(a).has_value());
  CHECK(cheapest_meeting(a) == cheapest_meeting(b));
}

TEST_CASE("The winner meets every class's SLO and no evaluated cheaper point does; the frontier is undominated",
          "[llm][capacity-search]") {
  const SearchParams p = checked(kSmall);
  const std::vector<SearchPoint> points = run_all(p);
  const auto winner = cheapest_meeting(points);
  REQUIRE(winner.has_value());
  const SearchPoint& w = points[*winner];
  CHECK(w.meets_slo);
  CHECK(w.chat_attainment_frac >= p.slo_target_frac);
  CHECK(w.doc_attainment_frac >= p.slo_target_frac);
  for (const SearchPoint& pt : points)
    if (pt.status == PointStatus::Evaluated && pt.usd_per_m_tokens < w.usd_per_m_tokens) CHECK_FALSE(pt.meets_slo);
  const std::vector<std::size_t> front = attainment_frontier(points);
  REQUIRE(front.size() >= 2);
  const std::set<std::size_t> on_front(front.begin(), front.end());
  for (std::size_t i = 0; i < points.size(); ++i) {
    if (points[i].status != PointStatus::Evaluated) continue;
    bool dominated = false;
    for (std::size_t j : front)
      dominated |= j != i && points[j].usd_per_m_tokens <= points[i].usd_per_m_tokens &&
                   points[j].slo_attainment_frac >= points[i].slo_attainment_frac &&
                   (points[j].usd_per_m_tokens < points[i].usd_per_m_tokens ||
                    points[j].slo_attainment_frac > points[i].slo_attainment_frac);
    INFO("point " << i);
    CHECK(dominated != (on_front.count(i) == 1));
  }
}

TEST_CASE("Designs are independent: any order and any shard give the same points", "[llm][capacity-search]") {
  const SearchParams p = checked(kSmall);
  const std::vector<SearchPoint> forward = run_all(p);
  std::vector<SearchPoint> backward;
  sl::RunControl quiet;
  for (std::size_t d = p.designs.size(); d-- > 0;) {
    std::vector<SearchPoint> points = evaluate_design(p, d, 1, quiet);
    backward.insert(backward.begin(), points.begin(), points.end());
  }
  REQUIRE(forward.size() == backward.size());
  for (std::size_t i = 0; i < forward.size(); ++i) {
    CHECK(forward[i].index == static_cast<std::int64_t>(i));
    CHECK(forward[i].usd_per_m_tokens == backward[i].usd_per_m_tokens);
    CHECK(forward[i].ttft_p99_ms == backward[i].ttft_p99_ms);
  }
  for (std::int64_t n : {1, 2, 3, 5, 7, 40}) {
    std::size_t covered = 0;
    for (std::int64_t i = 1; i <= n; ++i) {
      const auto [first, last] = shard_designs(p.designs.size(), i, n);
      CHECK(first == covered);
      covered = last;
    }
    CHECK(covered == p.designs.size());
  }
}

TEST_CASE("A point llm/fleet refuses is counted as refused with its message, not run", "[llm][capacity-search]") {
  // FP8 weights on an A100, which has no FP8 tensor cores.
  const SearchParams p = checked({{"gpus", "h100+a100"}, {"tp_max", "1"}, {"replicas_max", "2"}, {"n", "100"},
                                  {"weights_set", "fp8"}});
  const std::vector<SearchPoint> points = run_all(p);
  REQUIRE(points.size() == 4);
  CHECK(points[0].status != PointStatus::Refused);
  CHECK(points[2].status == PointStatus::Refused);
  CHECK(points[2].refusal.find("fp8") != std::string::npos);
}

TEST_CASE("A bad grid gets an error naming its parameter", "[llm][capacity-search]") {
  const auto error_of = [](const std::map<std::string, std::string>& changes) {
    auto p = validate_search(search_inputs(changes));
    REQUIRE_FALSE(p.ok());
    return p.error();
  };
  CHECK(error_of({{"tp_min", "4"}, {"tp_max", "2"}}).param == "tp_max");
  CHECK(error_of({{"tp_min", "3"}, {"tp_max", "3"}}).param == "tp_max");
  CHECK(error_of({{"replicas_min", "5"}, {"replicas_max", "2"}}).param == "replicas_max");
  CHECK(error_of({{"max_num_seqs", "512"}}).param == "max_num_seqs_to");
  CHECK(error_of({{"spec_tokens", "2"}}).param == "spec_tokens_to");
  const sl::Error huge = error_of({{"gpus", "all"}, {"replicas_max", "64"}, {"weights_set", "fp16+fp8+int8"}});
  CHECK(huge.code == "too_large");
  CHECK(huge.param == "replicas_max");
  // Over the search's time budget: the message says how many points fit.
  const sl::Error slow = error_of({{"n", "100000"}});
  CHECK(slow.code == "too_large");
  CHECK(slow.param == "n");
  CHECK(slow.message.find("points fit") != std::string::npos);
}

TEST_CASE("A search over the budget proposes coarser grids that fit: the most replica counts, or a smaller n",
          "[llm][capacity-search]") {
  const std::map<std::string, std::string> slow = {{"gpus", "h100+a100"}, {"n", "60000"}};
  auto p = validate_search(search_inputs(slow));
  REQUIRE_FALSE(p.ok());
  std::map<std::string, std::string> offers;
  for (const auto& [key, value] : p.error().args)
    if (key.rfind("set.", 0) == 0) offers[key.substr(4)] = value;
  REQUIRE(offers.count("replicas_max") == 1);
  REQUIRE(offers.count("n") == 1);
  const auto with = [&](const char* name, const std::string& value) {
    std::map<std::string, std::string> changes = slow;
    changes[name] = value;
    return validate_search(search_inputs(changes)).ok();
  };
  // Each proposal fits; one more replica count would not (the most that fit, by the same cost model).
  CHECK(with("replicas_max", offers["replicas_max"]));
  CHECK_FALSE(with("replicas_max", std::to_string(std::stoll(offers["replicas_max"]) + 1)));
  CHECK(with("n", offers["n"]));
  CHECK(std::stod(offers["n"]) < 60000);
}

}  // namespace SL_UNITY_ID
