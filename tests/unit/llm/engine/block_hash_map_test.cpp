#include "llm/engine/block_hash_map.h"

#include <catch2/catch.hpp>

#include <map>

#include "core/rng.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

TEST_CASE("The block hash map agrees with std::map after every insert and erase, colliding keys included",
          "[llm][block_hash_map]") {
  // 48 entries fit a table of 64 slots (at most 3/4 full). Keys are multiples of 64 plus a small offset, so many
  // share a home slot and erase must shift whole probe runs back; a reference map checks every key each step.
  constexpr std::int64_t kMaxEntries = 48;
  BlockHashMap map(kMaxEntries);
  std::map<std::uint64_t, std::int32_t> ref;
  sl::Rng rng = sl::Rng::stream(11, sl::Stream::Misc);
  const auto key_of = [](std::uint64_t i) { return (i % 4) + 64 * (i / 4) ; };
  std::int32_t next_value = 0;
  for (int step = 0; step < 4000; ++step) {
    const std::uint64_t key = key_of(rng.below(96));
    const auto it = ref.find(key);
    if (it != ref.end() && rng.below(2) == 0) {
      map.erase(key, it->second);
      ref.erase(it);
    } else if (static_cast<std::int64_t>(ref.size()) < kMaxEntries) {
      const bool inserted = map.insert(key, next_value);
      CHECK(inserted == (it == ref.end()));  // an existing key keeps its value
      if (inserted) ref[key] = next_value;
      ++next_value;
    }
    REQUIRE(map.size() == static_cast<std::int64_t>(ref.size()));
    for (std::uint64_t i = 0; i < 96; ++i) {
      const std::uint64_t k = key_of(i);
      const auto found = map.find(k);
      const auto expected = ref.find(k);
      if (expected == ref.end()) REQUIRE_FALSE(found.has_value());
      else REQUIRE((found.has_value() && *found == expected->second));
    }
  }
}

TEST_CASE("A key inserted twice keeps its first value", "[llm][block_hash_map]") {
  BlockHashMap map(4);
  CHECK(map.insert(42, 1));
  CHECK_FALSE(map.insert(42, 2));
  CHECK(map.find(42) == std::optional<std::int32_t>(1));
  map.erase(42, 1);
  CHECK_FALSE(map.find(42).has_value());
  CHECK(map.size() == 0);
}

}  // namespace SL_UNITY_ID
