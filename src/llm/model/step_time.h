#pragma once
// The roofline cost of one LLM engine step (eq. 18 generalised): a step reads the weights once and the KV
// cache of every running sequence, and does 2 FLOP per parameter per token plus attention; it takes the
// longer of the memory time and the compute time, plus a framework tax. Used by the case-study, batched-
// decode and energy cells and by the continuous-batching simulator. Constants: reference-values §0, §6.
#include <cstdint>
#include <optional>
#include <string>

#include "llm/model/expert_routing.h"

namespace sl::llm {

/// A decoder-only transformer as the step model sees it.
struct ModelSpec {
  std::string name = "custom";
  std::int64_t params = 0;
  std::int64_t num_layers = 0;
  std::int64_t num_heads = 0;     ///< query heads (attention FLOPs)
  std::int64_t num_kv_heads = 0;  ///< KV heads (GQA; KV bytes)
  std::int64_t head_dim = 0;
  double bytes_per_weight = 2.0;  ///< 2 FP16, 1 INT8/FP8, 0.5 INT4
  double bytes_per_kv = 2.0;      ///< KV cache element size
  // Set from an architecture (model_architecture.h); 0 where a model is given by its total count alone.
  std::int64_t flop_params = 0;      ///< weights a token multiplies (2 FLOP each); 0: all of params
  std::int64_t active_params = 0;    ///< one token's share as model cards count it (MoE: k of E experts); 0: params
  std::int64_t expert_params = 0;    ///< every routed expert's weights, all layers (0: dense)
  std::int64_t num_experts = 0;      ///< routed experts per MoE layer (0: dense)
  std::int64_t experts_per_token = 0;
  std::int64_t num_moe_layers = 0;
  std::int64_t hidden_size = 0;      ///< residual width (all-reduce and all-to-all bytes); 0: heads x head_dim
  std::int64_t kv_elements_per_token = 0;  ///< over all layers; 0: 2 x layers x KV heads x head_dim
  bool is_mla = false;               ///< the KV cache holds one latent per layer, shared by every head (not split by TP)
  /// The token embedding table, vocab x hidden (0: unknown), and whether it is also the LM head (tied); for the
  /// LM head and embedding mechanism (GpuSpec::lm_head_and_embedding).
  std::int64_t embedding_params = 0;
  bool tied_embeddings = false;
  /// How unevenly the router spreads tokens over the experts, in [0, 1): 0 uniform; s: each expert is picked
  /// (1 - s) times as often as the one before it (expert_routing.h). A property of the model on its workload.
  double routing_skew = 0;

  bool is_moe() const { return num_experts > 0; }
  /// FLOPs per token of the matrix products: 2 x flop_params (2 x params when not set).
  double matmul_flop_per_token() const { return 2.0 * static_cast<double>(flop_params > 0 ? flop_params : params); }
  /// Parameters one token uses: active_params, or params when not set (a dense model, or one given by its total).
  std::int64_t active_param_count() const { return active_params > 0 ? active_params : params; }
  /// Residual width: hidden_size, or heads x head_dim when not set.
  std::int64_t residual_width() const { return hidden_size > 0 ? hidden_size : num_heads * head_dim; }
  /// Weights every token multiplies but the LM head (the embedding is a lookup): flop_params less the LM head, or for
  /// a model given by its total count, params less the embedding table and the LM head (once when tied).
  std::int64_t matmul_params_before_lm_head() const {
    const std::int64_t tables = tied_embeddings ? embedding_params : 2 * embedding_params;
    return flop_params > 0 ? flop_params - embedding_params : params - tables;
  }

