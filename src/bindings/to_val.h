#pragma once
#include <emscripten/val.h>

#include <vector>

#include "core/cell.h"
#include "kernels/timing_protocol.h"

namespace sl::bindings {

/// The one converter from C++ results to JS values: core/result_fields.h's field list written by ValWriter.
/// Knows no cell; keeps the C++ key names; series become Float64Arrays created in the JS heap (so wasm
/// memory growth cannot invalidate them).
emscripten::val to_val(const RunResult& result);
emscripten::val to_val(const CellSpec& cell);
emscripten::val to_val(const Error& error);
emscripten::val to_val(const std::vector<ProbeTask>& tasks);
emscripten::val to_val(const kernels::TimingProtocol& protocol);

}  // namespace sl::bindings
