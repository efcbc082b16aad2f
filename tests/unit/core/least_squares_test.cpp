#include "core/least_squares.h"

#include "matchers.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace SL_UNITY_ID {

namespace {

/// A curve fit: residual i is model(theta, x_i) - y_i.
template <class Model>
sl::LsqProblem curve_fit(std::vector<double> xs, std::vector<double> ys, Model model, std::vector<double> initial,
                         std::vector<double> lower, std::vector<double> upper) {
  sl::LsqProblem p;
  p.initial = std::move(initial);
  p.lower = std::move(lower);
  p.upper = std::move(upper);
  p.num_residuals = static_cast<std::int64_t>(xs.size());
  p.residuals = [xs, ys, model](const std::vector<double>& theta, std::vector<double>& r) {
    for (std::size_t i = 0; i < xs.size(); ++i) r[i] = model(theta, xs[i]) - ys[i];
    return true;
  };
  return p;
}

sl::LsqResult fit(const sl::LsqProblem& p, const sl::LsqOptions& o = {}) {
  auto r = sl::fit_least_squares(p, o);
  if (!r.ok()) FAIL(r.error().message);
  return r.value();
}

double line(const std::vector<double>& t, double x) { return t[0] + t[1] * x; }

std::vector<double> range(int from, int to) {
  std::vector<double> xs;
  for (int i = from; i <= to; ++i) xs.push_back(i);
  return xs;
}

}  // namespace

TEST_CASE("A linear model is recovered exactly from exact data", "[core][lsq]") {
  const auto xs = range(0, 9);
  std::vector<double> ys;
  for (const double x : xs) ys.push_back(2.5 + 0.75 * x);
  const auto r = fit(curve_fit(xs, ys, line, {0, 0}, {-100, -100}, {100, 100}));
  CHECK(r.converged);
  CHECK_THAT(r.theta[0], WithinAbs(2.5, 1e-12));
  CHECK_THAT(r.theta[1], WithinAbs(0.75, 1e-12));
  CHECK(r.cost < 1e-24);
  CHECK(r.at_bound == std::vector<bool>{false, false});
  CHECK(r.evaluations > r.iterations);  // each Jacobian costs n = 2 evaluations beyond the steps
}

TEST_CASE("A roofline-shaped step time d + a max(x, c) is recovered within 1e-6", "[core][lsq]") {
  // Step time of a batch of x tokens: flat (memory-bound) below the knee c, then a per token.
  const auto model = [](const std::vector<double>& t, double x) { return t[2] + t[0] * std::max(x, t[1]); };
  const std::vector<double> truth = {0.02, 12.5, 3.0};
  const auto xs = range(1, 40);
  std::vector<double> ys;
  for (const double x : xs) ys.push_back(model(truth, x));
  const auto r = fit(curve_fit(xs, ys, model, {0.01, 5, 1}, {0, 0, 0}, {1, 100, 100}));
  CHECK(r.converged);
  for (std::size_t j = 0; j < 3; ++j) CHECK_THAT(r.theta[j], WithinAbs(truth[j], 1e-6));
}

TEST_CASE("Rosenbrock's valley, as least squares, is followed to its minimum (1, 1)", "[core][lsq]") {
  // f = 100 (t1 - t0^2)^2 + (1 - t0)^2 = 2 x 0.5 (r0^2 + r1^2), from the classic start (-1.2, 1).
  sl::LsqProblem p;
  p.initial = {-1.2, 1};
  p.lower = {-5, -5};
  p.upper = {5, 5};
  p.num_residuals = 2;
  p.residuals = [](const std::vector<double>& t, std::vector<double>& r) {
    r[0] = 10 * (t[1] - t[0] * t[0]);
    r[1] = 1 - t[0];
    return true;
  };
  const auto r = fit(p);
  CHECK(r.converged);
  CHECK_THAT(r.theta[0], WithinAbs(1, 1e-6));
  CHECK_THAT(r.theta[1], WithinAbs(1, 1e-6));
  CHECK(r.std_errors.empty());  // m = n: no degrees of freedom left for the noise
}

TEST_CASE("An optimum outside the box ends on the bound, with at_bound set", "[core][lsq]") {
  const auto xs = range(0, 9);
  std::vector<double> ys;
  for (const double x : xs) ys.push_back(1 + 2 * x);  // slope 2, but the box allows at most 1.5
  SECTION("the bounded slope sits on its bound, the intercept at its conditional optimum") {
    const auto r = fit(curve_fit(xs, ys, line, {0, 0.5}, {-10, 0}, {10, 1.5}));
    CHECK(r.converged);
    CHECK(r.theta[1] == 1.5);
    CHECK(r.at_bound == std::vector<bool>{false, true});
    // With b fixed at 1.5, the best a is mean(y - 1.5 x) = 1 + 0.5 mean(x) = 1 + 0.5 x 4.5 = 3.25.
    CHECK_THAT(r.theta[0], WithinAbs(3.25, 1e-9));
  }
  SECTION("a fit that starts on the bound stays there") {
    const auto r = fit(curve_fit(xs, ys, line, {0, 1.5}, {-10, 0}, {10, 1.5}));
    CHECK(r.theta[1] == 1.5);
    CHECK_THAT(r.theta[0], WithinAbs(3.25, 1e-9));
  }
  SECTION("both on bounds: a corner") {
    const auto r = fit(curve_fit(xs, ys, line, {0, 0}, {-10, 0}, {0.5, 1.5}));
    CHECK(r.converged);
    CHECK(r.theta == std::vector<double>{0.5, 1.5});
    CHECK(r.at_bound == std::vector<bool>{true, true});
  }
}

