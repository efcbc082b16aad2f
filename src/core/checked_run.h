#pragma once
// A cell's run function made of its two halves: validate_<cell> (the one place that reads Inputs by name) and a
// run on the checked params. The inputs are validated here, once; the run reads fields only.
#include <cstdint>

#include "core/cell.h"

namespace sl {

/// The RunFn that validates the inputs, returns the error of bad ones, and otherwise runs `run` on the params.
template <class Params>
RunFn checked_run(Result<Params> (*validate)(const Inputs&),
                  Result<RunResult> (*run)(const Params&, std::uint64_t seed, RunControl&)) {
  return [validate, run](const Inputs& in, std::uint64_t seed, RunControl& ctl) -> Result<RunResult> {
    auto checked = validate(in);
    if (!checked.ok()) return checked.error();
    return run(checked.value(), seed, ctl);
  };
}

}  // namespace sl
