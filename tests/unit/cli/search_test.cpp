#include "cli/search.h"

#include <catch2/catch.hpp>

#include <sstream>

namespace {

int quiet_fail(const sl::Error&) { return 2; }

std::string search_output(std::map<std::string, std::string> params) {
  params.insert({{"gpus", "h100+a100"}, {"tp_max", "2"}, {"replicas_max", "4"}, {"n", "200"}, {"lambda", "20"}});
  std::ostringstream out;
  REQUIRE(sl::cli::search(params, "7", false, &quiet_fail, out) == 0);
  return out.str();
}

}  // namespace

// Issue 33: the same seed gives the same lines whatever the thread count, and shards concatenate to the whole.
TEST_CASE("search prints the same lines on 1, 2 or 3 threads, and its shards concatenate to the unsharded run",
          "[cli][capacity-search]") {
  for (const char* format : {"jsonl", "csv"}) {
    INFO(format);
    const std::string one = search_output({{"threads", "1"}, {"format", format}});
    CHECK(std::count(one.begin(), one.end(), '\n') >= 16);
    CHECK(search_output({{"threads", "2"}, {"format", format}}) == one);
    CHECK(search_output({{"threads", "3"}, {"format", format}}) == one);
    std::string shards;
    for (const char* shard : {"1/3", "2/3", "3/3"}) shards += search_output({{"threads", "2"}, {"shard", shard}, {"format", format}});
    CHECK(shards == one);
  }
}

TEST_CASE("search refuses a bad thread count, shard or format", "[cli][capacity-search]") {
  std::ostringstream out;
  for (const auto& [name, value] : std::map<std::string, std::string>{
           {"threads", "0"}, {"shard", "3/2"}, {"format", "xml"}}) {
    INFO(name << " " << value);
    CHECK(sl::cli::search({{name, value}}, "1", false, &quiet_fail, out) == 2);
  }
  CHECK(sl::cli::search({{"threads", "1e3"}}, "1", false, &quiet_fail, out) == 2);
  CHECK(sl::cli::search({{"shard", "0/0"}}, "1", false, &quiet_fail, out) == 2);
  CHECK(out.str().empty());
}
