#pragma once
#include <vector>

#include "core/cell.h"

namespace sl::llm {

/// This lab's cells (their page order is the lab file's: labs/llm/lab.json).
std::vector<CellSpec> cells();

}  // namespace sl::llm
