// sl_fuzz: a seeded random-mutation fuzzer of our own (no clang, no libFuzzer needed), deterministic from its
// seed, for any user to run:
//   sl_fuzz inputs N [seed]   parse_inputs of every cell, values mutated from a dictionary of junk
//   sl_fuzz validate N [seed] every cell's parse_inputs and validation (CellSpec::validate, budget included) on
//                             mutated inputs, without running: cheap, so 10^6 take minutes
//   sl_fuzz cells  N [seed]   full runs: 1-3 parameters of a cell at junk, their min, their max or 0
//   sl_fuzz jpeg   N [seed]   mutated small JPEGs through the photo path (segment check, then stb_image)
//   sl_fuzz jpeg-file PATH     one JPEG through the same path (SL_FUZZ_DUMP=PATH keeps each fuzzed input there)
//   sl_fuzz model_config N [seed]  mutated config.json files (tests/fuzz/corpus/model_config.txt's, real and
//                             broken) through llm::parse_model_config: an accepted file has every size in range
// Every answer must hold: an accepted input is finite and in range; a rejection has a code, names the
// parameter it is about and is one line of valid UTF-8. A broken property prints the input and exits 1;
// a crash or sanitizer report ends the process. The last line counts executions, accepted and rejected.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "corpus_escapes.h"

#include "core/cell.h"
#include "core/error.h"
#include "core/registry.h"
#include "core/rng.h"
#include "core/result_check.h"
#include "core/text.h"
#include "llm/model/model_config.h"
#include "request/resnet/jpeg_decode.h"

#define STB_IMAGE_WRITE_IMPLEMENTATION
#define STBI_WRITE_NO_STDIO
#include <stb/stb_image_write.h>

