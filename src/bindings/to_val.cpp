#include "bindings/to_val.h"

namespace sl::bindings {

using emscripten::val;

namespace {

val float64_array(const std::vector<double>& values) {
  val array = val::global("Float64Array").new_(values.size());
  array.call<void>("set", val(emscripten::typed_memory_view(values.size(), values.data())));
  return array;
}

val string_array(const std::vector<std::string>& values) {
  val array = val::array();
  for (const auto& v : values) array.call<void>("push", v);
  return array;
}

}  // namespace

val to_val(const RunResult& r) {
  val out = val::object();
  out.set("cell", r.cell);
  out.set("seed", static_cast<double>(r.seed));
  val inputs = val::object();
  for (const auto& v : r.inputs.values()) {
    if (v.kind == ParamSpec::Kind::Choice)
      inputs.set(v.name, v.text);
    else
      inputs.set(v.name, v.number);  // Bytes: the size
  }
  out.set("inputs", inputs);
  val outputs = val::object();
  for (const auto& [name, value] : r.outputs) outputs.set(name, value);
  out.set("outputs", outputs);
  val book = val::array();
  for (const auto& c : r.book) {
    val b = val::object();
    b.set("ref", c.ref);
    b.set("output", c.output);
    b.set("label", c.label);
    b.set("book", c.book);
    b.set("ours", c.ours);
    b.set("unit", c.unit);
    b.set("tolerance", c.tolerance);
    b.set("relative", c.relative);
    b.set("difference", c.difference);
    b.set("rel_difference", c.rel_difference);
    b.set("ok", c.ok);
    b.set("applies", c.applies);
    b.set("when", c.when);
    book.call<void>("push", b);
  }
  out.set("book", book);
  val tables = val::object();
  for (const auto& t : r.tables) {
    val columns = val::object();
    for (const auto& [name, values] : t.columns) columns.set(name, float64_array(values));
    tables.set(t.name, columns);
  }
  out.set("tables", tables);
  val notices = val::array();
  for (const auto& n : r.notices) {
    val v = val::object();
    v.set("code", n.code);
    v.set("message", n.message);
    notices.call<void>("push", v);
  }
  out.set("notices", notices);
  return out;
}

val to_val(const CellSpec& cell) {
  val params = val::array();
  for (const auto& p : cell.params) {
    val q = val::object();
    q.set("name", p.name);
    if (p.kind == ParamSpec::Kind::Choice) {
      q.set("kind", std::string("choice"));
      q.set("unit", std::string());
      q.set("default", p.default_choice);
      q.set("choices", string_array(p.choices));
    } else if (p.kind == ParamSpec::Kind::Bytes) {
      q.set("kind", std::string("bytes"));
      q.set("unit", p.unit);
      q.set("default", std::string());
      q.set("max", p.max);
      q.set("accept", p.accept);
    } else {
      q.set("kind", std::string(p.kind == ParamSpec::Kind::Real ? "real" : "count"));
      q.set("unit", p.unit);
      q.set("default", p.default_value);
      q.set("min", p.min);
      q.set("max", p.max);
    }
    if (!p.used_when_param.empty()) {
      val when = val::object();
      when.set("param", p.used_when_param);
      when.set("values", string_array(p.used_when_values));
      q.set("used_when", when);
    }
    if (!p.aliases.empty()) q.set("aliases", string_array(p.aliases));
    params.call<void>("push", q);
  }
  val outputs = val::array();
  for (const auto& o : cell.outputs) {
    val v = val::object();
    v.set("name", o.name);
    v.set("unit", o.unit);
    v.set("presence", std::string(presence_name(o.presence)));
    outputs.call<void>("push", v);
  }
  val tables = val::array();
  for (const auto& t : cell.tables) {
    val v = val::object();
    v.set("name", t.name);
    v.set("presence", std::string(presence_name(t.presence)));
    tables.call<void>("push", v);
  }
  val out = val::object();
  out.set("id", cell.id);
  out.set("lab", cell.lab());
  out.set("uses_seed", cell.uses_seed);
  out.set("deterministic", cell.deterministic);
  out.set("probes", string_array(cell.probes));
  out.set("params", params);
  out.set("outputs", outputs);
  out.set("tables", tables);
  return out;
}

val to_val(const std::vector<ProbeTask>& tasks) {
  val out = val::array();
  for (const auto& task : tasks) {
    val v = val::object();
    v.set("probe", task.probe);
    v.set("key", task.key);
    v.set("arg", task.arg);
    v.set("repeats", task.repeats);
    val payload = val::global("Uint8Array").new_(task.payload.size());
    payload.call<void>("set", val(emscripten::typed_memory_view(
                                   task.payload.size(), reinterpret_cast<const unsigned char*>(task.payload.data()))));
    v.set("payload", payload);
    out.call<void>("push", v);
  }
  return out;
}

val to_val(const Error& e) {
  val args = val::object();
  for (const auto& [k, v] : e.args) args.set(k, v);
  val error = val::object();
  error.set("code", e.code);
  error.set("param", e.param);
  error.set("message", e.message);
  error.set("args", args);
  val out = val::object();
  out.set("error", error);
  return out;
}

}  // namespace sl::bindings
