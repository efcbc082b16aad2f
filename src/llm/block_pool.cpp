#include "llm/block_pool.h"

#include "core/error.h"

namespace sl::llm {

BlockPool::BlockPool(std::int64_t num_blocks, bool enable_caching)
    : enable_caching_(enable_caching),
      ref_cnt_(static_cast<std::size_t>(num_blocks), 0),
      hash_(static_cast<std::size_t>(num_blocks), 0),
      has_hash_(static_cast<std::size_t>(num_blocks), false),
      prev_(static_cast<std::size_t>(num_blocks) + 1),
      next_(static_cast<std::size_t>(num_blocks) + 1),
      in_free_queue_(static_cast<std::size_t>(num_blocks), false),
      hash_to_block_(enable_caching ? num_blocks : 1) {
  SL_ASSERT(num_blocks > 0 && num_blocks < (std::int64_t{1} << 31) - 1);
  const auto sentinel = static_cast<BlockId>(num_blocks);
  prev_[static_cast<std::size_t>(sentinel)] = next_[static_cast<std::size_t>(sentinel)] = sentinel;
  for (BlockId b = 0; b < sentinel; ++b) push_back_free(b);  // initially in block-id order, as vLLM
}

void BlockPool::push_back_free(BlockId b) {
  const auto sentinel = static_cast<BlockId>(num_blocks());
  const BlockId last = prev_[static_cast<std::size_t>(sentinel)];
  next_[static_cast<std::size_t>(last)] = b;
  prev_[static_cast<std::size_t>(b)] = last;
  next_[static_cast<std::size_t>(b)] = sentinel;
  prev_[static_cast<std::size_t>(sentinel)] = b;
  in_free_queue_[static_cast<std::size_t>(b)] = true;
  ++num_free_;
}

void BlockPool::unlink_free(BlockId b) {
  SL_ASSERT(in_free_queue_[static_cast<std::size_t>(b)]);
  const BlockId p = prev_[static_cast<std::size_t>(b)];
  const BlockId n = next_[static_cast<std::size_t>(b)];
  next_[static_cast<std::size_t>(p)] = n;
  prev_[static_cast<std::size_t>(n)] = p;
  in_free_queue_[static_cast<std::size_t>(b)] = false;
  --num_free_;
}

void BlockPool::maybe_evict_cached_block(BlockId b) {
  if (!has_hash_[static_cast<std::size_t>(b)]) return;
  hash_to_block_.erase(hash_[static_cast<std::size_t>(b)], b);
  has_hash_[static_cast<std::size_t>(b)] = false;
}

void BlockPool::get_new_blocks(std::int64_t n, std::vector<BlockId>& out) {
  SL_ASSERT(n <= num_free_);
  num_handed_out_ += n;
  const auto sentinel = static_cast<std::size_t>(num_blocks());
  for (std::int64_t i = 0; i < n; ++i) {
    const BlockId b = next_[sentinel];  // the least recently freed block
    unlink_free(b);
    maybe_evict_cached_block(b);
    SL_ASSERT(ref_cnt_[static_cast<std::size_t>(b)] == 0);
    ref_cnt_[static_cast<std::size_t>(b)] = 1;
    out.push_back(b);
  }
}

void BlockPool::touch(const std::vector<BlockId>& blocks) {
  for (const BlockId b : blocks) {
    if (ref_cnt_[static_cast<std::size_t>(b)] == 0) unlink_free(b);  // an eviction candidate comes back
    ++ref_cnt_[static_cast<std::size_t>(b)];
  }
}

void BlockPool::free_block(BlockId b) {
  auto& count = ref_cnt_[static_cast<std::size_t>(b)];
  SL_ASSERT(count > 0);
  if (--count == 0) push_back_free(b);
}

std::optional<BlockId> BlockPool::get_cached_block(std::uint64_t block_hash) const {
  return hash_to_block_.find(block_hash);
}

void BlockPool::cache_full_block(BlockId b, std::uint64_t block_hash) {
  SL_ASSERT(enable_caching_ && ref_cnt_[static_cast<std::size_t>(b)] > 0 && !has_hash_[static_cast<std::size_t>(b)]);
  // A duplicate (same tokens computed into another block) stays uncached: see the header.
  if (!hash_to_block_.insert(block_hash, b)) return;
  hash_[static_cast<std::size_t>(b)] = block_hash;
  has_hash_[static_cast<std::size_t>(b)] = true;
}

std::string BlockPool::check_invariants() const {
  std::int64_t num_zero = 0;
  std::int64_t num_hashed = 0;
  for (std::size_t b = 0; b < ref_cnt_.size(); ++b) {
    if (ref_cnt_[b] < 0) return "block " + std::to_string(b) + " has a negative reference count";
    if ((ref_cnt_[b] == 0) != in_free_queue_[b])
      return "block " + std::to_string(b) + " is in the free queue iff unreferenced: violated";
    num_zero += ref_cnt_[b] == 0;
    if (has_hash_[b]) {
      ++num_hashed;
      const auto found = hash_to_block_.find(hash_[b]);
      if (!found || *found != static_cast<BlockId>(b))
        return "cached block " + std::to_string(b) + " is missing from the hash map";
    }
  }
  // Walk the free queue: it must hold exactly the unreferenced blocks, each once.
  std::int64_t walked = 0;
  const auto sentinel = static_cast<BlockId>(num_blocks());
  for (BlockId b = next_[static_cast<std::size_t>(sentinel)]; b != sentinel; b = next_[static_cast<std::size_t>(b)]) {
    if (++walked > num_blocks() || ref_cnt_[static_cast<std::size_t>(b)] != 0) return "free queue is corrupt";
  }
  if (walked != num_free_ || num_zero != num_free_) return "free count differs from the free queue";
  const std::int64_t num_held = num_blocks() - num_zero;  // counted, not derived from num_free_
  if (num_free_ + num_held != num_blocks()) return "free + used != total";
  if (num_hashed != num_cached_blocks()) return "hash map has entries for blocks without a hash";
  return {};
}

}  // namespace sl::llm