namespace {

const std::vector<std::string> kJunk = {
    "", " ", "   ", "\t", "\n", "0", "-0", "1", "-1", "0.5", "1e308", "-1e308", "1e309", "1e-320", "4.9e-324",
    "1e-400", "2.2250738585072014e-308", "1e-30", "1e-31", "nan", "NaN", "-nan", "inf", "-inf", "Infinity",
    "0x10", "0x1p-3", "0X", "1e", "e1", ".", "+", "-", "--1", "1..2", "1e+", "9007199254740993", "1e15", "1e100",
    "99999999999999999999", std::string("5\0junk", 6), std::string("\0", 1), "5\n6", "5 junk", "5,0", "1_000",
    "\xff", "\xc3", "\xc3\xa9", "\xe2\x82", "\xed\xa0\x80", "\xc0\xaf", "\xf4\x90\x80\x80", "\xef\xbf\xbd",
    "exp", "det", "linear", "on", "off", "one", "ti\xe1\xba\xbfng Vi\xe1\xbb\x87t", std::string(300, 'a'),
    std::string(39, 'a') + "\xc3\xa9", "@/", "@", "\x7f", "\x1b[31m"};

std::string pick(sl::Rng& rng, const std::vector<std::string>& from) { return from[rng.below(from.size())]; }

/// A junk value, sometimes spliced or with a byte flipped, so fragments combine.
std::string junk(sl::Rng& rng) {
  std::string text = pick(rng, kJunk);
  switch (rng.below(6)) {
    case 0: text += pick(rng, kJunk); break;
    case 1:
      if (!text.empty()) text[rng.below(text.size())] = static_cast<char>(rng.below(256));
      break;
    case 2: text.insert(rng.below(text.size() + 1), 1, static_cast<char>(rng.below(256))); break;
    default: break;
  }
  return text;
}

bool one_line(const std::string& text) { return sl::echo(text, static_cast<std::size_t>(-1)) == text; }

std::string shown(const std::map<std::string, std::string>& raw) {
  std::string text;
  for (const auto& [k, v] : raw) text += " --" + sl::echo(k, 80) + " '" + sl::echo(v, 80) + "'";
  return text;
}

[[noreturn]] void broken(const std::string& what, const std::string& cell, const std::map<std::string, std::string>& raw) {
  std::printf("PROPERTY BROKEN: %s\n  input: %s%s\n", what.c_str(), sl::echo(cell, 80).c_str(), shown(raw).c_str());
  std::exit(1);
}

/// Checks a rejection: a code, one line of UTF-8 everywhere, and the parameter named when one was at fault.
void check_error(const sl::Error& e, const std::string& cell, const std::map<std::string, std::string>& raw) {
  if (e.code.empty()) broken("an error without a code", cell, raw);
  if (!one_line(e.message) || !one_line(e.param) || !one_line(e.code)) broken("an error that is not one line of UTF-8", cell, raw);
  for (const auto& [k, v] : e.args)
    if (!one_line(k) || !one_line(v)) broken("an error argument that is not one line of UTF-8", cell, raw);
  const bool about_input = e.code == "not_a_number" || e.code == "not_finite" || e.code == "out_of_range" ||
                           e.code == "not_integer" || e.code == "bad_choice" || e.code == "bad_measurement";
  // A long hostile name is cut in the message (echo), so only a short one must appear whole.
  if (about_input && (e.param.empty() || (e.param.size() <= 30 && e.message.find(e.param) == std::string::npos)))
    broken("an input error that does not name its parameter: " + e.message, cell, raw);
}

/// Random raw inputs for a cell: 1-3 parameters at junk (or at a corner of their range), maybe a stray key.
std::map<std::string, std::string> mutated(sl::Rng& rng, const sl::CellSpec& cell, bool corners) {
  std::map<std::string, std::string> raw;
  const std::size_t n = 1 + rng.below(3);
  for (std::size_t i = 0; i < n && !cell.params.empty(); ++i) {
    const sl::ParamSpec& p = cell.params[rng.below(cell.params.size())];
    if (p.kind == sl::ParamSpec::Kind::Bytes) continue;  // the jpeg target covers files
    std::string value = junk(rng);
    if (corners && rng.below(2) == 0) {
      const double corner[] = {p.min, p.max, 0, p.default_value};
      value = p.kind == sl::ParamSpec::Kind::Choice ? pick(rng, p.choices) : sl::format_number(corner[rng.below(4)]);
    }
    raw[p.name] = value;
  }
  if (!corners && rng.below(8) == 0) raw[junk(rng)] = junk(rng);
  if (!corners && rng.below(8) == 0 && !cell.probes.empty())
    raw["measured." + pick(rng, cell.probes) + "." + junk(rng)] = junk(rng) + " " + junk(rng);
  return raw;
}

void check_inputs(const sl::CellSpec& cell, const sl::Inputs& in, const std::map<std::string, std::string>& raw) {
  for (const auto& v : in.values()) {
    if (v.kind != sl::ParamSpec::Kind::Real && v.kind != sl::ParamSpec::Kind::Count) continue;
    const sl::ParamSpec* spec = nullptr;
    for (const auto& p : cell.params)
      if (p.name == v.name) spec = &p;
    if (!std::isfinite(v.number) || v.number < spec->min || v.number > spec->max)
      broken("accepted " + v.name + " = " + sl::format_number(v.number) + " outside its range", cell.id, raw);
    if (v.number != 0 && std::fabs(v.number) < 1e-30) broken("accepted a denormal " + v.name, cell.id, raw);
  }
  for (const auto& [key, samples] : in.all_measured())
    for (double x : samples)
      if (!std::isfinite(x) || x < 0 || x > 1e12) broken("accepted a bad sample in " + key, cell.id, raw);
}

struct Counts {
  std::uint64_t runs = 0, accepted = 0, rejected = 0;
};

Counts fuzz_inputs(std::uint64_t n, sl::Rng& rng) {
  Counts c;
  const auto& cells = sl::all_cells();
  for (; c.runs < n; ++c.runs) {
    const sl::CellSpec& cell = cells[rng.below(cells.size())];
    const auto raw = mutated(rng, cell, false);
    auto parsed = sl::parse_inputs(cell, raw);
    if (parsed.ok()) {
      check_inputs(cell, parsed.value(), raw);
      ++c.accepted;
    } else {
      check_error(sl::printable(parsed.error()), cell.id, raw);
      ++c.rejected;
    }
    auto seed = sl::parse_seed(junk(rng));
    if (!seed.ok()) check_error(sl::printable(seed.error()), cell.id, {{"seed", ""}});
  }
  return c;
}

/// A validation error must name a parameter of the cell (or a measured key) when it names one.
void check_param_named(const sl::Error& e, const sl::CellSpec& cell, const std::map<std::string, std::string>& raw) {
  if (e.param.empty() || e.param.rfind("measured.", 0) == 0 || e.param.rfind("asset.", 0) == 0) return;
  for (const auto& p : cell.params)
    if (p.name == e.param) return;
  broken("a rejection naming '" + sl::echo(e.param) + "', which is not a parameter: " + e.message, cell.id, raw);
}

Counts fuzz_validate(std::uint64_t n, sl::Rng& rng) {
  Counts c;
  const auto& cells = sl::all_cells();
  for (; c.runs < n; ++c.runs) {
    const sl::CellSpec& cell = cells[rng.below(cells.size())];
    const auto raw = mutated(rng, cell, rng.below(4) != 0);  // mostly corners: the budget's combinations
    auto parsed = sl::parse_inputs(cell, raw);
    if (!parsed.ok()) {
      check_error(sl::printable(parsed.error()), cell.id, raw);
      ++c.rejected;
      continue;
    }
    check_inputs(cell, parsed.value(), raw);
    std::optional<sl::Error> refused;
    if (cell.validate != nullptr) refused = cell.validate(parsed.value());
    if (refused) {
      const sl::Error e = sl::printable(*refused);
      check_error(e, cell.id, raw);
      check_param_named(e, cell, raw);
      ++c.rejected;
    } else {
      ++c.accepted;
    }
  }
  return c;
}

Counts fuzz_cells(std::uint64_t n, sl::Rng& rng) {
  Counts c;
  const auto& cells = sl::all_cells();
  double slowest_s = 0;
  std::string slowest;
  for (; c.runs < n; ++c.runs) {
    const sl::CellSpec& cell = cells[rng.below(cells.size())];
    const auto raw = mutated(rng, cell, true);
    sl::RunControl ctl;
    const auto start = std::chrono::steady_clock::now();
    auto result = sl::run_cell(cell.id, raw, "1", ctl);
    const double wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (wall_s > slowest_s) slowest_s = wall_s, slowest = cell.id + shown(raw);
    if (result.ok()) {
      ++c.accepted;
      if (sl::non_finite_value(cell.id, result.value())) broken("a non-finite value in a result", cell.id, raw);
    } else {
      ++c.rejected;
      check_error(result.error(), cell.id, raw);
      check_param_named(result.error(), cell, raw);
    }
    std::fprintf(stderr, "\r%llu/%llu", static_cast<unsigned long long>(c.runs + 1), static_cast<unsigned long long>(n));
  }
  // Timing is no property here (a loaded machine would fail it): the slowest run is printed for the budget's review.
  std::fprintf(stderr, "\nslowest run: %.2f s wall: %s\n", slowest_s, slowest.c_str());
  return c;
}

std::string small_jpeg(sl::Rng& rng, int width, int height, int quality) {
  std::vector<unsigned char> rgb(static_cast<std::size_t>(width * height * 3));
  for (auto& b : rgb) b = static_cast<unsigned char>(rng.below(256));
  std::string jpeg;
  stbi_write_jpg_to_func([](void* out, void* data, int size) { static_cast<std::string*>(out)->append(static_cast<char*>(data), size); },
                         &jpeg, width, height, 3, rgb.data(), quality);
  return jpeg;
}

/// One mutation of a JPEG: a flipped byte, a marker byte, a count set high (a DHT's), a cut, an insertion.
void mutate_jpeg(sl::Rng& rng, std::string& jpeg) {
  const std::size_t at = rng.below(jpeg.size());
  switch (rng.below(6)) {
    case 0: jpeg[at] = static_cast<char>(rng.below(256)); break;
    case 1: jpeg[at] = static_cast<char>(rng.below(2) ? 0xFF : 0x00); break;
    case 2: {
      const std::size_t dht = jpeg.find("\xFF\xC4");
      if (dht != std::string::npos && dht + 21 < jpeg.size()) jpeg[dht + 5 + rng.below(16)] = static_cast<char>(0xF0 + rng.below(16));
      break;
    }
    case 3: jpeg.resize(at + 1); break;
    case 4: jpeg.insert(at, 1, static_cast<char>(rng.below(256))); break;
    default: jpeg.erase(at, 1 + rng.below(4)); break;
  }
}

Counts fuzz_jpeg(std::uint64_t n, sl::Rng& rng) {
  Counts c;
  const char* dump = std::getenv("SL_FUZZ_DUMP");
  const std::vector<std::string> seeds = {small_jpeg(rng, 16, 16, 90), small_jpeg(rng, 24, 8, 50), small_jpeg(rng, 9, 17, 100)};
  for (; c.runs < n; ++c.runs) {
    std::string jpeg = pick(rng, seeds);
    const std::size_t mutations = 1 + rng.below(4);
    for (std::size_t i = 0; i < mutations && !jpeg.empty(); ++i) mutate_jpeg(rng, jpeg);
    if (dump != nullptr) {  // SL_FUZZ_DUMP=file: each input is written there first, to keep the one that crashes
      if (std::FILE* f = std::fopen(dump, "wb")) {
        std::fwrite(jpeg.data(), 1, jpeg.size(), f);
        std::fclose(f);
      }
    }
    auto image = sl::request::decode_jpeg(jpeg, "photo");
    if (image.ok()) {
      ++c.accepted;
      if (image.value().width < 1 || image.value().height < 1 || image.value().width * image.value().height > 40e6)
        broken("a decoded JPEG without a sane size", "jpeg", {});
    } else {
      ++c.rejected;
      const auto& e = image.error();
      if ((e.code != "invalid" && e.code != "too_large") || e.param != "photo" || !one_line(e.message))
        broken("a JPEG rejection that is not invalid/too_large naming photo: " + sl::echo(e.message, 200), "jpeg", {});
    }
  }
  return c;
}

/// tests/fuzz/corpus/model_config.txt's files (C escapes undone, as tests/unit/core/fuzz_corpus_test.cpp does),
/// and one small config.json of our own when the source tree is not at hand.
std::vector<std::string> model_config_seeds() {
  std::vector<std::string> seeds = {R"({"model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144,
    "num_hidden_layers": 48, "num_attention_heads": 32, "num_key_value_heads": 4, "head_dim": 128,
    "vocab_size": 151936, "num_experts": 128, "num_experts_per_tok": 8, "moe_intermediate_size": 768})"};
#ifdef SERVING_LAB_SOURCE_DIR
  std::FILE* f = std::fopen(SERVING_LAB_SOURCE_DIR "/tests/fuzz/corpus/model_config.txt", "rb");
  if (f == nullptr) return seeds;
  std::string text;
  char buffer[4096];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
  std::fclose(f);
  const std::string tag = " | @model_config | model_config=";
  for (std::size_t at = 0; (at = text.find(tag, at)) != std::string::npos;) {
    const std::size_t begin = at + tag.size(), end = text.find('\n', begin);
    const std::string value = text.substr(begin, end - begin);
    seeds.push_back(sl_fuzz::unescape(value));
    at = begin;
  }
#endif
  return seeds;
}

