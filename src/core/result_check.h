#pragma once
// The last check of every run, in run_cell: no door ever sees a NaN or an infinity.
#include <optional>
#include <string>

#include "core/cell.h"

namespace sl {

/// The first value of a result that is not finite (an output, a table cell, a book comparison), as an
/// "invalid" error naming the cell and where; std::nullopt when all are finite.
std::optional<Error> non_finite_value(const std::string& cell_id, const RunResult& result);

}  // namespace sl
