#include "matchers.h"

#include "request/digits/mnist_digits.h"

namespace SL_UNITY_ID {

using namespace sl::request;

TEST_CASE("The compiled-in MNIST digits (native builds) decode to 6,000 images, 600 per class, with MNIST's pixel statistics",
          "[request][mnist]") {
  const MnistDigits& d = mnist_digits();
  REQUIRE(d.count == 6000);
  REQUIRE(d.pixels.size() == 6000u * 784u);
  int per_class[10] = {};
  for (auto l : d.labels) ++per_class[l];
  for (int c : per_class) CHECK(c == 600);
  // MNIST is white strokes on black: the mean grey level is 0.13 of full scale (0.1307 over the training
  // set, 0.1325 over the test set this package ships) and corners are background.
  double sum = 0;
  for (auto p : d.pixels) sum += p;
  CHECK_THAT(sum / static_cast<double>(d.pixels.size()) / 255.0, WithinAbs(0.13, 0.01));
  for (std::int64_t i = 0; i < d.count; i += 97) CHECK(d.image(i)[0] == 0);
}

TEST_CASE("Run-length decoding restores pixels and rejects malformed streams", "[request][mnist]") {
  // One image: 5 zeros, 200, 255, then 777 zeros (255 + 255 + 255 + 12).
  std::vector<unsigned char> rle = {0, 5, 200, 255, 0, 255, 0, 255, 0, 255, 0, 12};
  std::vector<std::uint8_t> px;
  REQUIRE(decode_mnist_rle(rle.data(), static_cast<std::int64_t>(rle.size()), 1, px));
  CHECK(px[4] == 0);
  CHECK(px[5] == 200);
  CHECK(px[6] == 255);
  CHECK(px[783] == 0);
  CHECK_FALSE(decode_mnist_rle(rle.data(), static_cast<std::int64_t>(rle.size()) - 1, 1, px));  // 1 pixel short
  CHECK_FALSE(decode_mnist_rle(rle.data(), static_cast<std::int64_t>(rle.size()), 2, px));      // 784 short
  const std::vector<unsigned char> dangling = {7, 0};
  CHECK_FALSE(decode_mnist_rle(dangling.data(), 2, 1, px));
}

TEST_CASE("The digits file passed in as a data asset decodes to the compiled-in digits; a malformed one is refused",
          "[request][mnist]") {
  const MnistDigits& builtin = mnist_digits();
  // The file as the site serves it: magic, count (little endian), labels, run-length-encoded pixels.
  std::string file = "SLMNIST1";
  const auto count = static_cast<std::uint32_t>(builtin.count);
  for (int b = 0; b < 4; ++b) file.push_back(static_cast<char>((count >> (8 * b)) & 0xff));
  file.append(builtin.labels.begin(), builtin.labels.end());
  for (std::size_t i = 0; i < builtin.pixels.size();) {
    if (builtin.pixels[i] != 0) {
      file.push_back(static_cast<char>(builtin.pixels[i++]));
      continue;
    }
    int run = 0;
    while (i < builtin.pixels.size() && builtin.pixels[i] == 0 && run < 255) ++run, ++i;
    file.push_back('\0');
    file.push_back(static_cast<char>(run));
  }
  sl::Inputs in;
  in.set_asset(mnist_asset().name, file);
  const auto passed = mnist_digits(in);
  REQUIRE(passed.ok());
  CHECK(passed.value()->labels == builtin.labels);
  CHECK(passed.value()->pixels == builtin.pixels);
  CHECK(mnist_digits(in).value() == passed.value());  // decoded once, reused

  for (const std::string& bad : {std::string("SLMNIST2") + file.substr(8), file.substr(0, 20), file.substr(0, file.size() - 1)}) {
    sl::Inputs broken;
    broken.set_asset(mnist_asset().name, bad);
    const auto r = mnist_digits(broken);
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().code == "bad_asset");
  }
  std::string bad_label = file;
  bad_label[12] = 10;
  CHECK(parse_mnist_asset(bad_label).error().code == "bad_asset");
}

}  // namespace SL_UNITY_ID
