#include "batching/cells.h"

namespace sl::batching {

void register_cells(std::vector<CellSpec>& cells) {
  cells.push_back(batch_sweep_table_cell());
}

}  // namespace sl::batching
