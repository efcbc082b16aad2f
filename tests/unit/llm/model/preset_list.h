#pragma once
// What every preset list (model_presets(), gpu_presets()) promises, checked the same way for each.
#include <catch2/catch.hpp>

#include <cstddef>
#include <set>
#include <string>
#include <vector>

namespace sl::llm::test {

/// At least `min_size` presets, the book's two (`first`, `second`) first, ids unique, `find` (find_*_preset)
/// returning each preset by its id and nothing for `unknown_id`, and `check_each` (the list's own promises) passing
/// for every preset, its id in the message.
template <typename Preset, typename Find, typename CheckEach>
void check_preset_list(const std::vector<Preset>& presets, std::size_t min_size, const std::string& first,
                       const std::string& second, Find find, const std::string& unknown_id, CheckEach check_each) {
  REQUIRE(presets.size() >= min_size);
  CHECK(presets[0].id == first);
  CHECK(presets[1].id == second);
  std::set<std::string> ids;
  for (const Preset& p : presets) {
    INFO(p.id);
    CHECK(ids.insert(p.id).second);
    CHECK(find(p.id) == &p);
    check_each(p);
  }
  CHECK(find(unknown_id) == nullptr);
}

}  // namespace sl::llm::test
