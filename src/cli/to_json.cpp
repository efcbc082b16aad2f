#include "cli/to_json.h"

#include "cli/json_writer.h"
#include "core/result_fields.h"

namespace sl::cli {

namespace {

template <class T>
nlohmann::ordered_json written(const T& value) {
  JsonWriter w;
  fields::write(value, w);
  return w.take();
}

}  // namespace

nlohmann::ordered_json to_json(const RunResult& result) { return written(result); }
nlohmann::ordered_json to_json(const CellSpec& cell) { return written(cell); }
nlohmann::ordered_json to_json(const Error& error) { return written(error); }

}  // namespace sl::cli
