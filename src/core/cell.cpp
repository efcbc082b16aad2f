#include "core/cell.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>

#include "core/budget.h"
#include "core/checked_run.h"
#include "core/clock.h"
#include "core/text.h"

namespace sl {

ParamSpec real(std::string name, std::string unit, double default_value, double min, double max) {
  return {std::move(name), ParamSpec::Kind::Real, std::move(unit), default_value, min, max, {}, {}};
}

ParamSpec count(std::string name, std::string unit, double default_value, double min, double max) {
  return {std::move(name), ParamSpec::Kind::Count, std::move(unit), default_value, min, max, {}, {}};
}

ParamSpec choice(std::string name, std::vector<std::string> choices, std::string default_choice) {
  return {std::move(name), ParamSpec::Kind::Choice, "", 0, 0, 0, std::move(choices), std::move(default_choice)};
}

ParamSpec bytes(std::string name, std::string accept, double max_bytes) {
  ParamSpec p{std::move(name), ParamSpec::Kind::Bytes, "B", 0, 0, max_bytes, {}, {}, std::move(accept)};
  return p;
}

ParamSpec used_when(ParamSpec spec, std::string choice_param, std::vector<std::string> values) {
  spec.used_when_param = std::move(choice_param);
  spec.used_when_values = std::move(values);
  return spec;
}

ParamSpec aliased(ParamSpec spec, std::vector<std::string> old_names) {
  spec.aliases = std::move(old_names);
  return spec;
}

ParamSpec explored(ParamSpec spec, double lo, double hi) {
  spec.slider_min = lo;
  spec.slider_max = hi;
  return spec;
}

ParamSpec downloads(ParamSpec spec, std::vector<double> bytes) {
  SL_ASSERT(spec.kind == ParamSpec::Kind::Choice && bytes.size() == spec.choices.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) SL_ASSERT(bytes[i] >= 0 && (spec.choices[i] != spec.default_choice || bytes[i] == 0));
  spec.network_bytes = std::move(bytes);
  return spec;
}

const char* presence_name(Presence presence) {
  switch (presence) {
    case Presence::Always: return "always";
    case Presence::SomeInputs: return "some_inputs";
    case Presence::BrowserOnly: return "browser_only";
  }
  return "always";
}

OutputSpec out(std::string name, std::string unit) { return {std::move(name), std::move(unit), Presence::Always}; }

OutputSpec sometimes(OutputSpec spec) {
  spec.presence = Presence::SomeInputs;
  return spec;
}

OutputSpec browser_only(OutputSpec spec) {
  spec.presence = Presence::BrowserOnly;
  return spec;
}

TableSpec table(std::string name, Presence presence) { return {std::move(name), presence}; }

void set_groups(CellSpec& cell, const std::map<std::string, const char*>& groups) {
  for (ParamSpec& p : cell.params) {
    const auto it = groups.find(p.name);
    if (it != groups.end()) p.group = it->second;
  }
}

const OutputSpec* CellSpec::find_output(const std::string& name) const {
  for (const auto& o : outputs)
    if (o.name == name) return &o;
  return nullptr;
}

const TableSpec* CellSpec::find_table(const std::string& name) const {
  for (const auto& t : tables)
    if (t.name == name) return &t;
  return nullptr;
}

Result<RunResult> validated_only() { return RunResult{}; }

double CellSpec::default_cost_s() const {
  // None for a cell on a data asset at its defaults, whose validation reads the data a browser has only once fetched (native
  // builds hold the digits), nor for one that times this machine, whose validation in a browser needs the
  // measurements of its probes: the module and the CLI list the same. (Those cells run after the simulations.)
  const auto needed_at_defaults = [this](const DataAsset& a) {
    if (a.used_when_param.empty()) return true;
    for (const ParamSpec& p : params)
      if (p.name == a.used_when_param)
        return std::find(a.used_when_values.begin(), a.used_when_values.end(), p.default_choice) != a.used_when_values.end();
    return true;
  };
  if (!run || std::any_of(assets.begin(), assets.end(), needed_at_defaults) || !deterministic) return 0;
  auto defaults = parse_inputs(*this, {});
  if (!defaults.ok()) return 0;
  budget::Tally tally;
  RunControl validation_alone;   // every cell is a checked_cell: its run stops after the validation
  validation_alone.validate_only = true;
  run(defaults.value(), 0, validation_alone);
  return tally.seconds();
}

void Inputs::set_bytes(const ParamSpec& spec, std::string data) {
  values_.push_back({spec.name, spec.kind, static_cast<double>(data.size()), std::move(data)});
}

void Inputs::set_measured(std::string key, std::vector<double> samples) { measured_[std::move(key)] = std::move(samples); }

const std::string& Inputs::bytes(const std::string& name) const { return find(name).text; }

void Inputs::set_asset(std::string name, std::string data) { assets_[std::move(name)] = std::move(data); }

const std::string* Inputs::asset(const std::string& name) const {
  const auto it = assets_.find(name);
  return it == assets_.end() ? nullptr : &it->second;
}

const std::vector<double>* Inputs::measured(const std::string& key) const {
  const auto it = measured_.find(key);
  return it == measured_.end() ? nullptr : &it->second;
}

void Inputs::set_number(const ParamSpec& spec, double x) { values_.push_back({spec.name, spec.kind, x, {}}); }
void Inputs::set_choice(const ParamSpec& spec, std::string text) {
  values_.push_back({spec.name, spec.kind, 0, std::move(text)});
}

const Inputs::Value& Inputs::find(const std::string& name) const {
  for (const auto& v : values_)
    if (v.name == name) return v;
  SL_ASSERT(false && "a cell asked for a parameter it did not declare");
  return values_.front();
}

double Inputs::real(const std::string& name) const { return find(name).number; }
std::int64_t Inputs::count(const std::string& name) const { return static_cast<std::int64_t>(find(name).number); }
const std::string& Inputs::choice(const std::string& name) const { return find(name).text; }

void RunControl::report(double done, double total) {
  if (!on_progress_) return;
  const double now = wall_now_s();
  if (last_report_s_ >= 0 && now - last_report_s_ < 0.05) return;
  last_report_s_ = now;
  on_progress_(total > 0 ? done / total : 0.0);
}

void RunControl::finish() {
  if (on_progress_) on_progress_(1.0);
}

Table& Table::column(std::string column_name, std::vector<double> values) {
  SL_ASSERT(columns.empty() || columns.front().second.size() == values.size());
  columns.emplace_back(std::move(column_name), std::move(values));
  return *this;
}

void RunResult::output(std::string name, double value) {
  outputs.emplace_back(std::move(name), value);
}

void RunResult::output(std::initializer_list<std::pair<const char*, double>> named_values) {
  for (const auto& [name, value] : named_values) outputs.emplace_back(name, value);
}

void RunResult::output_scaled(double scale, std::initializer_list<std::pair<const char*, double>> named_values) {
  for (const auto& [name, value] : named_values) outputs.emplace_back(name, value * scale);
}

Table& RunResult::table(std::string name) {
  tables.push_back(Table{std::move(name), {}});
  return tables.back();
}

void RunResult::notice(std::string code, std::string message) {
  notices.push_back({std::move(code), std::move(message), {}});
}

void RunResult::notice(std::string code, std::string message, std::vector<std::pair<std::string, std::string>> args) {
  notices.push_back({std::move(code), std::move(message), std::move(args)});
}

const double* RunResult::find_output(const std::string& name) const {
  for (const auto& [key, value] : outputs)
    if (key == name) return &value;
  return nullptr;
}

namespace {

/// Nonzero numbers closer to 0 than this are rejected (denormals and near-denormals): a divisor that small
/// overflows the first quotient. Every parameter's max is far below 1 / kMinMagnitude.
constexpr double kMinMagnitude = 1e-30;

std::string range_text(const ParamSpec& p) {
  std::string text = "[" + format_number(p.min) + ", " + format_number(p.max) + "]";
  if (!p.unit.empty()) text += " " + p.unit;
  return text;
}

Error number_error(const ParamSpec& p, const std::string& code, const std::string& what, const std::string& got) {
  return Error{code, p.name, p.name + " must be " + what + " in " + range_text(p) + ", got " + got,
               {{"min", format_number(p.min)}, {"max", format_number(p.max)}, {"unit", p.unit}, {"got", got}}};
}

Result<double> parse_number(const ParamSpec& p, const std::string& text) {
  const std::string got = echo(text);  // as typed (shortened, one line of UTF-8): what the user should recognise
  if (names_non_finite(text)) return number_error(p, "not_finite", "a finite number", got);
  if (!is_decimal(text)) return number_error(p, "not_a_number", "a decimal number", got);
  errno = 0;
  const double x = std::strtod(text.c_str(), nullptr);
  const bool underflow = errno == ERANGE && std::fabs(x) < 1;  // "1e-400" reads as 0
  if (!std::isfinite(x)) return number_error(p, "not_finite", "a finite number", got);
  if ((x != 0 || underflow) && std::fabs(x) < kMinMagnitude)
    return Error{"out_of_range", p.name,
                 p.name + " must be 0 or at least " + format_number(kMinMagnitude) + " in magnitude, got " + got,
                 {{"min", format_number(p.min)}, {"max", format_number(p.max)}, {"unit", p.unit}, {"got", got}, {"problem", "tiny"},
                  {"smallest", format_number(kMinMagnitude)}}};
  if (p.kind == ParamSpec::Kind::Count && x != std::floor(x))
    return number_error(p, "not_integer", "a whole number", got);
  if (x < p.min || x > p.max) return number_error(p, "out_of_range", "a number", got);
  return x;
}

}  // namespace

namespace {

constexpr std::size_t kMaxSamples = 100000;
/// A key is echoed (in the message and as the error's param) up to this many bytes: longer than every key a
/// cell declares ("measured.model_fetch.warm_network_bytes" is 42), so a real key is named whole and a hostile
/// one is cut like any other echo.
constexpr std::size_t kKeyEchoBytes = 64;
constexpr double kMaxSample = 1e12;
const std::string kMeasuredPrefix = "measured.";
const std::string kAssetPrefix = "asset.";
constexpr const char* kPresetKey = "preset";

bool declares_asset(const CellSpec& cell, const std::string& name) {
  return std::any_of(cell.assets.begin(), cell.assets.end(), [&](const DataAsset& a) { return a.name == name; });
}

Result<std::vector<double>> parse_samples(const std::string& key, const std::string& text) {
  // Seconds or bytes per sample: 0, or between kMinMagnitude and kMaxSample (a value that would overflow a
  // sum or a ratio is no measurement), separated by spaces or commas.
  const auto bad = [&](const std::string& why, const std::string& word) {
    return Error{"bad_measurement", echo(key, kKeyEchoBytes), echo(key, kKeyEchoBytes) + " must be a list of decimal numbers, each 0 or in [" +
                                             format_number(kMinMagnitude) + ", " + format_number(kMaxSample) + "]" +
                                             why,
                 {{"problem", "value"}, {"smallest", format_number(kMinMagnitude)}, {"largest", format_number(kMaxSample)},
                  {"got", echo(word)}}};
  };
  std::vector<double> samples;
  std::size_t i = 0;
  while (true) {
    while (i < text.size() && (text[i] == ' ' || text[i] == ',')) ++i;
    if (i == text.size()) break;
    std::size_t end = i;
    while (end < text.size() && text[end] != ' ' && text[end] != ',') ++end;
    const std::string word = text.substr(i, end - i);
    if (!is_decimal(word)) return bad(", got \"" + echo(word) + "\"", word);
    errno = 0;
    const double x = std::strtod(word.c_str(), nullptr);
    const bool underflow = errno == ERANGE && std::fabs(x) < 1;
    if (underflow || !(x == 0 || (x >= kMinMagnitude && x <= kMaxSample))) return bad(", got " + echo(word), word);
    if (samples.size() == kMaxSamples)
      return Error{"bad_measurement", echo(key, kKeyEchoBytes), echo(key, kKeyEchoBytes) + " has more than 100000 samples",
                   {{"problem", "count"}, {"max", std::to_string(kMaxSamples)}}};
    samples.push_back(x);
    i = end;
  }
  return samples;
}

bool declares_probe(const CellSpec& cell, const std::string& key) {
  const std::string rest = key.substr(kMeasuredPrefix.size());
  for (const auto& probe : cell.probes)
    if (rest.rfind(probe + ".", 0) == 0 && rest.size() > probe.size() + 1) return true;
  return false;
}

/// The raw inputs with every parameter under its current name (an alias replaced by the name it stands for).
Result<std::map<std::string, std::string>> canonical_names(const CellSpec& cell, const std::map<std::string, std::string>& raw) {
  std::map<std::string, std::string> named;
  for (const auto& [key, text] : raw) {
    if (key.rfind(kMeasuredPrefix, 0) == 0 || key.rfind(kAssetPrefix, 0) == 0) {
      named[key] = text;
      continue;
    }
    if (key == kPresetKey) continue;  // below
    const ParamSpec* param = nullptr;
    for (const auto& p : cell.params) {
      if (p.name == key || std::find(p.aliases.begin(), p.aliases.end(), key) != p.aliases.end()) param = &p;
    }
    if (param == nullptr)
      return Error{"unknown_param", echo(key, kKeyEchoBytes), cell.id + " has no parameter '" + echo(key, kKeyEchoBytes) + "'", {{"cell", cell.id}}};
    if (!named.emplace(param->name, text).second)
      return Error{"invalid", param->name,
                   param->name + " is given twice (as " + param->name + " and under its old name)", {{"problem", "given_twice"}}};
  }
  const auto preset_key = raw.find(kPresetKey);
  if (preset_key == raw.end()) return named;
  std::string list;
  for (const CellPreset& preset : cell.presets) {
    list += (list.empty() ? "" : ", ") + preset.id;
    if (preset.id != preset_key->second) continue;
    for (const auto& [name, text] : preset.values) named.emplace(name, text);  // a value given beside it wins
    return named;
  }
  if (list.empty())
    return Error{"unknown_param", kPresetKey, cell.id + " has no presets", {{"cell", cell.id}}};
  return Error{"bad_choice", kPresetKey, std::string(kPresetKey) + " must be one of " + list + ", got \"" + echo(preset_key->second) + "\"",
               {{"choices", list}, {"got", echo(preset_key->second)}}};
}

}  // namespace

Result<Inputs> parse_inputs(const CellSpec& cell, const std::map<std::string, std::string>& raw_inputs) {
  auto named = canonical_names(cell, raw_inputs);
  if (!named.ok()) return named.error();
  const std::map<std::string, std::string>& raw = named.value();
  Inputs inputs;
  for (const auto& [name, text] : raw) {
    if (name.rfind(kAssetPrefix, 0) == 0) {
      const std::string asset = name.substr(kAssetPrefix.size());
      if (!declares_asset(cell, asset))
        return Error{"unknown_param", echo(name, kKeyEchoBytes), cell.id + " uses no data asset '" + echo(asset, kKeyEchoBytes) + "'", {{"cell", cell.id}}};
      inputs.set_asset(asset, text);
      continue;
    }
    if (name.rfind(kMeasuredPrefix, 0) != 0) continue;
    if (!declares_probe(cell, name))
      return Error{"unknown_param", echo(name, kKeyEchoBytes), cell.id + " takes no measurement '" + echo(name, kKeyEchoBytes) + "'", {{"cell", cell.id}}};
    auto samples = parse_samples(name, text);
    if (!samples.ok()) return samples.error();
    inputs.set_measured(name.substr(kMeasuredPrefix.size()), std::move(samples.value()));
  }
  for (const auto& p : cell.params) {
    const auto it = raw.find(p.name);
    if (p.kind == ParamSpec::Kind::Bytes) {
      std::string data = it == raw.end() ? std::string() : it->second;
      if (static_cast<double>(data.size()) > p.max)
        return too_large(p.name, static_cast<double>(data.size()), p.max, "B");
      inputs.set_bytes(p, std::move(data));
      continue;
    }
    if (p.kind == ParamSpec::Kind::Choice) {
      const std::string text = it == raw.end() ? p.default_choice : it->second;
      bool valid = false;
      std::string list;
      for (const auto& c : p.choices) {
        valid = valid || c == text;
        list += (list.empty() ? "" : ", ") + c;
      }
      if (!valid)
        return Error{"bad_choice", p.name, p.name + " must be one of " + list + ", got \"" + echo(text) + "\"",
                     {{"choices", list}, {"got", echo(text)}}};
      inputs.set_choice(p, text);
      continue;
    }
    if (it == raw.end()) {
      inputs.set_number(p, p.default_value);
      continue;
    }
    auto x = parse_number(p, it->second);
    if (!x.ok()) return x.error();
    inputs.set_number(p, x.value());
  }
  return inputs;
}

Result<std::uint64_t> parse_seed(const std::string& text) {
  ParamSpec spec = count("seed", "", 1, 0, 9007199254740991.0);  // 2^53 - 1
  auto x = parse_number(spec, text);
  if (!x.ok()) return x.error();
  return static_cast<std::uint64_t>(x.value());
}

}  // namespace sl
