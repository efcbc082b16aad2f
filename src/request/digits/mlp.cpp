#include "request/digits/mlp.h"

#include <algorithm>
#include <numeric>
#include <vector>

#include "kernels/gemm.h"
#include "kernels/softmax.h"

namespace sl::request {
namespace {

/// rows x cols -> cols x rows.
void transpose(std::int64_t rows, std::int64_t cols, const float* a, float* at) {
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) at[j * rows + i] = a[i * cols + j];
}

/// Buffers of one SGD step, sized for the largest batch.
struct StepBuffers {
  std::vector<float> x, h, z, g, gt, dh, dht, dw1, dw2;
  StepBuffers(const Mlp& m, std::int64_t batch)
      : x(static_cast<std::size_t>(batch * m.hidden.in)), h(static_cast<std::size_t>(batch * m.hidden.out)),
        z(static_cast<std::size_t>(batch * m.output.out)), g(z.size()), gt(z.size()), dh(h.size()), dht(h.size()),
        dw1(m.hidden.weight.size()), dw2(m.output.weight.size()) {}
};

void sgd_update(std::vector<float>& w, const std::vector<float>& grad, float lr) {
  for (std::size_t i = 0; i < w.size(); ++i) w[i] -= lr * grad[i];
}

/// Column sums of a rows x cols matrix, subtracted from the bias after scaling by lr.
void bias_update(std::vector<float>& b, const float* grad, std::int64_t rows, float lr) {
  const auto cols = static_cast<std::int64_t>(b.size());
  for (std::int64_t j = 0; j < cols; ++j) {
    float s = 0.0f;
    for (std::int64_t i = 0; i < rows; ++i) s += grad[i * cols + j];
    b[static_cast<std::size_t>(j)] -= lr * s;
  }
}

/// One SGD step on the examples idx[0..bsz).
void sgd_step(Mlp& m, const float* x, const std::uint8_t* labels, const std::int64_t* idx, std::int64_t bsz, float lr,
              StepBuffers& s) {
  const std::int64_t in = m.hidden.in, hid = m.hidden.out, classes = m.output.out;
  for (std::int64_t i = 0; i < bsz; ++i) std::copy(x + idx[i] * in, x + (idx[i] + 1) * in, s.x.data() + i * in);
  kernels::dense_forward(m.hidden, bsz, s.x.data(), s.h.data(), kernels::Activation::Relu);
  kernels::dense_forward(m.output, bsz, s.h.data(), s.z.data(), kernels::Activation::None);
  // d(mean loss)/d logits = (softmax - one-hot) / batch
  kernels::softmax_rows(bsz, classes, s.z.data(), s.g.data());
  const float inv_b = 1.0f / static_cast<float>(bsz);
  for (std::int64_t i = 0; i < bsz; ++i) {
    s.g[static_cast<std::size_t>(i * classes + labels[idx[i]])] -= 1.0f;
    for (std::int64_t c = 0; c < classes; ++c) s.g[static_cast<std::size_t>(i * classes + c)] *= inv_b;
  }
  // dW2 = G^T H; dH = G W2, zero where the ReLU was off; dW1 = dH^T X.
  transpose(bsz, classes, s.g.data(), s.gt.data());
  kernels::gemm_f32({classes, hid, bsz, kernels::BLayout::Normal}, s.gt.data(), bsz, s.h.data(), hid, s.dw2.data(), hid);
  kernels::gemm_f32({bsz, hid, classes, kernels::BLayout::Normal}, s.g.data(), classes, m.output.weight.data(), hid,
                    s.dh.data(), hid);
  for (std::int64_t i = 0; i < bsz * hid; ++i)
    if (s.h[static_cast<std::size_t>(i)] <= 0.0f) s.dh[static_cast<std::size_t>(i)] = 0.0f;
  transpose(bsz, hid, s.dh.data(), s.dht.data());
  kernels::gemm_f32({hid, in, bsz, kernels::BLayout::Normal}, s.dht.data(), bsz, s.x.data(), in, s.dw1.data(), in);
  sgd_update(m.output.weight, s.dw2, lr);
  bias_update(m.output.bias, s.g.data(), bsz, lr);
  sgd_update(m.hidden.weight, s.dw1, lr);
  bias_update(m.hidden.bias, s.dh.data(), bsz, lr);
}

}  // namespace

Mlp make_mlp(Rng& rng, std::int64_t in, std::int64_t hidden, std::int64_t classes) {
  Mlp m;
  m.hidden = kernels::make_dense_layer(rng, in, hidden);
  m.output = kernels::make_dense_layer(rng, hidden, classes);
  return m;
}

void train_sgd(Mlp& mlp, const float* x, const std::uint8_t* labels, std::int64_t n, const SgdConfig& config,
               Rng& order_rng, const std::function<void(double, double)>& progress) {
  StepBuffers buffers(mlp, config.batch);
  std::vector<std::int64_t> order(static_cast<std::size_t>(n));
  const double total = static_cast<double>(config.epochs * n);
  for (std::int64_t epoch = 0; epoch < config.epochs; ++epoch) {
    std::iota(order.begin(), order.end(), 0);
    for (std::int64_t i = n - 1; i > 0; --i)  // Fisher-Yates
      std::swap(order[static_cast<std::size_t>(i)], order[order_rng.below(static_cast<std::uint64_t>(i + 1))]);
    for (std::int64_t start = 0; start < n; start += config.batch) {
      const std::int64_t bsz = std::min(config.batch, n - start);
      sgd_step(mlp, x, labels, order.data() + start, bsz, static_cast<float>(config.learning_rate), buffers);
      if (progress) progress(static_cast<double>(epoch * n + start + bsz), total);
    }
  }
}

void mlp_logits(const Mlp& mlp, const float* x, std::int64_t n, float* logits) {
  std::vector<float> h(static_cast<std::size_t>(n * mlp.hidden.out));
  kernels::dense_forward(mlp.hidden, n, x, h.data(), kernels::Activation::Relu);
  kernels::dense_forward(mlp.output, n, h.data(), logits, kernels::Activation::None);
}

int argmax(const float* v, std::int64_t classes) {
  return static_cast<int>(std::max_element(v, v + classes) - v);
}

double logits_accuracy(const std::vector<float>& logits, std::int64_t classes, const std::uint8_t* labels,
                       std::int64_t n) {
  std::int64_t right = 0;
  for (std::int64_t i = 0; i < n; ++i) right += argmax(logits.data() + i * classes, classes) == labels[i] ? 1 : 0;
  return static_cast<double>(right) / static_cast<double>(n);
}

double mlp_accuracy(const Mlp& mlp, const float* x, const std::uint8_t* labels, std::int64_t n) {
  const std::int64_t classes = mlp.output.out;
  std::vector<float> logits(static_cast<std::size_t>(n * classes));
  mlp_logits(mlp, x, n, logits.data());
  return logits_accuracy(logits, classes, labels, n);
}

}  // namespace sl::request
