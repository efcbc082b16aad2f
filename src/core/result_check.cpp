#include "core/result_check.h"

#include <cmath>

namespace sl {

std::optional<Error> non_finite_value(const std::string& cell_id, const RunResult& result) {
  const auto error = [&](const std::string& where) {
    return Error{"invalid", "", cell_id + " computed a value that is not finite (" + where +
                                    "): these inputs overflow its arithmetic; move them towards the defaults",
                 {{"cell", cell_id}, {"where", where}, {"problem", "not_finite_result"}}};
  };
  for (const auto& [name, value] : result.outputs)
    if (!std::isfinite(value)) return error("output " + name);
  for (const auto& t : result.tables)
    for (const auto& [column, values] : t.columns)
      for (double x : values)
        if (!std::isfinite(x)) return error("table " + t.name + ", column " + column);
  for (const auto& b : result.book)
    if (!std::isfinite(b.ours)) return error("book comparison " + b.ref);
  return std::nullopt;
}

}  // namespace sl
