#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/error.h"

namespace sl {

/// One parameter of a cell: declared once here, read by the CLI, the wasm export and the page.
struct ParamSpec {
  /// Bytes: a file the user supplies (a JPEG); never in the URL; empty means "use the cell's default".
  enum class Kind { Real, Count, Choice, Bytes };
  std::string name;  ///< CLI flag and URL key: `--lambda`, `?lambda=`
  Kind kind = Kind::Real;
  std::string unit;  ///< "1/s", "ms", "" ...
  double default_value = 0;
  double min = 0;
  double max = 0;
  std::vector<std::string> choices;  ///< Choice only
  std::string default_choice;        ///< Choice only
  std::string accept;                ///< Bytes only: MIME types the page's file picker offers ("image/jpeg")
  /// When set, the parameter matters only while the choice `used_when_param` has one of `used_when_values`
  /// (a custom model's fields); the page hides it otherwise, the CLI says so.
  std::string used_when_param;
  std::vector<std::string> used_when_values;
  /// Earlier names of this parameter, still accepted as CLI flags and URL keys so that old links keep
  /// working (`qps` for `lambda_per_s`); parse_inputs maps them to `name`.
  std::vector<std::string> aliases;
  /// The range a reader explores with the page's slider, when narrower than [min, max] (which bounds what
  /// the text field and the CLI accept): lambda may be 10^9 per second, but its slider spans 1 to 1,000.
  /// Both 0: the slider spans [min, max]. The page draws it on a log scale when it spans more than two
  /// decades.
  double slider_min = 0;
  double slider_max = 0;
  /// Choice only, else empty: the bytes a run with each choice (in `choices` order) downloads over the
  /// reader's network. Such a parameter needs the reader's consent: the page never runs a choice that
  /// moves bytes until the reader presses a button stating them (the default choice moves none).
  std::vector<double> network_bytes;
  /// What the parameter is about, as a short stable id ("model", "gpu", "scheduler", "workload", "slo_cost"...):
  /// the page shows the parameters not in view under one folded section per group (labels in web/i18n,
  /// `param_groups`). Null: ungrouped (the page lists it under "other"). Every llm cell groups every parameter.
  /// A C string (a literal of the lab's table), not a std::string: a string member in every ParamSpec cost the
  /// wasm module 3 kB brotli of construction and copy code.
  const char* group = nullptr;
};

ParamSpec real(std::string name, std::string unit, double default_value, double min, double max);
ParamSpec count(std::string name, std::string unit, double default_value, double min, double max);
ParamSpec choice(std::string name, std::vector<std::string> choices, std::string default_choice);
/// A file parameter of at most max_bytes (checked in parse_inputs).
ParamSpec bytes(std::string name, std::string accept, double max_bytes);
/// `spec`, used only while the choice parameter `choice_param` is one of `values`.
ParamSpec used_when(ParamSpec spec, std::string choice_param, std::vector<std::string> values);
/// `spec`, also accepted under its earlier names (old URL keys and CLI flags).
ParamSpec aliased(ParamSpec spec, std::vector<std::string> old_names);
/// `spec` (Real or Count), explored on the page with a slider from lo to hi, inside [min, max].
ParamSpec explored(ParamSpec spec, double lo, double hi);
/// `spec` (a Choice whose default moves nothing), each choice downloading bytes[i] (see network_bytes).
ParamSpec downloads(ParamSpec spec, std::vector<double> bytes);

/// Which runs have an output or a table.
enum class Presence {
  Always,       ///< every run (a test checks it at the defaults)
  SomeInputs,   ///< only at some inputs (a closed form only while the queue is stable)
  BrowserOnly,  ///< only where the browser measured it (a probe's samples); never natively
};

/// One scalar output of a cell: declared once here, beside the parameters. The page shows its label (from
/// the lab file) with this unit; the name is the one grep finds.
struct OutputSpec {
  std::string name;  ///< carries the unit too: "W_ms"
  std::string unit;  ///< "ms", "1/s", "" for a pure number
  Presence presence = Presence::Always;
};

/// One table of a cell (a chart's data, a sweep): its name, and which runs have it.
struct TableSpec {
  std::string name;
  Presence presence = Presence::Always;
};

/// "always", "some_inputs", "browser_only": the name the CLI and the page use.
const char* presence_name(Presence presence);

OutputSpec out(std::string name, std::string unit);
/// An output only some inputs have.
OutputSpec sometimes(OutputSpec spec);
/// An output only the browser can measure.
OutputSpec browser_only(OutputSpec spec);
TableSpec table(std::string name, Presence presence = Presence::Always);

/// Checked parameter values of one run, in declaration order.
class Inputs {
 public:
  struct Value {
    std::string name;
    ParamSpec::Kind kind;
    double number;    ///< Real and Count
    std::string text; ///< Choice; Bytes (the file's bytes)
  };
  void set_number(const ParamSpec& spec, double x);
  void set_choice(const ParamSpec& spec, std::string text);
  void set_bytes(const ParamSpec& spec, std::string data);
  void set_measured(std::string key, std::vector<double> samples);
  void set_asset(std::string name, std::string data);
  double real(const std::string& name) const;
  std::int64_t count(const std::string& name) const;
  const std::string& choice(const std::string& name) const;
  /// A Bytes parameter: the file's bytes, empty when none was given.
  const std::string& bytes(const std::string& name) const;
  /// Samples the host measured for this run (see ProbeTask), by key "<probe>.<key>"; nullptr when the
  /// host did not measure it (always so natively).
  const std::vector<double>* measured(const std::string& key) const;
  /// A data asset the cell declares (CellSpec::assets), by name; nullptr when the host did not pass it.
  const std::string* asset(const std::string& name) const;
  const std::vector<Value>& values() const { return values_; }
  const std::map<std::string, std::vector<double>>& all_measured() const { return measured_; }

