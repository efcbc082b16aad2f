#pragma once
// A fixed-size array on the heap whose allocation may fail without aborting: malloc returns null when the
// wasm heap cannot grow (ALLOW_MEMORY_GROWTH, 2 GiB at most), where std::vector would throw and em++ aborts.
// Measurement cells allocate their large weight buffers through it and turn a failure into "too_large".
#include <cstdint>
#include <cstdlib>
#include <utility>

namespace sl::kernels {

/// An uninitialised array of `size` trivially copyable values that owns its malloc'ed storage.
template <class T>
class HeapArray {
 public:
  HeapArray() = default;
  /// Allocates `size` elements; check ok() before use (false when the allocator refused).
  explicit HeapArray(std::int64_t size) {
    const double bytes = static_cast<double>(size) * static_cast<double>(sizeof(T));
    // The size must also fit the platform's size_t (32-bit in wasm32).
    if (size > 0 && bytes < static_cast<double>(SIZE_MAX) / 2) {
      data_ = static_cast<T*>(std::malloc(static_cast<std::size_t>(size) * sizeof(T)));
      if (data_ != nullptr) size_ = size;
    }
  }
  HeapArray(const HeapArray&) = delete;
  HeapArray& operator=(const HeapArray&) = delete;
  HeapArray(HeapArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}
  HeapArray& operator=(HeapArray&& other) noexcept {
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    return *this;
  }
  ~HeapArray() { std::free(data_); }

  bool ok() const { return data_ != nullptr; }
  std::int64_t size() const { return size_; }
  std::int64_t bytes() const { return size_ * static_cast<std::int64_t>(sizeof(T)); }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T& operator[](std::int64_t i) { return data_[i]; }
  const T& operator[](std::int64_t i) const { return data_[i]; }

 private:
  T* data_ = nullptr;
  std::int64_t size_ = 0;
};

}  // namespace sl::kernels
