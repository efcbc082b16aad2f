#include "core/csv.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "core/text.h"

namespace SL_UNITY_ID {

namespace {

using Records = std::vector<std::vector<std::string>>;

/// Every record of `text`, or the reader's error (failing the test when `want_error` disagrees).
Records read_all(const std::string& text, sl::Error* error = nullptr, sl::csv::Limits limits = {}) {
  sl::csv::Reader reader(text, "trace", limits);
  Records records;
  std::vector<std::string> fields;
  while (true) {
    auto got = reader.next(fields);
    if (!got.ok()) {
      if (error == nullptr) FAIL(got.error().message);
      *error = got.error();
      return records;
    }
    if (!got.value()) break;
    records.push_back(fields);
  }
  if (error != nullptr) FAIL("expected an error, read " << records.size() << " records");
  return records;
}

std::string arg(const sl::Error& e, const std::string& key) {
  for (const auto& [k, v] : e.args)
    if (k == key) return v;
  return "";
}

}  // namespace

TEST_CASE("CSV records end at LF, CRLF or CR, and a BOM, blank lines and # comments are skipped", "[core][csv]") {
  const Records want = {{"a", "b"}, {"1", "2"}, {"3", "4"}};
  for (const std::string& text : {std::string("a,b\n1,2\n3,4\n"), std::string("a,b\r\n1,2\r\n3,4\r\n"),
                                  std::string("a,b\r1,2\r3,4"), std::string("\xEF\xBB\xBF" "a,b\n1,2\n3,4"),
                                  std::string("# source: somewhere\n# licence: CC BY 4.0\na,b\n\n1,2\n  \n3,4\n\n")}) {
    INFO(sl::echo(text, 80));
    CHECK(read_all(text) == want);
  }
}

TEST_CASE("Quoted CSV fields hold commas, doubled quotes and line breaks, and lines are counted through them",
          "[core][csv]") {
  sl::csv::Reader reader("name,note\n\"a,b\",\"say \"\"hi\"\"\"\n\"two\nlines\",\"\"\nlast,\n", "f");
  std::vector<std::string> fields;
  REQUIRE(reader.next(fields).value());
  REQUIRE(reader.next(fields).value());
  CHECK(fields == std::vector<std::string>{"a,b", "say \"hi\""});
  CHECK(reader.line() == 2);
  REQUIRE(reader.next(fields).value());
  CHECK(fields == std::vector<std::string>{"two\nlines", ""});
  CHECK(reader.line() == 3);
  REQUIRE(reader.next(fields).value());
  CHECK(fields == std::vector<std::string>{"last", ""});  // a trailing comma ends with an empty field
  CHECK(reader.line() == 5);
  CHECK_FALSE(reader.next(fields).value());
}

TEST_CASE("Malformed CSV is refused with the line and the problem named", "[core][csv]") {
  struct Case {
    std::string text, problem;
    int line;
  };
  for (const Case& c : std::vector<Case>{
           {"a,b\n1,\"2\n3,4\n", "unclosed_quote", 2},
           {"a,b\n1,2\"x\n", "quote_in_field", 2},
           {"a,b\n1,\"2\"x\n", "after_quote", 2},
           {"a,b\n1,2\n3," + std::string(1, '\0') + "\n", "nul", 3},
           {"a,b\n# a comment with a NUL " + std::string(1, '\0') + "\n1,2\n", "nul", 2},
           {"a,b\n1," + std::string(5000, '9') + "\n", "field_too_long", 2},
           {"a,b\n\"" + std::string(5000, 'x') + "\"\n", "field_too_long", 2},
           {"a,b\n" + std::string(100, ',') + "\n", "too_many_fields", 2}}) {
    INFO(sl::echo(c.text, 60));
    sl::Error e;
    read_all(c.text, &e);
    CHECK(e.code == "csv_syntax");
    CHECK(e.param == "trace");
    CHECK(arg(e, "problem") == c.problem);
    CHECK(arg(e, "line") == std::to_string(c.line));
    CHECK(e.message.rfind("trace line " + std::to_string(c.line) + ": ", 0) == 0);
  }
}

TEST_CASE("An empty CSV text has no record", "[core][csv]") {
  CHECK(read_all("").empty());
  CHECK(read_all("\n\n# only a comment\n").empty());
  CHECK(read_all("\xEF\xBB\xBF").empty());
}

}  // namespace SL_UNITY_ID
