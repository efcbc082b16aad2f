#include "llm/workload/request.h"

#include "matchers.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

Request request_with(std::vector<TokenSegment> prompt, std::uint64_t output_content, std::int64_t num_output) {
  Request r;
  r.prompt = std::move(prompt);
  for (const TokenSegment& s : r.prompt) r.num_prompt_tokens += s.length;
  r.output_content_id = output_content;
  r.max_tokens = num_output;
  r.num_output_tokens = num_output;
  return r;
}

}  // namespace

TEST_CASE("Equal tokens at equal positions hash equally, however the request's segments lie", "[llm][request]") {
  // Two prompts share a 20-token system prompt (content 1) and the first 28 tokens of content 7: blocks 0-2
  // (tokens 0-47) hold the same tokens, so their chained hashes agree; block 3 reaches past content 7's end in
  // the shorter prompt (into content 9's generated tokens), so it differs.
  const Request a = request_with({{1, 20}, {7, 30}}, 9, 14);
  const Request b = request_with({{1, 20}, {7, 40}}, 9, 4);
  std::uint64_t ha = kNoneHash, hb = kNoneHash;
  for (int block = 0; block < 3; ++block) {
    ha = hash_block_tokens(ha, a, block * 16, 16);
    hb = hash_block_tokens(hb, b, block * 16, 16);
    CHECK(ha == hb);
  }
  CHECK(hash_block_tokens(ha, a, 48, 16) != hash_block_tokens(hb, b, 48, 16));
}

TEST_CASE("A turn's generated block hashes as the next turn's prompt block with the same answer", "[llm][request]") {
  // Turn 1 generates 16 tokens of content 9 after a 16-token prompt; turn 2's prompt holds that prompt and that
  // answer as a segment: block 1 is the same tokens either way, which is what lets multi-turn chats hit the cache.
  const Request turn1 = request_with({{5, 16}}, 9, 16);
  const Request turn2 = request_with({{5, 16}, {9, 16}, {11, 8}}, 12, 1);
  const std::uint64_t root1 = hash_block_tokens(kNoneHash, turn1, 0, 16);
  const std::uint64_t root2 = hash_block_tokens(kNoneHash, turn2, 0, 16);
  REQUIRE(root1 == root2);
  CHECK(hash_block_tokens(root1, turn1, 16, 16) == hash_block_tokens(root2, turn2, 16, 16));
}

TEST_CASE("A block's hash depends on its parent: the same tokens after another prefix do not match", "[llm][request]") {
  const Request r = request_with({{3, 32}}, 4, 1);
  const std::uint64_t first = hash_block_tokens(kNoneHash, r, 16, 16);
  const std::uint64_t other_parent = hash_block_tokens(kNoneHash ^ 1, r, 16, 16);
  CHECK(first != other_parent);
}

TEST_CASE("ensure_block_hashes extends the chain block by block to the same hashes as one pass", "[llm][request]") {
  Request grown = request_with({{2, 40}}, 6, 40);
  Request whole = grown;
  ensure_block_hashes(whole, 5, 16);
  for (std::int64_t n = 0; n <= 5; ++n) {
    ensure_block_hashes(grown, n, 16);
    REQUIRE(static_cast<std::int64_t>(grown.block_hashes.size()) == n);
    for (std::int64_t i = 0; i < n; ++i) CHECK(grown.block_hashes[i] == whole.block_hashes[i]);
  }
  // Asking for fewer blocks than it has keeps the chain as it is.
  ensure_block_hashes(grown, 2, 16);
  CHECK(grown.block_hashes.size() == 5);
}

TEST_CASE("A finished request's record gives TTFT, end-to-end time and TPOT over the later tokens", "[llm][request]") {
  Request r = request_with({{1, 100}}, 2, 5);
  r.status = RequestStatus::Finished;
  r.arrival_at_s = 1.0;
  r.first_token_at_s = 1.5;
  r.finished_at_s = 3.5;
  r.num_preemptions = 2;
  const RequestRecord rec = make_record(r);
  CHECK(rec.ttft_s() == 0.5);
  CHECK(rec.e2e_s() == 2.5);
  // 4 gaps between the 5 tokens in 2.0 s: 0.5 s per token.
  CHECK_THAT(rec.tpot_s(), WithinRel(0.5, 1e-15));
  CHECK(rec.num_cached_tokens == 0);  // never looked up (-1) counts as no hit
  CHECK(rec.num_preemptions == 2);
  r.num_output_tokens = 1;
  CHECK(make_record(r).tpot_s() == 0.0);  // TPOT undefined for one token: 0, excluded by the summaries
}

}  // namespace SL_UNITY_ID
