#include "llm/model/model_config.h"

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/memorystream.h>
#include <rapidjson/reader.h>

#include "core/text.h"
#include "llm/model/model_config_keys.h"

namespace sl::llm {

namespace {

// One reading of at most 1 MiB: RapidJSON's iterative SAX parser (no recursion: "[[[[..." cannot overflow the
// stack) feeds the document through a builder that counts the open objects and lists and stops past
// kMaxModelConfigDepth, and reports where the text stops being JSON. The document is then shallow and valid, for
// the key lookups (the DOM's pool allocator frees it in one go, even half built, without walking it). One parser
// instantiation, not a checking one and a building one: the wasm module is downloaded before a first result.
// Integers reach us exactly; a fraction is refused where a count belongs, so RapidJSON's normal-precision doubles
// (an ulp off at worst) cannot change a result.
constexpr unsigned kParseFlags = rapidjson::kParseIterativeFlag | rapidjson::kParseNanAndInfFlag |
                                 rapidjson::kParseValidateEncodingFlag;

/// The parser's events into the document, counting open objects and lists: refuses past kMaxModelConfigDepth.
struct DepthLimitedBuilder {
  using Ch = char;
  using SizeType = rapidjson::SizeType;
  rapidjson::Document& doc;
  int depth = 0;
  bool too_deep = false;
  bool open() {
    too_deep = ++depth > kMaxModelConfigDepth;
    return !too_deep;
  }
  bool Null() { return doc.Null(); }
  bool Bool(bool b) { return doc.Bool(b); }
  bool Int(int i) { return doc.Int(i); }
  bool Uint(unsigned i) { return doc.Uint(i); }
  bool Int64(std::int64_t i) { return doc.Int64(i); }
  bool Uint64(std::uint64_t i) { return doc.Uint64(i); }
  bool Double(double d) { return doc.Double(d); }
  bool RawNumber(const Ch* s, SizeType length, bool copy) { return doc.RawNumber(s, length, copy); }
  bool String(const Ch* s, SizeType length, bool copy) { return doc.String(s, length, copy); }
  bool Key(const Ch* s, SizeType length, bool copy) { return doc.Key(s, length, copy); }
  bool StartObject() { return open() && doc.StartObject(); }
  bool EndObject(SizeType members) { return --depth, doc.EndObject(members); }
  bool StartArray() { return open() && doc.StartArray(); }
  bool EndArray(SizeType elements) { return --depth, doc.EndArray(elements); }
};

/// Document::Populate's generator: one parse of the text through the builder, its result kept.
struct OneReading {
  rapidjson::MemoryStream& stream;
  DepthLimitedBuilder& builder;
  rapidjson::ParseResult result;
  bool operator()(rapidjson::Document&) {
    rapidjson::Reader reader;
    result = reader.Parse<kParseFlags>(stream, builder);
    return !result.IsError();
  }
};

std::string where(std::string_view json, std::size_t offset, std::vector<std::pair<std::string, std::string>>& args) {
  std::int64_t line = 1, column = 1;
  for (std::size_t i = 0; i < offset && i < json.size(); ++i) {
    if (json[i] == '\n') line += 1, column = 1;
    else column += 1;
  }
  args.emplace_back("line", std::to_string(line));
  args.emplace_back("column", std::to_string(column));
  return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

Error json_error(std::string_view json, std::size_t offset, const std::string& why) {
  std::vector<std::pair<std::string, std::string>> args;
  const std::string at = where(json, offset, args);
  args.emplace_back("key", "");
  args.emplace_back("got", "");
  return Error{"bad_config_json", kModelConfigParam, std::string(kModelConfigParam) + ", " + at + ": " + why,
               std::move(args)};
}

/// Checks size, syntax and depth, then builds the document (or says why not).
std::optional<Error> read_document(std::string_view json, rapidjson::Document& doc) {
  const auto size = static_cast<std::int64_t>(json.size());
  if (size > kMaxModelConfigBytes) {
    const std::string got = std::to_string(size), max = std::to_string(kMaxModelConfigBytes);
    return Error{"too_large", kModelConfigParam,
                 std::string(kModelConfigParam) + ": the file is " + got + " bytes; at most " + max +
                     " bytes (1 MiB) are read, and a config.json is a few kB",
                 {{"got", got}, {"max", max}, {"unit", "bytes"}, {"key", ""}}};
  }
  if (json.find_first_not_of(" \t\r\n") == std::string_view::npos)
    return Error{"config_empty", kModelConfigParam,
                 std::string(kModelConfigParam) + ": the file is empty; expected a Hugging Face config.json, a "
                                                  "JSON object",
                 {{"key", ""}, {"got", ""}}};
  rapidjson::MemoryStream stream(json.data(), json.size());
  DepthLimitedBuilder depth{doc};
  OneReading reading{stream, depth, {}};
  doc.Populate(reading);
  const rapidjson::ParseResult& parsed = reading.result;
  if (depth.too_deep)
    return json_error(json, parsed.Offset(), "nests lists and objects deeper than " +
                                                 std::to_string(kMaxModelConfigDepth) + " levels");
  if (parsed.IsError()) {
    const std::size_t at = parsed.Offset();
    std::string why = rapidjson::GetParseError_En(parsed.Code());
    if (at < json.size() && json[at] == '\0') why = "a NUL byte.";
    if (at >= json.size()) why += " The file ends here: is it cut short?";
    return json_error(json, at, "not JSON: " + why);
  }
  if (!doc.IsObject())
    return json_error(json, json.find_first_not_of(" \t\r\n"),
                      std::string("the file holds ") + (doc.IsArray() ? "a JSON list" : "a single JSON value") +
                          ", not an object: a config.json is one object of keys");
  return std::nullopt;
}

/// A string member of `object`, or nullptr when absent or not a string.
const rapidjson::Value* string_member(const rapidjson::Value& object, const char* key) {
  const rapidjson::Value* v = member(object, key);
  return v != nullptr && v->IsString() ? v : nullptr;
}

std::string text_of(const rapidjson::Value& v, std::size_t max_bytes = 64) {
  return echo(std::string(v.GetString(), v.GetStringLength()), max_bytes);
}

/// The model_type naming the language model: model_type, else architectures[0] mapped back to it.
Result<std::string> model_type_of(const rapidjson::Value& object, const std::string& prefix) {
  const rapidjson::Value* type = member(object, "model_type");
  if (type != nullptr && !type->IsNull()) {
    if (!type->IsString()) return bad_value(prefix + "model_type", shown(*type), "a string");
    return std::string(type->GetString(), type->GetStringLength());
  }
  const rapidjson::Value* archs = member(object, "architectures");
  if (archs != nullptr && archs->IsArray() && !archs->Empty() && (*archs)[0].IsString()) {
    const std::string arch((*archs)[0].GetString(), (*archs)[0].GetStringLength());
    if (const Family* f = family_of_architecture(arch)) return std::string(f->model_type);
    return unsupported(prefix + "architectures[0]", arch);
  }
  return missing_key(prefix + "model_type", "the model family, e.g. \"llama\"");
}

}  // namespace

Result<ModelArchitecture> parse_model_config(std::string_view json) {
  rapidjson::Document doc;
  if (auto error = read_document(json, doc)) return *error;
  const rapidjson::Value* lm = &doc;
  std::string prefix;
  auto type = model_type_of(doc, "");
  if (!type.ok()) return type.error();
  const rapidjson::Value* text = member(doc, "text_config");
  const bool wrapped = text != nullptr && !text->IsNull() && !family_of(type.value());
  if (wrapped) {  // a multimodal wrapper (mistral3, gemma3, llama4...): the language model is text_config
    if (!text->IsObject()) return bad_value("text_config", shown(*text), "an object");
    lm = text;
    prefix = "text_config.";
    const std::string outer = type.value();
    const bool has_type = member(*lm, "model_type") != nullptr || member(*lm, "architectures") != nullptr;
    type = has_type ? model_type_of(*lm, prefix) : Result<std::string>(std::string(wrapped_model_type(outer)));
    if (!type.ok()) return type.error();
    if (type.value().empty()) return unsupported("model_type", outer);
  }
  const Family* family = family_of(type.value());
  if (family == nullptr) return unsupported(prefix + "model_type", type.value());
  auto arch = read_architecture(*lm, prefix, *family);
  if (!arch.ok()) return arch.error();
  const rapidjson::Value* name = string_member(doc, "_name_or_path");
  if (name == nullptr && wrapped) name = string_member(*lm, "_name_or_path");
  arch.value().name = name != nullptr && name->GetStringLength() > 0 ? text_of(*name, 256) : family->model_type;
  return arch;
}

}  // namespace sl::llm
