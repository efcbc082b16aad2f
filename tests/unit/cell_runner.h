#pragma once
// Helpers shared by the cell tests: run a cell through the registry (as the CLI and the
// page do) and read its outputs and table columns by name.
#include "matchers.h"

#include <cmath>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/registry.h"

namespace cell_test {

/// The bytes of a file of the source tree (a fixture: "tests/unit/llm/fixtures/..."); fails the test when it
/// cannot be read.
inline std::string source_file(const std::string& relative) {
  std::ifstream in(std::filesystem::path(SERVING_LAB_SOURCE_DIR) / relative, std::ios::binary);
  REQUIRE(in);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

/// An error's argument `key` ("line", "got"...), or "<none>" when it has none.
inline std::string error_arg(const sl::Error& e, const std::string& key) {
  for (const auto& [k, v] : e.args)
    if (k == key) return v;
  return "<none>";
}

/// The value of a result that must succeed; the test fails with the error's message where it does not.
template <class T>
T value_of(sl::Result<T> r) {
  if (!r.ok()) FAIL(r.error().message);
  return std::move(r.value());
}

inline sl::Result<sl::RunResult> try_run(const std::string& cell, std::map<std::string, std::string> raw,
                                         const std::string& seed = "1") {
  sl::RunControl ctl;
  return sl::run_cell(cell, raw, seed, ctl);
}

inline sl::RunResult run(const std::string& cell, std::map<std::string, std::string> raw = {},
                         const std::string& seed = "1") {
  return value_of(try_run(cell, std::move(raw), seed));
}

/// The raw inputs parsed against a list of parameters alone (no cell around them), for the tests of a shared
/// reader such as validate_model or validate_engine_hardware; fails the test where they are refused.
inline sl::Inputs parsed_inputs(std::vector<sl::ParamSpec> params, const std::map<std::string, std::string>& raw) {
  const sl::CellSpec cell{"test/params", std::move(params), nullptr};
  return value_of(sl::parse_inputs(cell, raw));
}

/// parsed_inputs bound to one list of parameters, for a test file that parses many inputs against it:
/// `const InputsOf inputs{engine_hardware_params()};`, then `inputs({{"tp", "2"}})`.
struct InputsOf {
  std::vector<sl::ParamSpec> params;
  sl::Inputs operator()(const std::map<std::string, std::string>& raw) const { return parsed_inputs(params, raw); }
};

/// One run per (cell, inputs) at seed 1 for the whole test process, for the tests that sweep every cell and
/// only read its result (the finite-output, declared-output, tolerance and book-row tests would otherwise
/// each run every cell at its defaults again: ~8 s apiece). Fails the test where the run is refused.
inline const sl::RunResult& shared_run(const std::string& cell, const std::map<std::string, std::string>& raw = {}) {
  static std::map<std::pair<std::string, std::map<std::string, std::string>>, sl::RunResult> runs;
  const auto key = std::make_pair(cell, raw);
  auto it = runs.find(key);
  if (it == runs.end()) {
    auto r = try_run(cell, raw);
    INFO(cell);
    REQUIRE(r.ok());
    it = runs.emplace(key, std::move(r.value())).first;
  }
  return it->second;
}

inline double out(const sl::RunResult& r, const std::string& name) {
  const double* v = r.find_output(name);
  INFO("output " << name);
  REQUIRE(v != nullptr);
  return *v;
}

/// The column `name` of the first table named `table`, or nullptr where there is none (for tests
/// that check a column is absent).
inline const std::vector<double>* find_column(const sl::RunResult& r, const std::string& table,
                                              const std::string& name) {
  for (const auto& t : r.tables)
    if (t.name == table)
      for (const auto& [c, values] : t.columns)
        if (c == name) return &values;
  return nullptr;
}

/// The column `name` of the first table named `table`; fails the test where there is none.
inline const std::vector<double>& column(const sl::RunResult& r, const std::string& table, const std::string& name) {
  if (const auto* values = find_column(r, table, name)) return *values;
  FAIL("no column " << table << "." << name);
  static const std::vector<double> none;
  return none;
}

/// Each named output within `rel` of its value (relative), a row per output: a formula's figures checked as a
/// table, the failing output named in the message.
inline void check_outputs(const sl::RunResult& r, std::initializer_list<std::pair<const char*, double>> expected,
                          double rel = 1e-12) {
  for (const auto& [name, value] : expected) {
    INFO(name);
    CHECK_THAT(out(r, name), Catch::Matchers::WithinRel(value, rel));
  }
}

/// True when the run carries a notice with this code.
inline bool has_notice(const sl::RunResult& r, const std::string& code) {
  for (const auto& n : r.notices)
    if (n.code == code) return true;
  return false;
}

/// The error of a run that must fail.
inline sl::Error error_of(const std::string& cell, std::map<std::string, std::string> raw) {
  auto r = try_run(cell, std::move(raw));
  REQUIRE_FALSE(r.ok());
  return r.error();
}

/// The book's value of `output` in `cell` (reference `ref`, or the first one for that output), as the lab
/// file states it (labs/<lab>/book/<cell>.json, compiled into sl::book_refs()): tests read book numbers from
/// there instead of pasting them.
inline double book_value(const std::string& cell, const std::string& output, const std::string& ref = "") {
  for (const auto& b : sl::book_refs())
    if (b.cell == cell && b.output == output && (ref.empty() || b.ref == ref)) return b.value;
  FAIL("no book reference for " << cell << " " << output << " " << ref);
  return 0;
}

/// The lab file's tolerance for that book value, as an absolute width (relative ones scaled by |value|).
inline double book_tolerance(const std::string& cell, const std::string& output, const std::string& ref = "") {
  for (const auto& b : sl::book_refs())
    if (b.cell == cell && b.output == output && (ref.empty() || b.ref == ref))
      return b.tol_kind == "rel" ? b.tolerance * (b.value < 0 ? -b.value : b.value) : b.tolerance;
  FAIL("no book reference for " << cell << " " << output << " " << ref);
  return 0;
}

/// One cell under test, its id bound once: `const cell_test::Cell cell{"llm/energy"};`, then
/// `cell.run({{"lambda", "3"}})`, `cell.error({...})`, `cell.check_book(r, "tok_per_s")`. Test files use it
/// instead of wrapping run()/try_run() around their own kCell each.
struct Cell {
  std::string id;

  sl::Result<sl::RunResult> try_run(std::map<std::string, std::string> raw = {}, const std::string& seed = "1") const {
    return cell_test::try_run(id, std::move(raw), seed);
  }
  sl::RunResult run(std::map<std::string, std::string> raw = {}, const std::string& seed = "1") const {
    return cell_test::run(id, std::move(raw), seed);
  }
  sl::Error error(std::map<std::string, std::string> raw) const { return error_of(id, std::move(raw)); }
  double book(const std::string& output, const std::string& ref = "") const { return book_value(id, output, ref); }
  double tolerance(const std::string& output, const std::string& ref = "") const {
    return book_tolerance(id, output, ref);
  }
  /// The run's output lies within the lab file's tolerance of the book's value (an se tolerance: that many
  /// times the combined standard error, ours read from the row's se_output).
  void check_book(const sl::RunResult& r, const std::string& output, const std::string& ref = "") const {
    INFO(id << ": book value of " << output);
    double allowed = tolerance(output, ref);
    for (const auto& b : sl::book_refs())
      if (b.cell == id && b.output == output && (ref.empty() || b.ref == ref) && b.tol_kind == "se") {
        const double se = out(r, b.se_output);
        allowed = b.tolerance * std::sqrt(se * se + b.ref_se * b.ref_se);
        break;
      }
    CHECK_THAT(out(r, output), Catch::Matchers::WithinAbs(book(output, ref), allowed));
  }
};

/// One input a cell must refuse, as a row of a check_bad_inputs(cell, {...}) table: what it is, the raw inputs,
/// and the error's code and the parameter it names, each where the test pins it ("" = any).
struct BadInput {
  const char* what;
  std::map<std::string, std::string> raw;
  const char* code;
  const char* param;
};

/// The error carries the row's code and names the row's parameter, where they are given.
inline void check_error(const sl::Error& e, const BadInput& row) {
  INFO(row.what);
  if (*row.code) CHECK(e.code == row.code);
  if (*row.param) CHECK(e.param == row.param);
}

/// The cell refuses the row's inputs with the row's error.
inline void check_bad_input(const Cell& cell, const BadInput& row) {
  INFO(cell.id);
  check_error(cell.error(row.raw), row);
}

/// The cell refuses each row's inputs with the row's error; each row runs in a section of its own (named by its
/// `what`), so a row that fails does not hide the rows after it.
inline void check_bad_inputs(const Cell& cell, const std::vector<BadInput>& rows) {
  for (const BadInput& row : rows)
    DYNAMIC_SECTION(row.what) { check_bad_input(cell, row); }
}

}  // namespace cell_test

// Every file that includes this header runs cells with it: its names (Cell, run, out, column...) are in scope
// without a `using` in each file.
using namespace cell_test;