TEST_CASE("A malformed problem is an Error naming what is wrong", "[core][lsq]") {
  const auto good = [] {
    return curve_fit(range(0, 4), {1, 2, 3, 4, 5}, line, {0, 0}, {-10, -10}, {10, 10});
  };
  const auto error_of = [](const sl::LsqProblem& p, const sl::LsqOptions& o = {}) {
    auto r = sl::fit_least_squares(p, o);
    REQUIRE_FALSE(r.ok());
    return r.error();
  };
  struct Case {
    std::string what, param, code;
    sl::LsqProblem p;
    sl::LsqOptions o;
  };
  std::vector<Case> cases;
  auto add = [&](std::string what, std::string param, std::string code, auto edit, sl::LsqOptions o = {}) {
    sl::LsqProblem p = good();
    edit(p);
    cases.push_back({std::move(what), std::move(param), std::move(code), std::move(p), o});
  };
  add("no parameter", "initial", "bad_lsq_problem", [](auto& p) { p.initial.clear(); });
  add("too many parameters", "initial", "too_large", [](auto& p) {
    p.initial.assign(33, 0), p.lower.assign(33, -1), p.upper.assign(33, 1);
  });
  add("lower of the wrong size", "lower", "bad_lsq_problem", [](auto& p) { p.lower = {0}; });
  add("upper of the wrong size", "upper", "bad_lsq_problem", [](auto& p) { p.upper = {1, 2, 3}; });
  add("scale of the wrong size", "scale", "bad_lsq_problem", [](auto& p) { p.scale = {1}; });
  add("a zero scale", "scale", "bad_lsq_problem", [](auto& p) { p.scale = {1, 0}; });
  add("lower above upper", "lower", "bad_lsq_problem", [](auto& p) { p.lower[1] = 20; });
  add("lower equal to upper", "lower", "bad_lsq_problem", [](auto& p) { p.lower[0] = 10; });
  add("an infinite bound", "upper", "not_finite", [](auto& p) { p.upper[0] = INFINITY; });
  add("a NaN initial value", "initial", "not_finite", [](auto& p) { p.initial[1] = NAN; });
  add("an initial value outside the box", "initial", "bad_lsq_problem", [](auto& p) { p.initial[0] = 11; });
  add("no residual", "num_residuals", "bad_lsq_problem", [](auto& p) { p.num_residuals = 0; });
  add("too many residuals", "num_residuals", "too_large", [](auto& p) { p.num_residuals = 1'000'000; });
  add("no function", "residuals", "bad_lsq_problem", [](auto& p) { p.residuals = nullptr; });
  add("initial residuals refused", "residuals", "bad_lsq_problem",
      [](auto& p) { p.residuals = [](const std::vector<double>&, std::vector<double>&) { return false; }; });
  add("initial residuals not finite", "residuals", "bad_lsq_problem", [](auto& p) {
    p.residuals = [](const std::vector<double>&, std::vector<double>& r) { return r[0] = NAN, true; };
  });
  add("initial residuals of the wrong size", "residuals", "bad_lsq_problem", [](auto& p) {
    p.residuals = [](const std::vector<double>&, std::vector<double>& r) { return r.resize(2), true; };
  });
  add("no iteration", "max_iterations", "out_of_range", [](auto&) {}, sl::LsqOptions{0, 1e-10});
  add("a tolerance of 0", "tolerance", "out_of_range", [](auto&) {}, sl::LsqOptions{100, 0});
  add("a NaN tolerance", "tolerance", "out_of_range", [](auto&) {}, sl::LsqOptions{100, NAN});
  for (const auto& c : cases) {
    INFO(c.what);
    const auto e = error_of(c.p, c.o);
    CHECK(e.code == c.code);
    CHECK(e.param == c.param);
    CHECK(e.message.find(c.param) != std::string::npos);
  }
  CHECK(error_of(cases[6].p).message == "lower[1] = 20 must be below upper[1] = 10");
}

