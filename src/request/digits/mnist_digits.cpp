#include "request/digits/mnist_digits.h"

#include <cstring>

#include "core/error.h"

// SL_MNIST_BUILTIN (cmake/Mnist.cmake, native builds): the generated source defines the file's bytes.
#if SL_MNIST_BUILTIN
namespace sl::request {
const std::string& builtin_mnist_asset();
}
#endif

namespace sl::request {
namespace {

constexpr char kMagic[] = "SLMNIST1";
constexpr std::size_t kMagicBytes = sizeof kMagic - 1;
constexpr std::size_t kHeaderBytes = kMagicBytes + 4;
constexpr std::int64_t kMaxDigits = 100000;

Error bad_asset(const std::string& what) {
  return Error{"bad_asset", "asset." + mnist_asset().name, "the MNIST digits file (" + mnist_asset().path + ") " + what, {}};
}

const std::string* builtin_bytes() {
#if SL_MNIST_BUILTIN
  return &builtin_mnist_asset();
#else
  return nullptr;
#endif
}

}  // namespace

DataAsset mnist_asset() { return {"mnist-digits", "data/mnist-digits.bin"}; }

bool decode_mnist_rle(const unsigned char* rle, std::int64_t num_bytes, std::int64_t count, std::vector<std::uint8_t>& pixels) {
  const std::int64_t total = count * kMnistPixels;
  pixels.assign(static_cast<std::size_t>(total), 0);
  std::int64_t out = 0;
  for (std::int64_t i = 0; i < num_bytes; ++i) {
    if (rle[i] != 0) {
      if (out >= total) return false;
      pixels[static_cast<std::size_t>(out++)] = rle[i];
      continue;
    }
    if (i + 1 >= num_bytes || rle[i + 1] == 0) return false;
    out += rle[++i];  // zeros are already there
    if (out > total) return false;
  }
  return out == total;
}

Result<MnistDigits> parse_mnist_asset(const std::string& bytes) {
  if (bytes.size() < kHeaderBytes || std::memcmp(bytes.data(), kMagic, kMagicBytes) != 0)
    return bad_asset("does not start with " + std::string(kMagic));
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  std::int64_t count = 0;
  for (int b = 3; b >= 0; --b) count = count * 256 + data[kMagicBytes + b];
  if (count < 1 || count > kMaxDigits) return bad_asset("says it holds " + std::to_string(count) + " digits");
  const auto labels_end = kHeaderBytes + static_cast<std::size_t>(count);
  if (bytes.size() < labels_end) return bad_asset("ends inside its labels");
  MnistDigits d;
  d.count = count;
  d.labels.assign(data + kHeaderBytes, data + labels_end);
  for (auto label : d.labels)
    if (label >= kMnistClasses) return bad_asset("has a label " + std::to_string(label) + " outside 0..9");
  if (!decode_mnist_rle(data + labels_end, static_cast<std::int64_t>(bytes.size() - labels_end), count, d.pixels))
    return bad_asset("does not decode to " + std::to_string(count) + " images of 28 x 28");
  return d;
}

Result<std::shared_ptr<const MnistDigits>> mnist_digits(const Inputs& in) {
  // One decoded file is kept (the site serves one); a different one replaces it.
  static std::string cached_bytes;
  static std::shared_ptr<const MnistDigits> cached;
  const std::string* bytes = in.asset(mnist_asset().name);
  if (bytes == nullptr) bytes = builtin_bytes();
  if (bytes == nullptr)
    return Error{"missing_asset", "asset." + mnist_asset().name,
                 "the MNIST digits (" + mnist_asset().path + ") were not passed in as asset." + mnist_asset().name, {}};
  if (cached && *bytes == cached_bytes) return cached;
  auto parsed = parse_mnist_asset(*bytes);
  if (!parsed.ok()) return parsed.error();
  cached = std::make_shared<const MnistDigits>(std::move(parsed.value()));
  cached_bytes = *bytes;
  return cached;
}

const MnistDigits& mnist_digits() {
  static const std::shared_ptr<const MnistDigits> kept = [] {
    auto digits = mnist_digits(Inputs{});
    SL_ASSERT(digits.ok());  // native builds compile in the generator's file
    return digits.ok() ? digits.value() : std::make_shared<const MnistDigits>();
  }();
  return *kept;
}

}  // namespace sl::request
