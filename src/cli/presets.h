#pragma once
// `serving-lab presets [--json]`: the model and GPU presets the llm cells offer, with the facts each is computed
// from and the source of each (model_presets.cpp, gpu_presets.cpp), so a reader can check them before a run.
#include <string>

namespace sl::cli {

/// The presets as text (two tables) or as one JSON object {models: [...], gpus: [...]}.
std::string presets_text();
std::string presets_json();

}  // namespace sl::cli
