#pragma once
#include <map>
#include <string>
#include <vector>

#include "core/error.h"

namespace sl::cli {

/// A parsed command line: `serving-lab <command> [<cell>] [--name value | --name=value]... [--json]`.
struct Args {
  std::string command;                        ///< list, run, validate, check, help
  std::string cell;                           ///< run and validate only
  std::map<std::string, std::string> params;  ///< every --name value except the ones below
  std::string seed = "1";
  bool json = false;
  bool progress = false;  ///< --progress: report progress on stderr even with --json
  bool batch = false;     ///< `validate --batch` (in place of a cell id): the cases are JSON lines on stdin
};

Result<Args> parse_args(const std::vector<std::string>& argv);

}  // namespace sl::cli
