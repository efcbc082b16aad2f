// Float32 <-> JSON number text without printf. A float32 has a 24-bit significand, so double arithmetic
// (53 bits) scales it by a power of ten with room to spare; every shortcut that could round the wrong way is
// guarded: the writer checks each candidate by reading it back, and the reader falls back to strtof when
// its double result lies within a few double ulps of a float32 rounding boundary.
#include "request/wire/float_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "core/error.h"

namespace sl::request {
namespace {

constexpr int kMaxExactPow10 = 22;  // 10^22 is the largest power of ten a double holds exactly
constexpr int kFloatDigits = 9;     // significant digits that always suffice for float32
constexpr int kDoubleDigits = 17;   // significant digits that always suffice for float64
constexpr int kMaxFastDigits = 19;
constexpr int kFirstTry = 8;         // digits the shortest search tries first  // a uint64 holds any 19-digit integer
constexpr int kMinPositionalExp = -6;
constexpr int kMaxPositionalExp = 20;
// The double result of the fast reader is within 2 roundings (~2 double ulps) of the exact value; refuse it
// when it lies within this many double ulps of a float32 midpoint.
constexpr std::uint64_t kBoundaryMarginUlps = 8;

const double kPow10[kMaxExactPow10 + 1] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                           1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

/// y * 10^k for |k| <= 2 * kMaxExactPow10, with at most two roundings.
double scale_by_pow10(double y, int k) {
  while (k > kMaxExactPow10) {
    y *= kPow10[kMaxExactPow10];
    k -= kMaxExactPow10;
  }
  while (k < -kMaxExactPow10) {
    y /= kPow10[kMaxExactPow10];
    k += kMaxExactPow10;
  }
  return k >= 0 ? y * kPow10[k] : y / kPow10[-k];
}

/// Decimal exponent of y > 0: the e with 10^e <= y < 10^(e+1) (up to one unit off for y within a double ulp
/// of a power of ten, which only changes how many digits a candidate has, never whether it reads back).
int decimal_exponent(double y) {
  int e = static_cast<int>(std::floor(std::log(y) * 0.43429448190325176));  // log10(y) via log
  if (scale_by_pow10(1.0, e) > y) --e;
  if (scale_by_pow10(1.0, e + 1) <= y) ++e;
  return e;
}

/// The p-significant-digit decimal nearest to y > 0: y ~ digits * 10^(exp10 - p + 1), 10^(p-1) <= digits < 10^p.
struct Decimal {
  std::uint64_t digits;
  int exp10;  ///< decimal exponent of the leading digit
  int num_digits;
};

Decimal round_to_digits(double y, int p, int e) {
  auto digits = static_cast<std::uint64_t>(std::llround(scale_by_pow10(y, p - 1 - e)));
  if (digits >= static_cast<std::uint64_t>(kPow10[p])) {  // rounded up to 10^p: one digit more
    digits /= 10;
    ++e;
  }
  return {digits, e, p};
}

int write_decimal(Decimal d, bool negative, char* out) {
  while (d.num_digits > 1 && d.digits % 10 == 0) {  // drop trailing zeros, as %g does
    d.digits /= 10;
    --d.num_digits;
  }
  char digits[kDoubleDigits + 1];
  for (int i = d.num_digits - 1; i >= 0; --i, d.digits /= 10) digits[i] = static_cast<char>('0' + d.digits % 10);
  char* p = out;
  if (negative) *p++ = '-';
  const int e = d.exp10;
  if (e >= kMinPositionalExp && e <= kMaxPositionalExp) {
    if (e < 0) {  // 0.000ddd
      *p++ = '0';
      *p++ = '.';
      for (int i = -1; i > e; --i) *p++ = '0';
      for (int i = 0; i < d.num_digits; ++i) *p++ = digits[i];
    } else {  // ddd.ddd or ddd000
      for (int i = 0; i <= std::max(e, d.num_digits - 1); ++i) {
        if (i == e + 1) *p++ = '.';
        *p++ = i < d.num_digits ? digits[i] : '0';
      }
    }
  } else {  // d.ddde-N
    *p++ = digits[0];
    if (d.num_digits > 1) *p++ = '.';
    for (int i = 1; i < d.num_digits; ++i) *p++ = digits[i];
    p += std::snprintf(p, 8, "e%+d", e);
  }
  return static_cast<int>(p - out);
}

/// The p-significant-digit decimal nearest to y > 0, rounded by the C library (exact in glibc and musl alike),
/// and whether it reads back as y.
struct DoubleCandidate {
  Decimal decimal;
  bool reads_back;
};

DoubleCandidate double_to_digits(double y, int p) {
  char text[40];
  std::snprintf(text, sizeof text, "%.*e", p - 1, y);  // d.ddd...e+XX
  std::uint64_t digits = 0;
  const char* c = text;
  for (; *c != 'e'; ++c)
    if (*c != '.') digits = digits * 10 + static_cast<std::uint64_t>(*c - '0');
  return {{digits, std::atoi(c + 1), p}, std::strtod(text, nullptr) == y};
}

/// The shortest decimal that reads back as y > 0: reading back is monotone in the digit count (the nearest
/// p-digit decimal is one of the (p + 1)-digit ones), so bisect between 1 and 17 digits.
Decimal shortest_double(double y) {
  int lo = 1, hi = kDoubleDigits;  // 17 digits always read back
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (double_to_digits(y, mid).reads_back)
      hi = mid;
    else
      lo = mid + 1;
  }
  return double_to_digits(y, hi).decimal;
}

/// float32 of a double r whose exact target v is within ~2 double ulps, or nullopt if a float32 rounding
/// boundary (a midpoint between two floats) lies that close to r, in which case v and r may round apart.
std::optional<float> safe_narrow(double r) {
  if (!(std::fabs(r) >= 1.1754943508222875e-38 && std::fabs(r) < 3.4028234663852886e38)) return std::nullopt;
  std::uint64_t bits;
  std::memcpy(&bits, &r, sizeof bits);
  constexpr std::uint64_t kLowBits = (std::uint64_t{1} << 29) - 1;  // double bits below float precision
  constexpr std::uint64_t kMidpoint = std::uint64_t{1} << 28;
  const std::uint64_t low = bits & kLowBits;
  const std::uint64_t distance = low > kMidpoint ? low - kMidpoint : kMidpoint - low;
  if (distance <= kBoundaryMarginUlps) return std::nullopt;
  return static_cast<float>(r);
}

/// Correctly rounded float32 of digits * 10^k (digits > 0): the fast double path when it is provably safe,
/// else strtof on the same number written out.
float decimal_to_float(std::uint64_t digits, int k) {
  if (k >= -kMaxExactPow10 && k <= kMaxExactPow10) {
    const double r = k >= 0 ? static_cast<double>(digits) * kPow10[k] : static_cast<double>(digits) / kPow10[-k];
    if (const auto f = safe_narrow(r)) return *f;
  }
  char text[48];
  std::snprintf(text, sizeof text, "%llue%d", static_cast<unsigned long long>(digits), k);
  return std::strtof(text, nullptr);
}

float to_float(const Decimal& d) { return decimal_to_float(d.digits, d.exp10 - d.num_digits + 1); }

}  // namespace

