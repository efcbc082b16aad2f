#include <catch2/catch.hpp>
#include <algorithm>

#include "cell_runner.h"

namespace SL_UNITY_ID {

const cell_test::Cell cell{"queues/burst-admission"};
const std::string kSeed = "7";  // the seed these runs have always used

TEST_CASE("Admission control bounds the queue at limit = k x workers; without it the queue grows",
          "[queues][multiserver][admission]") {
  SECTION("the default spike: 100 workers, 3 per worker") {
    const auto v = cell.run({}, kSeed);
    CHECK(out(v, "queue_limit") == 300);
    CHECK(out(v, "max_queue_limit") <= 300);
    CHECK(out(v, "max_queue_limit") >= 290);  // the spike does fill it
    CHECK(out(v, "max_queue_none") > 10'000);
    const auto& q = column(v, "timeline", "queue_limit");
    CHECK(*std::max_element(q.begin(), q.end()) <= 300);
  }
  SECTION("the book's 4 workers: 8 or 12 waiting at most") {
    const std::string k = GENERATE(as<std::string>{}, "2", "3");
    // 4 workers of 50 ms serve 80 req/s; a spike of 400 req/s against a normal 40.
    const auto v = cell.run({{"workers", "4"}, {"base_per_s", "40"}, {"spike_per_s", "400"}, {"queue_per_worker", k}}, kSeed);
    const double limit = 4 * std::stod(k);
    CHECK(out(v, "queue_limit") == limit);
    CHECK(out(v, "max_queue_limit") <= limit);
    CHECK(out(v, "rejected_limit_frac") > 0);
  }
  SECTION("a limit of 0 turns away every arrival that finds all workers busy (Erlang loss)") {
    const auto v = cell.run({{"queue_per_worker", "0"}}, kSeed);
    CHECK(out(v, "max_queue_limit") == 0);
    CHECK(out(v, "late_limit_frac") == 0);
  }
}

TEST_CASE("Without admission control the spike follows the fluid model: backlog and latency",
          "[queues][multiserver][admission]") {
  // Fluid model at the defaults: (10,000 - 2,000) req/s x 2.5 s = 20,000 requests behind, served at
  // 2,000 req/s: the last spike request waits 10 s. The random backlog has a standard deviation of about
  // sqrt(25,000 arrivals + 5,000 departures) = 173 requests (0.9%), so 5% is over 5 of them; the p99 of an
  // interval adds the service time's own tail (p99 of Exp(50 ms) = 0.23 s), hence -0.3 s / +0.5 s.
  const auto v = cell.run({}, kSeed);
  CHECK_THAT(out(v, "fluid_backlog"), WithinRel(20'000.0, 1e-12));
  CHECK_THAT(out(v, "fluid_peak_latency_s"), WithinRel(10.05, 1e-12));
  CHECK_THAT(out(v, "fluid_drain_s"), WithinRel(20.0, 1e-12));
  CHECK_THAT(out(v, "max_queue_none"), WithinRel(out(v, "fluid_backlog"), 0.05));
  CHECK(out(v, "peak_p99_none_s") > out(v, "fluid_peak_latency_s") - 0.3);
  CHECK(out(v, "peak_p99_none_s") < out(v, "fluid_peak_latency_s") + 0.5);
  // The workers are saturated through the spike (the book's "100 % load"), with and without the limit.
  CHECK(out(v, "busy_spike_none_frac") > 0.995);
  CHECK(out(v, "busy_spike_limit_frac") > 0.995);
  CHECK(out(v, "busy_spike_none_frac") <= 1.0);
}

TEST_CASE("The fluid queue peaks at the fluid backlog, drains to 0 and respects the limit", "[queues][admission]") {
  // At the defaults the fluid queue rises by 8,000 a second for 2.5 s (to 20,000), then drains at 1,000 a
  // second for 20 s: back to 0 by t = 27.5 s, while the run goes on to 32.5 s. Interval averages (0.25 s)
  // sit below the peak by at most half an interval's rise, 8,000 x 0.125 = 1,000.
  const auto v = cell.run({}, kSeed);
  const auto& none = column(v, "timeline", "queue_fluid_none");
  const auto& limit = column(v, "timeline", "queue_fluid_limit");
  const double peak = *std::max_element(none.begin(), none.end());
  CHECK(peak <= out(v, "fluid_backlog"));
  CHECK(peak > out(v, "fluid_backlog") - 1000);
  CHECK(none.back() == 0);
  CHECK(*std::max_element(limit.begin(), limit.end()) <= out(v, "queue_limit"));
  // The simulated queue without a limit follows it: its peak within 5 % (as max_queue_none above).
  const auto& sim = column(v, "timeline", "queue_none");
  CHECK_THAT(*std::max_element(sim.begin(), sim.end()), WithinRel(peak, 0.05));
}

TEST_CASE("Goodput collapses without admission control and holds with it", "[queues][multiserver][admission]") {
  const auto v = cell.run({}, kSeed);
  CHECK(out(v, "good_limit_frac") > out(v, "good_none_frac") + 0.2);
  CHECK(out(v, "late_limit_frac") == 0);  // a wait of at most ~0.15 s never reaches the 1 s timeout
  CHECK(out(v, "peak_p99_limit_s") < 1.0);
  // Between 10 s and 20 s traffic is back to normal, but without a limit every answer is late (the
  // backlog still needs until ~27.5 s to drain); with the limit every request is served in time.
  const auto& t = column(v, "timeline", "t_s");
  const auto& good_none = column(v, "timeline", "good_none_per_s");
  const auto& good_limit = column(v, "timeline", "good_limit_per_s");
  const auto& offered = column(v, "timeline", "offered_per_s");
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] < 10 || t[i] >= 20) continue;
    INFO("interval at " << t[i] << " s");
    CHECK(good_none[i] == 0);
    CHECK(good_limit[i] == offered[i]);
  }
}

TEST_CASE("Every request ends in exactly one outcome", "[queues][multiserver][admission]") {
  const std::string mode = GENERATE(as<std::string>{}, "serve", "drop");
  const auto v = cell.run({{"on_timeout", mode}}, kSeed);
  for (const std::string key : {"none", "limit"}) {
    double sum = out(v, "good_" + key + "_frac") + out(v, "late_" + key + "_frac") + out(v, "rejected_" + key + "_frac");
    if (mode == "drop") sum += out(v, "dropped_" + key + "_frac");
    CHECK_THAT(sum, WithinAbs(1.0, 1e-12));
  }
  CHECK(out(v, "rejected_none_frac") == 0);
}

TEST_CASE("Skipping timed-out requests bounds the latency of the served ones by timeout + service",
          "[queues][multiserver][admission]") {
  // Fixed 50 ms service: a request starts within 1 s of arriving or is skipped, so it ends within 1.05 s.
  const auto v = cell.run({{"on_timeout", "drop"}, {"service", "det"}}, kSeed);
  CHECK(out(v, "peak_p99_none_s") <= 1.05 + 1e-9);
  CHECK(out(v, "dropped_none_frac") > 0.1);
  CHECK(out(v, "max_queue_none") > 1000);  // the queue still grows; its clients just give up
}

TEST_CASE("The Black Friday numbers at the defaults: 10x, 50 ms, 8-12 queued for 4 workers",
          "[queues][multiserver][admission][book]") {
  const auto v = cell.run({}, kSeed);
  // Book values and their printed rounding from the lab file (cell.check_book).
  CHECK_THAT(out(v, "spike_factor"), WithinRel(10'000.0 / 1'000.0, 1e-12));
  cell.check_book(v, "spike_factor");
  // M/M/c at 1,000 req/s on 100 workers of 50 ms (rho 0.5): Erlang C is tiny, so the mean is 50 ms.
  cell.check_book(v, "normal_latency_ms");
  CHECK(out(v, "example_limit_low") == 2 * 4);   // 2-3 x the book's 4 workers
  CHECK(out(v, "example_limit_high") == 3 * 4);
  cell.check_book(v, "example_limit_low");
  cell.check_book(v, "example_limit_high");
  cell.check_book(v, "peak_p99_none_s");
}

TEST_CASE("Burst admission: bad inputs give errors that name the parameter", "[queues][multiserver][admission]") {
  cell_test::check_bad_inputs(cell, {
      {"no arrivals at all", {{"base_per_s", "0"}, {"spike_per_s", "0"}}, "invalid", "base_per_s"},
      {"too many arrivals to simulate", {{"spike_per_s", "1e7"}, {"spike_s", "60"}}, "too_large", "spike_per_s"},
      {"a negative rate", {{"base_per_s", "-1"}}, "out_of_range", "base_per_s"},
  });
}

TEST_CASE("Burst admission: the same seed gives the same run, both policies see the same arrivals",
          "[queues][multiserver][admission]") {
  const auto a = cell.run({{"after_s", "5"}}, "3");
  const auto b = cell.run({{"after_s", "5"}}, "3");
  CHECK(out(a, "good_none_frac") == out(b, "good_none_frac"));
  CHECK(out(a, "peak_p99_limit_s") == out(b, "peak_p99_limit_s"));
  // Offered per interval is counted once; both policies' outcomes add up to it.
  const auto& offered = column(a, "timeline", "offered_per_s");
  const auto& good = column(a, "timeline", "good_limit_per_s");
  const auto& late = column(a, "timeline", "late_limit_per_s");
  const auto& rejected = column(a, "timeline", "rejected_limit_per_s");
  for (std::size_t i = 0; i < offered.size(); ++i) CHECK_THAT(good[i] + late[i] + rejected[i], WithinRel(offered[i], 1e-12));
}

TEST_CASE("Burst admission: a long run is downsampled to at most RunControl::max_points rows per table",
          "[queues][multiserver][admission]") {
  const auto v = cell.run({{"base_per_s", "100"}, {"spike_per_s", "1000"}, {"after_s", "3600"}, {"interval_ms", "10"}}, kSeed);
  for (const auto& t : v.tables) {
    INFO("table " << t.name);
    CHECK(static_cast<int>(t.columns.front().second.size()) <= sl::RunControl().max_points);
  }
  CHECK(out(v, "interval_s") > 0.01);
}

TEST_CASE("Burst admission: the old parameter ids base_qps and spike_qps still set the rates", "[queues][admission]") {
  const auto old_names = cell.run({{"base_qps", "100"}, {"spike_qps", "1000"}, {"after_s", "5"}}, kSeed);
  const auto new_names = cell.run({{"base_per_s", "100"}, {"spike_per_s", "1000"}, {"after_s", "5"}}, kSeed);
  CHECK(out(old_names, "spike_factor") == 10);
  CHECK(out(old_names, "good_none_frac") == out(new_names, "good_none_frac"));
  const auto both = cell.error({{"base_qps", "100"}, {"base_per_s", "100"}});  // one parameter given twice, under its two names
}

TEST_CASE("Burst admission: the whole run's p99 and maximum, with standard errors from independent replicas",
          "[queues][admission]") {
  // The notebook's burst: 4 workers of 5 ms (800 req/s), 500 req/s, 1,000 req/s for 5 s, then 500 again.
  const std::map<std::string, std::string> burst = {{"workers", "4"}, {"service_ms", "5"}, {"base_per_s", "500"},
                                                    {"spike_per_s", "1000"}, {"spike_at_s", "20"}, {"spike_s", "5"},
                                                    {"after_s", "20"}, {"timeout_ms", "50"}, {"queue_per_worker", "2"}};
  auto with_replicas = burst;
  with_replicas["replicas"] = "4";
  const auto one = cell.run(burst, kSeed);
  const auto four = cell.run(with_replicas, kSeed);
  for (const char* name : {"p99_none_ms", "max_none_ms", "p99_limit_ms", "max_limit_ms", "good_none_frac", "rejected_limit_frac"}) {
    INFO(name);
    CHECK(out(one, name) == out(four, name));  // the seed's run is the same: replicas only add spread
  }
  CHECK(one.find_output("p99_none_se_ms") == nullptr);
  for (const char* name : {"p99_none_se_ms", "max_none_se_ms", "p99_limit_se_ms", "max_limit_se_ms", "good_none_se_frac",
                           "good_limit_se_frac", "rejected_limit_se_frac"}) {
    INFO(name);
    CHECK(out(four, name) > 0);
  }
  CHECK(out(one, "p99_none_ms") <= out(one, "max_none_ms"));
  CHECK(out(one, "p99_limit_ms") <= out(one, "max_limit_ms"));
  // The longest wait of the run is at least the worst interval's p99; without a limit the backlog of the
  // spike (about 1,000 requests at 800/s: 1.25 s) dominates, with a limit of 8 nobody waits for seconds.
  CHECK(out(one, "max_none_ms") >= 1e3 * out(one, "peak_p99_none_s"));
  CHECK(out(one, "max_none_ms") > 1000);
  CHECK(out(one, "max_limit_ms") < 200);
}

TEST_CASE("Burst admission: replicas are bounded by the total arrivals they simulate", "[queues][admission]") {
  const auto r = cell.try_run({{"replicas", "1000"}}, kSeed);  // 55,000 arrivals x 1,000
  REQUIRE_FALSE(r.ok());
  CHECK(r.error().code == "too_large");
  CHECK(r.error().param == "replicas");
}

}  // namespace SL_UNITY_ID