 private:
  const Value& find(const std::string& name) const;
  std::vector<Value> values_;
  std::map<std::string, std::vector<double>> measured_;
  std::map<std::string, std::string> assets_;
};

/// A static file of the site a cell computes on (real MNIST digits), kept out of the wasm module: the
/// page fetches `path` (relative to the site) once, after the reader agreed (web/js/data_assets.js), and
/// passes its bytes as the input "asset.<name>". The native build may have it compiled in instead.
struct DataAsset {
  std::string name;  ///< "mnist-digits"
  std::string path;  ///< "data/mnist-digits.bin"
  /// The page asks the reader before it fetches the file (the 0.8 MB of digits); false for a small one (the
  /// 51 KB default photo), fetched when its cell first runs.
  bool ask_first = true;
  /// When set, a run needs the file only while the choice `used_when_param` has one of `used_when_values` (the
  /// sample trace, while workload = trace): the page fetches it for those runs alone.
  std::string used_when_param;
  std::vector<std::string> used_when_values;
};

/// A measurement only the host can take (the browser's JSON.parse, createImageBitmap, a call across the
/// JS→wasm boundary, a fetch with the HTTP cache bypassed). A cell plans these from its inputs; the worker
/// runs each with the probe of that name (web/probes.js) and passes the samples back as the input
/// "measured.<probe>.<key>" = "s1 s2 ..." (seconds per call, one per repeat). C++ does all arithmetic on
/// them. Natively nothing is measured and the cell says so.
struct ProbeTask {
  std::string probe;    ///< the probe's name, one of CellSpec::probes
  std::string key;      ///< which measurement ("1000" for N = 1000)
  std::string payload;  ///< bytes the probe works on (a JSON text, a JPEG); may be empty
  double arg = 0;       ///< a number the probe needs (a width, a size)
  int repeats = 5;      ///< samples to take
};

/// Progress reporting and output limits of one run. report() is cheap to call often: it forwards to the
/// callback at most every ~50 ms of wall time.
class RunControl {
 public:
  RunControl() = default;
  explicit RunControl(std::function<void(double)> on_progress) : on_progress_(std::move(on_progress)) {}
  void report(double done, double total);
  /// Reports completion (1.0) unthrottled.
  void finish();
  /// Most points a time series may have; simulations downsample to this.
  int max_points = 400;
  /// Set by CellSpec::default_cost_s and `serving-lab validate`: a checked run (core/checked_run.h) returns an empty
  /// result once its validation, budget check included, has passed, and runs nothing.
  bool validate_only = false;

