#pragma once
// Two runs that must not differ (the same seed twice, a trace on or off, a replay of what was generated, one
// replica of a fleet alone), compared record for record.
#include <catch2/catch.hpp>

#include <cstddef>
#include <vector>

#include "llm/workload/request.h"

namespace sl::llm::test {

/// The same records in the same order, every field equal.
inline void check_same_records(const std::vector<RequestRecord>& a, const std::vector<RequestRecord>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t i = 0; i < a.size(); ++i) {
    const RequestRecord &x = a[i], &y = b[i];
    INFO("record " << i);
    CHECK(x.request_id == y.request_id);
    CHECK(x.request_class == y.request_class);
    CHECK(x.arrival_at_s == y.arrival_at_s);
    CHECK(x.first_scheduled_at_s == y.first_scheduled_at_s);
    CHECK(x.first_token_at_s == y.first_token_at_s);
    CHECK(x.finished_at_s == y.finished_at_s);
    CHECK(x.num_prompt_tokens == y.num_prompt_tokens);
    CHECK(x.num_output_tokens == y.num_output_tokens);
    CHECK(x.num_cached_tokens == y.num_cached_tokens);
    CHECK(x.num_preemptions == y.num_preemptions);
    CHECK(x.outside_s == y.outside_s);
  }
}

}  // namespace sl::llm::test
