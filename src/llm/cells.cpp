#include "llm/cells.h"

namespace sl::llm {

void register_cells(std::vector<CellSpec>& cells) {
  (void)cells;  // cells are added here, in page order, as they are written
}

}  // namespace sl::llm
