#pragma once
#include <vector>

#include "core/cell.h"

namespace sl::batching {

/// This lab's cells, in page order.
void register_cells(std::vector<CellSpec>& cells);

}  // namespace sl::batching
