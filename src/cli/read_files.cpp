#include "cli/read_files.h"

#include <filesystem>
#include <fstream>
#include <utility>

#include "core/registry.h"
#include "core/text.h"

namespace sl::cli {

Result<std::map<std::string, std::string>> read_files(const std::string& cell_id, std::map<std::string, std::string> params) {
  const CellSpec* cell = find_cell(cell_id);
  if (cell == nullptr) return params;  // run_cell reports it
  for (const auto& p : cell->params) {
    const auto it = params.find(p.name);
    if (p.kind != ParamSpec::Kind::Bytes || it == params.end()) continue;
    if (it->second.rfind('@', 0) != 0)
      return Error{"not_a_file", p.name, "--" + p.name + " takes a file: --" + p.name + " @path", {}};
    const std::string path = it->second.substr(1);
    std::error_code ec;
    // A directory opens as a stream that reads nothing, which would mean "use the built-in file".
    if (!std::filesystem::is_regular_file(path, ec))
      return Error{"no_file", p.name, "cannot read " + echo(path) + " (not a file)", {{"path", echo(path)}}};
    // A file over the limit is refused unread, with its size: the message parse_inputs (and the page, from the
    // file's size) gives for those bytes.
    const std::uintmax_t size = std::filesystem::file_size(path, ec);
    if (!ec && static_cast<double>(size) > p.max) return too_large(p.name, static_cast<double>(size), p.max, "B");
    std::ifstream in(path, std::ios::binary);
    if (!in) return Error{"no_file", p.name, "cannot read " + echo(path), {{"path", echo(path)}}};
    std::string data;
    char buffer[1 << 16];
    while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
      data.append(buffer, static_cast<std::size_t>(in.gcount()));
      if (static_cast<double>(data.size()) > p.max) break;  // parse_inputs reports too_large
    }
    if (in.bad()) return Error{"no_file", p.name, "cannot read " + echo(path), {{"path", echo(path)}}};
    if (data.empty()) return Error{"no_file", p.name, echo(path) + " is empty", {{"path", echo(path)}}};
    it->second = std::move(data);
  }
  // A file given for a parameter used at one value of a choice (--model_config @config.json: model = config) sets
  // that choice when the command line does not, as the page does when a file is chosen or pasted.
  for (const auto& p : cell->params) {
    if (p.kind != ParamSpec::Kind::Bytes || p.used_when_values.size() != 1 || !params.count(p.name)) continue;
    params.emplace(p.used_when_param, p.used_when_values.front());  // kept when given
  }
  return params;
}

}  // namespace sl::cli
