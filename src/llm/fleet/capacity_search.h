#pragma once
// A capacity search (llm/capacity-search): a grid of fleet designs, each run as llm/fleet runs one configuration
// (fleet_point.h), and the answer as a frontier rather than a point. A design is every knob of the grid but the
// replicas (GPU preset, tensor parallelism, weight precision, max_num_seqs, max_num_batched_tokens, draft tokens,
// prefill/decode split or not); each design is run at replicas_min..replicas_max. Every point of the grid is an
// llm/fleet input set (the search's own inputs for every parameter the two cells share, the design's values for
// the others, each GPU at its preset's dated price and TDP), so a point is checked by llm/fleet's validation (a
// point it refuses, such as weights that do not fit, is counted as refused, with its message) and run on the
// same seed as every other point: the same requests at the same instants (common random numbers).
//
// Pruning (stated, and sound for the frontier of cost against SLO attainment): within one design, once a fleet of
// N replicas met the SLOs of every request (attainment 1, nothing better exists) and no request can be turned
// away (max_waiting at least the workload's requests), a larger fleet N' serves the same output tokens T over at
// least the arrivals' span S, so its cost is at least N' x GPUs x price / (T / S); when that bound exceeds N's
// cost, N' is strictly dominated and is not run. Points whose weights do not fit, or whose heads do not split over
// the GPUs, are refused by the fleet's validation before any run.
//
// Frontier: the evaluated points no other evaluated point dominates (cost no higher and attainment no lower, one
// of them strictly). The winner is the cheapest evaluated point whose every class meets its SLO (ties: the lowest
// grid index). Designs are independent: a shard of the grid is a contiguous block of designs, so shards'
// results, concatenated in shard order, are the whole grid's in grid order.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/cell.h"
#include "llm/engine/step_model.h"

