#include <catch2/catch.hpp>

#include "cli/args.h"

namespace SL_UNITY_ID {

namespace {

sl::cli::Args parse(std::vector<std::string> argv) {
  auto r = sl::cli::parse_args(argv);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

}  // namespace

TEST_CASE("run takes a cell, --name value and --name=value, a seed and --json", "[cli][args]") {
  const auto a = parse({"run", "queues/littles-law", "--lambda", "180", "--service=det", "--seed", "3", "--json"});
  CHECK(a.command == "run");
  CHECK(a.cell == "queues/littles-law");
  CHECK(a.params == std::map<std::string, std::string>{{"lambda", "180"}, {"service", "det"}});
  CHECK(a.seed == "3");
  CHECK(a.json);
}

TEST_CASE("No command, or help, is help; the default seed is 1", "[cli][args]") {
  CHECK(parse({}).command == "help");
  CHECK(parse({"help"}).command == "help");
  CHECK(parse({"list"}).seed == "1");
}

TEST_CASE("Malformed command lines are errors", "[cli][args]") {
  CHECK_FALSE(sl::cli::parse_args({"run"}).ok());                                  // no cell
  CHECK_FALSE(sl::cli::parse_args({"run", "--lambda", "3"}).ok());                 // a flag where the cell goes
  CHECK_FALSE(sl::cli::parse_args({"run", "queues/littles-law", "lambda"}).ok());  // not a flag
  const auto missing = sl::cli::parse_args({"run", "queues/littles-law", "--lambda"});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().param == "lambda");
}

TEST_CASE("validate takes a cell like run, or --batch in its place; after a cell --batch is a parameter", "[cli][args]") {
  const auto one = parse({"validate", "batching/batching-tax", "--batch", "8", "--json"});
  CHECK(one.command == "validate");
  CHECK(one.cell == "batching/batching-tax");
  CHECK(one.params == std::map<std::string, std::string>{{"batch", "8"}});
  CHECK_FALSE(one.batch);
  const auto batch = parse({"validate", "--batch"});
  CHECK(batch.batch);
  CHECK(batch.cell.empty());
  CHECK_FALSE(sl::cli::parse_args({"validate"}).ok());  // neither a cell nor --batch
}

}  // namespace SL_UNITY_ID
