#pragma once
#include <vector>

#include "core/cell.h"

namespace sl::queues {

/// This lab's cells (their page order is the lab file's: labs/queues/lab.json).
std::vector<CellSpec> cells();

/// Cell `queues/littles-law`: a simulated FIFO queue, L against lambda_eff W, and napkin math 1.2.
CellSpec littles_law_cell();

/// Cell `queues/mm1-md1`: M/M/1 and M/D/1 simulated over rho beside eq. 5, eq. 6, P-K; Table 7, Figure 1.
CellSpec mm1_md1_cell();

/// Cell `queues/utilization-fallacies`: the §13 utilization fallacies recomputed and simulated.
CellSpec utilization_fallacies_cell();

/// Cell `queues/capacity-plan`: napkin math 1.3 as a calculator, checked by simulating the fleet with 0-2
/// GPUs failed under random routing (M/M/1 each) and one shared queue (M/M/c, Erlang C).
CellSpec capacity_plan_cell();

/// Cell `queues/routing`: random vs power of two choices vs join-shortest-queue vs one shared queue at
/// equal load, mean and p99 against rho, beside M/M/c and M/M/1.
CellSpec routing_cell();

/// Cell `queues/fan-out`: P(some leaf is slow) = 1 - p^n, the simulated max of n leaves, and hedging.
CellSpec fan_out_cell();

/// Cell `queues/burst-admission`: the Black Friday spike through c workers with and without admission
/// control, under a client timeout: queue, p99, goodput and rejections over time.
CellSpec burst_admission_cell();

}  // namespace sl::queues
