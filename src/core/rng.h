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

  std::uint64_t next_u64();
  /// Uniform double in the open interval (0, 1): never 0, so log(u) is finite.
  double uniform();
  /// Uniform integer in [0, n), n > 0, without modulo bias (Lemire's method).
  std::uint64_t below(std::uint64_t n);

 private:
  std::uint64_t s_[4];
};

}  // namespace sl
