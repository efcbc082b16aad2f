#pragma once
// What a reader measured on their own deployment, for llm/calibration: one file, its form told by its first
// character (after blanks and a UTF-8 byte-order mark):
//   '{' or '[': the JSON `vllm bench serve --save-result` writes (bench_result.h reads it; several runs, one per
//     line, with --append-result). Each run is a serving point: a burst at t = 0 (request_rate "inf"), a closed loop
//     of max_concurrency clients (inf with a concurrency), or Poisson arrivals at its rate; num_prompts requests;
//     the mean prompt and output of total_input_tokens / completed and total_output_tokens / completed; its figures
//     TTFT, TPOT (else the mean ITL), E2E (each the mean, else the median) and output tokens/s;
//   anything else: a CSV (core/csv.h) whose header names its layout (case and surrounding spaces aside):
//     batch,context,step_ms   decode steps: `batch` sequences of `context` tokens each, one step timed;
//     rate,ttft_p50_ms,tpot_p50_ms,tok_per_s[,prompt_tokens,output_tokens]   Poisson serving points at `rate`
//       requests/s, their medians and output tokens/s (an empty field: not measured), at the cell's lengths unless
//       the row gives its own.
// A file is refused whole, with one error naming the parameter and the line (and the column): the JSON reader's
// own errors pass through; the CSV's are csv_syntax (core/csv.h) or calib_* (args line, column, got, problem, min,
// max), and a bench run the calibration cannot use is calib_bench_run (problem: no_rate, no_tokens, no_figure).
#include <cstdint>
#include <string>
#include <vector>

#include "core/error.h"
#include "llm/calibration/knob_fit.h"
#include "llm/calibration/serving_calibration.h"

namespace sl::llm {

/// Most serving points (each simulated about 17 times) and decode steps (each re-timed at every trial) a file may hold.
inline constexpr std::int64_t kMaxServingMeasurements = 64;
inline constexpr std::int64_t kMaxStepMeasurements = 10'000;

enum class MeasurementLayout { VllmBench = 0, StepCsv = 1, ServingCsv = 2 };

/// A measured serving point: what ran, and its figures (Target.measured in seconds or tokens/s).
struct ServingMeasurement {
  std::int64_t line = 0;  ///< of the run's object or the CSV row
  Arrival arrival = Arrival::Poisson;
  double rate_per_s = 0;            ///< Poisson
  std::int64_t concurrency = 0;     ///< ClosedLoop
  std::int64_t num_requests = 0;    ///< the run's; 0: the cell's n (a CSV row)
  std::int64_t prompt_tokens = 0;   ///< 0: the cell's (a CSV row without lengths)
  std::int64_t output_tokens = 0;
  std::vector<Target> targets;
};

/// A measured decode step.
struct StepMeasurement {
  std::int64_t line = 0;
  StepSample sample;
};

struct Measurements {
  MeasurementLayout layout = MeasurementLayout::ServingCsv;
  std::vector<ServingMeasurement> serving;
  std::vector<StepMeasurement> steps;
  // Runs of a vllm bench file that run differently from what they measured (the cell says so).
  std::int64_t num_gated = 0;    ///< a finite rate with max_concurrency: the client's cap is not modelled
  std::int64_t num_bursty = 0;   ///< burstiness other than 1: gamma arrivals run as Poisson
  std::int64_t num_failed = 0;   ///< runs with failed requests (the figures are over the completed ones)
};

/// The bundled example llm/calibration fits when no file is given (assets/calibration/serving-example.csv, made by
/// tools/make_calibration_example.cpp: its header says how), compiled in on both targets (cmake/CalibrationExample.cmake).
const std::string& calibration_example_csv();

/// The measurements in `bytes`, or the one error that refuses the file (param `param`).
Result<Measurements> parse_measurements(const std::string& bytes, const std::string& param);

/// Where the cell's deployment and defaults meet the measurements.
struct MeasurementDefaults {
  EngineConfig config;
  std::int64_t max_requests = 500;  ///< most requests a Poisson point simulates (4x for a burst or a closed loop)
  std::int64_t prompt_tokens = 1000, output_tokens = 256;
};

/// A serving point to calibrate on, and the line of the file it comes from.
struct LinedServingPoint {
  std::int64_t line = 0;
  ServingPoint point;
};

/// The serving points to calibrate on, in the file's order. A Poisson run cut to max_requests has its throughput
/// extrapolated to its own count (RecordedSchedule::value); a time-free one keeps only its throughput (its latencies
/// grow with the request count), or is left out without one. `num_cut` counts the time-free runs cut.
std::vector<LinedServingPoint> serving_points(const Measurements& m, const MeasurementDefaults& d, std::int64_t& num_cut);

}  // namespace sl::llm
