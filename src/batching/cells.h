#pragma once
#include <vector>

#include "core/cell.h"

namespace sl::batching {

/// This lab's cells (their page order is the lab file's: labs/batching/lab.json).
std::vector<CellSpec> cells();

/// Cell `batching/batch-sweep-table`: Table 9 recomputed from its measured batch times.
CellSpec batch_sweep_table_cell();

/// Cell `batching/batching-tax`: eq. 4 beside a simulation of size-triggered batching.
CellSpec batching_tax_cell();

/// Cell `batching/fixed-window`: calendar windows — eq. 8, eq. 9 / Table 10, eq. 13 against the true p99.
CellSpec fixed_window_cell();

/// Cell `batching/batching-tables`: Tables 11, 12, 14, 15 and Example 1.7 from an editable T_svc(B) and SLO.
CellSpec batching_tables_cell();

/// Cell `batching/pareto`: dynamic batching simulated for Table 13's configurations and a grid; the frontier.
CellSpec pareto_cell();

/// Cell `batching/when-to-batch`: batch-1 vs dynamic batching on the same arrivals, steady and bursty.
CellSpec when_to_batch_cell();

/// Cell `batching/multi-camera`: Table 16's six cameras with jitter and a timeout; misses vs stale frames.
CellSpec multi_camera_cell();

/// Cell `batching/phone-pipeline`: Table 17's phone pipeline — time, energy, FPS, battery, CPU fallback.
CellSpec phone_pipeline_cell();

}  // namespace sl::batching
