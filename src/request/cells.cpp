#include "request/cells.h"

namespace sl::request {

std::vector<CellSpec> cells() {
  return {serialization_cell(), latency_budget_cell(), hidden_constants_cell(), pipelining_cell(),
          runtimes_precision_cell(), cost_cell(), resnet_request_cell(), bn_folding_cell(), skew_parity_cell(),
          calibration_cell(), cold_start_cell()};
}

}  // namespace sl::request
