#pragma once
// The prefix cache's map from block hash to block: open addressing with linear probing and backward-shift
// deletion, sized once for every block of the pool (at most 3/4 full). vLLM uses a Python dict; a node-based
// std::unordered_map spent most of the simulator's time in malloc. Lookups only: never iterated, so its layout
// cannot reach any output.
#include <cstdint>
#include <optional>
#include <vector>

namespace sl::llm {

class BlockHashMap {
 public:
  /// A map able to hold `max_entries` entries.
  explicit BlockHashMap(std::int64_t max_entries);

  std::optional<std::int32_t> find(std::uint64_t key) const;
  /// Inserts key -> value unless the key is present; true if inserted.
  bool insert(std::uint64_t key, std::int32_t value);
  /// Removes the key, which must be present with this value.
  void erase(std::uint64_t key, std::int32_t value);
  std::int64_t size() const { return size_; }

 private:
  struct Slot {
    std::uint64_t key = 0;
    std::int32_t value = -1;  // -1: empty
  };
  std::size_t home(std::uint64_t key) const { return static_cast<std::size_t>(key) & mask_; }

  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  std::int64_t size_ = 0;
};

}  // namespace sl::llm
