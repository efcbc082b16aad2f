#include "matchers.h"

#include <set>
#include <string>

#include "llm/model/model_architecture.h"
#include "llm/model/preset_list.h"

namespace SL_UNITY_ID {

using namespace sl::llm;

namespace {

const ModelPreset& preset(const std::string& id) {
  const ModelPreset* p = find_model_preset(id);
  REQUIRE(p != nullptr);
  return *p;
}

/// The active count in the publication's convention (model_presets.cpp's top comment): gpt-oss's model card and
/// DeepSeek-V2-Lite's paper leave the input embedding out (our flop_params); Mixtral and Qwen3 count both tables.
double active_as_published(const ModelPreset& p, const ArchitectureCounts& c) {
  static const std::set<std::string> without_input_embedding = {"gpt-oss-20b", "gpt-oss-120b", "deepseek-v2-lite"};
  return static_cast<double>(without_input_embedding.count(p.id) ? c.flop_params : c.active_params);
}

/// 1 %, except where a publication rounds to two digits more coarsely than that: Qwen3-30B-A3B's "3.3B" is a sum
/// of 3.353B (1.6 % off) and DeepSeek-V2-Lite's "2.4B" one of 2.451B (2.1 % off: truncated, not rounded).
double active_tolerance(const std::string& id) {
  if (id == "qwen3-30b-a3b") return 0.02;
  if (id == "deepseek-v2-lite") return 0.025;
  return 0.01;
}

}  // namespace

TEST_CASE("Model presets: at least 14, the book's two first, ids unique, every architecture valid",
          "[llm][model-presets]") {
  // What each preset promises beyond the list's own rules.
  const auto check_each = [](const ModelPreset& p) {
    CHECK_FALSE(check_architecture(p.arch).has_value());
    CHECK_FALSE(p.config_source.empty());
    CHECK_FALSE(p.params_source.empty());
  };
  sl::llm::test::check_preset_list(model_presets(), 14, "llama3-8b", "llama3.1-70b", find_model_preset, "gpt-5",
                                   check_each);
}

TEST_CASE("Every preset's total sums to within 1% of its published count, and its active count too",
          "[llm][model-presets]") {
  for (const auto& p : model_presets()) {
    INFO(p.id << ": " << p.params_source);
    const ArchitectureCounts c = count_architecture(p.arch);
    CHECK_THAT(static_cast<double>(c.total_params), WithinRel(p.published_params_b * 1e9, 0.01));
    if (p.arch.is_moe()) {
      REQUIRE(p.published_active_b > 0);
      CHECK_THAT(active_as_published(p, c), WithinRel(p.published_active_b * 1e9, active_tolerance(p.id)));
    } else {
      CHECK(c.active_params == c.total_params);
      CHECK(c.expert_params == 0);
    }
  }
}

TEST_CASE("Dense MHA (Llama-2-7B): 13.2 GFLOP and 524,288 B of FP16 KV a token", "[llm][model-presets]") {
  // Per layer: attention 4 x 4096^2 = 67,108,864; MLP 3 x 4096 x 11,008 = 135,266,304. Norms 2 x 4096 x 32 + 4096
  // = 266,240; LM head 32,000 x 4096 = 131,072,000. flop_params = 32 x 202,375,168 + 266,240 + 131,072,000
  // = 6,607,343,616 (the total, 6,738,415,616, less the input embedding). FLOPs = 2 x that.
  const ArchitectureCounts c = count_architecture(preset("llama2-7b").arch);
  CHECK(c.total_params == 6'738'415'616);
  CHECK(c.flop_params == 6'607'343'616);
  const ModelSpec m = model_spec_of(preset("llama2-7b").arch, 2.0, 2.0);
  CHECK(m.matmul_flop_per_token() == 13'214'687'232.0);
  // 2 (K and V) x 32 layers x 32 KV heads x 128 x 2 B = 524,288 B.
  CHECK(c.kv_elements_per_token == 262'144);
  CHECK(m.kv_bytes_per_token() == 524'288);
}

TEST_CASE("GQA (Llama-3.1-8B): 15.0 GFLOP and 131,072 B of FP16 KV a token", "[llm][model-presets]") {
  // Per layer: attention 2 x 4096^2 + 2 x 4096 x 1024 = 41,943,040; MLP 3 x 4096 x 14,336 = 176,160,768. Norms
  // 266,240; LM head 128,256 x 4096 = 525,336,576. flop_params = 32 x 218,103,808 + 266,240 + 525,336,576
  // = 7,504,924,672.
  const ModelSpec m = model_spec_of(preset("llama3.1-8b").arch, 2.0, 2.0);
  CHECK(m.params == 8'030'261'248);
  CHECK(m.flop_params == 7'504'924'672);
  CHECK(m.matmul_flop_per_token() == 15'009'849'344.0);
  // 2 x 32 layers x 8 KV heads x 128 x 2 B = 131,072 B.
  CHECK(m.kv_bytes_per_token() == 131'072);
}

TEST_CASE("MoE (Mixtral-8x7B): 2 of 8 experts make 25.5 GFLOP a token; KV as Mistral-7B", "[llm][model-presets]") {
  // Per layer: attention 41,943,040; an expert 3 x 4096 x 14,336 = 176,160,768; router 4096 x 8 = 32,768.
  // flop_params = 32 x (41,943,040 + 2 x 176,160,768 + 32,768) + 266,240 + 32,000 x 4096 = 12,748,853,248;
  // expert_params = 32 x 8 x 176,160,768 = 45,097,156,608.
  const ModelSpec m = model_spec_of(preset("mixtral-8x7b").arch, 2.0, 2.0);
  CHECK(m.params == 46'702'792'704);
  CHECK(m.expert_params == 45'097'156'608);
  CHECK(m.flop_params == 12'748'853'248);
  CHECK(m.matmul_flop_per_token() == 25'497'706'496.0);
  CHECK(m.num_experts == 8);
  CHECK(m.experts_per_token == 2);
  CHECK(m.num_moe_layers == 32);
  CHECK(m.kv_bytes_per_token() == 131'072);  // 2 x 32 x 8 x 128 x 2 B
}

TEST_CASE("MLA (DeepSeek-V2-Lite): 4.9 GFLOP a token and a 576-element latent a layer", "[llm][model-presets]") {
  // Attention a layer: q 2048 x 16 x (128 + 64) = 6,291,456; kv_a 2048 x (512 + 64) + 512 (norm) = 1,180,160;
  // kv_b 512 x 16 x (128 + 128) = 2,097,152; o 16 x 128 x 2048 = 4,194,304; total 13,763,072. Layer 0's MLP
  // 3 x 2048 x 10,944 = 67,239,936; each of 26 MoE layers runs 6 routed + 2 shared experts of 3 x 2048 x 1408
  // = 8,650,752 and a router of 2048 x 64 = 131,072. Norms 2 x 2048 x 27 + 2048 = 112,640; LM head 102,400 x 2048
  // = 209,715,200. flop_params = 27 x 13,763,072 + 67,239,936 + 26 x (8 x 8,650,752 + 131,072) + 112,640
  // + 209,715,200 = 2,451,435,008.
  const ModelSpec m = model_spec_of(preset("deepseek-v2-lite").arch, 2.0, 2.0);
  CHECK(m.flop_params == 2'451'435'008);
  CHECK(m.matmul_flop_per_token() == 4'902'870'016.0);
  CHECK(m.num_moe_layers == 26);
  CHECK(m.is_mla);
  CHECK(m.num_kv_heads == 1);
  CHECK(m.head_dim == 192);
  // 27 layers x (512 + 64) = 15,552 elements x 2 B = 31,104 B, against 2 x 27 x 16 x 192 x 2 B = 331,776 B had the
  // heads been cached.
  CHECK(m.kv_elements_per_token == 15'552);
  CHECK(m.kv_bytes_per_token() == 31'104);
  SECTION("tensor parallelism keeps the whole latent on every GPU") {
    const TensorParallel tp{4};
    CHECK(tp.kv_bytes_per_token_per_gpu(m) == 31'104.0);
  }
}

TEST_CASE("The book's presets keep the book's params and KV bytes per token", "[llm][model-presets][book]") {
  const struct {
    const char* id;
    ModelSpec book;
  } cases[] = {{"llama3-8b", llama3_8b()}, {"llama3.1-70b", llama31_70b()}};
  for (const auto& k : cases) {
    INFO(k.id);
    const ModelPreset& p = preset(k.id);
    ModelSpec m = model_spec_of(p.arch, k.book.bytes_per_weight, k.book.bytes_per_kv);
    m.params = static_cast<std::int64_t>(p.book_params);  // the book's rounding, used instead of the sum (§0)
    CHECK(m.params == k.book.params);
    CHECK(m.kv_bytes_per_token() == k.book.kv_bytes_per_token());
    CHECK(m.weight_bytes() == k.book.weight_bytes());
    CHECK(m.num_layers == k.book.num_layers);
    CHECK(m.num_heads == k.book.num_heads);
    CHECK(m.num_kv_heads == k.book.num_kv_heads);
    CHECK(m.head_dim == k.book.head_dim);
    CHECK(m.residual_width() == k.book.residual_width());
    const TensorParallel tp{2};
    CHECK(tp.kv_bytes_per_token_per_gpu(m) == tp.kv_bytes_per_token_per_gpu(k.book));
  }
}

TEST_CASE("check_architecture names the first bad field by its config.json key", "[llm][model-presets]") {
  const ModelArchitecture good = preset("mixtral-8x7b").arch;
  const auto error_of = [&](auto edit) {
    ModelArchitecture a = good;
    edit(a);
    return check_architecture(a);
  };
  const struct {
    const char* key;
    void (*edit)(ModelArchitecture&);
  } cases[] = {
      {"hidden_size", [](ModelArchitecture& a) { a.hidden_size = 0; }},
      {"hidden_size", [](ModelArchitecture& a) { a.hidden_size = 2'000'000; }},
      {"intermediate_size", [](ModelArchitecture& a) { a.intermediate_size = -1; }},
      {"num_hidden_layers", [](ModelArchitecture& a) { a.num_layers = 0; }},
      {"num_hidden_layers", [](ModelArchitecture& a) { a.num_layers = 20'000; }},
      {"num_attention_heads", [](ModelArchitecture& a) { a.num_heads = 0; }},
      {"num_key_value_heads", [](ModelArchitecture& a) { a.num_kv_heads = 64; }},  // more than the 32 heads
      {"num_key_value_heads", [](ModelArchitecture& a) { a.num_kv_heads = 7; }},   // 32 % 7 != 0
      {"head_dim", [](ModelArchitecture& a) { a.head_dim = -128; }},
      {"vocab_size", [](ModelArchitecture& a) { a.vocab_size = 0; }},
      {"vocab_size", [](ModelArchitecture& a) { a.vocab_size = 20'000'000; }},
      {"num_experts", [](ModelArchitecture& a) { a.num_experts = -8; }},
      {"num_experts_per_tok", [](ModelArchitecture& a) { a.experts_per_token = 9; }},  // of 8
      {"num_experts_per_tok", [](ModelArchitecture& a) { a.experts_per_token = 0; }},
      {"moe_intermediate_size", [](ModelArchitecture& a) { a.moe_intermediate_size = -1; }},
      {"n_shared_experts", [](ModelArchitecture& a) { a.num_shared_experts = -2; }},
      {"first_k_dense_replace", [](ModelArchitecture& a) { a.first_dense_layers = 33; }},  // of 32 layers
      {"kv_lora_rank", [](ModelArchitecture& a) { a.kv_lora_rank = -512; }},
      {"qk_rope_head_dim", [](ModelArchitecture& a) { a.kv_lora_rank = 512, a.qk_nope_head_dim = 128, a.v_head_dim = 128; }},
      // Each field within its cap, the whole past 1e15 parameters: 32 layers of 8 experts of
      // 3 x 1,048,576 x 16,777,216 (1.4e16); then 10,000 sane layers of 1.6e12 (1.6e16).
      {"num_experts", [](ModelArchitecture& a) {
         a.hidden_size = 1'048'576, a.moe_intermediate_size = 16'777'216, a.num_heads = 32, a.head_dim = 128;
       }},
      {"num_hidden_layers", [](ModelArchitecture& a) {
         a.num_layers = 10'000, a.hidden_size = 65'536, a.intermediate_size = 1'048'576;
       }},
  };
  for (const auto& k : cases) {
    const auto e = error_of(k.edit);
    INFO(k.key);
    REQUIRE(e.has_value());
    INFO(e->message);
    CHECK(e->param == k.key);
    CHECK(e->message.find(k.key) != std::string::npos);
  }
  SECTION("a message states the value and the allowed range") {
    const auto e = error_of([](ModelArchitecture& a) { a.num_layers = 20'000; });
    REQUIRE(e.has_value());
    CHECK(e->code == "out_of_range");
    CHECK(e->message == "num_hidden_layers must be in [1, 10000], got 20000");
  }
  SECTION("an absent head_dim needs heads that divide hidden_size") {
    const auto e = error_of([](ModelArchitecture& a) { a.head_dim = 0, a.num_heads = 24, a.num_kv_heads = 8; });
    REQUIRE(e.has_value());
    CHECK(e->param == "head_dim");
  }
  SECTION("absent KV heads and head_dim take config.json's defaults") {
    ModelArchitecture a = good;
    a.num_kv_heads = 0;
    a.head_dim = 0;
    CHECK_FALSE(check_architecture(a).has_value());
    CHECK(count_architecture(a).kv_elements_per_token == 2 * 32 * 32 * 128);  // MHA, 4096 / 32
  }
}

}  // namespace SL_UNITY_ID
