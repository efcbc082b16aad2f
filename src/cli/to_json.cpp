#include "cli/to_json.h"

namespace sl::cli {

using nlohmann::ordered_json;

ordered_json to_json(const RunResult& r) {
  ordered_json j;
  j["cell"] = r.cell;
  j["seed"] = r.seed;
  ordered_json inputs = ordered_json::object();
  for (const auto& v : r.inputs.values()) {
    if (v.kind == ParamSpec::Kind::Choice)
      inputs[v.name] = v.text;
    else
      inputs[v.name] = v.number;  // Bytes: the size
  }
  j["inputs"] = inputs;
  ordered_json outputs = ordered_json::object();
  for (const auto& [name, value] : r.outputs) outputs[name] = value;
  j["outputs"] = outputs;
  ordered_json book = ordered_json::array();
  for (const auto& c : r.book)
    book.push_back({{"ref", c.ref}, {"output", c.output}, {"label", c.label}, {"book", c.book}, {"ours", c.ours}, {"unit", c.unit},
                    {"tolerance", c.tolerance}, {"relative", c.relative},
                    {"difference", c.difference}, {"rel_difference", c.rel_difference}, {"ok", c.ok}, {"applies", c.applies},
                    {"when", c.when}});
  j["book"] = book;
  ordered_json tables = ordered_json::object();
  for (const auto& t : r.tables) {
    ordered_json cols = ordered_json::object();
    for (const auto& [name, values] : t.columns) cols[name] = values;
    tables[t.name] = cols;
  }
  j["tables"] = tables;
  ordered_json notices = ordered_json::array();
  for (const auto& n : r.notices) notices.push_back({{"code", n.code}, {"message", n.message}});
  j["notices"] = notices;
  return j;
}

ordered_json to_json(const CellSpec& cell) {
  ordered_json params = ordered_json::array();
  for (const auto& p : cell.params) {
    ordered_json q{{"name", p.name}};
    switch (p.kind) {
      case ParamSpec::Kind::Choice:
        q["kind"] = "choice";
        q["unit"] = "";
        q["default"] = p.default_choice;
        q["choices"] = p.choices;
        break;
      case ParamSpec::Kind::Real:
      case ParamSpec::Kind::Count:
        q["kind"] = p.kind == ParamSpec::Kind::Real ? "real" : "count";
        q["unit"] = p.unit;
        q["default"] = p.default_value;
        q["min"] = p.min;
        q["max"] = p.max;
        break;
      case ParamSpec::Kind::Bytes:
        q["kind"] = "bytes";
        q["unit"] = p.unit;
        q["default"] = "";
        q["max"] = p.max;
        q["accept"] = p.accept;
        break;
    }
    if (!p.used_when_param.empty()) q["used_when"] = {{"param", p.used_when_param}, {"values", p.used_when_values}};
    if (!p.aliases.empty()) q["aliases"] = p.aliases;
    params.push_back(q);
  }
  ordered_json outputs = ordered_json::array();
  for (const auto& o : cell.outputs) outputs.push_back({{"name", o.name}, {"unit", o.unit}, {"presence", presence_name(o.presence)}});
  ordered_json tables = ordered_json::array();
  for (const auto& t : cell.tables) tables.push_back({{"name", t.name}, {"presence", presence_name(t.presence)}});
  return {{"id", cell.id},         {"lab", cell.lab()},   {"uses_seed", cell.uses_seed}, {"deterministic", cell.deterministic},
          {"probes", cell.probes}, {"params", params}, {"outputs", outputs},         {"tables", tables}};
}

ordered_json to_json(const Error& e) {
  ordered_json args = ordered_json::object();
  for (const auto& [k, v] : e.args) args[k] = v;
  return {{"error", {{"code", e.code}, {"param", e.param}, {"message", e.message}, {"args", args}}}};
}

}  // namespace sl::cli
