#include "llm/engine/block_pool.h"

#include "core/error.h"

namespace sl::llm {

BlockPool::BlockPool(std::int64_t num_blocks, bool enable_caching)
    : enable_caching_(enable_caching),
      ref_cnt_(static_cast<std::size_t>(num_blocks), 0),
      links_(enable_caching ? static_cast<std::size_t>(num_blocks) + 1 : 0),
      hash_to_block_(enable_caching ? num_blocks : 1) {
  SL_ASSERT(num_blocks > 0 && num_blocks < (std::int64_t{1} << 31) - 1);
  const BlockId end = sentinel();
  // Initially handed out in block-id order, as vLLM: the queue from its head, the stack from its top.
  if (enable_caching) {
    link(end).prev = link(end).next = end;
    for (BlockId b = 0; b < end; ++b) push_back_free(b);
  } else {
    free_stack_.reserve(static_cast<std::size_t>(num_blocks));
    for (BlockId b = end - 1; b >= 0; --b) push_free_stack(b);
  }
}

void BlockPool::push_free_stack(BlockId b) {
  free_stack_.push_back(b);
  ++num_free_;
}

BlockId BlockPool::pop_free() {
  if (!enable_caching_) {
    const BlockId b = free_stack_.back();
    free_stack_.pop_back();
    --num_free_;
    return b;
  }
  const BlockId b = link(sentinel()).next;  // the least recently freed block
  unlink_free(b);
  maybe_evict_cached_block(b);
  return b;
}

void BlockPool::push_back_free(BlockId b) {
  const BlockId end = sentinel();
  const BlockId last = link(end).prev;
  link(last).next = b;
  Link& block = link(b);
  block.prev = last;
  block.next = end;
  link(end).prev = b;
  ++num_free_;
}

void BlockPool::unlink_free(BlockId b) {
  SL_ASSERT(enable_caching_ && ref_cnt(b) == 0);  // only a prefix hit takes a block from the middle
  Link& block = link(b);
  link(block.prev).next = block.next;
  link(block.next).prev = block.prev;
  --num_free_;
}

void BlockPool::maybe_evict_cached_block(BlockId b) {
  Link& block = link(b);
  if (!block.has_hash) return;
  hash_to_block_.erase(block.hash, b);
  block.has_hash = false;
}

void BlockPool::get_new_blocks(std::int64_t n, std::vector<BlockId>& out) {
  SL_ASSERT(n <= num_free_);
  num_handed_out_ += n;
  for (std::int64_t i = 0; i < n; ++i) {
    const BlockId b = pop_free();
    SL_ASSERT(ref_cnt(b) == 0);
    count(b) = 1;
    out.push_back(b);
  }
}

void BlockPool::touch(const std::vector<BlockId>& blocks) {
  for (const BlockId b : blocks) {
    if (ref_cnt(b) == 0) unlink_free(b);  // an eviction candidate comes back
    ++count(b);
  }
}

void BlockPool::free_block(BlockId b) {
  std::int32_t& holders = count(b);
  SL_ASSERT(holders > 0);
  if (--holders > 0) return;
  if (enable_caching_) push_back_free(b);  // LRU: cached blocks are evicted least recently freed first
  else push_free_stack(b);                 // a stack: see the header
}

std::optional<BlockId> BlockPool::get_cached_block(std::uint64_t block_hash) const {
  return hash_to_block_.find(block_hash);
}

void BlockPool::cache_full_block(BlockId b, std::uint64_t block_hash) {
  SL_ASSERT(enable_caching_ && ref_cnt(b) > 0 && !link(b).has_hash);
  Link& block = link(b);
  // A duplicate (same tokens computed into another block) stays uncached: see the header.
  if (!hash_to_block_.insert(block_hash, b)) return;
  block.hash = block_hash;
  block.has_hash = true;
}

std::string BlockPool::check_invariants() const {
  std::int64_t num_zero = 0;
  std::int64_t num_hashed = 0;
  for (BlockId b = 0; b < sentinel(); ++b) {
    if (ref_cnt(b) < 0) return "block " + std::to_string(b) + " has a negative reference count";
    num_zero += ref_cnt(b) == 0;
    if (is_cached(b)) {
      ++num_hashed;
      const auto found = hash_to_block_.find(link(b).hash);
      if (!found || *found != b) return "cached block " + std::to_string(b) + " is missing from the hash map";
    }
  }
  // Walk the free queue (or stack): it must hold exactly the unreferenced blocks, each once.
  std::int64_t walked = 0;
  if (enable_caching_) {
    for (BlockId b = link(sentinel()).next; b != sentinel(); b = link(b).next) {
      if (++walked > num_blocks() || ref_cnt(b) != 0) return "free queue is corrupt";
    }
  } else {
    std::vector<bool> seen(static_cast<std::size_t>(num_blocks()), false);
    for (const BlockId b : free_stack_) {
      if (b < 0 || b >= num_blocks() || seen[static_cast<std::size_t>(b)] || ref_cnt(b) != 0) return "free stack is corrupt";
      seen[static_cast<std::size_t>(b)] = true;
      ++walked;
    }
  }
  // Each walked block is unreferenced and seen once (or the walk would not end): equal counts, equal sets.
  if (walked != num_zero) return "block is in the free queue iff unreferenced: violated";
  if (walked != num_free_) return "free count differs from the free queue";
  const std::int64_t num_held = num_blocks() - num_zero;  // counted, not derived from num_free_
  if (num_free_ + num_held != num_blocks()) return "free + used != total";
  if (num_hashed != num_cached_blocks()) return "hash map has entries for blocks without a hash";
  return {};
}

}  // namespace sl::llm
