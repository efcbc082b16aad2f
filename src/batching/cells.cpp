#include "batching/cells.h"

namespace sl::batching {

void register_cells(std::vector<CellSpec>& cells) {
  cells.push_back(batch_sweep_table_cell());
  cells.push_back(batching_tax_cell());
  cells.push_back(fixed_window_cell());
}

}  // namespace sl::batching
