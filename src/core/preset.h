#pragma once
// A cell's presets written as the CLI takes its flags: presets_of({{"chat-h100", "model=llama3.1-8b gpu=h100"}}).
#include <initializer_list>
#include <utility>
#include <vector>

#include "core/cell.h"

namespace sl {

/// CellPresets from (id, "name=text name=text ...") pairs, the values in the order written. One text per preset,
/// not a list of string pairs: each pair cost ~60 bytes of the wasm module's code (70 pairs, 4 KB compressed,
/// more than the queues lab's first-result byte budget had left), a text costs its characters.
std::vector<CellPreset> presets_of(std::initializer_list<std::pair<const char*, const char*>> presets);

}  // namespace sl
