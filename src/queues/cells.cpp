#include "queues/cells.h"

namespace sl::queues {

std::vector<CellSpec> cells() {
  return {littles_law_cell(), mm1_md1_cell(), utilization_fallacies_cell(), capacity_plan_cell(), routing_cell(),
          fan_out_cell(), burst_admission_cell()};
}

}  // namespace sl::queues