 private:
  std::function<void(double)> on_progress_;
  double last_report_s_ = -1;
};

/// A column-oriented table of doubles (Vega-Lite gets rows; the page converts).
struct Table {
  std::string name;
  std::vector<std::pair<std::string, std::vector<double>>> columns;
  Table& column(std::string column_name, std::vector<double> values);
};

/// One book number beside ours.
struct BookCheck {
  std::string ref;    ///< "table-7", "eq-5", "napkin-1.2", "nb01-c12" (a notebook's cell)
  std::string output; ///< the output compared; (ref, output) identifies the check
  std::string label;  ///< English label; the page uses the lab file's translation
  double book = 0;
  double ours = 0;
  std::string unit;
  double tolerance = 0;  ///< rel: a fraction of |book|; abs: in the unit; se: a z multiple
  bool relative = true;  ///< tolerance relative to |book| (tol_kind "rel")
  double difference = 0;      ///< ours - book
  double rel_difference = 0;  ///< (ours - book) / |book|; 0 when the book value is 0
  bool ok = false;       ///< the row passes: within tolerance, or outside it when expect_differs
  bool applies = true;   ///< false: the book's scenario (`when`) differs from these inputs
  std::string when;      ///< "qps=1000 latency_ms=50", empty if always
  std::string kind;      ///< "formula", "simulation", "measurement" or "arithmetic"
  std::string source;    ///< "book" or "notebook"
  std::string tol_kind;  ///< "rel", "abs" or "se"
  double ours_se = 0;    ///< tol_kind se: our run's standard error (the se_output's value)
  double ref_se = 0;     ///< tol_kind se: the reference's standard error
  double allowed = 0;    ///< the largest |ours - book| within tolerance, in the unit
  bool within = false;   ///< |ours - book| <= allowed
  bool expect_differs = false;  ///< an explained difference: passes only while outside its tolerance
};

/// A warning that is not an error: the run is valid, but the reader must know (e.g. an unstable queue).
struct Notice {
  std::string code;
  std::string message;  ///< English, with its numbers: the CLI prints it
  /// Named numbers and names for the page's own text of the notice (its {name} placeholders), as errors carry theirs.
  std::vector<std::pair<std::string, std::string>> args;
};

/// Inputs a run proposes to the reader (the length laws fitted to a replayed trace, knobs fitted to measurements):
/// the page offers a button that sets them and runs again; the CLI prints them as the flags to add.
struct InputFill {
  std::string name;  ///< one of the cell's CellSpec::fills; the lab file labels it
  /// Set in every cell of the page that has the parameter, not only in this one (calibrated hardware knobs).
  bool whole_page = false;
  std::vector<std::pair<std::string, std::string>> values;  ///< parameter -> its text, as the CLI takes it
};

/// The whole answer of one run. `serving-lab run --json` prints exactly this object.
struct RunResult {
  std::string cell;
  std::uint64_t seed = 0;
  Inputs inputs;
  std::vector<std::pair<std::string, double>> outputs;  ///< names carry units: "W_ms"; always finite
  std::vector<BookCheck> book;
  std::vector<Table> tables;
  std::vector<Notice> notices;
  std::vector<InputFill> fills;

