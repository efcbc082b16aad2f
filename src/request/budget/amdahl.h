#pragma once

namespace sl::request {

/// Amdahl's law (Systems Perspective 1.3): the whole request's speedup when a share `f` of its time gets
/// `k` times faster, 1 / ((1 - f) + f / k). f in [0, 1], k >= 1.
double amdahl_speedup(double f, double k);

/// The limit of amdahl_speedup as k grows: 1 / (1 - f); infinite when f = 1.
double amdahl_ceiling(double f);

}  // namespace sl::request
