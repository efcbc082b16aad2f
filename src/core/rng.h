#pragma once
#include <cstdint>

namespace sl {

/// Independent random streams of one run, so that changing the service law keeps the same arrivals.
enum class Stream : std::uint64_t { Arrivals = 1, Service = 2, Routing = 3, Sizes = 4, Misc = 5 };

/// xoshiro256** (Blackman & Vigna), seeded through SplitMix64. Same numbers on every platform and compiler:
/// only 64-bit integer arithmetic, no <random>.
class Rng {
 public:
  explicit Rng(std::uint64_t seed);
  /// A generator for one stream of a seeded run: seed and stream are mixed, so streams are independent.
  static Rng stream(std::uint64_t seed, Stream s);

  // The draws are defined here, inline: the simulators draw one or two numbers per request, and a call per
  // draw cost them ~5-10 % of their time.
  std::uint64_t next_u64() {
    const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }
  /// Uniform double in the open interval (0, 1): never 0, so log(u) is finite.
  double uniform() {
    // 53 random bits, centred in their cell: (k + 0.5) / 2^53 lies in (0, 1).
    return (static_cast<double>(next_u64() >> 11) + 0.5) * 0x1.0p-53;
  }
  /// Uniform integer in [0, n), n > 0, without modulo bias (Lemire's method).
  std::uint64_t below(std::uint64_t n) {
    // Lemire's nearly-divisionless method with a 128-bit product (unsigned __int128 is in clang and gcc,
    // including wasm32 targets).
    unsigned __int128 m = static_cast<unsigned __int128>(next_u64()) * n;
    auto low = static_cast<std::uint64_t>(m);
    if (low < n) {
      const std::uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<unsigned __int128>(next_u64()) * n;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

 private:
  static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4];
};

}  // namespace sl
