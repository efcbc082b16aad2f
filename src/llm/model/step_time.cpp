#include "llm/model/step_time.h"

#include <algorithm>
#include <cmath>

#include "core/units.h"

namespace sl::llm {

std::int64_t ModelSpec::weight_bytes() const {
  return std::llround(static_cast<double>(params) * bytes_per_weight);
}

std::int64_t ModelSpec::kv_bytes_per_token() const {
  // From an architecture (MLA's latent, or 2 K d a layer): its element count; else the book's formula, unchanged.
  if (kv_elements_per_token > 0) return std::llround(static_cast<double>(kv_elements_per_token) * bytes_per_kv);
  return std::llround(2.0 * static_cast<double>(num_layers * num_kv_heads * head_dim) * bytes_per_kv);
}

ModelSpec llama3_8b() { return {"llama3-8b", 8'030'000'000, 32, 32, 8, 128, 0.5, 2.0}; }

ModelSpec llama31_70b() { return {"llama3.1-70b", 70'600'000'000, 80, 64, 8, 128, 0.5, 2.0}; }

GpuSpec h100() {
  GpuSpec g;
  g.name = "h100";
  g.peak_flop_per_s = 989e12;
  g.hbm_bytes_per_s = 3.35e12;
  g.memory_bytes = static_cast<std::int64_t>(80 * units::kGiB);  // "80 GB" on the label is 80 GiB in the book's registry (§0, §21)
  g.tdp_w = 700;
  return g;
}

GpuSpec a100() {
  GpuSpec g;
  g.name = "a100";
  g.peak_flop_per_s = 312e12;  // dense FP16 tensor core, vendor datasheet (the book prints none)
  g.hbm_bytes_per_s = 2.039e12;
  g.memory_bytes = static_cast<std::int64_t>(80 * units::kGiB);
  g.tdp_w = 400;
  return g;
}

std::int64_t cuda_graph_tokens(std::int64_t n) {
  if (n <= 0 || n > kMaxCudaGraphTokens) return n;
  if (n <= 2) return n;
  if (n <= 4) return 4;
  if (n <= 256) return (n + 7) / 8 * 8;
  return (n + 15) / 16 * 16;
}

std::int64_t prefill_attention_pairs(std::int64_t start, std::int64_t n) {
  const std::int64_t end = start + n;
  return end * end - start * start;
}

double TensorParallel::weight_bytes_per_gpu(const ModelSpec& model) const {
  return static_cast<double>(model.weight_bytes()) / static_cast<double>(size);
}

double TensorParallel::kv_bytes_per_token_per_gpu(const ModelSpec& model) const {
  // MLA (DeepSeek-V2/V3): a layer caches one latent that every query head reads, so tensor parallelism cannot
  // split it; each GPU keeps the whole latent (as vLLM and SGLang do without data-parallel attention).
  if (size == 1 || model.is_mla) return static_cast<double>(model.kv_bytes_per_token());
  const double heads = std::max(1.0, static_cast<double>(model.num_kv_heads) / static_cast<double>(size));
  return 2.0 * static_cast<double>(model.num_layers) * heads * static_cast<double>(model.head_dim) * model.bytes_per_kv;
}

double TensorParallel::all_reduce_s(const ModelSpec& model, std::int64_t num_tokens) const {
  if (size <= 1 || num_tokens == 0) return 0.0;
  const double bytes = static_cast<double>(num_tokens) * static_cast<double>(model.residual_width()) *
                       kActivationBytes;
  return static_cast<double>(model.num_layers) * kAllReducesPerLayer * ring_all_reduce_s(bytes);
}

double TensorParallel::ring_all_reduce_s(double bytes) const {
  const double p = static_cast<double>(size);
  const double hops = direct_all_reduce ? 2.0 : 2.0 * (p - 1.0);
  return 2.0 * (p - 1.0) / p * bytes / link_bytes_per_s + hops * link_latency_s;
}

double TensorParallel::collective_s(const ModelSpec& model, std::int64_t num_tokens) const {
  if (!expert_parallel || !model.is_moe()) return all_reduce_s(model, num_tokens);
  if (size <= 1 || num_tokens == 0) return 0.0;
  const double p = static_cast<double>(size);
  const double width_bytes = static_cast<double>(model.residual_width()) * kActivationBytes;
  const double all_reduce = ring_all_reduce_s(static_cast<double>(num_tokens) * width_bytes);
  const double all_to_all = (p - 1.0) / p * static_cast<double>(num_tokens * model.experts_per_token) * width_bytes /
                                link_bytes_per_s +
                            (p - 1.0) * link_latency_s;
  const double dense_layers = static_cast<double>(model.num_layers - model.num_moe_layers);
  return static_cast<double>(model.num_layers) * all_reduce + dense_layers * all_reduce +
         static_cast<double>(model.num_moe_layers) * 2.0 * all_to_all;
}

StepTime step_time(const ModelSpec& model, const GpuSpec& gpu, const StepWork& work) {
  return step_time(model, gpu, work, TensorParallel{});
}

StepTime step_time(const ModelSpec& model, const GpuSpec& gpu, const StepWork& work, const TensorParallel& tp) {
  return StepTimeModel(model, gpu, tp)(work);
}

StepTimeModel::StepTimeModel(const ModelSpec& model, const GpuSpec& gpu, const TensorParallel& tp)
    : model_(&model),
      tp_(tp),
      kv_bytes_per_token_per_gpu_(tp.kv_bytes_per_token_per_gpu(model)),
      weight_bytes_per_gpu_(tp.weight_bytes_per_gpu(model)),
      two_params_(model.matmul_flop_per_token()),
      attention_flop_per_pair_(4.0 * static_cast<double>(model.num_layers * model.num_heads * model.head_dim)),
      bytes_per_s_(gpu.hbm_bytes_per_s * gpu.bandwidth_efficiency),
      flop_per_s_(flop_rate(gpu.peak_flop_per_s, gpu.compute_efficiency, gpu.low_precision_peak, gpu.low_precision_efficiency)),
      layer_tax_s_(static_cast<double>(model.num_layers) * gpu.layer_tax_s),
      dispatch_tax_s_(gpu.dispatch_tax_s),
      host_s_(gpu.step_host_s),
      half_efficiency_tokens_(gpu.half_efficiency_tokens),
      expert_efficiency_(gpu.expert_efficiency),
      host_overlapped_(gpu.host_overlapped),
      layer_tax_every_step_(gpu.layer_tax_every_step),
      cuda_graph_padding_(gpu.cuda_graph_padding),
      attention_roofline_(gpu.attention_roofline) {
  // The LM head and embedding: the table(s) at the weights' precision out of the bytes, the LM head back in at 16
  // bits, split over the GPUs (vocab-parallel); the embedding rows a step reads are a few kB and left out. FLOPs: the
  // LM head per sampled row only.
  double table_bytes_correction = 0;
  if (gpu.lm_head_and_embedding && model.embedding_params > 0) {
    const double table = static_cast<double>(model.embedding_params);
    const double tables = model.tied_embeddings ? table : 2.0 * table;
    table_bytes_correction = table * 2.0 - tables * model.bytes_per_weight;
    two_params_ = 2.0 * static_cast<double>(model.matmul_params_before_lm_head());
    two_lm_head_params_ = 2.0 * table;
  }
  if (table_bytes_correction != 0) weight_bytes_per_gpu_ += table_bytes_correction / static_cast<double>(tp.size);
  if (!model.is_moe()) return;
  const double experts = static_cast<double>(model.num_experts);
  const double expert_weight_bytes = static_cast<double>(model.expert_params) * model.bytes_per_weight;
  const double p = static_cast<double>(tp.size);
  routing_.emplace(model.num_experts, model.experts_per_token, model.routing_skew, tp.expert_parallel ? tp.size : 1);
  // The other weights are read whole every step and sliced over the GPUs; the experts only as touched.
  weight_bytes_per_gpu_ = (static_cast<double>(model.weight_bytes()) - expert_weight_bytes) / p;
  if (table_bytes_correction != 0) weight_bytes_per_gpu_ += table_bytes_correction / p;
  expert_bytes_per_gpu_ = expert_weight_bytes / experts / (tp.expert_parallel ? 1.0 : p);
  two_expert_flop_params_ = 2.0 * static_cast<double>(model.experts_per_token) * static_cast<double>(model.expert_params) / experts;
  two_params_ -= two_expert_flop_params_;
  expert_token_share_ = tp.expert_parallel ? routing_->busiest_gpu_token_share() : 1.0 / p;
}

StepTime StepTimeModel::operator()(const StepWork& work) const {
  // Each product and quotient as step_time always formed it, the hoisted factors included (2 x params x
  // tokens is (2 x params) x tokens), so the times are the same to the bit.
  StepTime t;
  const std::int64_t num_tokens = work.num_decode_seqs + work.num_prefill_tokens + work.num_spec_tokens;
  if (num_tokens == 0) return t;
  const double kv_tokens = static_cast<double>(work.decode_context_tokens + work.prefill_context_tokens +
                                               work.num_prefill_tokens + work.num_spec_tokens);
  t.kv_bytes = kv_bytes_per_token_per_gpu_ * kv_tokens;
  t.bytes = weight_bytes_per_gpu_ + t.kv_bytes;
  // The matrix products run over as many rows as the CUDA graph replayed (attention and KV: the real tokens).
  const double rows = static_cast<double>(this->rows(num_tokens));
  const double pairs_flop =
      attention_flop_per_pair_ * (static_cast<double>(work.decode_context_tokens) +
                                  static_cast<double>(work.prefill_attention_pairs) +
                                  static_cast<double>(work.spec_context_tokens));
  t.flop = (two_params_ * rows + pairs_flop) / static_cast<double>(tp_.size);
  t.attention_flop = pairs_flop / static_cast<double>(tp_.size);
  if (two_lm_head_params_ > 0) {
    const double sampled = static_cast<double>(work.num_decode_seqs + work.num_spec_tokens + work.num_prefill_chunks);
    t.flop += two_lm_head_params_ * sampled / static_cast<double>(tp_.size);
  }
  if (routing_) {
    const double touched = tp_.expert_parallel ? routing_->busiest_gpu_distinct_experts(num_tokens)
                                               : routing_->distinct_experts(num_tokens);
    t.expert_bytes = expert_bytes_per_gpu_ * touched;
    t.expert_flop = two_expert_flop_params_ * rows * expert_token_share_;
    t.bytes += t.expert_bytes;
    t.flop += t.expert_flop;
  }
  const double flop = expert_weighted(t.flop, t.expert_flop, expert_efficiency_);
  t.memory_s = expert_weighted(t.bytes, t.expert_bytes, expert_efficiency_) / bytes_per_s_;
  t.compute_s = short_step_compute_s(flop / flop_per_s_, rows, half_efficiency_tokens_);
  // attention's share of the time-weighted FLOPs, formed as RecordedSchedule::retime forms it
  const double share = flop == t.flop ? attention_share(t) : attention_share(t) * t.flop / flop;
  // The book charges decode a per-layer framework tax and prefill a per-chunk dispatch tax (§0, §6).
  t.overhead_s = (pays_layer_tax(work) ? layer_tax_s_ : 0.0) + static_cast<double>(work.num_prefill_chunks) * dispatch_tax_s_;
  t.all_reduce_s = tp_.collective_s(*model_, num_tokens);
  t.host_s = host_s_;
  t.total_s = step_total_s(roofline_s(t.memory_s, t.compute_s, t.kv_bytes / bytes_per_s_, share, attention_roofline_),
                           t.overhead_s, t.all_reduce_s, t.host_s, host_overlapped_);
  return t;
}

double decode_step_s(const ModelSpec& model, const GpuSpec& gpu, std::int64_t batch, std::int64_t total_context_tokens) {
  StepWork w;
  w.num_decode_seqs = batch;
  w.decode_context_tokens = total_context_tokens;
  return step_time(model, gpu, w).total_s;
}

double prefill_s(const ModelSpec& model, const GpuSpec& gpu, std::int64_t tokens) {
  StepWork w;
  w.num_prefill_tokens = tokens;
  w.num_prefill_chunks = 1;
  w.prefill_attention_pairs = prefill_attention_pairs(0, tokens);
  return step_time(model, gpu, w).total_s;
}

}  // namespace sl::llm
