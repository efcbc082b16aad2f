#include <catch2/catch.hpp>

#include <string>

#include "request/resnet/default_photo.h"
#include "request/resnet/jpeg_decode.h"
#include "request/resnet/jpeg_segments.h"

namespace SL_UNITY_ID {

using sl::request::check_jpeg_segments;
using sl::request::decode_jpeg;
using sl::request::default_photo_jpeg;

namespace {

/// The built-in photo with the byte at `offset` after its first marker `marker` (0xFF, marker) set to `value`.
std::string with_byte_after(int marker, std::size_t offset, unsigned char value) {
  std::string jpeg = default_photo_jpeg();
  const std::size_t at = jpeg.find(std::string{'\xFF', static_cast<char>(marker)});
  REQUIRE(at != std::string::npos);
  jpeg[at + offset] = static_cast<char>(value);
  return jpeg;
}

void check_invalid(const std::string& jpeg, const std::string& reason) {
  const auto r = check_jpeg_segments(jpeg, "photo", 40e6);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "invalid");
  CHECK(r.error().param == "photo");
  CHECK(r.error().message.find(reason) != std::string::npos);
  CHECK_FALSE(decode_jpeg(jpeg, "photo").ok());  // stb_image never sees it
}

}  // namespace

TEST_CASE("The built-in photo's segments are well formed: 640 x 480, 3 components", "[request][jpeg]") {
  const auto r = check_jpeg_segments(default_photo_jpeg(), "photo", 40e6);
  if (!r.ok()) FAIL(r.error().message);
  CHECK(r.value().width == 640);
  CHECK(r.value().height == 480);
  CHECK(r.value().components == 3);
}

TEST_CASE("A DHT table whose 16 counts sum past 256 is refused before stb_image reads it (stb #1289)",
          "[request][jpeg]") {
  // FF C4, length (2 bytes), class/id, then the 16 counts: the first count at offset 5.
  check_invalid(with_byte_after(0xC4, 5, 0xFF), "codes, more than 256");
  check_invalid(with_byte_after(0xC4, 4, 0x27), "bad class or id");
}

TEST_CASE("A DHT table with more codes of a length than fit, or a symbol twice, is refused", "[request][jpeg]") {
  // Three 1-bit codes cannot exist (at most 2); a table listing one symbol twice is what sent stb_image's
  // decoder through uninitialised entries in the fuzzer's crash (tests/fuzz, jpeg target).
  check_invalid(with_byte_after(0xC4, 5, 3), "more codes of some length");
  std::string twice = default_photo_jpeg();
  const std::size_t dht = twice.find("\xFF\xC4");
  REQUIRE(dht != std::string::npos);
  twice[dht + 22] = twice[dht + 21];  // the first two symbols, after the 16 counts
  check_invalid(twice, "twice");
}

TEST_CASE("Truncated segments, a bad frame and a scan before the frame are refused", "[request][jpeg]") {
  const std::string& good = default_photo_jpeg();
  const std::size_t dht = good.find("\xFF\xC4");
  check_invalid(good.substr(0, dht + 10), "truncated");
  std::string short_length = with_byte_after(0xC4, 2, 0);
  short_length[dht + 3] = 1;  // a segment length of 1 cannot even hold itself
  check_invalid(short_length, "truncated");
  check_invalid(with_byte_after(0xC0, 9, 2), "components");          // 2 components
  std::string no_height = with_byte_after(0xC0, 5, 0);
  no_height[no_height.find("\xFF\xC0") + 6] = 0;
  check_invalid(no_height, "no pixels");
  check_invalid(with_byte_after(0xC0, 11, 0x50), "sampling factors"); // a factor of 5
  check_invalid(with_byte_after(0xDB, 4, 0x24), "bad precision or id");
  std::string scan_first = good;
  const std::size_t sof = scan_first.find("\xFF\xC0");
  scan_first[sof + 1] = static_cast<char>(0xFE);  // the frame becomes a comment
  check_invalid(scan_first, "before the frame");
  check_invalid("\xFF\xD8\xFF\xD9", "no frame header");
}

TEST_CASE("A frame claiming more pixels than the limit is too_large from the segment walk", "[request][jpeg]") {
  std::string jpeg = with_byte_after(0xC0, 5, 0xFF);  // height 0xFF.. x 640
  jpeg[jpeg.find("\xFF\xC0") + 7] = static_cast<char>(0xFF);  // width 0xFF..
  const auto r = check_jpeg_segments(jpeg, "photo", 40e6);
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "too_large");
}

TEST_CASE("A scan naming a Huffman table no DHT defined, or a frame naming an undefined quantisation table, is refused",
          "[request][jpeg]") {
  // stb_image would decode through an uninitialised table: the crash of the fuzzer's jpeg target at 10^6 runs.
  // The built-in photo defines Huffman tables 0 and 1 and quantisation tables 0 and 1; table 3 exists in neither.
  check_invalid(with_byte_after(0xDA, 6, 0x33), "no DHT defined");            // the first component's DC/AC tables
  check_invalid(with_byte_after(0xC0, 12, 3), "quantisation table a component names");  // the first component's Tq
}

}  // namespace SL_UNITY_ID