  void output(std::string name, double value);
  /// Several outputs in order, each {name, value}; the scaled form multiplies each value by `scale` first (seconds
  /// shown in ms), as TableColumns::put and put_scaled do for a table's columns.
  void output(std::initializer_list<std::pair<const char*, double>> named_values);
  void output_scaled(double scale, std::initializer_list<std::pair<const char*, double>> named_values);
  Table& table(std::string name);
  void notice(std::string code, std::string message);
  /// A notice with named numbers and names for the page's text (its {name} placeholders). Two overloads, not a
  /// default argument: the ~100 calls without args would each build an empty vector in the wasm module.
  void notice(std::string code, std::string message, std::vector<std::pair<std::string, std::string>> args);
  /// Value of a named output, or nullptr.
  const double* find_output(const std::string& name) const;
};

using RunFn = std::function<Result<RunResult>(const Inputs&, std::uint64_t seed, RunControl&)>;
/// A cell's validation alone (its validate_* function, budget check included): an error, or nothing when the
/// run would start. What the fuzzer's validation-only mode calls (tests/fuzz/fuzz.cpp).
using ValidateFn = std::optional<Error> (*)(const Inputs&);

/// The ValidateFn of a `Result<Params> validate_x(const Inputs&)`; checked_cell (core/checked_run.h) sets it.
template <auto validate>
std::optional<Error> validation_of(const Inputs& in) {
  auto checked = validate(in);
  if (checked.ok()) return std::nullopt;
  return checked.error();
}

/// A named set of inputs of one cell ("chat on one H100"): the CLI's `--preset ID`, the URL's `preset=ID` and the
/// page's preset menu set them all at once; inputs given beside it win. Its label is in the cell's lab file
/// (`presets.<id>`); a unit test runs each through the cell's validation.
struct CellPreset {
  std::string id;  ///< "chat-h100"
  std::vector<std::pair<std::string, std::string>> values;  ///< parameter -> its text, as the CLI takes it
};

/// A cell: its id ("queues/littles-law"), its parameters and the function that runs it.
struct CellSpec {
  std::string id;
  std::vector<ParamSpec> params;
  RunFn run;
  bool uses_seed = true;
  /// False for cells that measure this machine (timings): their outputs differ run to run, so the
  /// native-vs-wasm identity test skips them.
  bool deterministic = true;
  /// Host measurements this cell can use, by probe name; with plan_probes, which to take for given inputs.
  std::vector<std::string> probes;
  std::function<std::vector<ProbeTask>(const Inputs&)> plan_probes;
  /// Static files this cell computes on (DataAsset); empty for most cells.
  std::vector<DataAsset> assets;
  /// Every scalar output and every table a run may return (tests check runs against these).
  std::vector<OutputSpec> outputs;
  std::vector<TableSpec> tables;
  /// Its cost model and limits (core/budget.h), one line per part, for `serving-lab list`: what the cell counts
  /// from its inputs and the most it runs. Empty for a calculator whose work does not grow with its inputs.
  std::vector<std::string> budget;
  /// Its validation alone (checked_cell sets it natively, and every cell is declared so): the fuzzer's hook
  /// (`serving-lab validate` and default_cost_s run the cell with RunControl::validate_only instead).
  ValidateFn validate = nullptr;
  /// The InputFill names its runs may propose (each labelled in the lab file).
  std::vector<std::string> fills;
  /// Its named input sets (CellPreset); every llm and queues cell has at least one.
  std::vector<CellPreset> presets;
  std::string lab() const { return id.substr(0, id.find('/')); }
  const OutputSpec* find_output(const std::string& name) const;
  const TableSpec* find_table(const std::string& name) const;
  /// What a run at the default inputs costs in the browser, in seconds, as the cell's cost model (its budget
  /// checks, core/budget.h) estimates it; 0 for a cell without one, on a data asset or timing this machine.
  /// Lab pages run the costliest first-run simulation early, so that it does not start last.
  double default_cost_s() const;
};

/// Sets the group of each parameter named in `groups` (name -> group id); names the cell lacks are skipped, so
/// one table serves every cell of a lab (a name means the same in each of them).
void set_groups(CellSpec& cell, const std::map<std::string, const char*>& groups);

/// Turns raw text values (from CLI flags, URL keys or page inputs) into checked Inputs. The key "preset" names one
/// of the cell's CellPreset: its values count as given, below any given beside it. Missing parameters
/// take their defaults; a parameter's earlier name (ParamSpec::aliases) counts as its name, and giving both
/// is an error; unknown names, non-numbers, NaN, out-of-range values and bad choices are errors that
/// name the parameter. Keys "measured.<probe>.<key>" carry host samples (finite, >= 0, at most 100,000) for
/// a probe the cell declares; keys "asset.<name>" the bytes of a data asset it declares.
Result<Inputs> parse_inputs(const CellSpec& cell, const std::map<std::string, std::string>& raw);

/// Parses a seed: an integer in [0, 2^53) (so it survives a trip through a JS number).
Result<std::uint64_t> parse_seed(const std::string& text);

}  // namespace sl
