#include "cli/to_json.h"

#include "cli/json_writer.h"
#include "core/result_fields.h"

namespace sl::cli {

nlohmann::ordered_json to_json(const RunResult& result) { return fields::written<JsonWriter>(result); }
nlohmann::ordered_json to_json(const CellSpec& cell) { return fields::written<JsonWriter>(cell); }
nlohmann::ordered_json to_json(const Error& error) { return fields::written<JsonWriter>(error); }

}  // namespace sl::cli
