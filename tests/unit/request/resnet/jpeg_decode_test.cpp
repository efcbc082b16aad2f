#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "cell_runner.h"
#include "cli/read_files.h"
#include "core/registry.h"
#include "core/rng.h"
#include "request/resnet/default_photo.h"
#include "request/resnet/jpeg_decode.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

namespace SL_UNITY_ID {

using sl::request::decode_jpeg;
using sl::request::default_photo_jpeg;
using sl::request::read_jpeg_header;

namespace {

const cell_test::Cell cell{"request/resnet-request"};
const std::map<std::string, std::string> kSmall = {{"resolution", "64"}, {"width", "0.25"}};

/// A smooth test image, height x width x 3: gradients and a sine, so JPEG at quality 100 keeps it closely.
std::vector<std::uint8_t> test_image(int width, int height) {
  std::vector<std::uint8_t> rgb(static_cast<std::size_t>(width) * height * 3);
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      std::uint8_t* p = &rgb[(static_cast<std::size_t>(y) * width + x) * 3];
      p[0] = static_cast<std::uint8_t>(40 + 170 * x / (width - 1));
      p[1] = static_cast<std::uint8_t>(40 + 170 * y / (height - 1));
      p[2] = static_cast<std::uint8_t>(128 + 60 * std::sin(0.15 * (x + y)));
    }
  return rgb;
}

std::string encode_jpeg(const std::vector<std::uint8_t>& rgb, int width, int height, int quality) {
  std::string jpeg;
  const auto append = [](void* context, void* data, int size) {
    static_cast<std::string*>(context)->append(static_cast<const char*>(data), static_cast<std::size_t>(size));
  };
  REQUIRE(stbi_write_jpg_to_func(append, &jpeg, width, height, 3, rgb.data(), quality) != 0);
  return jpeg;
}

/// The built-in photo with its frame header (SOF0) patched to claim width x height.
std::string with_claimed_size(int width, int height) {
  std::string jpeg = default_photo_jpeg();
  const std::size_t sof = jpeg.find("\xFF\xC0");
  REQUIRE(sof != std::string::npos);
  // FF C0, length (2), precision (1), height (2), width (2)
  jpeg[sof + 5] = static_cast<char>(height >> 8);
  jpeg[sof + 6] = static_cast<char>(height & 0xFF);
  jpeg[sof + 7] = static_cast<char>(width >> 8);
  jpeg[sof + 8] = static_cast<char>(width & 0xFF);
  return jpeg;
}

}  // namespace

TEST_CASE("The built-in photo decodes to 640 x 480 with a daylight scene's pixel levels", "[request][jpeg]") {
  const auto& jpeg = default_photo_jpeg();
  CHECK(jpeg.size() < 150u * 1024u);
  const auto image = decode_jpeg(jpeg, "photo");
  REQUIRE(image.ok());
  REQUIRE(image.value().width == 640);
  REQUIRE(image.value().height == 480);
  double sum[3] = {0, 0, 0};
  const std::uint8_t* p = image.value().rgb.get();
  for (std::size_t i = 0; i < 640u * 480u; ++i)
    for (int c = 0; c < 3; ++c) sum[c] += p[3 * i + c];
  const double n = 640.0 * 480.0;
  // Neither black nor blown out; sky and grass make blue and green outweigh red.
  for (double s : sum) CHECK((s / n > 60 && s / n < 200));
  CHECK(sum[1] > sum[0]);
  CHECK(sum[2] > sum[0]);
}

TEST_CASE("A JPEG written at quality 100 decodes back within a few levels of the original", "[request][jpeg]") {
  const int w = 96, h = 64;
  const auto original = test_image(w, h);
  const auto image = decode_jpeg(encode_jpeg(original, w, h, 100), "photo");
  REQUIRE(image.ok());
  REQUIRE(image.value().width == w);
  REQUIRE(image.value().height == h);
  int max_error = 0;
  double total_error = 0;
  for (std::size_t i = 0; i < original.size(); ++i) {
    const int e = std::abs(int(image.value().rgb.get()[i]) - int(original[i]));
    max_error = std::max(max_error, e);
    total_error += e;
  }
  CHECK(max_error <= 6);
  CHECK(total_error / static_cast<double>(original.size()) < 1.5);
}

TEST_CASE("Bytes that are not a JPEG are rejected as invalid, naming the parameter", "[request][jpeg]") {
  for (const std::string& bad : {std::string(), std::string("GIF89a not a jpeg at all"), default_photo_jpeg().substr(0, 20)}) {
    const auto r = read_jpeg_header(bad, "photo");
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "invalid");
    CHECK(r.error().param == "photo");
  }
  const auto e = cell.error({{"photo", "\x89PNG\r\n\x1a\n not a jpeg"}});
  CHECK(e.code == "invalid");
  CHECK(e.param == "photo");
}

