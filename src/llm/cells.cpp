#include "llm/cells.h"

#include "llm/analytic_cells.h"
#include "llm/cpu_decode_roofline.h"
#include "llm/simulator_cells.h"

namespace sl::llm {

void register_cells(std::vector<CellSpec>& cells) {
  // Page order: llama3-8b-case, cpu-decode-roofline, kv-growth, batched-decode, continuous-batching,
  // prefix-caching, energy.
  cells.push_back(llama3_8b_case_cell());
  cells.push_back(cpu_decode_roofline_cell());
  cells.push_back(kv_growth_cell());
  cells.push_back(batched_decode_cell());
  cells.push_back(continuous_batching_cell());
  cells.push_back(prefix_caching_cell());
  cells.push_back(energy_cell());
}

}  // namespace sl::llm
