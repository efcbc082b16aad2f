#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <string>

#include "cell_runner.h"
#include "core/cell.h"
#include "core/error.h"
#include "core/registry.h"
#include "core/result_check.h"
#include "core/text.h"

namespace SL_UNITY_ID {

// queues/littles-law: lambda in [0, 1e9] 1/s; service a choice.
namespace {
const cell_test::Cell kLittle{"queues/littles-law"};

bool is_one_line(const std::string& text) { return sl::echo(text, static_cast<std::size_t>(-1)) == text; }
}  // namespace

TEST_CASE("Numbers are decimal only: hex, inf/nan spellings, blanks, NUL, newlines and trailing text are refused",
          "[core][parse]") {
  for (const std::string& junk :
       std::vector<std::string>{"0x10", "0x1p-3", "0X1A", "infinite", "nanny", "in f", "", " ", "   ",
                                 "\t5", "5\n", "5\n6", std::string("5\0junk", 6), "5 junk", "5,0", "1e", "e5", ".",
                                 "+", "--5", "5e+", "1_000", "٣"}) {
    INFO("'" << sl::echo(junk) << "'");
    const auto e = kLittle.error({{"lambda", junk}});
    CHECK(e.code == "not_a_number");
    CHECK(e.param == "lambda");
    CHECK(is_one_line(e.message));
  }
  for (const std::string& spelled : std::vector<std::string>{"inf", "-inf", "+Infinity", "nan", "NaN", "NAN(1)", "-nan"}) {
    INFO(spelled);
    CHECK(kLittle.error({{"lambda", spelled}}).code == "not_finite");
  }
  for (const auto& [text, value] : std::map<std::string, double>{
           {"180", 180}, {" 180 ", 180}, {"+1.5e2", 150}, {"1.5E+2", 150}, {".5", 0.5}, {"5.", 5}, {"1e-6", 1e-6}}) {
    INFO(text);
    const auto r = kLittle.try_run({{"lambda", text}, {"mu", "1000"}, {"n", "1000"}});
    if (!r.ok()) FAIL(r.error().message);
    CHECK(r.value().inputs.real("lambda") == value);
  }
}

TEST_CASE("Denormals, underflows and overflows are refused with the parameter named, before any arithmetic",
          "[core][parse]") {
  for (const std::string tiny : {"1e-320", "4.9e-324", "-1e-310", "1e-400", "1e-31"}) {
    INFO(tiny);
    const auto e = cell_test::error_of("queues/burst-admission", {{"base_per_s", tiny}});
    CHECK(e.code == "out_of_range");
    CHECK(e.param == "base_per_s");
  }
  CHECK(cell_test::error_of("batching/cpu-batch-measure", {{"gpu_per_item_ms", "1e-320"}}).param == "gpu_per_item_ms");
  const auto big = kLittle.error({{"lambda", "1e400"}});
  CHECK(big.code == "not_finite");
  CHECK(big.param == "lambda");
  CHECK(kLittle.error({{"lambda", "1e308"}}).code == "out_of_range");
}

TEST_CASE("A seed is a decimal integer too", "[core][parse]") {
  for (const std::string& junk : std::vector<std::string>{"0x10", "1e3.5", "", "nan", std::string("3\0", 2), "3\n"}) {
    auto r = sl::parse_seed(junk);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().param == "seed");
  }
  CHECK(sl::parse_seed("1e3").value() == 1000);
}

TEST_CASE("Measured samples are decimal, 0 or within [1e-30, 1e12], or the key is named", "[core][parse]") {
  const sl::CellSpec* cell = sl::find_cell("request/serialization");
  REQUIRE(cell != nullptr);
  REQUIRE_FALSE(cell->probes.empty());
  const std::string key = "measured." + cell->probes.front() + ".x";
  for (const std::string& junk : std::vector<std::string>{"1e308", "1e-320", "0x10", "inf", "nan", "-1", "1 2 junk", std::string("1\0 2", 4),
                                 "1e13"}) {
    INFO(sl::echo(junk));
    auto r = sl::parse_inputs(*cell, {{key, junk}});
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "bad_measurement");
    CHECK(r.error().param == key);
  }
  auto good = sl::parse_inputs(*cell, {{key, "0, 1e-3 2.5e-3,1e12"}});
  if (!good.ok()) FAIL(good.error().message);
  CHECK(good.value().measured(key.substr(9))->size() == 4);
}

