#include "core/clock.h"

#ifdef __EMSCRIPTEN__
#include <emscripten.h>
#else
#include <chrono>
#endif

namespace sl {

double wall_now_s() {
#ifdef __EMSCRIPTEN__
  return emscripten_get_now() * 1e-3;
#else
  using Clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(Clock::now().time_since_epoch()).count();
#endif
}

}  // namespace sl
