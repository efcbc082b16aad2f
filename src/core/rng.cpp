#include "core/rng.h"

namespace sl {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

}  // namespace

Rng::Rng(std::uint64_t seed) {
  for (auto& word : s_) word = splitmix64(seed);
}

Rng Rng::stream(std::uint64_t seed, Stream s) {
  std::uint64_t mix = seed ^ (static_cast<std::uint64_t>(s) * 0xD1B54A32D192ED03ULL);
  return Rng(splitmix64(mix));
}

}  // namespace sl
