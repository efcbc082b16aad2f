#include "batching/cells.h"

#include "batching/cpu_batch_measure.h"

namespace sl::batching {

void register_cells(std::vector<CellSpec>& cells) {
  cells.push_back(batch_sweep_table_cell());
  cells.push_back(cpu_batch_measure_cell());
  cells.push_back(batching_tax_cell());
  cells.push_back(fixed_window_cell());
  cells.push_back(batching_tables_cell());
  cells.push_back(pareto_cell());
  cells.push_back(when_to_batch_cell());
  cells.push_back(multi_camera_cell());
  cells.push_back(phone_pipeline_cell());
}

}  // namespace sl::batching
