#include "core/portable_log.h"

#include <cmath>
#include <limits>

namespace sl {
namespace {

constexpr double kSqrtHalf = 0.70710678118654752440;
// ln 2 in two parts (fdlibm's): the high part has 32 significant bits, so e x kLn2Hi is exact for |e| < 2^21.
constexpr double kLn2Hi = 6.93147180369123816490e-01;
constexpr double kLn2Lo = 1.90821492927058770002e-10;

}  // namespace

double portable_log(double x) {
  if (!(x > 0)) return x == 0 ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::quiet_NaN();
  if (!std::isfinite(x)) return x;
  int e = 0;
  double m = std::frexp(x, &e);  // x = m 2^e exactly, m in [1/2, 1) (subnormals included)
  if (m < kSqrtHalf) m *= 2, --e;  // m in [sqrt(1/2), sqrt(2)): |s| below 0.1716
  // ln m = 2 atanh s = 2 (s + s^3/3 + s^5/5 + ...), s = (m - 1) / (m + 1); the terms after s^25/25 sum to under
  // 0.1716^27 / 27 < 2e-22 of ln m's ~0.35: far below its last bit.
  const double s = (m - 1) / (m + 1);
  const double s2 = s * s;
  double series = 1.0 / 25;
  for (int k = 23; k >= 3; k -= 2) series = series * s2 + 1.0 / k;
  const double ln_m = 2 * s + 2 * s * (s2 * series);
  const double de = static_cast<double>(e);
  return de * kLn2Hi + (ln_m + de * kLn2Lo);
}

}  // namespace sl
