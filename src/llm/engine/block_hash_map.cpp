#include "llm/engine/block_hash_map.h"

#include "core/error.h"

namespace sl::llm {

BlockHashMap::BlockHashMap(std::int64_t max_entries) {
  SL_ASSERT(max_entries > 0);
  std::size_t capacity = 16;
  while (capacity * 3 < 4 * static_cast<std::size_t>(max_entries)) capacity *= 2;  // at most 3/4 full
  slots_.resize(capacity);
  mask_ = capacity - 1;
}

std::optional<std::int32_t> BlockHashMap::find(std::uint64_t key) const {
  for (std::size_t i = home(key);; i = (i + 1) & mask_) {
    const Slot& s = slots_[i];
    if (s.value < 0) return std::nullopt;
    if (s.key == key) return s.value;
  }
}

bool BlockHashMap::insert(std::uint64_t key, std::int32_t value) {
  SL_ASSERT(value >= 0);
  for (std::size_t i = home(key);; i = (i + 1) & mask_) {
    Slot& s = slots_[i];
    if (s.value < 0) {
      SL_ASSERT(static_cast<std::size_t>(size_ + 1) * 4 <= slots_.size() * 3);  // at most 3/4 full
      s.key = key;
      s.value = value;
      ++size_;
      return true;
    }
    if (s.key == key) return false;
  }
}

void BlockHashMap::erase(std::uint64_t key, std::int32_t value) {
  std::size_t i = home(key);
  while (!(slots_[i].value == value && slots_[i].key == key)) {
    SL_ASSERT(slots_[i].value >= 0);  // the key must be present
    i = (i + 1) & mask_;
  }
  // Backward-shift deletion: pull later entries of the probe run into the hole when their home allows it.
  std::size_t hole = i;
  for (std::size_t j = (hole + 1) & mask_; slots_[j].value >= 0; j = (j + 1) & mask_) {
    const std::size_t h = home(slots_[j].key);
    // The entry at j may move to `hole` if its home is not cyclically within (hole, j].
    const bool home_in_between = hole <= j ? (hole < h && h <= j) : (hole < h || h <= j);
    if (!home_in_between) {
      slots_[hole] = slots_[j];
      hole = j;
    }
  }
  slots_[hole] = Slot{};
  --size_;
}

}  // namespace sl::llm
