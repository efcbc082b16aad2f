#pragma once
// The closed-form cells of the LLM lab (no simulation): each is a calculator over the step-time model.
#include "core/cell.h"

namespace sl::llm {

/// Cell `llm/llama3-8b-case`: the Llama-3-8B on H100 case study (eq. 18, TTFT, TPOT, KV capacity, $/M tokens).
CellSpec llama3_8b_case_cell();

/// Cell `llm/kv-growth`: figure 7, KV-cache size against context for several batches, beside the memory budget.
CellSpec kv_growth_cell();

/// Cell `llm/batched-decode`: decode step time, TPOT and tokens/s against batch; knee, memory cap, SLO line.
CellSpec batched_decode_cell();

/// Cell `llm/energy`: napkin math 1.5, joules per token busy and poorly batched, beside the step model's view.
CellSpec energy_cell();

}  // namespace sl::llm
