#include "core/least_squares.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <utility>

namespace sl {

namespace {

// The algorithm (Levenberg–Marquardt on x = theta / scale, box by an active set and projection):
//   linearise at theta: J by forward differences, A = J^T J, g = J^T r;
//   hold each parameter that sits on a bound with the gradient pushing it out; solve (A + lambda D) s = -g for
//   the others (D = the largest diag(A) seen, Marquardt's scaling) and project theta + s into the box;
//   take the step if the cost falls (or moves by rounding noise only), then lower lambda by Nielsen's rule;
//   otherwise raise lambda and retry. Stop when a step is tiny or the gradient is orthogonal to r.
// Only + - * / sqrt: no libm function whose last bit differs between glibc and Emscripten's musl.

constexpr double kDiffStep = 1.0 / 67108864.0;  // 2^-26 = sqrt(DBL_EPSILON), exact: the relative difference step
constexpr double kInitialDamping = 1e-3;
constexpr double kMinDamping = 1e-20;            // keeps lambda normal (no denormal arithmetic)
constexpr double kMaxDamping = 1e32;             // beyond: no step of any size lowers the cost
constexpr double kSingularPivot = 1e-12;         // J^T J is called singular when a pivot falls below this x A_kk
// Relative size of the rounding noise in a cost: a step whose predicted gain is below it is taken unless the
// cost grows by more than it. Without this, once much of the cost is irreducible, the last Gauss-Newton steps
// (gains ~1e-16 x cost) are lost in the residuals' own rounding and theta stops ~1e-8 short.
constexpr double kCostNoise = 1e-13;

using Args = std::vector<std::pair<std::string, std::string>>;

Error bad(const std::string& param, const std::string& message, Args args = {}) {
  return Error{"bad_lsq_problem", param, message, std::move(args)};
}

std::string indexed(const std::string& name, std::size_t i) { return name + "[" + std::to_string(i) + "]"; }

std::optional<Error> check_sizes(const LsqProblem& p) {
  const std::size_t n = p.initial.size();
  if (n == 0) return bad("initial", "initial must hold one value per parameter, got none");
  if (static_cast<std::int64_t>(n) > kMaxLsqParameters)
    return Error{"too_large", "initial",
                 "initial must hold at most " + std::to_string(kMaxLsqParameters) + " values (parameters), got " +
                     std::to_string(n),
                 {{"max", std::to_string(kMaxLsqParameters)}, {"got", std::to_string(n)}}};
  const std::pair<const char*, const std::vector<double>*> sized[] = {
      {"lower", &p.lower}, {"upper", &p.upper}, {"scale", &p.scale}};
  for (const auto& [name, values] : sized) {
    if (values->size() == n || (values == &p.scale && values->empty())) continue;
    return bad(name, std::string(name) + " must hold " + std::to_string(n) + " values (one per parameter), got " +
                         std::to_string(values->size()),
               {{"max", std::to_string(n)}, {"got", std::to_string(values->size())}});
  }
  if (p.num_residuals < 1)
    return bad("num_residuals", "num_residuals must be at least 1, got " + std::to_string(p.num_residuals),
               {{"min", "1"}, {"got", std::to_string(p.num_residuals)}});
  if (p.num_residuals > kMaxLsqResiduals)
    return Error{"too_large", "num_residuals",
                 "num_residuals must be at most " + std::to_string(kMaxLsqResiduals) + ", got " +
                     std::to_string(p.num_residuals),
                 {{"max", std::to_string(kMaxLsqResiduals)}, {"got", std::to_string(p.num_residuals)}}};
  if (!p.residuals) return bad("residuals", "residuals must be a function, got none");
  return std::nullopt;
}

std::optional<Error> check_values(const LsqProblem& p, const LsqOptions& o) {
  for (std::size_t i = 0; i < p.initial.size(); ++i) {
    const std::pair<const char*, double> named[] = {
        {"lower", p.lower[i]}, {"upper", p.upper[i]}, {"initial", p.initial[i]}};
    for (const auto& [name, x] : named)
      if (!std::isfinite(x))
        return Error{"not_finite", name, indexed(name, i) + " must be finite, got " + format_number(x),
                     {{"index", std::to_string(i)}, {"got", format_number(x)}}};
    const Args range = {{"index", std::to_string(i)}, {"min", format_number(p.lower[i])},
                        {"max", format_number(p.upper[i])}, {"got", format_number(p.initial[i])}};
    if (!(p.lower[i] < p.upper[i]))
      return bad("lower", indexed("lower", i) + " = " + format_number(p.lower[i]) + " must be below " +
                              indexed("upper", i) + " = " + format_number(p.upper[i]), range);
    if (p.initial[i] < p.lower[i] || p.initial[i] > p.upper[i])
      return bad("initial", indexed("initial", i) + " must be in [" + format_number(p.lower[i]) + ", " +
                                format_number(p.upper[i]) + "], got " + format_number(p.initial[i]), range);
    if (!p.scale.empty() && !(std::isfinite(p.scale[i]) && p.scale[i] > 0))
      return bad("scale", indexed("scale", i) + " must be finite and positive, got " + format_number(p.scale[i]),
                 {{"index", std::to_string(i)}, {"got", format_number(p.scale[i])}});
  }
  if (o.max_iterations < 1)
    return Error{"out_of_range", "max_iterations",
                 "max_iterations must be at least 1, got " + std::to_string(o.max_iterations),
                 {{"min", "1"}, {"got", std::to_string(o.max_iterations)}}};
  if (!(o.tolerance > 0 && o.tolerance < 1))
    return Error{"out_of_range", "tolerance", "tolerance must be in (0, 1), got " + format_number(o.tolerance),
                 {{"min", "0"}, {"max", "1"}, {"got", format_number(o.tolerance)}}};
  return std::nullopt;
}

/// The residual function, counted; a refusal, a wrong size or a non-finite residual make a point not evaluable.
class Residuals {
 public:
  Residuals(const LsqProblem& p, int& evaluations) : p_(p), evaluations_(evaluations) {}
  bool operator()(const std::vector<double>& theta, std::vector<double>& r) const {
    ++evaluations_;
    r.assign(static_cast<std::size_t>(p_.num_residuals), 0.0);
    if (!p_.residuals(theta, r) || r.size() != static_cast<std::size_t>(p_.num_residuals)) return false;
    return std::all_of(r.begin(), r.end(), [](double x) { return std::isfinite(x); });
  }

