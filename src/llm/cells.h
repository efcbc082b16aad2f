#pragma once
#include <vector>

#include "core/cell.h"

namespace sl::llm {

/// This lab's cells (their page order is the lab file's: labs/llm/lab.json).
std::vector<CellSpec> cells();

/// Sets the group of every parameter of the lab's cells (param_groups.cpp).
void declare_groups(std::vector<CellSpec>& lab);

}  // namespace sl::llm
