#pragma once
// The power model of the llm cells (napkin math 1.5, llm/energy): a GPU draws idle_w when idle and gpu_w when
// busy, linearly in between with its utilisation (the energy cell's middle assumption; at the book's two points,
// 700 W busy and 300 W at 10 %), and the host draws host_w all the time. Energy per token = power / tokens per
// second: 1,000 W / 912 tokens/s = 1.0965 J at full load (§ napkin 1.5).
#include <optional>

#include "core/error.h"

namespace sl::llm {

/// Average power (W) of a server of `num_gpus` GPUs busy a fraction util_frac of the time.
inline double server_power_w(double gpu_w, double idle_w, double host_w, double util_frac, double num_gpus = 1) {
  return num_gpus * (idle_w + (gpu_w - idle_w) * util_frac) + host_w;
}

/// The model's own rule: an idle GPU draws no more than a busy one. An "invalid" error naming idle_w, or nothing.
inline std::optional<Error> check_idle_power(double gpu_w, double idle_w) {
  if (idle_w <= gpu_w) return std::nullopt;
  return Error{"invalid", "idle_w",
               "idle_w must not exceed the GPU's busy power gpu_w (" + format_number(gpu_w) + " W), got " +
                   format_number(idle_w) + " W",
               {{"max", format_number(gpu_w)}, {"got", format_number(idle_w)}, {"unit", "W"}, {"problem", "at_most_other"}, {"other", "gpu_w"}}};
}

}  // namespace sl::llm
