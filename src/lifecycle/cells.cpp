#include "lifecycle/cells.h"

namespace sl::lifecycle {

void register_cells(std::vector<CellSpec>& cells) {
  (void)cells;  // cells are added here, in page order, as they are written
}

}  // namespace sl::lifecycle
