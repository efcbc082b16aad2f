#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli/read_files.h"

namespace SL_UNITY_ID {

// request/resnet-request has the one file parameter (photo, at most 16 MiB): --photo @path.
namespace {
const std::string kCell = "request/resnet-request";
}

TEST_CASE("A file parameter's @path is replaced by the file's bytes; other parameters pass through", "[cli][files]") {
  const std::string path = "read_files_test.tmp";
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string("\xff\xd8\x00 bytes", 9);
  }
  auto r = sl::cli::read_files(kCell, {{"photo", "@" + path}, {"width", "0.25"}});
  std::remove(path.c_str());
  REQUIRE(r.ok());
  CHECK(r.value().at("photo") == std::string("\xff\xd8\x00 bytes", 9));
  CHECK(r.value().at("width") == "0.25");
}

TEST_CASE("A file parameter without @, or a file that cannot be read, is an error naming it", "[cli][files]") {
  auto bare = sl::cli::read_files(kCell, {{"photo", "photo.jpg"}});
  REQUIRE_FALSE(bare.ok());
  CHECK(bare.error().code == "not_a_file");
  CHECK(bare.error().param == "photo");
  auto missing = sl::cli::read_files(kCell, {{"photo", "@/no/such/file.jpg"}});
  REQUIRE_FALSE(missing.ok());
  CHECK(missing.error().code == "no_file");
}

TEST_CASE("An unknown cell passes its parameters through for run_cell to report", "[cli][files]") {
  auto r = sl::cli::read_files("nope/cell", {{"photo", "@x"}});
  REQUIRE(r.ok());
  CHECK(r.value().at("photo") == "@x");
}

TEST_CASE("A file for a parameter used at one choice sets that choice unless the command line does",
          "[cli][files]") {
  const std::string path = std::string(SERVING_LAB_SOURCE_DIR) + "/tests/unit/llm/fixtures/hf-config/Qwen3-8B.json";
  auto implied = sl::cli::read_files("llm/llama3-8b-case", {{"model_config", "@" + path}});
  REQUIRE(implied.ok());
  CHECK(implied.value().at("model") == "config");
  CHECK(implied.value().at("model_config").find("\"qwen3\"") != std::string::npos);
  // Given, the choice is kept: the run then ignores the file, as the page does.
  auto kept = sl::cli::read_files("llm/llama3-8b-case", {{"model_config", "@" + path}, {"model", "qwen3-8b"}});
  REQUIRE(kept.ok());
  CHECK(kept.value().at("model") == "qwen3-8b");
}

TEST_CASE("A file over its parameter's limit is refused unread, with its own size", "[cli][files]") {
  const std::string path = "read_files_large.tmp";
  {
    std::ofstream out(path, std::ios::binary);
    out.seekp(50 * 1024 * 1024 - 1);
    out.put('\0');
  }
  auto r = sl::cli::read_files("llm/llama3-8b-case", {{"model_config", "@" + path}});
  std::remove(path.c_str());
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "too_large");
  CHECK(r.error().param == "model_config");
  CHECK(r.error().message == "model_config must be at most 1048576 B, got 5.24288e+07 B");  // 50 MiB, not the bytes read
}

}  // namespace SL_UNITY_ID
