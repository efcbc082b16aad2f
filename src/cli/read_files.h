#pragma once
#include <map>
#include <string>

#include "core/error.h"

namespace sl::cli {

/// File parameters are given as --photo @path: the file's bytes replace the value (read up to one byte past
/// the parameter's limit, so the run reports too_large). A file for a parameter used at one value of a choice
/// sets that choice unless it is given (--model_config @f: model = config). Other parameters pass through unchanged.
Result<std::map<std::string, std::string>> read_files(const std::string& cell_id, std::map<std::string, std::string> params);

}  // namespace sl::cli