  /// Weight bytes read per step: params x bytes_per_weight (Llama-3-8B INT4: 4.015e9 B, §6).
  std::int64_t weight_bytes() const;
  /// KV bytes per token per sequence: 2 (K and V) x layers x KV heads x head_dim x bytes_per_kv
  /// (Llama-3-8B FP16: 131,072 B, §21; Llama-3.1-70B: 327,680 B, §20).
  std::int64_t kv_bytes_per_token() const;
};

/// An accelerator as the step model sees it.
struct GpuSpec {
  std::string name = "custom";
  double peak_flop_per_s = 0;        ///< dense FP16 peak
  double hbm_bytes_per_s = 0;
  std::int64_t memory_bytes = 0;     ///< HBM capacity
  double compute_efficiency = 0.4;   ///< achieved fraction of peak (the book's ServingModel uses 0.4)
  double layer_tax_s = 1e-5;         ///< framework tax per layer per decode step (0.01 ms, §0)
  double dispatch_tax_s = 1e-5;      ///< tax per prefill chunk (0.01 ms, §0)
  double bandwidth_efficiency = 1.0; ///< achieved fraction of the HBM bandwidth (the book assumes all of it)
  double tdp_w = 0;
  // From the datasheet (gpu presets): 0 where the GPU lacks the precision.
  double peak_fp8_flop_per_s = 0;    ///< dense FP8 tensor peak
  double peak_fp4_flop_per_s = 0;    ///< dense FP4 tensor peak
  double link_bytes_per_s = 0;       ///< GPU-to-GPU link, one direction (NVLink, Infinity Fabric, PCIe); 0: unknown
  double price_usd_per_h = 0;        ///< a dated on-demand price of one GPU; 0: unknown
  // A real server's mechanisms beyond the book's roofline (issue 37; docs/fidelity.md says where each form comes
  // from). Their defaults are the book's model, which every book value is computed with; llm/validation fits them
  // to published runs and switches each off in turn (its ablation table).
  /// Host time of every step: scheduling, preparing the inputs, sampling, detokenising (vLLM's EngineCore loop).
  double step_host_s = 0;
  /// The host prepares the next step while the GPU runs this one (vLLM V1's --async-scheduling, TensorRT-LLM's
  /// overlap scheduler): a step lasts max(GPU time, host time); otherwise GPU time + host time.
  bool host_overlapped = false;
  /// Tokens at which a step's matrix products reach half the compute efficiency: a step of n tokens computes at
  /// compute_efficiency x n / (n + this), so a short prefill uses the tensor cores less well than a long one
  /// (a GEMM with few rows fills few tiles and waves). 0: every step at compute_efficiency.
  double half_efficiency_tokens = 0;
  /// A step that only prefills pays the per-layer tax too: its kernels launch layer by layer as a decode's do
  /// (the book charges the layer tax to decoding steps only, and a prefill chunk one dispatch tax).
  bool layer_tax_every_step = false;
  /// A step of at most kMaxCudaGraphTokens tokens multiplies as many rows as the next CUDA-graph capture size
  /// (cuda_graph_tokens): vLLM replays graphs captured for fixed batch sizes and pads the batch up to one.
  bool cuda_graph_padding = false;
  /// Per request, outside the engine's steps (HTTP, tokenisation, detokenisation, the client's own timing):
  /// added to the TTFT and E2E a benchmark client measures (RecordedSchedule::value), not to the steps.
  double request_overhead_s = 0;
  /// The step computes at the GPU's FP8 or FP4 tensor peak (8- or 4-bit weights and activations), which it reaches
  /// a smaller share of than the 16-bit peak: scaling and casting, and work that does not speed up with the
  /// precision. Its efficiency is compute_efficiency x low_precision_efficiency.
  bool low_precision_peak = false;
  double low_precision_efficiency = 1.0;
  /// The LM head stays at 16 bits whatever the weights' precision (vLLM's and TensorRT-LLM's FP8 and INT4 recipes
  /// leave it unquantized) and multiplies only the rows a step samples from (each decode and draft token, the last
  /// token of each prefill chunk: vLLM computes logits at logits_indices only); the input embedding is read at the
  /// step's tokens' rows, not whole. Needs ModelSpec::embedding_params.
  bool lm_head_and_embedding = false;
  /// Attention runs as its own kernel on its own roofline: the step takes max(weight bytes / BW, matrix-product
  /// compute) + max(KV bytes / BW, attention compute) (each layer's qkv_proj, attention and o_proj/MLP kernels run
  /// one after another; InferSim's per-component roofline), in place of one max over the step's totals.
  bool attention_roofline = false;
  /// A mixture of experts' expert layers reach this share of the step's efficiencies, on their bytes and their FLOPs:
  /// their grouped GEMMs over uneven per-expert batches (vLLM's fused_moe Triton kernel pads each expert's rows to its
  /// block size; routing, sorting and the weighted sum are kernels a dense MLP does not run). 1: the dense roofline.
  double expert_efficiency = 1.0;
};

/// Largest step vLLM captures a CUDA graph for (its default cap; vLLM also caps it at 2 x max_num_seqs, which this
/// model leaves out); a longer step runs eagerly, unpadded.
inline constexpr std::int64_t kMaxCudaGraphTokens = 512;
/// The CUDA-graph capture size a step of n tokens is padded to: vLLM's default sizes 1, 2, 4, then multiples of 8 up
/// to 256 and of 16 beyond (vllm/config/compilation: cudagraph_capture_sizes); n itself beyond kMaxCudaGraphTokens,
/// or for n = 0.
std::int64_t cuda_graph_tokens(std::int64_t n);

/// Tensor parallelism (Megatron-LM, as vLLM runs it): every layer's weights, query and KV heads and FLOPs are
/// split over `size` GPUs, and each layer all-reduces its activations twice (after attention and after the
/// MLP) over a link: a ring all-reduce of B bytes over p GPUs takes 2 (p - 1) / p x B / link bandwidth +
/// 2 (p - 1) x link latency. KV heads fewer than the GPUs are replicated (vLLM): each GPU keeps
/// max(1, kv_heads / p) of them. size = 1 is one GPU and costs nothing.
struct TensorParallel {
  std::int64_t size = 1;
  double link_bytes_per_s = 450e9;  ///< one direction of NVLink 4 on an H100 SXM (900 GB/s both ways)
  double link_latency_s = 5e-6;     ///< per hop of the ring
  /// Expert parallelism (vLLM's --enable-expert-parallel): an MoE layer's experts are placed whole on the GPUs
  /// (expert i on GPU i mod size) instead of sliced over them, and the layer sends each token to its k experts'
  /// GPUs and back (two all-to-alls of tokens x k x hidden x 2 B, (p - 1)/p of it leaving each GPU) in place of
  /// the MLP's all-reduce; attention stays tensor-parallel.
  bool expert_parallel = false;
  /// Every GPU reaches every other directly (NVLink through an NVSwitch) and the all-reduce is the engine's own
  /// (vLLM's custom all-reduce, csrc/custom_all_reduce.cuh; TensorRT-LLM's AllReduce plugin): a reduce-scatter and
  /// an all-gather, each one hop, so 2 (p - 1)/p x B / link + 2 x link latency, in place of the ring's
  /// 2 (p - 1) hops (NCCL's ring, the book's form).
  bool direct_all_reduce = false;
  static constexpr int kAllReducesPerLayer = 2;
  static constexpr double kActivationBytes = 2.0;  ///< FP16 activations
  /// Weight bytes one GPU holds and reads each step: weight_bytes / size.
  double weight_bytes_per_gpu(const ModelSpec& model) const;
  /// KV bytes per token one GPU holds: 2 x layers x max(1, kv_heads / size) x head_dim x bytes_per_kv.
  double kv_bytes_per_token_per_gpu(const ModelSpec& model) const;
  /// Time of the all-reduces of one step of `num_tokens` tokens: layers x 2 x ring all-reduce of
  /// num_tokens x heads x head_dim x 2 B; 0 on one GPU.
  double all_reduce_s(const ModelSpec& model, std::int64_t num_tokens) const;
  /// The step's collectives: all_reduce_s, or with expert parallelism over an MoE, an all-reduce a layer after
  /// attention, one after each dense MLP, and two all-to-alls a MoE layer; 0 on one GPU.
  double collective_s(const ModelSpec& model, std::int64_t num_tokens) const;
  /// One all-reduce of `bytes` over the `size` GPUs: 2 (p - 1)/p of them over the link, 2 (p - 1) hops of a ring
  /// (2 hops with direct_all_reduce).
  double ring_all_reduce_s(double bytes) const;
};

/// Llama-3-8B (§0): 8.03e9 params, 32 layers, 32 heads, 8 KV heads, head_dim 128; INT4 weights, FP16 KV.
ModelSpec llama3_8b();
/// Llama-3.1-70B (§0): 70.6e9 params, 80 layers, 64 heads, 8 KV heads, head_dim 128; INT4 weights, FP16 KV.
ModelSpec llama31_70b();
/// H100 SXM (§0): 989e12 FLOP/s FP16, 3.35e12 B/s, 80 GiB, 700 W.
GpuSpec h100();
/// A100 80 GB (§0): 312e12 FLOP/s FP16, 2.039e12 B/s, 80 GiB, 400 W.
GpuSpec a100();

/// What one engine step does. vLLM runs prefill chunks and decodes in the same forward pass.
struct StepWork {
  std::int64_t num_decode_seqs = 0;          ///< sequences producing one token each
  std::int64_t decode_context_tokens = 0;    ///< sum of their context lengths (KV read this step)
  std::int64_t num_prefill_tokens = 0;       ///< prompt tokens computed this step
  std::int64_t num_prefill_chunks = 0;       ///< prefill pieces (one dispatch tax each)
  std::int64_t prefill_context_tokens = 0;   ///< cached KV the prefill chunks read (prefix hits, earlier chunks)
  std::int64_t prefill_attention_pairs = 0;  ///< sum of prefill_attention_pairs(start, n) over the chunks
  /// Speculative decoding: draft tokens verified beside the decode tokens (each costs a token's FLOPs and
  /// writes its KV; the context it attends to is the KV its sequence's decode token already reads).
  std::int64_t num_spec_tokens = 0;
  std::int64_t spec_context_tokens = 0;  ///< sum of the draft tokens' context lengths (attention FLOPs)
  std::int64_t num_draft_steps = 0;      ///< the draft model's forward passes before this step: the most drafts of any sequence
};

/// Query-key pairs of a prefill chunk of n tokens starting at position start, in the book's convention
/// (full S x S for a prompt of S tokens, §6): (start + n)^2 - start^2, so chunks add up to S^2.
std::int64_t prefill_attention_pairs(std::int64_t start, std::int64_t n);

/// A step's time and its parts (seconds, bytes, FLOP).
struct StepTime {
  double bytes = 0;       ///< read by one GPU (all of them on one GPU)
  double kv_bytes = 0;    ///< the KV part of bytes (the rest is weights)
  double flop = 0;        ///< done by one GPU
  double memory_s = 0;    ///< bytes / (HBM bandwidth x bandwidth efficiency)
  double compute_s = 0;   ///< FLOP / (peak x efficiency)
  double attention_flop = 0;  ///< the attention part of flop (query-key pairs)
  double expert_bytes = 0;    ///< the routed experts' part of bytes (0: dense)
  double expert_flop = 0;     ///< the routed experts' part of flop (0: dense)
  double overhead_s = 0;  ///< layer tax (if any decode, or every step) + dispatch tax per prefill chunk
  double all_reduce_s = 0;  ///< tensor parallelism's all-reduces (0 on one GPU)
  double host_s = 0;      ///< the host's time (GpuSpec::step_host_s)
  /// GPU time roofline_s (max(memory_s, compute_s), or split at attention) + overhead_s + all_reduce_s, then the
  /// host's: + host_s, or max(GPU time, host_s) when the host is overlapped.
  double total_s = 0;
  bool is_compute_bound() const { return compute_s > memory_s; }
};
/// The attention's share of a step's FLOPs (attention_roofline splits its compute time by it); 0 for no FLOPs.
inline double attention_share(const StepTime& t) { return t.flop > 0 ? t.attention_flop / t.flop : 0.0; }

/// Roofline time of one step of n = decode seqs + prefill tokens + draft tokens tokens:
///   bytes = weights + KV/token x (decode context + prefill context + prefill and draft tokens written)
///   FLOP  = 2 x params x n' + 4 x layers x heads x head_dim x
///           (decode context + prefill attention pairs + draft tokens' context)
///           where n' = cuda_graph_tokens(n) with CUDA-graph padding, else n
///   time  = max(bytes / BW, FLOP / (peak x efficiency) x (n' + half_efficiency_tokens) / n')
///           (with attention_roofline: the same max over the weights and the matrix products, + the same max over
///           the KV bytes and the attention FLOPs)
///           + layers x layer tax (if decoding, or always with layer_tax_every_step) + chunks x dispatch tax
///           + all-reduces, then + host time (or max(that, host time) when overlapped)
///           (a mixture of experts' expert bytes and FLOPs count 1 / expert_efficiency times)
/// An empty step costs nothing. With GpuSpec's mechanisms at their defaults this is the book's model.
StepTime step_time(const ModelSpec& model, const GpuSpec& gpu, const StepWork& work);
/// The same step on `tp.size` GPUs (TensorParallel): each reads its share of the weights and KV and does its
/// share of the FLOPs, and the step pays the all-reduces on top (they are not overlapped with compute).
StepTime step_time(const ModelSpec& model, const GpuSpec& gpu, const StepWork& work, const TensorParallel& tp);

/// step_time for one engine's model, GPU and tensor parallelism: what depends on them alone (bytes per token,
/// weight bytes, rates) computed once, the same arithmetic per step, for the engine's call at every step.
/// A mixture of experts reads, besides its other weights, the experts its step's tokens touch (expert_routing.h)
/// and multiplies each token by its k experts' weights. `model` must outlive it.
class StepTimeModel {
 public:
  StepTimeModel(const ModelSpec& model, const GpuSpec& gpu, const TensorParallel& tp);
  StepTime operator()(const StepWork& work) const;
  /// The rows a step of `tokens` tokens multiplies: padded to the CUDA graph's size when the GPU spec pads.
  std::int64_t rows(std::int64_t tokens) const { return cuda_graph_padding_ ? cuda_graph_tokens(tokens) : tokens; }
  /// Whether the step pays the per-layer tax: it decodes, or every step does.
  bool pays_layer_tax(const StepWork& work) const { return work.num_decode_seqs > 0 || layer_tax_every_step_; }

