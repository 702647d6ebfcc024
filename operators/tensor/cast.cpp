#include "operators/tensor/cast.hpp"

#include <fmt/format.h>

#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/element_encode.hpp"
#include "operators/tensor/parallel.hpp"

namespace rubric::tensor {
Tensor cast(const Tensor& t, DType to) {
  const std::size_t item = dtype_size(to);
  std::vector<std::byte> bytes = allocate_elements(t.size(), item, fmt::format("cast({}, {})", t.source(), dtype_name(to)));
  const bool integers = !dtype_is_float(t.dtype()) && !dtype_is_float(to);
  parallel_chunks(t.size(), worker_count(t.size()), [&](unsigned, std::int64_t begin, std::int64_t end) {
    if (integers) {
      for (std::int64_t k = begin; k < end; ++k) encode_integer(integer_element(t, k), to, bytes.data() + k * item);
      return;
    }
    constexpr std::int64_t kBlock = 1024;
    double values[kBlock];
    for (std::int64_t s = begin; s < end; s += kBlock) {
      const std::int64_t n = std::min(kBlock, end - s);
      decode_block(t, s, n, values);
      for (std::int64_t k = 0; k < n; ++k) encode_element(values[k], to, bytes.data() + (s + k) * item);
    }
  });
  require_intact(t);
  return Tensor::from_bytes(to, t.shape(), std::move(bytes),
                            fmt::format("cast({}, {})", t.source(), dtype_name(to)));
}

}  // namespace rubric::tensor
