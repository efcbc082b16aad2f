#include "llm/cells.h"

#include "llm/analytic_cells.h"
#include "llm/cpu/cpu_decode_roofline.h"
#include "llm/simulator_cells.h"

namespace sl::llm {

std::vector<CellSpec> cells() {
  std::vector<CellSpec> lab = {llama3_8b_case_cell(), cpu_decode_roofline_cell(), kv_growth_cell(), batched_decode_cell(),
          continuous_batching_cell(), workload_trace_cell(), prefix_caching_cell(), fleet_cell(), capacity_search_cell(),
          validation_cell(),
          calibration_cell(), energy_cell()};
  declare_groups(lab);
  return lab;
}

}  // namespace sl::llm
