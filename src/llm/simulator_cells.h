#pragma once
// Cells built on the serving simulator (engine.h): llm/continuous-batching, llm/workload-trace, llm/prefix-caching,
// llm/fleet, llm/capacity-search, llm/validation, llm/calibration.
#include "core/cell.h"

namespace sl::llm {

/// llm/continuous-batching: continuous vs naive-reservation vs static batching on one workload (§28).
CellSpec continuous_batching_cell();
/// llm/prefix-caching: shared system prompts and multi-turn conversations through the prefix cache (§25).
CellSpec prefix_caching_cell();
/// llm/fleet: replicas behind a router, speculative decoding, two request classes, one knob swept (fleet.h).
CellSpec fleet_cell();
/// llm/capacity-search: a grid of fleet designs, its cost/SLO frontier and the cheapest point (capacity_search.h).
CellSpec capacity_search_cell();
/// llm/workload-trace: a trace replayed beside the length laws fitted to it (trace_vs_laws.h).
CellSpec workload_trace_cell();
/// llm/validation: the simulator against published measurements, default and calibrated (validation_points.h).
CellSpec validation_cell();
/// llm/calibration: the step-time knobs fitted to the reader's measurements (calibration_measurements.h).
CellSpec calibration_cell();

}  // namespace sl::llm
