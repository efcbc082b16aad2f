#include "cli/args.h"

namespace sl::cli {

Result<Args> parse_args(const std::vector<std::string>& argv) {
  Args args;
  std::size_t i = 0;
  if (i < argv.size() && argv[i].rfind("--", 0) != 0) args.command = argv[i++];
  if (args.command.empty() || args.command == "help") {
    args.command = "help";
    return args;
  }
  if (args.command == "validate" && i < argv.size() && argv[i] == "--batch") {
    args.batch = true;  // only in place of the cell id: after one, --batch is a parameter (batching cells have one)
    ++i;
  } else if (args.command == "run" || args.command == "validate") {
    if (i >= argv.size() || argv[i].rfind("--", 0) == 0)
      return invalid("", args.command + " needs a cell id, e.g. " + args.command + " queues/littles-law");
    args.cell = argv[i++];
  }
  for (; i < argv.size(); ++i) {
    const std::string& word = argv[i];
    if (word.rfind("--", 0) != 0) return invalid("", "unexpected argument '" + word + "'");
    std::string name = word.substr(2);
    std::string value;
    if (name == "json") {
      args.json = true;
      continue;
    }
    if (name == "progress") {
      args.progress = true;
      continue;
    }
    const auto eq = name.find('=');
    if (eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
    } else {
      if (i + 1 >= argv.size()) return invalid(name, "--" + name + " needs a value");
      value = argv[++i];
    }
    if (name == "seed")
      args.seed = value;
    else
      args.params[name] = value;
  }
  return args;
}

}  // namespace sl::cli
