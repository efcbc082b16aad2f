#include "bindings/to_val.h"

#include "bindings/val_writer.h"
#include "core/result_fields.h"

namespace sl::bindings {

emscripten::val to_val(const RunResult& result) { return fields::written<ValWriter>(result); }
emscripten::val to_val(const CellSpec& cell) { return fields::written<ValWriter>(cell); }
emscripten::val to_val(const Error& error) { return fields::written<ValWriter>(error); }
emscripten::val to_val(const std::vector<ProbeTask>& tasks) { return fields::written<ValWriter>(tasks); }
emscripten::val to_val(const kernels::TimingProtocol& protocol) { return fields::written<ValWriter>(protocol); }

}  // namespace sl::bindings
