#pragma once
// A cell made of its two halves: validate_<cell> (the one place that reads Inputs by name) and a run on the checked
// params. The inputs are validated here, once; the run reads fields only. Every cell is declared this way
// (checked_cell), so its run and the fuzzer's validation-only hook come from one line.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/cell.h"

namespace sl {

/// What a checked run returns for RunControl::validate_only: an empty result (out of line: built inline, it was
/// 7.6 kB of the wasm, once per cell).
Result<RunResult> validated_only();

/// The RunFn that validates the inputs, returns the error of bad ones, and otherwise runs `run` on the params.
template <class Params>
RunFn checked_run(Result<Params> (*validate)(const Inputs&),
                  Result<RunResult> (*run)(const Params&, std::uint64_t seed, RunControl&)) {
  return [validate, run](const Inputs& in, std::uint64_t seed, RunControl& ctl) -> Result<RunResult> {
    auto checked = validate(in);
    if (!checked.ok()) return checked.error();
    if (ctl.validate_only) return validated_only();
    return run(checked.value(), seed, ctl);
  };
}

/// A cell `id` with these parameters whose run is checked_run(validate, run), and whose validation alone is
/// CellSpec::validate, natively: the fuzzer's hook (`sl_fuzz validate`, tests/unit/core/run_budget_test.cpp). The
/// module leaves it out: no page calls it, and its instantiations were 950 B of the
/// brotli'd wasm every page downloads (the cost at the defaults comes from a validate_only run, in both builds).
template <auto validate, auto run>
CellSpec checked_cell(std::string id, std::vector<ParamSpec> params) {
  CellSpec cell{std::move(id), std::move(params), checked_run(validate, run)};
#ifndef __EMSCRIPTEN__
  cell.validate = &validation_of<validate>;
#endif
  return cell;
}

}  // namespace sl
