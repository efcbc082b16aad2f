#include "core/preset.h"

#include <string>

#include "core/error.h"

namespace sl {

std::vector<CellPreset> presets_of(std::initializer_list<std::pair<const char*, const char*>> presets) {
  std::vector<CellPreset> out;
  for (const auto& [id, text] : presets) {
    CellPreset preset{id, {}};
    const std::string values = text;
    std::size_t start = 0;
    while (start < values.size()) {
      std::size_t end = values.find(' ', start);
      if (end == std::string::npos) end = values.size();
      const std::string word = values.substr(start, end - start);
      const std::size_t eq = word.find('=');
      SL_ASSERT(eq != std::string::npos && eq > 0 && eq + 1 < word.size());  // "name=text", neither empty
      preset.values.emplace_back(word.substr(0, eq), word.substr(eq + 1));
      start = end + 1;
    }
    out.push_back(std::move(preset));
  }
  return out;
}

}  // namespace sl
