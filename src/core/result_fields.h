#pragma once
// The result schema, written once: every field of RunResult, CellSpec (params, outputs, tables), ProbeTask
// and Error, in the order the CLI prints them and the wasm module returns them (docs/boundary.md). The two
// serialisers are thin writers over this list: cli/json_writer.h (nlohmann) and bindings/val_writer.h
// (emscripten::val). A Writer has:
//   begin_object() end_object() begin_array() end_array() key(name)
//   number(double) integer(std::int64_t) string(text) boolean(b) doubles(values) bytes(data)
// `doubles` is a column of a table (a Float64Array in JS), `bytes` a probe payload (a Uint8Array in JS).
#include <cstdint>
#include <string>
#include <vector>

#include "core/cell.h"

namespace sl::fields {

template <class Writer>
void write_strings(const std::vector<std::string>& values, Writer& w) {
  w.begin_array();
  for (const auto& v : values) w.string(v);
  w.end_array();
}

/// An object of one string per key (a notice's or an error's args, a fill's or a preset's values).
template <class Writer, class Pairs>
void write_string_map(const Pairs& pairs, Writer& w) {
  w.begin_object();
  for (const auto& [k, v] : pairs) w.key(k), w.string(v);
  w.end_object();
}

/// The used_when of a param or an asset: the choice param it follows and the values of it that use it.
template <class Writer>
void write_used_when(const std::string& param, const std::vector<std::string>& values, Writer& w) {
  w.begin_object();
  w.key("param"), w.string(param);
  w.key("values"), write_strings(values, w);
  w.end_object();
}

/// An array of one object per item, its fields written by `fields(item)`.
template <class Writer, class Items, class Fields>
void write_objects(const Items& items, Writer& w, Fields fields) {
  w.begin_array();
  for (const auto& item : items) {
    w.begin_object();
    fields(item);
    w.end_object();
  }
  w.end_array();
}

template <class Writer>
void write(const RunResult& r, Writer& w) {
  w.begin_object();
  w.key("cell"), w.string(r.cell);
  w.key("seed"), w.integer(static_cast<std::int64_t>(r.seed));
  w.key("inputs"), w.begin_object();
  for (const auto& v : r.inputs.values()) {
    w.key(v.name);
    if (v.kind == ParamSpec::Kind::Choice)
      w.string(v.text);
    else
      w.number(v.number);  // Bytes: the size
  }
  w.end_object();
  w.key("outputs"), w.begin_object();
  for (const auto& [name, value] : r.outputs) w.key(name), w.number(value);
  w.end_object();
  w.key("book"), write_objects(r.book, w, [&](const BookCheck& c) {
    w.key("ref"), w.string(c.ref);
    w.key("output"), w.string(c.output);
    w.key("label"), w.string(c.label);
    w.key("book"), w.number(c.book);
    w.key("ours"), w.number(c.ours);
    w.key("unit"), w.string(c.unit);
    w.key("tolerance"), w.number(c.tolerance);
    w.key("relative"), w.boolean(c.relative);
    w.key("difference"), w.number(c.difference);
    w.key("rel_difference"), w.number(c.rel_difference);
    w.key("ok"), w.boolean(c.ok);
    w.key("applies"), w.boolean(c.applies);
    w.key("when"), w.string(c.when);
    w.key("kind"), w.string(c.kind);
    w.key("source"), w.string(c.source);
    w.key("tol_kind"), w.string(c.tol_kind);
    w.key("allowed"), w.number(c.allowed);
    w.key("within"), w.boolean(c.within);
    if (c.tol_kind == "se") w.key("ours_se"), w.number(c.ours_se), w.key("ref_se"), w.number(c.ref_se);
    w.key("expect"), w.string(c.expect_differs ? "differs" : "within");
  });
  w.key("tables"), w.begin_object();
  for (const auto& t : r.tables) {
    w.key(t.name), w.begin_object();
    for (const auto& [name, values] : t.columns) w.key(name), w.doubles(values);
    w.end_object();
  }
  w.end_object();
  w.key("notices"), write_objects(r.notices, w, [&](const Notice& n) {
    w.key("code"), w.string(n.code);
    w.key("message"), w.string(n.message);
    if (n.args.empty()) return;
    w.key("args"), write_string_map(n.args, w);
  });
  w.key("fills"), write_objects(r.fills, w, [&](const InputFill& f) {
    w.key("name"), w.string(f.name);
    w.key("whole_page"), w.boolean(f.whole_page);
    w.key("values"), write_string_map(f.values, w);
  });
  w.end_object();
}

template <class Writer>
void write(const ParamSpec& p, Writer& w) {
  w.begin_object();
  w.key("name"), w.string(p.name);
  switch (p.kind) {
    case ParamSpec::Kind::Choice:
      w.key("kind"), w.string("choice");
      w.key("unit"), w.string("");
      w.key("default"), w.string(p.default_choice);
      w.key("choices"), write_strings(p.choices, w);
      if (!p.network_bytes.empty()) {
        w.key("network_bytes"), w.begin_array();
        for (double b : p.network_bytes) w.number(b);
        w.end_array();
      }
      break;
    case ParamSpec::Kind::Real:
    case ParamSpec::Kind::Count:
      w.key("kind"), w.string(p.kind == ParamSpec::Kind::Real ? "real" : "count");
      w.key("unit"), w.string(p.unit);
      w.key("default"), w.number(p.default_value);
      w.key("min"), w.number(p.min);
      w.key("max"), w.number(p.max);
      w.key("slider"), w.begin_object();
      w.key("min"), w.number(p.slider_max > p.slider_min ? p.slider_min : p.min);
      w.key("max"), w.number(p.slider_max > p.slider_min ? p.slider_max : p.max);
      w.end_object();
      break;
    case ParamSpec::Kind::Bytes:
      w.key("kind"), w.string("bytes");
      w.key("unit"), w.string(p.unit);
      w.key("default"), w.string("");
      w.key("max"), w.number(p.max);
      w.key("accept"), w.string(p.accept);
      break;
  }
  if (!p.used_when_param.empty()) w.key("used_when"), write_used_when(p.used_when_param, p.used_when_values, w);
  if (!p.aliases.empty()) w.key("aliases"), write_strings(p.aliases, w);
  if (p.group != nullptr) w.key("group"), w.string(p.group);
  w.end_object();
}

template <class Writer>
void write(const CellSpec& cell, Writer& w) {
  w.begin_object();
  w.key("id"), w.string(cell.id);
  w.key("lab"), w.string(cell.lab());
  w.key("uses_seed"), w.boolean(cell.uses_seed);
  w.key("deterministic"), w.boolean(cell.deterministic);
  w.key("probes"), write_strings(cell.probes, w);
  if (!cell.assets.empty()) {
    w.key("assets"), write_objects(cell.assets, w, [&](const DataAsset& a) {
      w.key("name"), w.string(a.name);
      w.key("path"), w.string(a.path);
      w.key("ask_first"), w.boolean(a.ask_first);
      if (!a.used_when_param.empty()) w.key("used_when"), write_used_when(a.used_when_param, a.used_when_values, w);
    });
  }
  w.key("params"), w.begin_array();
  for (const auto& p : cell.params) write(p, w);
  w.end_array();
  w.key("outputs"), write_objects(cell.outputs, w, [&](const OutputSpec& o) {
    w.key("name"), w.string(o.name);
    w.key("unit"), w.string(o.unit);
    w.key("presence"), w.string(presence_name(o.presence));
  });
  w.key("tables"), write_objects(cell.tables, w, [&](const TableSpec& t) {
    w.key("name"), w.string(t.name);
    w.key("presence"), w.string(presence_name(t.presence));
  });
  w.key("budget"), write_strings(cell.budget, w);
  if (!cell.fills.empty()) w.key("fills"), write_strings(cell.fills, w);
  if (!cell.presets.empty()) {
    w.key("presets"), write_objects(cell.presets, w, [&](const CellPreset& preset) {
      w.key("id"), w.string(preset.id);
      w.key("values"), write_string_map(preset.values, w);
    });
  }
  w.key("default_cost_s"), w.number(cell.default_cost_s());
  w.end_object();
}

template <class Writer>
void write(const std::vector<ProbeTask>& tasks, Writer& w) {
  write_objects(tasks, w, [&](const ProbeTask& task) {
    w.key("probe"), w.string(task.probe);
    w.key("key"), w.string(task.key);
    w.key("arg"), w.number(task.arg);
    w.key("repeats"), w.integer(task.repeats);
    w.key("payload"), w.bytes(task.payload);
  });
}

template <class Writer>
void write(const Error& e, Writer& w) {
  w.begin_object();
  w.key("error"), w.begin_object();
  w.key("code"), w.string(e.code);
  w.key("param"), w.string(e.param);
  w.key("message"), w.string(e.message);
  w.key("args"), write_string_map(e.args, w);
  w.end_object();
  w.end_object();
}

/// `value` as one Writer builds it (its take()). Unqualified, so a type's own write() is found too
/// (kernels::write(const TimingProtocol&, …)).
template <class Writer, class T>
auto written(const T& value) {
  Writer w;
  write(value, w);
  return w.take();
}

}  // namespace sl::fields