const std::vector<std::string> kConfigJunk = {
    "0", "-1", "4096.5", "4096.0", "1e309", "NaN", "-Infinity", "true", "null", "\"4096\"", "[]", "{}", "[0]",
    "18446744073709551616", "9007199254740993", "1048577", "10001", "100001", "10000001", "\"\\u0000\"", "[[[[[[[[",
    "}", "\"", ",", ":", "\xff", std::string("\0", 1), "\"text_config\": {", "\"head_dim\": 7, ", "\"q_lora_rank\": null, "};
const std::vector<std::string> kModelTypes = {"llama", "mixtral", "qwen2_moe", "qwen3_moe", "gpt_oss", "deepseek_v2",
                                              "deepseek_v3", "gemma3_text", "phi3", "mistral3", "gemma3", "bert", ""};

/// One mutation of a config.json: a number replaced by junk, a key deleted or doubled, a model_type swapped (the
/// other family's keys then go missing), a byte flipped, junk inserted, a cut, a text_config wrapper.
void mutate_config(sl::Rng& rng, std::string& json) {
  const std::size_t at = rng.below(json.size() + 1);
  switch (rng.below(8)) {
    case 0: {
      const std::size_t b = json.find_first_of("-0123456789", at);
      if (b == std::string::npos) break;
      const std::size_t e = json.find_first_not_of("-+0123456789.eE", b);
      json.replace(b, e == std::string::npos ? std::string::npos : e - b, pick(rng, kConfigJunk));
      break;
    }
    case 1: case 2: {  // delete or double the key that starts after `at`
      const std::size_t b = json.find(", \"", at);
      if (b == std::string::npos) break;
      const std::size_t e = json.find(", \"", b + 3);
      const std::string key = json.substr(b, e == std::string::npos ? std::string::npos : e - b);
      if (rng.below(2) == 0) json.erase(b, key.size());
      else json.insert(b, key);
      break;
    }
    case 3: {
      const std::size_t b = json.find("\"model_type\": \"");
      if (b == std::string::npos) break;
      const std::size_t e = json.find('"', b + 15);
      if (e != std::string::npos) json.replace(b + 15, e - b - 15, pick(rng, kModelTypes));
      break;
    }
    case 4:
      if (!json.empty()) json[rng.below(json.size())] = static_cast<char>(rng.below(256));
      break;
    case 5: json.insert(at, pick(rng, kConfigJunk)); break;
    case 6: json.resize(at); break;
    default: json = "{\"model_type\": \"" + pick(rng, kModelTypes) + "\", \"text_config\": " + json + "}"; break;
  }
}

