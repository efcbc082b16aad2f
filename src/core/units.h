#pragma once
// Units the core converts between, defined once. GB (10^9 B) and GiB (2^30 B) are never implicit: a name
// says which (docs/style.md, "Units in names").

namespace sl::units {

inline constexpr double kKiB = 1024.0;                    ///< 2^10 B
inline constexpr double kMiB = 1024.0 * 1024.0;           ///< 2^20 B
inline constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;  ///< 2^30 B
inline constexpr double kKB = 1e3;                        ///< 10^3 B
inline constexpr double kMB = 1e6;                        ///< 10^6 B
inline constexpr double kGB = 1e9;                        ///< 10^9 B
inline constexpr double kTB = 1e12;                       ///< 10^12 B

inline constexpr double kMsPerS = 1e3;
inline constexpr double kSPerMs = 1e-3;  ///< multiply by it: x_ms * 1e-3 is not always x_ms / 1e3 to the bit
inline constexpr double kUsPerS = 1e6;
inline constexpr double kNsPerS = 1e9;
inline constexpr double kSPerHour = 3600.0;

inline constexpr double kGiga = 1e9;  ///< GFLOP/s, GOP/s
inline constexpr double kTera = 1e12; ///< TFLOP/s

}  // namespace sl::units
