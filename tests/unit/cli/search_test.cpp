#include "cli/search.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>

#include "core/registry.h"

namespace SL_UNITY_ID {

namespace {

int quiet_fail(const sl::Error&) { return 2; }

std::string search_output(std::map<std::string, std::string> params) {
  params.insert({{"gpus", "h100+a100"}, {"tp_max", "2"}, {"replicas_max", "4"}, {"n", "200"}, {"lambda", "20"}});
  std::ostringstream out, counts;
  REQUIRE(sl::cli::search(params, "7", false, &quiet_fail, out, counts) == 0);
  CHECK(counts.str().find(" points: ") != std::string::npos);  // the counts, on the error stream
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

// A search split across machines: its CSV, read back by llm/capacity-search's `points`, gives the frontier, the
// winner and the explanation of the same search run in one piece, without running anything.
TEST_CASE("llm/capacity-search reads a search's CSV (whole or its shards concatenated) into the same result",
          "[cli][capacity-search]") {
  const std::map<std::string, std::string> grid = {{"gpus", "h100+a100"}, {"tp_max", "2"}, {"replicas_max", "4"},
                                                   {"n", "200"}, {"lambda", "20"}};
  sl::RunControl quiet;
  auto direct = sl::run_cell("llm/capacity-search", grid, "7", quiet);
  REQUIRE(direct.ok());
  std::string shards;
  for (const char* shard : {"1/2", "2/2"}) shards += search_output({{"format", "csv"}, {"shard", shard}});
  std::map<std::string, std::string> with_points = grid;
  with_points["points"] = shards;
  auto read = sl::run_cell("llm/capacity-search", with_points, "7", quiet);
  REQUIRE(read.ok());
  CHECK(read.value().outputs == direct.value().outputs);
  REQUIRE(read.value().tables.size() == direct.value().tables.size());
  for (std::size_t i = 0; i < read.value().tables.size(); ++i) CHECK(read.value().tables[i].columns == direct.value().tables[i].columns);
  // The seed does not matter to a file's points: nothing is run.
  CHECK(sl::run_cell("llm/capacity-search", with_points, "8", quiet).value().outputs == direct.value().outputs);
}

// The page spreads a search over its workers (web/js/spread_run.js): each worker runs part i of n of the grid, and
// the parts' `points` tables, written back as CSV (indices for the GPU, the weights and the status), give the
// result of the whole grid run in one piece: the same outputs, tables and notices (but "read from a file"), and the
// same first refusal, asked of llm/fleet again since a table holds no text.
TEST_CASE("llm/capacity-search's parts, their points tables read back, give the whole grid's result",
          "[cli][capacity-search]") {
  const std::map<std::string, std::string> grid = {{"gpus", "h100+a100"}, {"tp_max", "2"}, {"replicas_max", "4"},
                                                   {"n", "200"}, {"lambda", "20"}, {"weights_set", "fp16+fp8"}};
  sl::RunControl quiet;
  auto direct = sl::run_cell("llm/capacity-search", grid, "7", quiet);
  REQUIRE(direct.ok());
  for (const int parts : {3, 10}) {  // 8 designs: uneven parts, then parts with no design
    std::ostringstream csv;
    csv.precision(17);
    bool header = false;
    for (int part = 1; part <= parts; ++part) {
      std::map<std::string, std::string> inputs = grid;
      inputs["part"] = std::to_string(part);
      inputs["parts"] = std::to_string(parts);
      auto r = sl::run_cell("llm/capacity-search", inputs, "7", quiet);
      REQUIRE(r.ok());
      const sl::Table& t = r.value().tables.front();
      REQUIRE(t.name == "points");
      if (t.columns.empty()) continue;  // a part with no design: a table without rows has no columns
      for (std::size_t c = 0; !header && c < t.columns.size(); ++c) csv << (c ? "," : "") << t.columns[c].first;
      if (!header) csv << "\n";
      header = true;
      for (std::size_t row = 0; row < t.columns.front().second.size(); ++row)
        for (std::size_t c = 0; c < t.columns.size(); ++c)
          csv << t.columns[c].second[row] << (c + 1 < t.columns.size() ? "," : "\n");
    }
    std::map<std::string, std::string> with_points = grid;
    with_points["points"] = csv.str();
    auto merged = sl::run_cell("llm/capacity-search", with_points, "7", quiet);
    REQUIRE(merged.ok());
    INFO(parts << " parts");
    CHECK(merged.value().outputs == direct.value().outputs);
    REQUIRE(merged.value().tables.size() == direct.value().tables.size());
    for (std::size_t i = 0; i < merged.value().tables.size(); ++i)
      CHECK(merged.value().tables[i].columns == direct.value().tables[i].columns);
    std::vector<std::string> got, expected;
    for (const sl::Notice& n : merged.value().notices)
      if (n.code != "points_from_file") got.push_back(n.code + ": " + n.message);
    for (const sl::Notice& n : direct.value().notices) expected.push_back(n.code + ": " + n.message);
    CHECK(got == expected);
    // The grid has refused points (FP8 on an A100): the notice naming the first is among those compared.
    CHECK(std::any_of(expected.begin(), expected.end(), [](const std::string& n) { return n.rfind("refused: ", 0) == 0; }));
  }
}

TEST_CASE("A points file is refused whole, naming its line and what is wrong", "[cli][capacity-search]") {
  const std::map<std::string, std::string> grid = {{"gpus", "h100+a100"}, {"tp_max", "2"}, {"replicas_max", "4"},
                                                   {"n", "200"}, {"lambda", "20"}};
  const std::string good = search_output({{"format", "csv"}, {"threads", "2"}});
  const std::string header = good.substr(0, good.find('\n') + 1);
  const std::string row = good.substr(header.size(), good.find('\n', header.size()) + 1 - header.size());  // point 0
  const auto problem_of = [&](const std::string& file) {
    std::map<std::string, std::string> inputs = grid;
    inputs["points"] = file;
    sl::RunControl quiet;
    auto r = sl::run_cell("llm/capacity-search", inputs, "1", quiet);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "points");
    for (const auto& [key, value] : r.error().args)
      if (key == "problem") return value;
    return r.error().code;
  };
  const auto replaced = [](std::string text, const std::string& from, const std::string& to) {
    const auto at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
  };
  CHECK(problem_of("index,gpu\n0,h100\n") == "header");
  CHECK(problem_of(header) == "empty");
  CHECK(problem_of(header + row + row) == "repeated");
  CHECK(problem_of(header + replaced(row, "0,h100,", "999,h100,")) == "index");
  CHECK(problem_of(header + replaced(row, "0,h100,", "0,a100,")) == "design");
  CHECK(problem_of(header + replaced(row, ",evaluated,", ",maybe,")) == "status");
  CHECK(problem_of(header + replaced(row, ",evaluated,", ",evaluated,0x1,")) == "field_count");
  std::string number_bad = row;
  const auto status_at = number_bad.find(",evaluated,") + std::string(",evaluated,").size();
  const auto next_comma = number_bad.find(',', status_at);
  for (const char* bad : {"0x1p-3", "inf", "NaN", "-1", "1e999", ""}) {
    INFO(bad);
    std::string r = number_bad;
    r.replace(status_at, next_comma - status_at, bad);
    CHECK(problem_of(header + r) == "number");
  }
  CHECK(problem_of(header + "\"unclosed\n") == "unclosed_quote");
}

}  // namespace SL_UNITY_ID
