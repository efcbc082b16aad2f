#include "queues/cells.h"

namespace sl::queues {

void register_cells(std::vector<CellSpec>& cells) {
  cells.push_back(littles_law_cell());
  cells.push_back(mm1_md1_cell());
  cells.push_back(utilization_fallacies_cell());
  cells.push_back(capacity_plan_cell());
  cells.push_back(routing_cell());
  cells.push_back(fan_out_cell());
  cells.push_back(burst_admission_cell());
}

}  // namespace sl::queues
