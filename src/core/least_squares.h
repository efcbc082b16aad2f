#pragma once
// Bounded nonlinear least squares for small dense problems (a handful of parameters, up to a few thousand
// residuals): Levenberg–Marquardt with box constraints, the calibrators' fitting engine.
#include <cstdint>
#include <functional>
#include <vector>

#include "core/error.h"

namespace sl {

/// Largest problem fit_least_squares accepts: the normal equations are dense (n x n), the Jacobian m x n.
inline constexpr std::int64_t kMaxLsqParameters = 32;
inline constexpr std::int64_t kMaxLsqResiduals = 100'000;

/// Minimise 0.5 * sum_i r_i(theta)^2 over the box lower <= theta <= upper.
struct LsqProblem {
  std::vector<double> initial, lower, upper;  ///< one per parameter; lower < upper, all finite; initial in the box
  /// Typical magnitude of each parameter (> 0, finite): sets the finite-difference step and the step-size test.
  /// Empty: |initial|, or 1 where initial is 0.
  std::vector<double> scale;
  std::int64_t num_residuals = 0;
  /// Fills `residuals` (resized to num_residuals before the call) for theta; returns false when theta cannot be
  /// evaluated (the step is rejected). A non-finite residual counts as not evaluable.
  std::function<bool(const std::vector<double>& theta, std::vector<double>& residuals)> residuals;
};

struct LsqOptions {
  int max_iterations = 100;  ///< trial steps (accepted or rejected), >= 1
  double tolerance = 1e-10;  ///< relative, in (0, 1): on the step size and on the gradient's angle
};

struct LsqResult {
  std::vector<double> theta;
  double cost = 0;  ///< 0.5 * sum r^2 at theta
  int iterations = 0;   ///< trial steps taken
  int evaluations = 0;  ///< calls of the residual function, finite-difference probes included
  bool converged = false;
  /// sqrt(diag((J^T J)^-1) * 2 cost / (m - n)) at theta, when m > n and J^T J is invertible; else empty. For a
  /// parameter on a bound it is the linearised spread as if the bound were absent.
  std::vector<double> std_errors;
  std::vector<bool> at_bound;  ///< parameters that ended on a bound (theta == lower or upper exactly)
};

/// Levenberg–Marquardt (Marquardt's diagonal damping, Nielsen's damping update) on the scaled parameters
/// theta / scale, with a forward-difference Jacobian. A parameter on a bound whose gradient points out of the
/// box is held for the step; the others step and are projected back into the box. Converged when a step moved
/// the scaled parameters by at most tolerance x their norm (rejected steps shrink until one does), or when the
/// cosine between the residuals and every free Jacobian column is at most the tolerance (MINPACK's tests; its
/// relative-cost test is left out: with a large irreducible cost it stops ~sqrt(tolerance) short in theta).
/// Uses only + - * / sqrt, so native and wasm runs are bit-identical given the same residual function.
/// Errors (code "bad_lsq_problem", or "not_finite", "too_large", "out_of_range") name the malformed field:
/// sizes, bounds, scale, a non-finite or out-of-box initial value, initial residuals that cannot be evaluated,
/// options out of range. Running out of iterations is not an error: the result says converged = false.
Result<LsqResult> fit_least_squares(const LsqProblem& p, const LsqOptions& o = {});

}  // namespace sl
