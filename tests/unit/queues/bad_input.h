#pragma once
// One row of a cell's bad-input table, and its check: the run fails with this error code, naming this
// parameter. Shared by the queues cell tests (a candidate for cell_runner.h, next to Cell::error).
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "cell_runner.h"

namespace cell_test {

struct BadInput {
  const char* what;  // the case, as a phrase ("zero servers")
  std::map<std::string, std::string> raw;
  const char* code;
  const char* param;
};

/// The cell refuses `row.raw` with `row.code`, naming `row.param`.
inline void check_bad_input(const Cell& cell, const BadInput& row) {
  INFO(cell.id << ": " << row.what);
  const auto e = cell.error(row.raw);
  CHECK(e.code == row.code);
  CHECK(e.param == row.param);
}

}  // namespace cell_test
