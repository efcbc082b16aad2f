// cell_timing <lab>/<cell> [--param value]... [--repeats K]: median wall time of run_cell natively, in
// seconds, as one JSON line. bench/native_vs_wasm.mjs runs it beside the wasm module for a ratio.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "cli/args.h"
#include "core/clock.h"
#include "core/registry.h"

int main(int argc, char** argv) {
  std::vector<std::string> words{"run"};
  words.insert(words.end(), argv + 1, argv + argc);
  auto args = sl::cli::parse_args(words);
  if (!args.ok()) {
    std::fprintf(stderr, "error: %s\n", args.error().message.c_str());
    return 2;
  }
  auto params = args.value().params;
  int repeats = 5;
  if (auto it = params.find("repeats"); it != params.end()) {
    repeats = std::max(1, std::stoi(it->second));
    params.erase(it);
  }
  std::vector<double> times;
  for (int i = 0; i < repeats; ++i) {
    sl::RunControl ctl;
    const double t0 = sl::wall_now_s();
    auto r = sl::run_cell(args.value().cell, params, args.value().seed, ctl);
    times.push_back(sl::wall_now_s() - t0);
    if (!r.ok()) {
      std::fprintf(stderr, "error: %s\n", r.error().message.c_str());
      return 2;
    }
  }
  std::sort(times.begin(), times.end());
  std::printf("{\"cell\": \"%s\", \"repeats\": %d, \"median_s\": %.6f, \"min_s\": %.6f}\n", args.value().cell.c_str(),
              repeats, times[times.size() / 2], times.front());
  return 0;
}
