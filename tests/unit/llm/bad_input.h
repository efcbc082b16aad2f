#pragma once
// A row of a bad-input table for the cell tests: GENERATE(values<cell_test::BadInput>({...})) runs one row per
// pass, and check_error() checks what the error names.
#include <catch2/catch.hpp>

#include <map>
#include <string>

#include "core/error.h"

namespace cell_test {

/// One input the cell must refuse: what it is, the raw inputs, the parameter the error names and the error's
/// code, each where the test pins it ("" = any).
struct BadInput {
  const char* what;
  std::map<std::string, std::string> raw;
  const char* param;
  const char* code;
};

/// The error names the row's parameter and carries the row's code, where they are given.
inline void check_error(const sl::Error& e, const BadInput& row) {
  INFO(row.what);
  if (*row.param) CHECK(e.param == row.param);
  if (*row.code) CHECK(e.code == row.code);
}

}  // namespace cell_test
