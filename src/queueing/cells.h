#pragma once
#include <vector>

#include "core/cell.h"

namespace sl::queueing {

/// Lab 1 cells, in page order.
void register_cells(std::vector<CellSpec>& cells);

/// Cell `queues/littles-law`: a simulated FIFO queue, L against lambda_eff W, and napkin math 1.2.
CellSpec littles_law_cell();

}  // namespace sl::queueing
