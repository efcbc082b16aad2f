// The model presets: each architecture exactly as its Hugging Face config.json states it, and the parameter count its
// maker publishes. Where a published count follows its own convention, the preset's comment says so, and
// model_architecture_test.cpp compares like with like:
//   * Mixtral's 12.9B and Qwen3-30B-A3B's 3.3B active counts include both embedding tables (our active_params);
//   * gpt-oss's 3.6B / 5.1B active counts leave out the input embedding and keep the unembedding (the model card's
//     Table 1: "Embed + Unembed" is outside the active count except for the unembedding), which is our flop_params;
//   * DeepSeek-V2-Lite's 2.4B activated count: see its preset.
// Revisions: the configs are the repositories' main branch as read in 2025-2026; no commit hash was recorded.
#include "llm/model/model_architecture.h"

namespace sl::llm {

namespace {

ModelPreset preset(std::string id, ModelArchitecture arch, double total_b, double active_b, std::string config_source,
                   std::string params_source, double book_params = 0) {
  return ModelPreset{std::move(id),          std::move(arch),          total_b, active_b,
                     std::move(config_source), std::move(params_source), book_params};
}

std::vector<ModelPreset> book_presets() {
  std::vector<ModelPreset> p;
  // The book's two (§0): their ids and rounded counts stay; the architecture sums to 8,030,261,248 and
  // 70,553,706,496.
  p.push_back(preset("llama3-8b", dense_decoder("llama3-8b", 4096, 14336, 32, 32, 8, 128, 128256), 8.03, 0,
                     "huggingface.co/meta-llama/Meta-Llama-3-8B/blob/main/config.json (no head_dim key: 4096 / 32)",
                     "Hugging Face model page of meta-llama/Meta-Llama-3-8B, safetensors 'Model size 8.03B params'; "
                     "the book §0: 8.03e9",
                     8.03e9));
  p.push_back(preset("llama3.1-70b", dense_decoder("llama3.1-70b", 8192, 28672, 80, 64, 8, 128, 128256), 70.6, 0,
                     "huggingface.co/meta-llama/Llama-3.1-70B/blob/main/config.json (no head_dim key: 8192 / 64)",
                     "Hugging Face model page of meta-llama/Llama-3.1-70B, safetensors 'Model size 70.6B params'; "
                     "the book §0: 70.6e9",
                     70.6e9));
  return p;
}

std::vector<ModelPreset> llama_and_mistral_presets() {
  std::vector<ModelPreset> p;
  // Multi-head attention: 32 KV heads of 32.
  p.push_back(preset("llama2-7b", dense_decoder("llama2-7b", 4096, 11008, 32, 32, 32, 128, 32000), 6.74, 0,
                     "huggingface.co/meta-llama/Llama-2-7b-hf/blob/main/config.json",
                     "Hugging Face safetensors 'Model size 6.74B params' of the Llama-2-7b-hf conversion (the paper, "
                     "arXiv:2307.09288, says only '7B')"));
  p.push_back(preset("llama2-70b", dense_decoder("llama2-70b", 8192, 28672, 80, 64, 8, 128, 32000), 69.0, 0,
                     "huggingface.co/meta-llama/Llama-2-70b-hf/blob/main/config.json",
                     "Hugging Face safetensors 'Model size 69B params' of the Llama-2-70b-hf conversion (the paper "
                     "says '70B')"));
  p.push_back(preset("codellama-34b", dense_decoder("codellama-34b", 8192, 22016, 48, 64, 8, 128, 32000), 33.7, 0,
                     "huggingface.co/codellama/CodeLlama-34b-hf/blob/main/config.json (rope_theta 1e6)",
                     "Hugging Face safetensors 'Model size 33.7B params' of codellama/CodeLlama-34b-hf (the paper, "
                     "arXiv:2308.12950, says '34B')"));
  p.push_back(preset("llama3.1-8b", dense_decoder("llama3.1-8b", 4096, 14336, 32, 32, 8, 128, 128256), 8.03, 0,
                     "huggingface.co/meta-llama/Llama-3.1-8B/blob/main/config.json (no head_dim key: 4096 / 32)",
                     "Hugging Face model page of meta-llama/Llama-3.1-8B, safetensors 'Model size 8.03B params'"));
  // Mistral-7B-v0.1 (vocabulary 32,000; v0.3 has 32,768, 6.3M more parameters).
  p.push_back(preset("mistral-7b", dense_decoder("mistral-7b", 4096, 14336, 32, 32, 8, 128, 32000), 7.3, 0,
                     "huggingface.co/mistralai/Mistral-7B-v0.1/blob/main/config.json (v0.1)",
                     "Mistral AI, 'Mistral 7B' announcement (mistral.ai/news/announcing-mistral-7b, Sept. 2023): "
                     "'a 7.3B parameter model'"));
  // Mixtral-8x7B: Mistral-7B's attention, 8 experts of Mistral-7B's MLP a layer, 2 a token. Its 12.9B active
  // count includes both embedding tables.
  const ModelArchitecture mixtral =
      with_experts(dense_decoder("mixtral-8x7b", 4096, 14336, 32, 32, 8, 128, 32000), 8, 2);
  p.push_back(preset("mixtral-8x7b", mixtral, 46.7, 12.9,
                     "huggingface.co/mistralai/Mixtral-8x7B-v0.1/blob/main/config.json",
                     "Mistral AI, 'Mixtral of experts' (mistral.ai/news/mixtral-of-experts, Dec. 2023): '46.7B total "
                     "parameters but only uses 12.9B parameters per token'"));
  return p;
}

/// A Qwen3 decoder: q/k RMSNorm of head_dim each, no biases, untied embeddings, vocabulary 151,936.
ModelArchitecture qwen3(std::string name, std::int64_t hidden, std::int64_t intermediate, std::int64_t layers,
                        std::int64_t heads, std::int64_t kv_heads) {
  ModelArchitecture a = dense_decoder(std::move(name), hidden, intermediate, layers, heads, kv_heads, 128, 151936);
  a.qk_norm = true;
  return a;
}

std::vector<ModelPreset> qwen_presets() {
  std::vector<ModelPreset> p;
  p.push_back(preset("qwen3-8b", qwen3("qwen3-8b", 4096, 12288, 36, 32, 8), 8.2, 0,
                     "huggingface.co/Qwen/Qwen3-8B/blob/main/config.json",
                     "Qwen3-8B model card (huggingface.co/Qwen/Qwen3-8B): 'Number of Parameters: 8.2B'"));
  p.push_back(preset("qwen3-14b", qwen3("qwen3-14b", 5120, 17408, 40, 40, 8), 14.8, 0,
                     "huggingface.co/Qwen/Qwen3-14B/blob/main/config.json",
                     "Qwen3-14B model card (huggingface.co/Qwen/Qwen3-14B): 'Number of Parameters: 14.8B'"));
  p.push_back(preset("qwen3-32b", qwen3("qwen3-32b", 5120, 25600, 64, 64, 8), 32.8, 0,
                     "huggingface.co/Qwen/Qwen3-32B/blob/main/config.json",
                     "Qwen3-32B model card (huggingface.co/Qwen/Qwen3-32B): 'Number of Parameters: 32.8B'"));
  // 128 experts of width 768 a layer, 8 a token (intermediate_size 6144 is unused: no dense layer). Its 3.3B
  // active count includes both embedding tables; it is rounded to two digits, 1.6% below the sum's 3.35B.
  const ModelArchitecture moe = with_experts(qwen3("qwen3-30b-a3b", 2048, 6144, 48, 32, 4), 128, 8, 768);
  p.push_back(preset("qwen3-30b-a3b", moe, 30.5, 3.3, "huggingface.co/Qwen/Qwen3-30B-A3B/blob/main/config.json",
                     "Qwen3-30B-A3B model card (huggingface.co/Qwen/Qwen3-30B-A3B): 'Number of Parameters: 30.5B in "
                     "total and 3.3B activated'"));
  // Qwen2.5: q, k and v biases (Qwen2 always has them), no q/k norms, vocabulary 152,064.
  ModelArchitecture qwen25 = dense_decoder("qwen2.5-7b", 3584, 18944, 28, 28, 4, 128, 152064);
  qwen25.attention_bias = true;
  p.push_back(preset("qwen2.5-7b", qwen25, 7.61, 0, "huggingface.co/Qwen/Qwen2.5-7B/blob/main/config.json",
                     "Qwen2.5-7B model card (huggingface.co/Qwen/Qwen2.5-7B): 'Number of Parameters: 7.61B'"));
  return p;
}

/// gpt-oss: biases on q, k, v, o, the router and the experts; 4 experts a token; head_dim 64; vocabulary 201,088.
/// Not counted: the learned attention sink, one scalar a head a layer (1,536 and 2,304 parameters).
ModelArchitecture gpt_oss(std::string name, std::int64_t layers, std::int64_t experts) {
  ModelArchitecture a = with_experts(dense_decoder(std::move(name), 2880, 2880, layers, 64, 8, 64, 201088), experts, 4);
  a.attention_bias = true;
  a.attention_out_bias = true;
  a.mlp_bias = true;
  return a;
}

std::vector<ModelPreset> moe_presets() {
  std::vector<ModelPreset> p;
  // The model card's active counts (3.61B, 5.13B) leave out the input embedding: compare them with flop_params.
  p.push_back(preset("gpt-oss-20b", gpt_oss("gpt-oss-20b", 24, 32), 20.91, 3.61,
                     "huggingface.co/openai/gpt-oss-20b/blob/main/config.json",
                     "gpt-oss-120b & gpt-oss-20b Model Card (OpenAI, arXiv:2508.10925), Table 1: 20.91B total, 3.61B "
                     "active (without the input embedding)"));
  p.push_back(preset("gpt-oss-120b", gpt_oss("gpt-oss-120b", 36, 128), 116.83, 5.13,
                     "huggingface.co/openai/gpt-oss-120b/blob/main/config.json",
                     "gpt-oss-120b & gpt-oss-20b Model Card (OpenAI, arXiv:2508.10925), Table 1: 116.83B total, 5.13B "
                     "active (without the input embedding)"));
  // DeepSeek-V2-Lite: MLA without a query LoRA (q_lora_rank null), the first layer dense (first_k_dense_replace
  // 1), then 64 routed experts (6 a token) and 2 shared ones of width 1408. Its 2.4B activated count matches the
  // sum without both embedding tables (2.24B) no better than with them (2.66B); see the test.
  ModelArchitecture lite =
      with_experts(dense_decoder("deepseek-v2-lite", 2048, 10944, 27, 16, 16, 0, 102400), 64, 6, 1408);
  lite.num_shared_experts = 2;
  lite.first_dense_layers = 1;
  lite.kv_lora_rank = 512;
  lite.q_lora_rank = 0;
  lite.qk_nope_head_dim = 128;
  lite.qk_rope_head_dim = 64;
  lite.v_head_dim = 128;
  p.push_back(preset("deepseek-v2-lite", lite, 15.7, 2.4,
                     "huggingface.co/deepseek-ai/DeepSeek-V2-Lite/blob/main/config.json",
                     "DeepSeek-V2 paper (arXiv:2405.04434), DeepSeek-V2-Lite: 15.7B total, 2.4B activated a token "
                     "(the model card rounds the total to 16B)"));
  return p;
}

}  // namespace

const std::vector<ModelPreset>& model_presets() {
  static const std::vector<ModelPreset> presets = [] {
    std::vector<ModelPreset> all = book_presets();
    for (auto* group : {&llama_and_mistral_presets, &qwen_presets, &moe_presets}) {
      for (auto& p : (*group)()) all.push_back(std::move(p));
    }
    return all;
  }();
  return presets;
}

}  // namespace sl::llm