namespace sl::llm {

/// Every knob of a fleet design but its replicas.
struct Design {
  std::string gpu;  ///< a GPU preset's id
  std::int64_t tp = 1;
  std::string weights = "fp16";
  std::int64_t max_num_seqs = 256;
  std::int64_t max_num_batched_tokens = 8192;
  std::int64_t spec_tokens = 0;
  bool disaggregated = false;
};

enum class PointStatus { Evaluated, Pruned, Refused };

/// One point of the grid and, when evaluated, its llm/fleet results.
struct SearchPoint {
  std::int64_t index = 0;   ///< design x replica counts + (replicas - replicas_min)
  std::int64_t design = 0;  ///< into SearchParams::designs
  std::int64_t replicas = 0, prefill_replicas = 0, num_gpus = 0;
  PointStatus status = PointStatus::Evaluated;
  std::string refusal;  ///< Refused: llm/fleet's error message
  double price_usd_per_h = 0;  ///< per GPU
  double usd_per_m_tokens = 0, slo_attainment_frac = 0, chat_attainment_frac = 0, doc_attainment_frac = 0;
  double ttft_p99_ms = 0, tpot_p99_ms = 0, itl_p99_ms = 0, queue_p99_ms = 0, tok_per_s = 0, busy_frac = 0;
  double preemptions_per_request = 0, kv_transfer_wait_ms = 0, rejected = 0, j_per_token = 0;
  bool meets_slo = false;
};

struct SearchParams {
  std::vector<ParamSpec> fleet_params;  ///< llm/fleet's declaration
  Inputs in;                            ///< the search's own inputs (shared parameters are read from here)
  std::vector<Design> designs;          ///< grid order: GPU, then TP, weights, max_num_seqs, tokens, spec, split
  std::int64_t replicas_min = 1, replicas_max = 10;
  double prefill_frac = 0.5;  ///< a split design's prefill replicas: round(N x this), within 1..N-1
  bool prune = true;
  /// This run evaluates part `part` of `parts` of the grid (shard_designs): a page spreads a search over its workers
  /// so, then gives the parts' `points` tables back as one points file.
  std::int64_t part = 1, parts = 1;
  double slo_target_frac = 0.9;
  double idle_w = 300;  ///< a GPU's busy power is its preset's TDP, at least this
  std::optional<std::string> sample_trace;  ///< the sample trace's bytes, when the host passed them
  StepModelChoice step_model;               ///< the step model every design runs (its notices)
  /// Points read from a file (`points`, read_points) instead of run: the frontier of a search run elsewhere.
  std::optional<std::vector<SearchPoint>> loaded;
  std::int64_t num_replica_counts() const { return replicas_max - replicas_min + 1; }
  std::int64_t num_points() const { return static_cast<std::int64_t>(designs.size()) * num_replica_counts(); }
};

/// Parameters: llm/fleet's, but for the knobs the grid sets (replicas, gpu and the custom GPU's figures,
/// tensor_parallel_size, weights, prefill_replicas, price_usd_per_h, gpu_w and the sweep), then the grid: gpus (a set
/// of presets), tp_min..tp_max (powers of two), weights_set, max_num_seqs..max_num_seqs_to and
/// max_num_batched_tokens..max_num_batched_tokens_to (doubling), spec_tokens..spec_tokens_to, disaggregation (off,
/// on, both), prefill_frac, replicas_min..replicas_max, pruning; `points`, a CSV file of points a search wrote
/// (read_points), whose frontier is computed without running anything; and part of parts (1 of 1: the whole grid).
std::vector<ParamSpec> search_params();

/// Checked grid. Errors: a range whose end is below its start ("invalid", naming the end); a grid of more than
/// kMaxPoints points ("too_large", replicas_max); a grid whose runs, all of them (pruning is not counted on),
/// exceed the budget ("too_large", n, saying how many points of this size fit). A point llm/fleet refuses is not
/// an error of the search: it is counted as refused.
Result<SearchParams> validate_search(const Inputs& in);
inline constexpr std::int64_t kMaxSearchPoints = 2000;
inline constexpr std::int64_t kMaxParts = 64;

/// The points of design `d`, replicas ascending (each Evaluated, Pruned or Refused). Progress counts points.
std::vector<SearchPoint> evaluate_design(const SearchParams& p, std::size_t d, std::uint64_t seed, RunControl& ctl);

/// Indices (into `points`) of the evaluated points on the frontier of cost against SLO attainment, cheapest first.
std::vector<std::size_t> attainment_frontier(const std::vector<SearchPoint>& points);
/// The same against p99 TTFT (lower is better), over the evaluated points (pruning is not sound for this one).
std::vector<std::size_t> ttft_frontier(const std::vector<SearchPoint>& points);
/// The cheapest evaluated point whose every class meets its SLO (ties: the lowest grid index).
std::optional<std::size_t> cheapest_meeting(const std::vector<SearchPoint>& points);

/// Designs [first, last) of shard i of n (1-based i): contiguous blocks, so shards concatenate to the grid.
std::pair<std::size_t, std::size_t> shard_designs(std::size_t num_designs, std::int64_t shard, std::int64_t num_shards);

/// A point's numbers by column name, in one order: the cell's `points` table and the CLI's JSON lines and CSV rows.
/// `gpu` and `weights` are indices (gpu_index, weights_index); `status` 0 evaluated, 1 pruned, 2 refused.
std::vector<std::pair<const char*, double>> point_fields(const SearchParams& p, const SearchPoint& pt);
std::vector<std::pair<const char*, double>> point_fields_of(const Design& d, const SearchPoint& pt);

/// "evaluated", "pruned", "refused": the status as the CLI writes it.
const char* status_name(PointStatus status);
/// The CSV columns `serving-lab search --format csv` writes: point_fields' names with the GPU, the weights and the
/// status as text, then the refusal.
std::vector<std::string> csv_columns();

/// Points a search wrote as CSV (one shard's file, or several concatenated: a header, then rows in any order; or
/// the cell's `points` tables written as CSV, with indices for the GPU, the weights and the status),
/// checked against this grid, in grid order. The file is hostile until read, and refused whole: bad CSV, a header
/// other than csv_columns(), a row whose index is outside the grid or repeated, whose design or replicas differ
/// from the grid's point of that index, or whose status or numbers are not what a search writes, is an error
/// naming `param` and the line. A file may hold part of the grid (a shard).
Result<std::vector<SearchPoint>> read_points(const SearchParams& p, const std::string& text, const std::string& param);
inline constexpr double kMaxPointsFileBytes = 4.0 * 1024 * 1024;

/// The index of a GPU preset's id in gpu_presets() (the table's `gpu` column), and of a weight precision.
double gpu_index(const std::string& id);
double weights_index(const std::string& weights);

}  // namespace sl::llm