TEST_CASE("Points where the residuals cannot be evaluated are stepped around", "[core][lsq]") {
  SECTION("an interior optimum near the edge of the evaluable region") {
    // y = a sqrt(x - c) is defined for every x = 1..10 only while c <= 1; truth a = 2, c = 0.5. The fit starts
    // on the edge, c = 1, where the forward difference in c is refused and the backward one is taken.
    const auto xs = range(1, 10);
    std::vector<double> ys;
    for (const double x : xs) ys.push_back(2 * std::sqrt(x - 0.5));
    sl::LsqProblem p = curve_fit(xs, ys, [](const auto& t, double x) { return t[0] * std::sqrt(x - t[1]); },
                                 {1, 1}, {0, -10}, {10, 10});
    const auto model = p.residuals;
    int refused = 0;
    p.residuals = [&](const std::vector<double>& t, std::vector<double>& r) {
      if (t[1] > 1) return ++refused, false;
      return model(t, r);
    };
    const auto r = fit(p);
    CHECK(refused > 0);
    CHECK(r.converged);
    CHECK_THAT(r.theta[0], WithinAbs(2, 1e-6));
    CHECK_THAT(r.theta[1], WithinAbs(0.5, 1e-6));
  }
  SECTION("an optimum beyond the edge: the fit ends at the edge, never past it") {
    sl::LsqProblem p = curve_fit({0}, {3}, [](const auto& t, double) { return t[0]; }, {0}, {-10}, {10});
    const auto model = p.residuals;
    p.residuals = [&](const std::vector<double>& t, std::vector<double>& r) { return t[0] <= 1 && model(t, r); };
    const auto r = fit(p);
    CHECK(r.theta[0] <= 1);
    CHECK_THAT(r.theta[0], WithinAbs(1, 1e-6));
  }
}

TEST_CASE("Standard errors of a noisy straight-line fit match the textbook formulas", "[core][lsq]") {
  // y_i = 1 + 0.5 x_i + e_i, x_i = 0..19, with a fixed zig-zag e_i. For y = a + b x fitted by least squares,
  // J = [1, x_i], so (J^T J)^-1 has diagonal ( sum x^2 / (m Sxx), 1 / Sxx ) with Sxx = sum (x - xbar)^2, and
  // sum x^2 / (m Sxx) = 1/m + xbar^2 / Sxx. With s^2 = SSR / (m - 2) = 2 cost / (m - 2):
  //   se(b) = sqrt(s^2 / Sxx),   se(a) = sqrt(s^2 (1/m + xbar^2 / Sxx)).
  const auto xs = range(0, 19);
  std::vector<double> ys;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const double noise = 0.1 * ((i % 2) ? 1.0 : -1.0) * static_cast<double>(1 + i % 3);
    ys.push_back(1 + 0.5 * xs[i] + noise);
  }
  const double m = static_cast<double>(xs.size());
  double xbar = 0, ybar = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    xbar += xs[i] / m;
    ybar += ys[i] / m;
  }
  double sxx = 0, sxy = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    sxx += (xs[i] - xbar) * (xs[i] - xbar);
    sxy += (xs[i] - xbar) * (ys[i] - ybar);
  }
  const double b = sxy / sxx, a = ybar - b * xbar;
  double ssr = 0;
  for (std::size_t i = 0; i < xs.size(); ++i) ssr += (ys[i] - a - b * xs[i]) * (ys[i] - a - b * xs[i]);
  const double s2 = ssr / (m - 2);

  const auto r = fit(curve_fit(xs, ys, line, {0, 0}, {-100, -100}, {100, 100}));
  CHECK(r.converged);
  CHECK_THAT(r.theta[0], WithinAbs(a, 1e-10));
  CHECK_THAT(r.theta[1], WithinAbs(b, 1e-10));
  CHECK_THAT(2 * r.cost, WithinRel(ssr, 1e-9));
  REQUIRE(r.std_errors.size() == 2);
  // The Jacobian is a forward difference (relative error ~1e-8 for a linear model): 1e-6 is loose on purpose.
  CHECK_THAT(r.std_errors[0], WithinRel(std::sqrt(s2 * (1 / m + xbar * xbar / sxx)), 1e-6));
  CHECK_THAT(r.std_errors[1], WithinRel(std::sqrt(s2 / sxx), 1e-6));
}

TEST_CASE("Standard errors are left empty when J^T J is singular", "[core][lsq]") {
  // y = (a + b) x: only a + b is identified, so J's two columns are equal.
  const auto xs = range(1, 6);
  std::vector<double> ys;
  for (const double x : xs) ys.push_back(3 * x + ((static_cast<int>(x) % 2) ? 0.1 : -0.1));
  const auto r = fit(curve_fit(xs, ys, [](const auto& t, double x) { return (t[0] + t[1]) * x; }, {1, 1},
                               {-10, -10}, {10, 10}));
  CHECK_THAT(r.theta[0] + r.theta[1], WithinAbs(3, 0.05));
  CHECK(r.std_errors.empty());
}

TEST_CASE("A fit is deterministic: the same problem gives bit-identical results", "[core][lsq]") {
  const auto model = [](const std::vector<double>& t, double x) { return t[2] + t[0] * std::max(x, t[1]); };
  const auto xs = range(1, 40);
  std::vector<double> ys;
  for (const double x : xs) ys.push_back(model({0.02, 12.5, 3.0}, x) + 1e-3 * std::sin(x));
  const auto p = curve_fit(xs, ys, model, {0.01, 5, 1}, {0, 0, 0}, {1, 100, 100});
  const auto a = fit(p), b = fit(p);
  CHECK(a.theta == b.theta);
  CHECK(a.cost == b.cost);
  CHECK(a.std_errors == b.std_errors);
  CHECK(a.evaluations == b.evaluations);
}

}  // namespace SL_UNITY_ID
