#pragma once
// The multi-turn chats LLM tests draw: a shared system prompt, then per turn a user message in and an answer out.
#include <cstdint>

#include "llm/workload/workload.h"

namespace sl::llm::test {

/// `num_conversations` chats of `num_turns` turns each, their first turns arriving at `rate_per_s`: a
/// `system_prompt_tokens` system prompt, `user_tokens` a question, `answer_tokens` an answer, `think_s` between an
/// answer and the next question.
inline ConversationParams conversations(std::int64_t num_conversations, std::int64_t num_turns, double rate_per_s,
                                        std::int64_t system_prompt_tokens, std::int64_t user_tokens,
                                        std::int64_t answer_tokens, double think_s) {
  return {num_conversations, num_turns, rate_per_s, system_prompt_tokens, user_tokens, answer_tokens, think_s};
}

}  // namespace sl::llm::test
