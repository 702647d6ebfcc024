#include "operators/tensor/npy.hpp"

#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <vector>

#include "operators/error.hpp"
#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/host_order.hpp"
#include "operators/tensor/mapped_file.hpp"
#include "operators/tensor/npy_header.hpp"

namespace rubric::tensor {
namespace {

constexpr char kMagic[] = "\x93NUMPY";

struct DescrInfo {
  DType dtype;
  bool swapped;
};

DescrInfo parse_descr(const std::string& descr, const std::string& path) {
  if (descr.size() < 2) throw OperatorError(fmt::format("{}: unknown dtype descr '{}'", path, descr));
  char order = '=';
  std::string code = descr;
  if (descr[0] == '<' || descr[0] == '>' || descr[0] == '|' || descr[0] == '=') {
    order = descr[0];
    code = descr.substr(1);
  }
  struct Known {
    const char* code;
    DType dtype;
  };
  static constexpr Known known[] = {{"f8", DType::f64}, {"f4", DType::f32}, {"f2", DType::f16},
                                    {"i8", DType::i64}, {"i4", DType::i32}, {"i2", DType::i16},
                                    {"i1", DType::i8},  {"u1", DType::u8},  {"u8", DType::u64},
                                    {"b1", DType::boolean}};
  for (const Known& k : known) {
    if (code != k.code) continue;
    const bool one_byte = dtype_size(k.dtype) == 1;
    if (order == '|' && !one_byte) {
      throw OperatorError(fmt::format("{}: descr '{}' has no byte order for a multi-byte type", path, descr));
    }
    const bool file_little = order == '<' || (order == '=' && host_is_little_endian());
    const bool swapped = !one_byte && order != '|' && file_little != host_is_little_endian();
    return {k.dtype, swapped};
  }
  if (code == "u2" || code == "u4") {
    throw OperatorError(fmt::format("{}: dtype '{}' (unsigned {}-bit) is not supported; supported: f8 f4 f2 i8 i4 "
                                    "i2 i1 u8 u1 b1",
                                    path, descr, 8 * (code[1] - '0')));
  }
  throw OperatorError(fmt::format("{}: unknown dtype descr '{}'; supported: f8 f4 f2 i8 i4 i2 i1 u8 u1 b1", path, descr));
}

std::uint32_t read_le(const std::byte* p, int n) {
  std::uint32_t v = 0;
  for (int i = n - 1; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(p[i]);
  return v;
}

std::string shape_text(const Shape& s) {
  std::string out = "(";
  for (std::size_t i = 0; i < s.size(); ++i) out += fmt::format("{}{}", i ? ", " : "", s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

}  // namespace

Tensor load_npy(const std::string& path) { return load_npy(MappedFile::open(path)); }

namespace {
Tensor parse_npy(const std::shared_ptr<const MappedFile>& file) {
  const std::string& path = file->path();
  const std::byte* p = file->data();
  const std::size_t size = file->size();
  if (size < 10 || std::memcmp(p, kMagic, 6) != 0) {
    throw OperatorError(fmt::format("{}: not a .npy file (missing the \\x93NUMPY magic)", path));
  }
  const int major = static_cast<std::uint8_t>(p[6]), minor = static_cast<std::uint8_t>(p[7]);
  std::size_t prefix = 0, header_len = 0;
  if (major == 1) {
    prefix = 10;
    header_len = read_le(p + 8, 2);
  } else if (major == 2 || major == 3) {
    if (size < 12) throw OperatorError(fmt::format("{}: truncated .npy header", path));
    prefix = 12;
    header_len = read_le(p + 8, 4);
  } else {
    throw OperatorError(fmt::format("{}: unsupported .npy version {}.{} (1.0, 2.0 and 3.0 are known)", path, major,
                                    minor));
  }
  if (header_len > size - prefix) {
    throw OperatorError(fmt::format("{}: header length {} runs past the end of the file ({} bytes)", path, header_len,
                                    size));
  }
  const std::string_view text(reinterpret_cast<const char*>(p + prefix), header_len);
  const NpyHeader header = parse_npy_header(text, path);
  const DescrInfo info = parse_descr(header.descr, path);
  const std::int64_t count = shape_element_count(header.shape, path);
  const std::size_t offset = prefix + header_len;
  if (static_cast<std::uint64_t>(count) > UINT64_MAX / dtype_size(info.dtype)) {
    throw OperatorError(fmt::format("{}: shape {} is too large", path, shape_text(header.shape)));
  }
  const std::uint64_t needed = static_cast<std::uint64_t>(count) * dtype_size(info.dtype);
  const std::uint64_t have = size - offset;
  if (have < needed) {
    throw OperatorError(fmt::format("{}: truncated: shape {} of '{}' needs {} data bytes, the file has {}", path,
                                    shape_text(header.shape), header.descr, needed, have));
  }
  if (have > needed) {
    throw OperatorError(fmt::format("{}: {} data bytes follow the header but shape {} of '{}' accounts for {}", path,
                                    have, shape_text(header.shape), header.descr, needed));
  }
  auto strides = header.fortran_order ? fortran_order_strides(header.shape, dtype_size(info.dtype))
                                      : c_order_strides(header.shape, dtype_size(info.dtype));
  return Tensor(info.dtype, header.shape, p + offset, std::move(strides), info.swapped, file, path);
}
}  // namespace

Tensor load_npy(std::shared_ptr<const MappedFile> file) {
  return file->checked([&] { return parse_npy(file); });
}

std::string npy_descr(DType t) {
  switch (t) {
    case DType::f64: return "<f8";
    case DType::f32: return "<f4";
    case DType::f16: return "<f2";
    case DType::i64: return "<i8";
    case DType::i32: return "<i4";
    case DType::i16: return "<i2";
    case DType::i8: return "|i1";
    case DType::u8: return "|u1";
    case DType::u64: return "<u8";
    case DType::boolean: return "|b1";
    default:
      throw OperatorError(fmt::format(".npy has no dtype for {} (numpy has no bf16 or fp8); use a raw or "
                                      "safetensors file",
                                      dtype_name(t)));
  }
}

void save_npy(const std::string& path, const Tensor& t) {
  if (!host_is_little_endian()) throw OperatorError("save_npy: big-endian hosts are not supported");
  NpyHeader header{npy_descr(t.dtype()), false, t.shape()};
  std::string text = format_npy_header(header);
  // Pad with spaces so the data starts on a 64-byte boundary; the header ends with '\n'.
  std::size_t prefix = 10;
  if (text.size() + 1 + prefix > 65535) prefix = 12;
  const std::size_t total = (prefix + text.size() + 1 + 63) / 64 * 64;
  text.append(total - prefix - text.size() - 1, ' ');
  text += '\n';

  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!f) throw OperatorError(fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
  std::vector<char> head(kMagic, kMagic + 6);
  head.push_back(static_cast<char>(prefix == 10 ? 1 : 2));
  head.push_back(0);
  const std::size_t len = text.size();
  for (std::size_t i = 0; i < prefix - 8; ++i) head.push_back(static_cast<char>((len >> (8 * i)) & 0xff));
  head.insert(head.end(), text.begin(), text.end());
  bool ok = std::fwrite(head.data(), 1, head.size(), f.get()) == head.size();
  const std::size_t item = t.itemsize();
  if (ok && t.is_contiguous()) {
    const std::size_t bytes = static_cast<std::size_t>(t.size()) * item;
    ok = std::fwrite(t.data(), 1, bytes, f.get()) == bytes;
  } else if (ok) {
    std::vector<std::byte> buffer(1 << 16);
    const std::int64_t per = static_cast<std::int64_t>(buffer.size() / item);
    for (std::int64_t start = 0; ok && start < t.size(); start += per) {
      const std::int64_t n = std::min(per, t.size() - start);
      for (std::int64_t k = 0; k < n; ++k) copy_native_element(t, start + k, buffer.data() + k * item);
      ok = std::fwrite(buffer.data(), 1, n * item, f.get()) == static_cast<std::size_t>(n) * item;
    }
  }
  // A write from a mapping that shrank fails with EFAULT: say which file shrank, not "Bad address".
  require_intact(t);
  if (!ok || std::fflush(f.get()) != 0) throw OperatorError(fmt::format("{}: write failed: {}", path, std::strerror(errno)));
}

}  // namespace rubric::tensor