TEST_CASE("Corrupted JPEG data decodes to the header's size or fails as invalid, never crashes", "[request][jpeg]") {
  sl::Rng rng = sl::Rng::stream(7, sl::Stream::Misc);
  const std::string& good = default_photo_jpeg();
  int failed = 0;
  for (int trial = 0; trial < 60; ++trial) {
    std::string jpeg = good;
    if (trial % 3 == 0) jpeg.resize(200 + rng.next_u64() % (good.size() - 200));  // truncated
    const int flips = 1 + static_cast<int>(rng.next_u64() % 40);
    for (int f = 0; f < flips; ++f) jpeg[2 + rng.next_u64() % (jpeg.size() - 2)] = static_cast<char>(rng.next_u64());
    const auto image = decode_jpeg(jpeg, "photo");
    if (image.ok()) {
      CHECK(image.value().width > 0);
      CHECK(image.value().rgb != nullptr);
    } else {
      ++failed;
      CHECK((image.error().code == "invalid" || image.error().code == "too_large"));
      CHECK(image.error().param == "photo");
    }
  }
  CHECK(failed > 0);  // some corruptions hit the headers or tables
}

TEST_CASE("A JPEG whose header claims more than the budget's 16 megapixels is too_large before decoding", "[request][jpeg]") {
  const auto big = read_jpeg_header(with_claimed_size(8000, 6000), "photo");  // 48 MP
  REQUIRE_FALSE(big.ok());
  CHECK(big.error().code == "too_large");
  CHECK(big.error().param == "photo");
  const auto fits = read_jpeg_header(with_claimed_size(4000, 3000), "photo");  // 12 MP: the header is fine
  REQUIRE(fits.ok());
  CHECK(fits.value().width == 4000);
  auto raw = kSmall;
  raw["photo"] = with_claimed_size(8000, 6000);
  const auto e = cell.error(raw);
  CHECK(e.code == "too_large");
  CHECK(e.param == "photo");
}

TEST_CASE("The request cell decodes the built-in photo by default and a --photo file when given", "[request][jpeg][resnet]") {
  const auto builtin = cell.run(kSmall);
  CHECK(out(builtin, "photo_width") == 640);
  CHECK(out(builtin, "photo_height") == 480);
  CHECK(out(builtin, "photo_builtin") == 1);
  CHECK(out(builtin, "photo_file_bytes") == static_cast<double>(default_photo_jpeg().size()));
  CHECK_THAT(out(builtin, "decode_mpix_per_s"), WithinRel(0.640 * 0.480 / (1e-3 * out(builtin, "decode_ms")), 1e-9));

  const int w = 200, h = 150;
  const std::string jpeg = encode_jpeg(test_image(w, h), w, h, 85);
  const std::string path = "jpeg_decode_test_photo.jpg";
  std::ofstream(path, std::ios::binary) << jpeg;
  auto raw = kSmall;
  raw["photo"] = "@" + path;
  auto params = sl::cli::read_files(cell.id, raw);
  std::remove(path.c_str());
  REQUIRE(params.ok());
  const auto mine = cell.run(params.value());
  CHECK(out(mine, "photo_width") == w);
  CHECK(out(mine, "photo_height") == h);
  CHECK(out(mine, "photo_builtin") == 0);
  CHECK(out(mine, "photo_file_bytes") == static_cast<double>(jpeg.size()));
  CHECK(out(mine, "decode_ms") > 0);
}

TEST_CASE("createImageBitmap: the probe gets the chosen JPEG; C++ takes the median and the ratio", "[request][jpeg][resnet]") {
  SECTION("natively: a notice and no browser outputs") {
    const auto r = cell.run(kSmall);
    CHECK(r.find_output("bitmap_decode_ms") == nullptr);
    CHECK(cell_test::has_notice(r, "image_bitmap_not_measured"));
  }
  SECTION("with samples: median in ms, and our decode time over it") {
    auto raw = kSmall;
    raw["measured.image_bitmap.decode"] = "0.004 0.001 0.002 0.003 0.0025";
    const auto r = cell.run(raw);
    CHECK_THAT(out(r, "bitmap_decode_ms"), WithinRel(2.5, 1e-12));
    CHECK_THAT(out(r, "bitmap_vs_ours"), WithinRel(out(r, "decode_ms") / 2.5, 1e-12));
  }
  SECTION("the plan: one task whose payload is the built-in photo, or the user's file, or none for a bad file") {
    auto plan = sl::plan_probes(cell.id, kSmall);
    REQUIRE(plan.ok());
    REQUIRE(plan.value().size() == 1);
    CHECK(plan.value()[0].probe == "image_bitmap");
    CHECK(plan.value()[0].key == "decode");
    CHECK(plan.value()[0].payload == default_photo_jpeg());
    CHECK(plan.value()[0].repeats >= 3);
    const std::string mine = encode_jpeg(test_image(32, 32), 32, 32, 90);
    auto with_file = kSmall;
    with_file["photo"] = mine;
    plan = sl::plan_probes(cell.id, with_file);
    REQUIRE(plan.ok());
    REQUIRE(plan.value().size() == 1);
    CHECK(plan.value()[0].payload == mine);
    with_file["photo"] = "not a jpeg";
    plan = sl::plan_probes(cell.id, with_file);
    REQUIRE(plan.ok());
    CHECK(plan.value().empty());
  }
}

}  // namespace SL_UNITY_ID
