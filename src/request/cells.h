#pragma once
#include <vector>

#include "core/cell.h"

namespace sl::request {

/// This lab's cells (their page order is the lab file's: labs/request/lab.json).
std::vector<CellSpec> cells();

/// Cell `request/serialization`: N float32 values as JSON, Base64 and protobuf, sized and timed here.
CellSpec serialization_cell();

/// Cell `request/latency-budget`: Tables 3, 4 and 5 as editable budgets, and Amdahl's law.
CellSpec latency_budget_cell();

/// Cell `request/hidden-constants`: Table 6's two hidden constants solved from two rows, and eq. 1.
CellSpec hidden_constants_cell();

/// Cell `request/pipelining`: eq. 2's duty cycle, serial against pipelined, simulated event by event.
CellSpec pipelining_cell();

/// Cell `request/runtimes-precision`: Tables 19 and 20 with their ratios, eq. 16, and "98 MB" as MiB.
CellSpec runtimes_precision_cell();

/// Cell `request/cost`: example 1.3, Table 22, fleets at a utilization cap, and the CPU/GPU crossover.
CellSpec cost_cell();

/// Cell `request/resnet-request` (Lab 4b): a ResNet-50 request measured phase by phase on this CPU.
CellSpec resnet_request_cell();

/// Cell `request/bn-folding` (Lab 4b): ResNet-50's 53 batch norms folded into their convolutions.
CellSpec bn_folding_cell();

/// Cell `request/skew-parity` (Lab 4b): serving-time preprocessing variants of an MNIST classifier, and a parity check.
CellSpec skew_parity_cell();

/// Cell `request/calibration` (Lab 4b): INT8 post-training quantization with representative or skewed calibration sets.
CellSpec calibration_cell();

/// Cell `request/cold-start` (Lab 4b): Table 8, model swap, Safetensors, and a burst met by cold-starting replicas.
CellSpec cold_start_cell();

}  // namespace sl::request
