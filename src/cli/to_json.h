#pragma once
#include <nlohmann/json.hpp>

#include "core/cell.h"

namespace sl::cli {

/// RunResult as the one JSON object `run --json` prints (keys in C++ order; doubles round-trip exactly).
nlohmann::ordered_json to_json(const RunResult& result);
nlohmann::ordered_json to_json(const CellSpec& cell);
nlohmann::ordered_json to_json(const Error& error);

}  // namespace sl::cli
