#include <catch2/catch.hpp>

#include <cmath>

#include "core/distributions.h"
#include "core/stats.h"

namespace SL_UNITY_ID {

using sl::Distribution;

namespace {

// Sample mean within 5 standard errors of mean(); sample variance within 5 of its own SE, which for a
// distribution with finite fourth moment is sqrt((mu4 - sigma^4) / n) — we bound it from the sample itself.
void check_moments(const Distribution& d, std::uint64_t seed, int n) {
  sl::Rng rng(seed);
  sl::RunningStats s;
  std::vector<double> xs;
  xs.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    const double x = d.sample(rng);
    s.add(x);
    xs.push_back(x);
  }
  const double se_mean = std::sqrt(d.variance() / n);
  CHECK(std::fabs(s.mean() - d.mean()) <= 5 * se_mean + 1e-12);
  double m4 = 0;
  for (double x : xs) m4 += std::pow(x - s.mean(), 4);
  m4 /= n;
  const double se_var = std::sqrt(std::fmax(m4 - s.variance() * s.variance(), 0.0) / n);
  CHECK(std::fabs(s.variance() - d.variance()) <= 5 * se_var + 1e-12);
}

}  // namespace

TEST_CASE("Samples of each distribution have the mean and variance the distribution declares", "[core][dist]") {
  SECTION("exponential") { check_moments(Distribution::exponential(200.0), 1, 400'000); }
  SECTION("deterministic") { check_moments(Distribution::deterministic(0.005), 2, 1000); }
  SECTION("uniform") { check_moments(Distribution::uniform(2.0, 5.0), 3, 400'000); }
  SECTION("lognormal") { check_moments(Distribution::lognormal_mean_cv(10.0, 0.5), 4, 400'000); }
  SECTION("pareto with finite fourth moment") { check_moments(Distribution::pareto(1.0, 5.0), 5, 400'000); }
}

TEST_CASE("lognormal_mean_cv has the requested mean and coefficient of variation", "[core][dist]") {
  const auto d = Distribution::lognormal_mean_cv(50.0, 1.5);
  CHECK_THAT(d.mean(), Catch::Matchers::WithinRel(50.0, 1e-12));
  CHECK_THAT(std::sqrt(d.variance()) / d.mean(), Catch::Matchers::WithinRel(1.5, 1e-12));
}

TEST_CASE("Quantile functions invert the closed-form CDFs", "[core][dist]") {
  const double p = GENERATE(0.01, 0.5, 0.9, 0.99);
  // Exponential: F(x) = 1 - exp(-rate x).
  const auto e = Distribution::exponential(3.0);
  CHECK_THAT(1 - std::exp(-3.0 * e.quantile(p)), Catch::Matchers::WithinRel(p, 1e-12));
  // Pareto: F(x) = 1 - (x_min / x)^alpha.
  const auto par = Distribution::pareto(2.0, 1.5);
  CHECK_THAT(1 - std::pow(2.0 / par.quantile(p), 1.5), Catch::Matchers::WithinRel(p, 1e-12));
}

TEST_CASE("normal_quantile matches known standard normal quantiles to 1e-8", "[core][dist]") {
  // Values of Phi^-1 from standard tables (Abramowitz & Stegun 26.2).
  CHECK(std::fabs(sl::normal_quantile(0.5)) < 1e-12);
  CHECK(std::fabs(sl::normal_quantile(0.975) - 1.959963984540054) < 1e-8);
  CHECK(std::fabs(sl::normal_quantile(0.99) - 2.326347874040841) < 1e-8);
  CHECK(std::fabs(sl::normal_quantile(0.001) + 3.090232306167814) < 1e-8);
}

TEST_CASE("Poisson variates have mean and variance equal to the rate", "[core][dist]") {
  const double mean = GENERATE(0.5, 5.0, 40.0);
  sl::Rng rng(11);
  sl::RunningStats s;
  const int n = 200'000;
  for (int i = 0; i < n; ++i) s.add(static_cast<double>(sl::poisson(rng, mean)));
  CHECK(std::fabs(s.mean() - mean) < 5 * std::sqrt(mean / n));
  // Var of the sample variance of Poisson(m): (m + 2 m^2) / n.
  CHECK(std::fabs(s.variance() - mean) < 5 * std::sqrt((mean + 2 * mean * mean) / n));
}

}  // namespace SL_UNITY_ID
