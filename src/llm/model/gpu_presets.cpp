// The GPU presets (model_architecture.h): each figure from its vendor's datasheet, read where the datasheet's table
// could be read (the stored copies named in each source), and a dated on-demand price of one GPU.
// Conventions, the same for every preset:
//   peaks   dense tensor-core FLOP/s; datasheets print the 2:4-sparsity figure with an asterisk, twice the dense
//           one, so an entry "1,979 TFLOPS*" is 989.5e12 dense (the book rounds the H100's to 989e12, §0);
//   memory  the label's "N GB" taken as N GiB, as the book takes the H100's "80 GB" (§0, §21): HBM and GDDR
//           capacities are binary (an H100 reports 81,559 MiB);
//   link    one direction of the GPU's GPU-to-GPU bandwidth: NVLink's per-GPU total (both ways) / 2, PCIe x16 / 2
//           for a PCIe card, the Infinity Fabric links' aggregate / 2;
//   price   USD per GPU-hour, on demand, with the page it was read from and that page's own date.
#include <string>
#include <vector>

#include "core/units.h"
#include "llm/model/model_architecture.h"

namespace sl::llm {
namespace {

using units::kGB;
using units::kTera;  // TFLOP/s and TB/s: 10^12 a second

std::int64_t gib(double n) { return static_cast<std::int64_t>(n * units::kGiB); }

/// A preset from the step model's defaults (efficiency and taxes, §0) and its datasheet figures.
GpuSpec spec(const std::string& id, double fp16_tflop, double fp8_tflop, double fp4_tflop, double hbm_tb_per_s,
             double memory_gib, double link_gb_per_s, double tdp_w, double usd_per_h) {
  GpuSpec g;
  g.name = id;
  g.peak_flop_per_s = fp16_tflop * kTera;
  g.peak_fp8_flop_per_s = fp8_tflop * kTera;
  g.peak_fp4_flop_per_s = fp4_tflop * kTera;
  g.hbm_bytes_per_s = hbm_tb_per_s * kTera;
  g.memory_bytes = gib(memory_gib);
  g.link_bytes_per_s = link_gb_per_s * kGB;
  g.tdp_w = tdp_w;
  g.price_usd_per_h = usd_per_h;
  return g;
}

/// The book's H100 and A100 (step_time.h), field for field, with what the book does not give.
GpuSpec book_gpu(GpuSpec g, double fp8_tflop, double link_gb_per_s, double usd_per_h) {
  g.peak_fp8_flop_per_s = fp8_tflop * kTera;
  g.link_bytes_per_s = link_gb_per_s * kGB;
  g.price_usd_per_h = usd_per_h;
  return g;
}

const char* const kTechbytesPrices =
    "techbytes.app/posts/serverless-gpu-pricing-matrix-modal-replicate-lambda-2026/ ('Prices verified on May 7, 2026 "
    "from official vendor pricing'), read 2026-12-06";
const char* const kAmdRentals =
    "cliffcenter.com/research/amd-inference-economics (research note dated 2026-05-18, listing on-demand MI300X and "
    "MI325X rentals), read 2026-12-06; a secondary page: the provider's own price page was not in the stored corpus";

/// A preset beyond the book's two: its datasheet figures (spec()'s arguments), where they were read, and its
/// on-demand offer with the page that quotes it (null: the offer names its own page).
struct DatasheetRow {
  const char* id;
  double fp16_tflop, fp8_tflop, fp4_tflop, hbm_tb_per_s, memory_gib, link_gb_per_s, tdp_w, usd_per_h;
  const char* datasheet;
  const char* offer;
  const char* quoted_by;
};

const DatasheetRow kDatasheetRows[] = {
    {"a100-40gb", 312, 0, 0, 1.555, 40, 300, 400, 1.48,
     "NVIDIA A100 Tensor Core GPU datasheet (2020 edition, nvidia-a100-datasheet.pdf), A100 40GB SXM: BF16/FP16 "
     "312 TFLOPS (624* with sparsity), no FP8, 40 GB HBM2, 1,555 GB/s, max TDP 400 W, NVLink 600 GB/s (300 one "
     "way). Read through the stored copies of glennklockwood.com/garden/processors/A100 ('A100 40G SXM4': 1.555 "
     "TB/s, 300+300 GB/s NVLink, 400 W) and techpowerup.com/gpu-specs/a100-sxm4-40-gb.c3506",
     "Lambda on-demand, 1x A100 40GB: $1.48/h", kTechbytesPrices},
    {"h100-pcie", 756.5, 1513, 0, 2.0, 80, 64, 350, 2.86,
     "NVIDIA H100 datasheet, H100 PCIe column, and the H100 PCIe product brief PB-11133-001_v02 (November 2022): "
     "FP16/BF16 Tensor Core 1,513 TFLOPS* and FP8 3,026 TFLOPS* (*with sparsity: dense, halved, 756.5 and 1,513), 80 GB HBM2e, "
     "2,000 GB/s ('greater than 2,000 GBps' in the brief), TDP 300-350 W (350 W unconstrained, the brief), PCIe "
     "Gen5 x16 128 GB/s both ways (64 one way; the optional NVLink bridge pairs two cards only). Read in the stored "
     "copies at archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html and manuals.plus (the product brief)",
     "Lambda on-demand, 1x H100 PCIe: $2.86/h", kTechbytesPrices},
    {"h200", 989, 1979, 0, 4.8, 141, 450, 700, 4.54,
     "NVIDIA H200 Tensor Core GPU datasheet, H200 SXM column (nvidia.com/en-us/data-center/h200): FP16/BF16 "
     "1,979 TFLOPS* and FP8 3,958 TFLOPS* (*with sparsity; dense 989 as for the H100, the same GH100 tensor "
     "cores, and 1,979), 141 GB HBM3e, 4.8 TB/s, max TDP up to 700 W, NVLink 900 GB/s (450 one way). Read "
     "through the stored copies of lzwjava.github.io/nvidia-h200-gpu-specs-en and saulelectric.com/nvidia-h200.html",
     "Spheron on-demand, H200 SXM: $4.54/h ('as of 17 March 2026'), spheron.network/blog/nvidia-h200-vs-b200-vs-"
     "gb200, read 2026-12-06",
     nullptr},
    {"b200", 2250, 4500, 9000, 8.0, 180, 900, 1000, 6.03,
     "NVIDIA HGX B200 (nvidia.com/en-us/data-center/hgx, Blackwell datasheet), one GPU of eight at 1,000 W: "
     "FP16/BF16 4.5 PFLOPS*, FP8 9 PFLOPS*, FP4 18 PFLOPS* (*with sparsity; dense 2,250, 4,500 and 9,000 TFLOPS), "
     "1,440 GB for eight GPUs (180 GB HBM3e each; nvidia-smi shows 179 GB), 8 TB/s, NVLink 5 1.8 TB/s (900 one "
     "way). Read through the stored copies of glennklockwood.com/garden/processors/B200 (the HGX table at "
     "1,000 W) and docs.vultr.com/inference-cookbook/cuda/getting-started/hardware-overview",
     "Spheron on-demand, B200 SXM: $6.03/h ('as of 17 March 2026'), spheron.network/blog/nvidia-h200-vs-b200-vs-"
     "gb200, read 2026-12-06",
     nullptr},
    {"l40s", 362.05, 733, 0, 0.864, 48, 32, 350, 1.9512,
     "NVIDIA L40S datasheet (l40s-datasheet): FP16/BF16 Tensor Core 362.05 | 733* TFLOPS, FP8 733 | 1,466* "
     "(*with sparsity), 48 GB GDDR6 with ECC, 864 GB/s, PCIe Gen4 x16 64 GB/s bidirectional (32 one way; no "
     "NVLink), max power 350 W. Read in the stored copy of the datasheet's table at mullet.se/product.html?product_"
     "id=355414 and the datasheet itself (scribd.com/document/909978823/l40s-datasheet)",
     "Modal, L40S: $1.9512/h", kTechbytesPrices},
    {"mi300x", 1307.4, 2614.9, 0, 5.3, 192, 448, 750, 1.85,
     "AMD Instinct MI300X data sheet (amd.com, amd-instinct-mi300x-data-sheet.pdf): peak FP16/BF16 1,307.4 TFLOPS "
     "and FP8 2,614.9 TFLOPS dense (2,614.9 and 5,229.8 with sparsity), 192 GB HBM3, 5.3 TB/s, 750 W OAM, 7 "
     "Infinity Fabric links of 128 GB/s (896 GB/s aggregate both ways, 448 one way; one peer of an 8-GPU mesh gets "
     "1/7 of it). Read through the stored copies of jaredwatkins.com/research/ai-accelerators/amd-instinct/"
     "mi300-series (1.3 PF FP16, 2.6 PF FP8, 750 W) and gpu.blog/gpus/instinct-mi300x-mi300x (896 GB/s xGMI)",
     "Vultr on-demand, MI300X: $1.85/h", kAmdRentals},
    {"mi325x", 1307.4, 2614.9, 0, 6.0, 256, 448, 1000, 1.95,
     "AMD Instinct MI325X data sheet (amd.com): the MI300X's CDNA 3 compute, FP16/BF16 1,307.4 and FP8 2,614.9 "
     "TFLOPS dense (5,229.8 FP8 with sparsity), 256 GB HBM3E, 6 TB/s, 1,000 W, seven Infinity Fabric links (their "
     "128 GB/s each assumed as on the MI300X: the stored pages give the count, not the rate). Read through the "
     "stored copies of awesomeagents.ai/hardware/amd-mi325x and wiaix.com/amd-instincttm-mi325x-accelerators",
     "TensorWave on-demand, MI325X: $1.95/h", kAmdRentals},
};

/// "<offer>, quoted by <page>".
std::string quoted(const std::string& offer, const char* page) { return offer + ", quoted by " + page; }

std::vector<GpuPreset> make_presets() {
  std::vector<GpuPreset> presets;
  presets.push_back(
      {"h100", book_gpu(h100(), 1979, 450, 3.78),
       "NVIDIA H100 Tensor Core GPU datasheet, H100 SXM column (nvidia.com/en-us/data-center/h100, Specifications): "
       "FP16/BF16 Tensor Core 1,979 TFLOPS* and FP8 3,958 TFLOPS* (*with sparsity: dense 989 as the book has it, and "
       "1,979), 80 GB HBM3 (the book's 80 GiB), 3.35 TB/s, max TDP 700 W, NVLink 900 GB/s (450 one way). The table "
       "read in the stored copy at archive-lib.hpctech.co.jp/gpuproduct/nvidia-h100.html; dense figures checked "
       "against glennklockwood.com/garden/processors/h100 (FP16 989.4, FP8 1,978.9 TFLOPS)",
       quoted("Lambda on-demand, 1x H100 SXM: $3.78/h", kTechbytesPrices) +
           ". The book's own figure is about $3/h (§21), still the economics default"});
  presets.push_back(
      {"a100", book_gpu(a100(), 0, 300, 2.4984),
       "NVIDIA A100 Tensor Core GPU datasheet (nvidia-a100-datasheet-us-nvidia-1758950-r4-web.pdf), A100 80GB SXM: "
       "BF16/FP16 Tensor Core 312 TFLOPS (624* with sparsity); no FP8 (Ampere's tensor cores have none), 80 GB "
       "HBM2e (the book's 80 GiB), 2,039 GB/s, max TDP 400 W, NVLink 600 GB/s (300 one way). Read through the "
       "stored copies of glennklockwood.com/garden/processors/A100 (which cites that PDF) and "
       "thundercompute.com/blog/nvidia-a100-specs-full-guide",
       quoted("Modal, A100 80GB: $2.4984/h", kTechbytesPrices)});
  for (const DatasheetRow& r : kDatasheetRows) {
    presets.push_back({r.id,
                       spec(r.id, r.fp16_tflop, r.fp8_tflop, r.fp4_tflop, r.hbm_tb_per_s, r.memory_gib,
                            r.link_gb_per_s, r.tdp_w, r.usd_per_h),
                       r.datasheet, r.quoted_by != nullptr ? quoted(r.offer, r.quoted_by) : r.offer});
  }
  return presets;
}

}  // namespace

const std::vector<GpuPreset>& gpu_presets() {
  static const std::vector<GpuPreset> presets = make_presets();
  return presets;
}

}  // namespace sl::llm
