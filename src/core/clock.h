#pragma once

namespace sl {

/// Wall-clock seconds from an arbitrary origin: emscripten_get_now() in the browser (as fine as the page's
/// timer allows), std::chrono::steady_clock natively. For progress throttling and measurement cells only;
/// simulated time never reads it.
double wall_now_s();

}  // namespace sl
