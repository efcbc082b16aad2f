#include "core/budget.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace sl::budget {
namespace {

/// x rounded down to two significant digits (a limit the reader can type: 2.4e+07, not 24331917.3).
double round_down_2(double x) {
  if (!(x > 0) || !std::isfinite(x)) return x;
  const double e = std::floor(std::log10(x)) - 1;
  // Scale by a power of ten that is exact (10^-e for e < 0), so 44.8 prints as 44.8, not 44.800000000000004.
  return e >= 0 ? std::floor(x / std::pow(10.0, e)) * std::pow(10.0, e) : std::floor(x * std::pow(10.0, -e)) / std::pow(10.0, -e);
}

/// x to three significant digits (what a run asks for, as the message shows it: 3.95e+11, not 394762840000).
double round_3(double x) {
  if (!(x > 0) || !std::isfinite(x)) return x;
  const double e = std::floor(std::log10(x)) - 2;
  return e >= 0 ? std::round(x / std::pow(10.0, e)) * std::pow(10.0, e) : std::round(x * std::pow(10.0, -e)) / std::pow(10.0, -e);
}

std::string format_time(double s) {
  if (s >= 1e-3) return format_number(std::round(s * 1e4) / 10) + " ms";
  if (s >= 1e-6) return format_number(std::round(s * 1e7) / 10) + " us";
  return format_number(std::round(s * 1e10) / 10) + " ns";
}

thread_local Tally* current_tally = nullptr;

}  // namespace

Tally::Tally() : outer_(current_tally) { current_tally = this; }
Tally::~Tally() { current_tally = outer_; }

double Estimate::max_amount() const {
  double max = std::numeric_limits<double>::infinity();
  const double per_s = per_unit.native_s * kWasmSlowdown;
  if (per_s > 0) max = std::min(max, std::max(0.0, max_seconds - fixed_native_s * kWasmSlowdown) / per_s);
  if (per_unit.bytes > 0) max = std::min(max, std::max(0.0, kMaxBytes - fixed_bytes) / per_unit.bytes);
  return round_down_2(max);
}

Estimate estimate(std::string param_to_lower, std::string what, std::string unit, double amount, UnitCost per_unit) {
  Estimate e;
  e.param_to_lower = std::move(param_to_lower);
  e.what = std::move(what);
  e.unit = std::move(unit);
  e.amount = amount;
  e.per_unit = per_unit;
  return e;
}

std::optional<Error> check(const Estimate& e) {
  if (current_tally && std::isfinite(e.seconds())) current_tally->seconds_ += e.seconds();
  const double max = e.max_amount();
  if (std::isfinite(e.amount) && e.amount <= max && e.fixed_bytes <= kMaxBytes) return std::nullopt;
  if (!(e.fixed_bytes <= kMaxBytes)) return too_large(e.param_to_lower, e.fixed_bytes / units::kMiB, kMaxBytes / units::kMiB,
                                                      "MiB", "the memory of this run");
  return too_large(e.param_to_lower, round_3(e.amount), max, e.unit, e.what);
}

std::string describe(const std::string& what, const std::string& unit, UnitCost per_unit, double fixed_bytes,
                     double fixed_native_s) {
  Estimate e;
  e.per_unit = per_unit;
  e.fixed_bytes = fixed_bytes;
  e.fixed_native_s = fixed_native_s;
  std::string text = what + ": at most " + format_number(e.max_amount()) + " " + unit + " (" +
                     format_time(per_unit.native_s) + " native";
  if (per_unit.bytes > 0) text += ", " + format_number(per_unit.bytes) + " B";
  text += " each)";
  return text;
}

}  // namespace sl::budget