int write_float(float x, FloatDigits mode, char* out) {
  SL_ASSERT(std::isfinite(x));
  const bool negative = std::signbit(x);
  if (x == 0) {
    std::memcpy(out, negative ? "-0" : "0", negative ? 2 : 1);
    return negative ? 2 : 1;
  }
  const double y = std::fabs(static_cast<double>(x));
  if (mode == FloatDigits::Float64) return write_decimal(shortest_double(y), negative, out);
  const int e = decimal_exponent(y);
  if (mode == FloatDigits::Full) return write_decimal(round_to_digits(y, kFloatDigits, e), negative, out);
  // Shortest: most float32 values need 8 or 9 digits, so start at 8 and go up until the text reads back as
  // x, or down while it still does.
  const float target = std::fabs(x);
  Decimal best = round_to_digits(y, kFirstTry, e);
  if (to_float(best) == target) {
    for (int p = kFirstTry - 1; p >= 1; --p) {
      const Decimal d = round_to_digits(y, p, e);
      if (to_float(d) != target) break;
      best = d;
    }
  } else {
    for (int p = kFirstTry + 1; p <= kFloatDigits; ++p) {
      best = round_to_digits(y, p, e);
      if (to_float(best) == target) break;
    }
  }
  return write_decimal(best, negative, out);
}

std::optional<float> parse_float(const char* text, const char* limit, const char** end) {
  const char* p = text;
  const bool negative = p < limit && *p == '-';
  if (negative) ++p;
  std::uint64_t digits = 0;
  int num_digits = 0, dropped = 0, exp10 = 0;
  bool any = false;
  for (; p < limit && *p >= '0' && *p <= '9'; ++p, any = true) {
    if (num_digits < kMaxFastDigits) {
      digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
      num_digits += digits != 0;
    } else {
      ++dropped;
    }
  }
  if (p < limit && *p == '.') {
    for (++p; p < limit && *p >= '0' && *p <= '9'; ++p, any = true) {
      if (num_digits < kMaxFastDigits) {
        digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
        num_digits += digits != 0;
        --exp10;
      } else {
        ++dropped;
      }
    }
  }
  if (!any) return std::nullopt;
  if (p < limit && (*p == 'e' || *p == 'E')) {
    ++p;
    const bool exp_negative = p < limit && *p == '-';
    if (p < limit && (*p == '-' || *p == '+')) ++p;
    int e = 0;
    bool exp_any = false;
    for (; p < limit && *p >= '0' && *p <= '9'; ++p, exp_any = true) e = std::min(e * 10 + (*p - '0'), 100000);
    if (!exp_any) return std::nullopt;
    exp10 += exp_negative ? -e : e;
  }
  *end = p;
  if (digits == 0) return negative ? -0.0f : 0.0f;
  if (dropped > 0) {  // more than 19 significant digits: let the C library round them all
    const std::string copy(text, p);
    return std::strtof(copy.c_str(), nullptr);
  }
  const float f = decimal_to_float(digits, exp10);
  return negative ? -f : f;
}

}  // namespace sl::request