 private:
  const LsqProblem& p_;
  int& evaluations_;
};

double half_sum_of_squares(const std::vector<double>& r) {
  double sum = 0;
  for (const double x : r) sum += x * x;
  return 0.5 * sum;
}

/// cost(r) - cost(r_new) as 0.5 * sum (r - r_new)(r + r_new): resolves a decrease far below the cost's own last
/// bit, which a difference of two costs cannot once much of the cost is irreducible.
double cost_decrease(const std::vector<double>& r, const std::vector<double>& r_new) {
  double sum = 0;
  for (std::size_t i = 0; i < r.size(); ++i) sum += (r[i] - r_new[i]) * (r[i] + r_new[i]);
  return 0.5 * sum;
}

double norm(const std::vector<double>& x) {
  double sum = 0;
  for (const double v : x) sum += v * v;
  return std::sqrt(sum);
}

/// J (column j at [j m, (j + 1) m), in scaled units d r / d(theta_j / scale_j)), A = J^T J and g = J^T r.
struct Linearisation {
  std::vector<double> jac, jtj, grad;
};

/// The difference step of parameter j: forward by h, or backward when forward leaves the box; when the box is
/// narrower than h, towards its wider side.
double difference_step(double theta, double lower, double upper, double scale) {
  const double h = kDiffStep * std::max(std::fabs(theta), scale);
  const double room_up = upper - theta, room_down = theta - lower;
  if (room_up >= h) return h;
  if (room_down >= h) return -h;
  return room_up >= room_down ? room_up : -room_down;
}

/// Fills column j from r(theta + step e_j), trying the other side when that point is not evaluable; a column
/// with no evaluable neighbour is left at zero, so the parameter keeps its value for this step.
void difference_column(const Residuals& eval, const LsqProblem& p, const std::vector<double>& theta,
                       const std::vector<double>& r0, double scale, std::size_t j, double* column) {
  const std::size_t m = r0.size();
  const double first = difference_step(theta[j], p.lower[j], p.upper[j], scale);
  const double room = first > 0 ? theta[j] - p.lower[j] : p.upper[j] - theta[j];
  const double h = std::fabs(first);
  const double second = first > 0 ? -std::min(h, room) : std::min(h, room);
  std::vector<double> probe = theta, r;
  for (const double step : {first, second}) {
    probe[j] = std::clamp(theta[j] + step, p.lower[j], p.upper[j]);
    const double actual = probe[j] - theta[j];  // the step as represented
    if (actual == 0 || !eval(probe, r)) continue;
    for (std::size_t i = 0; i < m; ++i) column[i] = (r[i] - r0[i]) / actual * scale;
    return;
  }
  std::fill(column, column + m, 0.0);
}

void linearise(const Residuals& eval, const LsqProblem& p, const std::vector<double>& scale,
               const std::vector<double>& theta, const std::vector<double>& r, Linearisation& lin) {
  const std::size_t n = theta.size(), m = r.size();
  lin.jac.assign(n * m, 0.0);
  for (std::size_t j = 0; j < n; ++j) difference_column(eval, p, theta, r, scale[j], j, &lin.jac[j * m]);
  lin.jtj.assign(n * n, 0.0);
  lin.grad.assign(n, 0.0);
  for (std::size_t a = 0; a < n; ++a) {
    const double* ja = &lin.jac[a * m];
    for (std::size_t b = 0; b <= a; ++b) {
      const double* jb = &lin.jac[b * m];
      double sum = 0;
      for (std::size_t i = 0; i < m; ++i) sum += ja[i] * jb[i];
      lin.jtj[a * n + b] = lin.jtj[b * n + a] = sum;
    }
    double g = 0;
    for (std::size_t i = 0; i < m; ++i) g += ja[i] * r[i];
    lin.grad[a] = g;
  }
}

/// In-place Cholesky factor (lower triangle) of the k x k matrix a; false when a pivot is not above
/// min_pivot_frac x its diagonal entry (0: only positive definiteness is asked).
bool cholesky(std::vector<double>& a, std::size_t k, double min_pivot_frac) {
  for (std::size_t c = 0; c < k; ++c) {
    double d = a[c * k + c];
    for (std::size_t q = 0; q < c; ++q) d -= a[c * k + q] * a[c * k + q];
    if (!(d > min_pivot_frac * a[c * k + c]) || !(d > 0)) return false;
    const double l = std::sqrt(d);
    a[c * k + c] = l;
    for (std::size_t row = c + 1; row < k; ++row) {
      double v = a[row * k + c];
      for (std::size_t q = 0; q < c; ++q) v -= a[row * k + q] * a[c * k + q];
      a[row * k + c] = v / l;
    }
  }
  return true;
}

/// Solves L L^T x = b in place, L from cholesky().
void cholesky_solve(const std::vector<double>& l, std::size_t k, std::vector<double>& b) {
  for (std::size_t row = 0; row < k; ++row) {
    for (std::size_t q = 0; q < row; ++q) b[row] -= l[row * k + q] * b[q];
    b[row] /= l[row * k + row];
  }
  for (std::size_t row = k; row-- > 0;) {
    for (std::size_t q = row + 1; q < k; ++q) b[row] -= l[q * k + row] * b[q];
    b[row] /= l[row * k + row];
  }
}

/// Parameters free to move this step: not on a bound, or on one with the descent direction -g pointing inwards.
std::vector<bool> free_parameters(const LsqProblem& p, const std::vector<double>& theta, const std::vector<double>& g) {
  std::vector<bool> free(theta.size(), true);
  for (std::size_t j = 0; j < theta.size(); ++j)
    if ((theta[j] <= p.lower[j] && g[j] > 0) || (theta[j] >= p.upper[j] && g[j] < 0)) free[j] = false;
  return free;
}

/// MINPACK's gradient test: the largest cosine between r and a free column of J is at most tol.
bool gradient_vanishes(const Linearisation& lin, const std::vector<bool>& free, double cost, double tol) {
  const std::size_t n = free.size();
  const double r_norm = std::sqrt(2 * cost);
  for (std::size_t j = 0; j < n; ++j) {
    const double column_norm = std::sqrt(lin.jtj[j * n + j]);
    if (free[j] && column_norm > 0 && std::fabs(lin.grad[j]) > tol * column_norm * r_norm) return false;
  }
  return true;
}

/// Solves (A + lambda D) s = -g over the free parameters (held ones get s = 0); false when not positive definite.
bool damped_step(const Linearisation& lin, const std::vector<double>& damping, double lambda,
                 const std::vector<bool>& free, std::vector<double>& s) {
  const std::size_t n = free.size();
  std::vector<std::size_t> index;
  for (std::size_t j = 0; j < n; ++j)
    if (free[j]) index.push_back(j);
  const std::size_t k = index.size();
  std::vector<double> a(k * k), b(k);
  for (std::size_t u = 0; u < k; ++u) {
    for (std::size_t v = 0; v < k; ++v) a[u * k + v] = lin.jtj[index[u] * n + index[v]];
    a[u * k + u] += lambda * damping[index[u]];
    b[u] = -lin.grad[index[u]];
  }
  if (!cholesky(a, k, 0)) return false;
  cholesky_solve(a, k, b);
  std::fill(s.begin(), s.end(), 0.0);
  for (std::size_t u = 0; u < k; ++u) s[index[u]] = b[u];
  return true;
}

/// The linear model's cost decrease for the scaled step s: -g.s - s^T A s / 2.
double predicted_decrease(const Linearisation& lin, const std::vector<double>& s) {
  const std::size_t n = s.size();
  double gs = 0, sas = 0;
  for (std::size_t a = 0; a < n; ++a) {
    gs += lin.grad[a] * s[a];
    double row = 0;
    for (std::size_t b = 0; b < n; ++b) row += lin.jtj[a * n + b] * s[b];
    sas += s[a] * row;
  }
  return -gs - 0.5 * sas;
}

/// sqrt(diag((J^T J)^-1) * 2 cost / (m - n)) in theta's units, or empty (m <= n, or J^T J singular).
std::vector<double> standard_errors(const Linearisation& lin, const std::vector<double>& scale, double cost,
                                    std::size_t m) {
  const std::size_t n = scale.size();
  std::vector<double> l = lin.jtj;
  if (m <= n || !cholesky(l, n, kSingularPivot)) return {};
  const double sigma2 = 2 * cost / static_cast<double>(m - n);
  std::vector<double> out(n), e(n);
  for (std::size_t j = 0; j < n; ++j) {
    std::fill(e.begin(), e.end(), 0.0);
    e[j] = 1;
    cholesky_solve(l, n, e);  // column j of (J_s^T J_s)^-1; J_s = J diag(scale)
    out[j] = std::sqrt(e[j] * sigma2) * scale[j];
  }
  return out;
}

}  // namespace

Result<LsqResult> fit_least_squares(const LsqProblem& p, const LsqOptions& o) {
  if (auto e = check_sizes(p)) return *e;
  if (auto e = check_values(p, o)) return *e;
  const std::size_t n = p.initial.size();
  std::vector<double> scale = p.scale;
  if (scale.empty())
    for (const double x : p.initial) scale.push_back(x != 0 ? std::fabs(x) : 1.0);

  LsqResult out;
  out.theta = p.initial;
  const Residuals eval(p, out.evaluations);
  std::vector<double> r, r_trial, trial(n), s(n), damping(n, 0.0);
  if (!eval(out.theta, r))
    return Error{"bad_lsq_problem", "residuals",
                 "residuals cannot be evaluated at the initial parameters (refused, wrong size or not finite)", {}};
  out.cost = half_sum_of_squares(r);

  Linearisation lin;
  bool lin_current = false;
  double lambda = kInitialDamping, nu = 2;
  const double tol = o.tolerance;
  const auto raise_damping = [&] {  // false once no step of any size would lower the cost
    lambda *= nu;
    nu *= 2;
    return lambda <= kMaxDamping;
  };
  while (out.iterations < o.max_iterations) {
    if (!lin_current) {
      linearise(eval, p, scale, out.theta, r, lin);
      lin_current = true;
      for (std::size_t j = 0; j < n; ++j) damping[j] = std::max(damping[j], lin.jtj[j * n + j]);
    }
    const std::vector<bool> free = free_parameters(p, out.theta, lin.grad);
    if (out.cost == 0 || gradient_vanishes(lin, free, out.cost, tol)) {
      out.converged = true;
      break;
    }
    ++out.iterations;
    std::vector<double> d = damping;
    for (double& x : d) x = x > 0 ? x : 1.0;  // a column of zeros (no effect seen): damp in units of x itself
    if (!damped_step(lin, d, lambda, free, s)) {
      if (!raise_damping()) break;
      continue;
    }
    std::vector<double> x(n);
    for (std::size_t j = 0; j < n; ++j) {
      trial[j] = std::clamp(out.theta[j] + s[j] * scale[j], p.lower[j], p.upper[j]);
      s[j] = (trial[j] - out.theta[j]) / scale[j];  // the projected step
      x[j] = out.theta[j] / scale[j];
    }
    // Take the step if the cost falls; converged once the step moved theta by no more than tol (relative).
    const bool tiny_step = norm(s) <= tol * (norm(x) + tol);
    const double predicted = predicted_decrease(lin, s);
    const double noise = kCostNoise * out.cost;
    double actual = 0;
    if (eval(trial, r_trial) &&
        ((actual = cost_decrease(r, r_trial)) > 0 || (predicted <= noise && actual >= -noise))) {
      const double rho = predicted > 0 ? actual / predicted : 0;  // how well the linear model predicted
      const double t = 2 * rho - 1;
      if (rho > 0) lambda = std::max(kMinDamping, lambda * std::max(1.0 / 3, 1 - t * t * t));  // Nielsen (1999)
      nu = 2;
      out.theta = trial;
      out.cost = half_sum_of_squares(r_trial);
      r.swap(r_trial);
      lin_current = false;
    } else if (!tiny_step && !raise_damping()) {
      break;
    }
    if (tiny_step) {
      out.converged = true;
      break;
    }
  }

  if (!lin_current) linearise(eval, p, scale, out.theta, r, lin);
  out.std_errors = standard_errors(lin, scale, out.cost, r.size());
  out.at_bound.resize(n);
  for (std::size_t j = 0; j < n; ++j) out.at_bound[j] = out.theta[j] == p.lower[j] || out.theta[j] == p.upper[j];
  return out;
}

}  // namespace sl
