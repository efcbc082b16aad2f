#include "request/cells.h"

namespace sl::request {

void register_cells(std::vector<CellSpec>& cells) {
  cells.push_back(serialization_cell());
  cells.push_back(latency_budget_cell());
  cells.push_back(hidden_constants_cell());
  cells.push_back(pipelining_cell());
  cells.push_back(runtimes_precision_cell());
  cells.push_back(cost_cell());
  // Lab 4b: the CPU does real work.
  cells.push_back(resnet_request_cell());
  cells.push_back(bn_folding_cell());
  cells.push_back(skew_parity_cell());
  cells.push_back(calibration_cell());
  cells.push_back(cold_start_cell());
}

}  // namespace sl::request