TEST_CASE("echo keeps valid UTF-8, replaces invalid bytes, escapes controls and cuts at a code point",
          "[core][error]") {
  CHECK(sl::echo("abc") == "abc");
  CHECK(sl::echo("a\nb\t\x01") == "a\\nb\\t\\x01");
  CHECK(sl::echo(std::string("5\0j", 3)) == "5\\x00j");
  CHECK(sl::echo("\xff") == "\xEF\xBF\xBD");
  CHECK(sl::echo("\xC3") == "\xEF\xBF\xBD");          // é cut in half
  CHECK(sl::echo("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate is no character
  CHECK(sl::echo("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");  // overlong '/'
  const std::string a39(39, 'a');
  CHECK(sl::echo(a39 + "\xC3\xA9") == a39 + "\xE2\x80\xA6");  // é would cross byte 40: cut before it, "…"
  CHECK(sl::echo(a39 + "\xC3\xA9", 41) == a39 + "\xC3\xA9");
  CHECK(sl::echo("ti\xE1\xBA\xBFng Vi\xE1\xBB\x87t") == "ti\xE1\xBA\xBFng Vi\xE1\xBB\x87t");
}

TEST_CASE("Every error echoing what was typed is one line of valid UTF-8", "[core][parse]") {
  const std::string a39(39, 'a');
  for (const auto& raw : std::vector<std::map<std::string, std::string>>{
           {{"lambda", a39 + "\xC3\xA9"}}, {{"service", "\xff"}}, {{"service", "a\nb"}}, {{"lam\xff" "da", "1"}},
           {{"lambda", "1\n2"}}, {{"measured.x\n", "1"}}}) {
    const auto e = kLittle.error(raw);
    INFO(e.message);
    CHECK(is_one_line(e.message));
    CHECK(is_one_line(e.param));
    for (const auto& [k, v] : e.args) CHECK(is_one_line(v));
  }
  const auto unknown = cell_test::error_of("no/\xff\ncell", {});
  CHECK(unknown.code == "unknown_cell");
  CHECK(is_one_line(unknown.message));
}

TEST_CASE("A non-finite value in an output or a table is an invalid error naming where", "[core][cell]") {
  sl::RunResult r;
  r.output("ok_ms", 1);
  r.table("t").column("a", {1, 2}).column("b", {3, std::nan("")});
  const auto e = sl::non_finite_value("lab/cell", r);
  REQUIRE(e.has_value());
  CHECK(e->code == "invalid");
  CHECK(e->message.find("table t, column b") != std::string::npos);
  sl::RunResult fine;
  fine.output("x", 2);
  CHECK_FALSE(sl::non_finite_value("lab/cell", fine).has_value());
  fine.output("y", HUGE_VAL);
  CHECK(sl::non_finite_value("lab/cell", fine)->message.find("output y") != std::string::npos);
}

TEST_CASE("A hostile key is cut in the error's param and message like any echo; a declared key is named whole",
          "[core][parse]") {
  const std::string long_key(1'000'000, 'k');
  for (const std::string& key : {long_key, "measured." + long_key, "asset." + long_key, "lam\xff" + long_key}) {
    const auto e = kLittle.error({{key, "1"}});
    CHECK(e.code == "unknown_param");
    CHECK(e.param.size() <= 64 + 3 + 2);  // cut, then "…" (an invalid byte becomes 3-byte U+FFFD)
    CHECK(e.message.size() < 200);
    if (key.rfind("asset.", 0) != 0) CHECK(e.message.find(e.param) != std::string::npos);
    CHECK(is_one_line(e.param));
  }
  const sl::CellSpec* cold = sl::find_cell("request/cold-start");
  REQUIRE(cold != nullptr);
  const std::string declared = "measured.model_fetch.warm_network_bytes";  // 39 bytes, among the longest
  auto bad = sl::parse_inputs(*cold, {{declared, "junk"}});
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.error().param == declared);
  auto hostile = sl::parse_inputs(*cold, {{"measured.model_fetch." + long_key, "junk"}});
  REQUIRE_FALSE(hostile.ok());
  CHECK(hostile.error().code == "bad_measurement");
  CHECK(hostile.error().param.size() <= 64 + 3);
}

}  // namespace SL_UNITY_ID
