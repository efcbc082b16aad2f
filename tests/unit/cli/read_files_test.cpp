#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "cli/read_files.h"

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
