#pragma once
#include <vector>

#include "core/cell.h"

namespace sl::llm {

/// This lab's cells, in page order.
void register_cells(std::vector<CellSpec>& cells);

}  // namespace sl::llm
