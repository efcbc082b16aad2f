#include "batching/cells.h"

#include "batching/cpu_batch_measure.h"

namespace sl::batching {

std::vector<CellSpec> cells() {
  return {batch_sweep_table_cell(), cpu_batch_measure_cell(), batching_tax_cell(), fixed_window_cell(),
          batching_tables_cell(), pareto_cell(), when_to_batch_cell(), multi_camera_cell(), phone_pipeline_cell()};
}

}  // namespace sl::batching