 private:
  const ModelSpec* model_;  // for the all-reduces
  TensorParallel tp_;
  std::optional<ExpertRouting> routing_;  ///< an MoE's
  double expert_bytes_per_gpu_ = 0;       ///< one expert of every MoE layer, on one GPU (all of it under EP)
  double two_expert_flop_params_ = 0;     ///< 2 x the k experts' weights a token multiplies (all MoE layers)
  double expert_token_share_ = 1;         ///< share of the expert FLOPs the busiest GPU does
  double kv_bytes_per_token_per_gpu_;
  double weight_bytes_per_gpu_;
  double two_params_;               ///< 2 x parameters: FLOPs per token
  double attention_flop_per_pair_;
  double bytes_per_s_;              ///< HBM bandwidth x bandwidth efficiency
  double flop_per_s_;               ///< peak x compute efficiency
  double layer_tax_s_;              ///< layers x layer tax
  double dispatch_tax_s_;
  double host_s_;
  double half_efficiency_tokens_;
  double expert_efficiency_;
  // The LM head and embedding mechanism: the LM head's FLOPs per sampled row (x 2, on one GPU's share), and the
  // weights' bytes already corrected (0 when off).
  double two_lm_head_params_ = 0;
  bool host_overlapped_, layer_tax_every_step_, cuda_graph_padding_, attention_roofline_;
};

/// peak x compute efficiency (x the low-precision share), as StepTimeModel and RecordedSchedule::retime both form it.
inline double flop_rate(double peak_flop_per_s, double compute_efficiency, bool low_precision_peak,
                        double low_precision_efficiency) {
  double efficiency = compute_efficiency;
  if (low_precision_peak) efficiency *= low_precision_efficiency;
  return peak_flop_per_s * efficiency;
}

/// A step's bytes or FLOPs with its expert part counted 1 / expert_efficiency times (the time they take at the dense
/// rate), as StepTimeModel and RecordedSchedule::retime both form it; `total` itself at efficiency 1.
inline double expert_weighted(double total, double expert_part, double expert_efficiency) {
  if (expert_efficiency == 1.0) return total;
  return total + expert_part * (1.0 / expert_efficiency - 1.0);
}

/// A step's compute time at its efficiency for `rows` rows: compute_s x (rows + half_efficiency_tokens) / rows, as
/// StepTimeModel and RecordedSchedule::retime both form it; unchanged when half_efficiency_tokens is 0.
inline double short_step_compute_s(double compute_s, double rows, double half_efficiency_tokens) {
  if (half_efficiency_tokens > 0) compute_s *= (rows + half_efficiency_tokens) / rows;
  return compute_s;
}

/// A step's roofline time: max(memory_s, compute_s); or, with attention on its own roofline (`split`),
/// max(memory_s - kv_memory_s, compute_s x (1 - attention_share)) + max(kv_memory_s, compute_s x attention_share),
/// attention_share being the attention's part of the step's FLOPs. compute_s already scaled for the step's efficiency.
inline double roofline_s(double memory_s, double compute_s, double kv_memory_s, double attention_share, bool split) {
  if (!split) return memory_s > compute_s ? memory_s : compute_s;
  const double attention_s = compute_s * attention_share;
  const double matmul_s = compute_s - attention_s, weights_s = memory_s - kv_memory_s;
  return (weights_s > matmul_s ? weights_s : matmul_s) + (kv_memory_s > attention_s ? kv_memory_s : attention_s);
}

/// A step's time from its parts, as StepTimeModel and RecordedSchedule::retime both form it (the same doubles):
/// roofline_s's time, then the taxes, the all-reduces and the host.
inline double step_total_s(double roofline_s, double overhead_s, double all_reduce_s, double host_s,
                           bool host_overlapped) {
  const double gpu_s = roofline_s + overhead_s + all_reduce_s;
  if (host_s == 0) return gpu_s;
  return host_overlapped ? (gpu_s > host_s ? gpu_s : host_s) : gpu_s + host_s;
}

/// One decode step of `batch` sequences whose contexts sum to total_context_tokens (TPOT at batch 1:
/// (4.015e9 + 131,072 x 1,256) / 3.35e12 + 32 x 0.01 ms = 1.5676 ms, §6).
double decode_step_s(const ModelSpec& model, const GpuSpec& gpu, std::int64_t batch, std::int64_t total_context_tokens);

/// Prefill of one prompt of `tokens` tokens in one chunk (TTFT at 1,000 tokens: (2 P S + 4 L H d S^2) /
/// (989e12 x 0.4) + 0.01 ms = 41.93 ms, §6).
double prefill_s(const ModelSpec& model, const GpuSpec& gpu, std::int64_t tokens);

}  // namespace sl::llm
