#include "bindings/to_val.h"

#include "bindings/val_writer.h"
#include "core/result_fields.h"

namespace sl::bindings {

namespace {

template <class T>
emscripten::val written(const T& value) {
  ValWriter w;
  fields::write(value, w);
  return w.take();
}

}  // namespace

emscripten::val to_val(const RunResult& result) { return written(result); }
emscripten::val to_val(const CellSpec& cell) { return written(cell); }
emscripten::val to_val(const Error& error) { return written(error); }
emscripten::val to_val(const std::vector<ProbeTask>& tasks) { return written(tasks); }
emscripten::val to_val(const kernels::TimingProtocol& protocol) {
  ValWriter w;
  kernels::write(protocol, w);
  return w.take();
}

}  // namespace sl::bindings
