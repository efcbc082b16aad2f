#include "cli/search.h"

#include <atomic>
#include <cmath>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/read_files.h"
#include "core/registry.h"
#include "llm/fleet/capacity_search.h"
#include "llm/model/model_architecture.h"

namespace sl::cli {
namespace {

constexpr const char* kCell = "llm/capacity-search";
constexpr std::int64_t kMaxThreads = 256, kMaxShards = 100'000;

/// A whole number in [lo, hi] written in decimal digits only.
std::optional<std::int64_t> whole(const std::string& text, std::int64_t lo, std::int64_t hi) {
  if (text.empty() || text.size() > 9) return std::nullopt;
  std::int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  if (v < lo || v > hi) return std::nullopt;
  return v;
}

/// A whole number as an integer, else as nlohmann prints a double (the shortest text that reads back to it):
/// JSON and CSV alike.
nlohmann::json number(double x) {
  if (x == std::trunc(x) && std::fabs(x) < 9007199254740992.0) return static_cast<std::int64_t>(x);
  return x;
}
std::string number_text(double x) { return number(x).dump(); }

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

/// One point as a line: names for the GPU, the weights and the status, numbers for the rest (point_fields).
std::string point_line(const llm::SearchParams& p, const llm::SearchPoint& pt, bool csv) {
  const llm::Design& d = p.designs[static_cast<std::size_t>(pt.design)];
  nlohmann::ordered_json o;
  std::string row;
  for (const auto& [name, value] : llm::point_fields(p, pt)) {
    const std::string field = name;
    std::string text;
    if (field == "gpu") text = d.gpu;
    else if (field == "weights") text = d.weights;
    else if (field == "status") text = llm::status_name(pt.status);
    if (csv) {
      row += (row.empty() ? "" : ",") + (text.empty() ? number_text(value) : csv_field(text));
    } else if (text.empty()) {
      o[field] = number(value);
    } else {
      o[field] = text;
    }
  }
  if (csv) return row + "," + csv_field(pt.refusal);
  o["refusal"] = pt.refusal;
  return o.dump();
}

std::string csv_header() {
  std::string header;
  for (const std::string& name : llm::csv_columns()) header += (header.empty() ? "" : ",") + name;
  return header;
}

}  // namespace

int search(const std::map<std::string, std::string>& cli_params, const std::string& seed_text, bool show_progress,
           int (*fail)(const Error&), std::ostream& out, std::ostream& err) {
  std::map<std::string, std::string> params = cli_params;
  const auto take = [&params](const std::string& name, std::string fallback) {
    const auto it = params.find(name);
    if (it == params.end()) return fallback;
    std::string value = it->second;
    params.erase(it);
    return value;
  };
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  const std::string threads_text = take("threads", std::to_string(cores));
  const std::string shard_text = take("shard", "1/1");
  const std::string format = take("format", "jsonl");
  const auto threads = whole(threads_text, 1, kMaxThreads);
  if (!threads) return fail(invalid("threads", "--threads must be a whole number in [1, 256], got '" + threads_text + "'"));
  const auto slash = shard_text.find('/');
  const auto shard = slash == std::string::npos ? std::nullopt : whole(shard_text.substr(0, slash), 1, kMaxShards);
  const auto shards = slash == std::string::npos ? std::nullopt : whole(shard_text.substr(slash + 1), 1, kMaxShards);
  if (!shard || !shards || *shard > *shards)
    return fail(invalid("shard", "--shard must be i/n with 1 <= i <= n <= 100000, got '" + shard_text + "'"));
  if (format != "jsonl" && format != "csv") return fail(invalid("format", "--format must be jsonl or csv, got '" + format + "'"));
  auto seed = parse_seed(seed_text);
  if (!seed.ok()) return fail(seed.error());
  auto raw = read_files(kCell, params);
  if (!raw.ok()) return fail(raw.error());
  auto inputs = parse_inputs(*find_cell(kCell), raw.value());
  if (!inputs.ok()) return fail(inputs.error());
  auto checked = llm::validate_search(inputs.value());
  if (!checked.ok()) return fail(checked.error());
  const llm::SearchParams& p = checked.value();
  const auto [first, last] = llm::shard_designs(p.designs.size(), *shard, *shards);
  const bool csv = format == "csv";
  if (csv && *shard == 1) out << csv_header() << "\n";

  // Designs are taken in order by the threads; each design's points are printed as soon as every design before
  // it has been printed, so the lines come out in grid order whatever the thread count.
  std::vector<std::vector<llm::SearchPoint>> done(last - first);
  std::vector<bool> ready(last - first, false);
  std::mutex mutex;
  std::condition_variable changed;
  std::atomic<std::size_t> next{first};
  const auto work = [&]() {
    RunControl quiet;
    for (std::size_t d = next++; d < last; d = next++) {
      std::vector<llm::SearchPoint> points = llm::evaluate_design(p, d, seed.value(), quiet);
      std::lock_guard<std::mutex> lock(mutex);
      done[d - first] = std::move(points);
      ready[d - first] = true;
      changed.notify_one();
    }
  };
  std::vector<std::thread> pool;
  const auto num_threads = std::min<std::size_t>(static_cast<std::size_t>(*threads), std::max<std::size_t>(1, last - first));
  for (std::size_t t = 0; t < num_threads; ++t) pool.emplace_back(work);
  std::vector<llm::SearchPoint> all;
  for (std::size_t d = first; d < last; ++d) {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return ready[d - first]; });
    std::vector<llm::SearchPoint> points = std::move(done[d - first]);
    lock.unlock();
    for (const llm::SearchPoint& pt : points) out << point_line(p, pt, csv) << "\n";
    out.flush();
    for (llm::SearchPoint& pt : points) all.push_back(std::move(pt));
    if (show_progress)
      err << "\rprogress: " << (d + 1 - first) << "/" << (last - first) << " designs" << std::flush;
  }
  for (std::thread& t : pool) t.join();
  if (show_progress) err << "\n";
  int counts[3] = {0, 0, 0};
  for (const llm::SearchPoint& pt : all) ++counts[static_cast<int>(pt.status)];
  err << "shard " << *shard << "/" << *shards << ": designs " << first << ".." << last << " of " << p.designs.size()
            << ", " << all.size() << " points: " << counts[0] << " evaluated, " << counts[1] << " pruned, " << counts[2]
            << " refused (" << num_threads << " threads)\n";
  if (const auto winner = llm::cheapest_meeting(all)) {
    const llm::SearchPoint& w = all[*winner];
    const llm::Design& d = p.designs[static_cast<std::size_t>(w.design)];
    err << "cheapest meeting every SLO" << (*shards > 1 ? " in this shard" : "") << ": point " << w.index << ", "
              << w.replicas << " x " << d.gpu << " TP " << d.tp << " " << d.weights << ", $" << number_text(w.usd_per_m_tokens)
              << " per M output tokens\n";
  }
  return 0;
}

}  // namespace sl::cli
