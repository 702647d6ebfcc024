#include "operators/tensor/raw.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <vector>

#include "operators/error.hpp"
#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/host_order.hpp"
#include "operators/tensor/mapped_file.hpp"

namespace rubric::tensor {

Tensor load_raw(const std::string& path, DType dtype, const Shape& shape, bool big_endian) {
  return load_raw(MappedFile::open(path), dtype, shape, big_endian);
}

Tensor load_raw(std::shared_ptr<const MappedFile> file, DType dtype, const Shape& shape, bool big_endian) {
  const std::string& path = file->path();
  const std::int64_t count = shape_element_count(shape, path);
  if (static_cast<std::uint64_t>(count) > UINT64_MAX / dtype_size(dtype)) {
    throw OperatorError(fmt::format("{}: shape is too large", path));
  }
  const std::uint64_t needed = static_cast<std::uint64_t>(count) * dtype_size(dtype);
  if (file->size() != needed) {
    throw OperatorError(fmt::format("{}: {} elements of {} need {} bytes, the file has {}", path, count,
                                    dtype_name(dtype), needed, file->size()));
  }
  const bool swapped = big_endian == host_is_little_endian();
  file->require_intact(path);
  return Tensor(dtype, shape, file->data(), c_order_strides(shape, dtype_size(dtype)), swapped, file, path);
}

void save_raw(const std::string& path, const Tensor& t) {
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!f) throw OperatorError(fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
  const std::size_t item = t.itemsize();
  bool ok = true;
  if (t.is_contiguous()) {
    const std::size_t bytes = static_cast<std::size_t>(t.size()) * item;
    ok = std::fwrite(t.data(), 1, bytes, f.get()) == bytes;
  } else {
    std::vector<std::byte> element(item);
    for (std::int64_t i = 0; ok && i < t.size(); ++i) {
      copy_native_element(t, i, element.data());
      ok = std::fwrite(element.data(), 1, item, f.get()) == item;
    }
  }
  // A write from a mapping that shrank fails with EFAULT: say which file shrank, not "Bad address".
  require_intact(t);
  if (!ok || std::fflush(f.get()) != 0) throw OperatorError(fmt::format("{}: write failed: {}", path, std::strerror(errno)));
}

}  // namespace rubric::tensor