/// An accepted file: every size in its range, the name one line. A refusal: one of the reader's codes, naming
/// model_config, one line of UTF-8.
void check_model_config(const sl::Result<sl::llm::ModelArchitecture>& r, const std::string& json) {
  const auto broken_on = [&](const std::string& what) { broken(what, "model_config", {{"model_config", json}}); };
  if (!r.ok()) {
    const sl::Error& e = r.error();
    const bool known = e.code == "too_large" || e.code == "config_empty" || e.code == "bad_config_json" ||
                       e.code == "config_missing_key" || e.code == "bad_config_value" ||
                       e.code == "config_unsupported_model";
    if (!known || e.param != sl::llm::kModelConfigParam || e.message.rfind("model_config", 0) != 0)
      broken_on("a config.json rejection with code " + sl::echo(e.code) + ": " + sl::echo(e.message, 200));
    if (!one_line(e.message)) broken_on("a config.json rejection that is not one line of UTF-8");
    for (const auto& [k, v] : e.args)
      if (!one_line(k) || !one_line(v)) broken_on("a config.json error argument that is not one line of UTF-8");
    return;
  }
  const sl::llm::ModelArchitecture& a = r.value();
  const auto in = [](std::int64_t x, std::int64_t lo, std::int64_t hi) { return x >= lo && x <= hi; };
  const bool sane = in(a.hidden_size, 1, 1 << 20) && in(a.intermediate_size, 1, 1 << 22) &&
                    in(a.num_layers, 1, 10'000) && in(a.num_heads, 1, 65'536) && in(a.num_kv_heads, 1, 65'536) &&
                    in(a.head_dim, 1, 131'072) && in(a.vocab_size, 1, 10'000'000) &&
                    in(a.num_experts, 0, 100'000) && in(a.experts_per_token, 0, 100'000) &&
                    in(a.moe_intermediate_size, 0, 1 << 22) && in(a.num_shared_experts, 0, 100'000) &&
                    in(a.first_dense_layers, 0, 10'000) && in(a.kv_lora_rank, 0, 1 << 20) &&
                    in(a.q_lora_rank, 0, 1 << 20) && (a.num_experts > 0) == (a.experts_per_token > 0);
  if (!sane) broken_on("an accepted config.json with a size out of range");
  if (a.name.empty() || !one_line(a.name) || a.name.size() > 260) broken_on("an accepted config.json's name");
}

Counts fuzz_model_config(std::uint64_t n, sl::Rng& rng) {
  Counts c;
  const std::vector<std::string> seeds = model_config_seeds();
  for (; c.runs < n; ++c.runs) {
    std::string json = pick(rng, seeds);
    const std::size_t mutations = rng.below(4);  // 0: the seed as it is
    for (std::size_t i = 0; i < mutations; ++i) mutate_config(rng, json);
    const auto r = sl::llm::parse_model_config(json);
    check_model_config(r, json);
    ++(r.ok() ? c.accepted : c.rejected);
  }
  return c;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string target = argc > 1 ? argv[1] : "";
  if (target == "jpeg-file" && argc == 3) {  // replays one JPEG (a crash SL_FUZZ_DUMP kept)
    std::string jpeg;
    if (std::FILE* f = std::fopen(argv[2], "rb")) {
      char buffer[4096];
      for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) jpeg.append(buffer, n);
      std::fclose(f);
    }
    auto image = sl::request::decode_jpeg(jpeg, "photo");
    std::printf("%s\n", image.ok() ? "decoded" : image.error().message.c_str());
    return 0;
  }
  if (argc < 3 || (target != "inputs" && target != "validate" && target != "cells" && target != "jpeg" &&
                    target != "model_config")) {
    std::fprintf(stderr, "usage: sl_fuzz inputs|validate|cells|jpeg|model_config N [seed]\n");
    return 2;
  }
  const auto n = std::strtoull(argv[2], nullptr, 10);
  const auto seed = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 1;
  sl::Rng rng(seed);
  const Counts c = target == "inputs"     ? fuzz_inputs(n, rng)
                   : target == "validate" ? fuzz_validate(n, rng)
                   : target == "cells"    ? fuzz_cells(n, rng)
                   : target == "jpeg"     ? fuzz_jpeg(n, rng)
                                          : fuzz_model_config(n, rng);
  std::printf("sl_fuzz %s seed %llu: %llu executions, %llu accepted, %llu rejected, 0 properties broken\n",
              target.c_str(), static_cast<unsigned long long>(seed), static_cast<unsigned long long>(c.runs),
              static_cast<unsigned long long>(c.accepted), static_cast<unsigned long long>(c.rejected));
  return 0;
}
