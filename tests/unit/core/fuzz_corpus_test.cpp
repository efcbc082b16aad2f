#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "../../fuzz/corpus_escapes.h"
#include "cell_runner.h"
#include "core/error.h"
#include "core/text.h"
#include "llm/model/model_config.h"

namespace SL_UNITY_ID {

// Replays tests/fuzz/corpus/*.txt: the inputs that once aborted, hung on junk or were accepted wrongly. One
// case a line, fields separated by " | ":  <expect> | <cell> | <name>=<value> | ...
//   expect: ok, or error:<param>[:<code>] (the rejection must name <param>; "-" for none)
//   cell:   a cell id, or @<reader> for a file reader alone (@model_config: llm::parse_model_config of the
//           value of model_config), before any cell takes that file
// Values use C escapes (\xHH, \n, \t, \0, \\, \|), so every file is plain text.
namespace {

/// The refusal of one case, or none: a cell's run, or a reader's.
std::optional<sl::Error> replay(const std::string& cell, std::map<std::string, std::string> raw,
                                const std::string& seed) {
  if (cell == "@model_config") {
    auto r = sl::llm::parse_model_config(raw["model_config"]);
    return r.ok() ? std::nullopt : std::optional<sl::Error>(r.error());
  }
  auto r = cell_test::try_run(cell, std::move(raw), seed);
  return r.ok() ? std::nullopt : std::optional<sl::Error>(r.error());
}

using sl_fuzz::unescape;

std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out(1);
  for (std::size_t i = 0; i < line.size(); ++i) {
    if (line.compare(i, 3, " | ") == 0 && (i == 0 || line[i - 1] != '\\')) {
      out.emplace_back();
      i += 2;
    } else out.back() += line[i];
  }
  return out;
}

bool one_line(const std::string& text) { return sl::echo(text, static_cast<std::size_t>(-1)) == text; }

}  // namespace

TEST_CASE("The fuzz corpus replays: no abort, every rejection names its parameter in one line of UTF-8",
          "[core][fuzz]") {
  const std::filesystem::path dir = std::filesystem::path(SERVING_LAB_SOURCE_DIR) / "tests/fuzz/corpus";
  int cases = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    if (entry.path().extension() != ".txt") continue;
    std::ifstream in(entry.path());
    std::string line;
    for (int number = 1; std::getline(in, line); ++number) {
      if (line.empty() || line[0] == '#') continue;
      const auto f = fields(line);
      INFO(entry.path().filename().string() << ":" << number << ": " << line);
      REQUIRE(f.size() >= 2);
      std::map<std::string, std::string> raw;
      for (std::size_t i = 2; i < f.size(); ++i) {
        const auto eq = f[i].find('=');
        REQUIRE(eq != std::string::npos);
        raw[unescape(f[i].substr(0, eq))] = unescape(f[i].substr(eq + 1));
      }
      std::string seed = "1";
      if (const auto it = raw.find("seed"); it != raw.end()) {
        seed = it->second;
        raw.erase(it);
      }
      const auto refusal = replay(unescape(f[1]), raw, seed);
      ++cases;
      if (f[0] == "ok") {
        if (refusal) FAIL(refusal->message);
        continue;
      }
      REQUIRE(f[0].rfind("error:", 0) == 0);
      REQUIRE(refusal);
      const auto& e = *refusal;
      INFO(e.message);
      const std::string want = f[0].substr(6);
      const std::string param = unescape(want.substr(0, want.find(':')));
      if (param != "-") {
        CHECK(e.param == sl::echo(param, static_cast<std::size_t>(-1)));  // as printable() shows it
        CHECK(e.message.find(sl::echo(param)) != std::string::npos);
      }
      if (want.find(':') != std::string::npos) CHECK(e.code == want.substr(want.find(':') + 1));
      CHECK(one_line(e.message));
      CHECK(one_line(e.param));
    }
  }
  CHECK(cases >= 40);
}

}  // namespace SL_UNITY_ID
