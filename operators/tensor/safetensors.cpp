#include "operators/tensor/safetensors.hpp"

#include <algorithm>
#include <cmath>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <optional>

#include "operators/error.hpp"
#include "operators/tensor/element_decode.hpp"
#include "operators/tensor/host_order.hpp"
#include "operators/json/json_reader.hpp"
#include "operators/tensor/mapped_file.hpp"

namespace rubric::tensor {
namespace {

struct CodeInfo {
  const char* code;
  std::size_t itemsize;
  std::optional<DType> dtype;  // nullopt: valid in the format, no rubric dtype
};

constexpr std::size_t kCodeCount = 15;
const CodeInfo* code_table() {
  static const CodeInfo table[kCodeCount] = {
      {"BOOL", 1, DType::boolean}, {"U8", 1, DType::u8},   {"I8", 1, DType::i8},         {"I16", 2, DType::i16},
      {"I32", 4, DType::i32},      {"I64", 8, DType::i64}, {"F16", 2, DType::f16},       {"BF16", 2, DType::bf16},
      {"F32", 4, DType::f32},      {"F64", 8, DType::f64}, {"F8_E4M3", 1, DType::f8e4m3}, {"F8_E5M2", 1, DType::f8e5m2},
      {"U16", 2, std::nullopt},    {"U32", 4, std::nullopt}, {"U64", 8, DType::u64}};
  return table;
}

const CodeInfo* find_code(const std::string& code) {
  for (std::size_t i = 0; i < kCodeCount; ++i) {
    if (code == code_table()[i].code) return &code_table()[i];
  }
  return nullptr;
}

std::uint64_t read_u64_le(const std::byte* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | static_cast<std::uint8_t>(p[i]);
  return v;
}

std::int64_t non_negative_integer(const json::Value& v, const std::string& path, const std::string& what) {
  // Doubles hold every integer up to 2^53 exactly: far past any file's size.
  if (!v.is_number() || v.as_number() < 0 || v.as_number() != std::floor(v.as_number()) || v.as_number() > 0x1p53) {
    throw OperatorError(fmt::format("{}: {} must be a non-negative integer", path, what));
  }
  return static_cast<std::int64_t>(v.as_number());
}

SafetensorsEntry parse_entry(const std::string& name, const json::Value& v, const std::string& path) {
  if (!v.is_object()) throw OperatorError(fmt::format("{}: tensor '{}' is not a JSON object", path, name));
  SafetensorsEntry e;
  e.name = name;
  const auto* dtype = v.find("dtype");
  const auto* shape = v.find("shape");
  const auto* offsets = v.find("data_offsets");
  if (!dtype || !dtype->is_string()) throw OperatorError(fmt::format("{}: tensor '{}' has no string 'dtype'", path, name));
  if (!shape || !shape->is_array()) throw OperatorError(fmt::format("{}: tensor '{}' has no 'shape' list", path, name));
  if (!offsets || !offsets->is_array() || offsets->as_array().size() != 2) {
    throw OperatorError(fmt::format("{}: tensor '{}' needs 'data_offsets' [begin, end]", path, name));
  }
  for (const auto& [key, unused] : v.as_object()) {
    (void)unused;
    if (key != "dtype" && key != "shape" && key != "data_offsets") {
      throw OperatorError(fmt::format("{}: tensor '{}' has unexpected key '{}'", path, name, key));
    }
  }
  e.dtype_code = dtype->as_string();
  const CodeInfo* info = find_code(e.dtype_code);
  if (!info) throw OperatorError(fmt::format("{}: tensor '{}' has unknown dtype '{}'", path, name, e.dtype_code));
  for (const auto& d : shape->as_array()) e.shape.push_back(non_negative_integer(d, path, fmt::format("a dimension of '{}'", name)));
  e.begin = non_negative_integer(offsets->as_array()[0], path, fmt::format("data_offsets of '{}'", name));
  e.end = non_negative_integer(offsets->as_array()[1], path, fmt::format("data_offsets of '{}'", name));
  if (e.end < e.begin) throw OperatorError(fmt::format("{}: tensor '{}' has data_offsets [{}, {}] that end before they begin", path, name, e.begin, e.end));
  const std::int64_t count = shape_element_count(e.shape, fmt::format("{}: tensor '{}'", path, name));
  if (static_cast<std::uint64_t>(count) > UINT64_MAX / info->itemsize) {
    throw OperatorError(fmt::format("{}: tensor '{}' has a shape too large to address", path, name));
  }
  const std::uint64_t needed = static_cast<std::uint64_t>(count) * info->itemsize;
  if (e.end - e.begin != needed) {
    throw OperatorError(fmt::format("{}: tensor '{}' has data_offsets [{}, {}] ({} bytes) but {} elements of {} need {}",
                                    path, name, e.begin, e.end, e.end - e.begin, count, e.dtype_code, needed));
  }
  return e;
}

struct ParsedFile {
  std::shared_ptr<const MappedFile> file;
  SafetensorsIndex index;
  std::uint64_t data_start = 0;
};

ParsedFile parse_header(std::shared_ptr<const MappedFile> file) {
  ParsedFile out;
  out.file = std::move(file);
  const std::string& path = out.file->path();
  const std::uint64_t size = out.file->size();
  if (size < 8) throw OperatorError(fmt::format("{}: too short for a safetensors file ({} bytes)", path, size));
  const std::uint64_t n = read_u64_le(out.file->data());
  if (n > kSafetensorsHeaderCap) {
    throw OperatorError(fmt::format("{}: header length {} exceeds the {} byte cap", path, n, kSafetensorsHeaderCap));
  }
  if (n > size - 8) {
    throw OperatorError(fmt::format("{}: header length {} runs past the end of the file ({} bytes)", path, n, size));
  }
  out.data_start = 8 + n;
  const std::string_view text(reinterpret_cast<const char*>(out.file->data() + 8), n);
  json::Value root;
  try {
    root = json::parse(text, "header");
  } catch (const OperatorError& e) {
    throw OperatorError(fmt::format("{}: bad JSON header ({})", path, e.what()));
  }
  if (!root.is_object()) throw OperatorError(fmt::format("{}: header is not a JSON object", path));
  for (const auto& [key, value] : root.as_object()) {
    if (key == "__metadata__") {
      if (!value.is_object()) throw OperatorError(fmt::format("{}: __metadata__ is not an object", path));
      for (const auto& [mk, mv] : value.as_object()) {
        if (!mv.is_string()) {
          throw OperatorError(fmt::format("{}: __metadata__ value for '{}' is not a string", path, mk));
        }
        out.index.metadata[mk] = mv.as_string();
      }
      continue;
    }
    out.index.tensors.push_back(parse_entry(key, value, path));
  }
  // The tensors must tile the data section exactly: no gaps, no overlaps, nothing past the end.
  std::vector<const SafetensorsEntry*> by_offset;
  for (const auto& e : out.index.tensors) by_offset.push_back(&e);
  std::sort(by_offset.begin(), by_offset.end(), [](auto* a, auto* b) {
    return a->begin != b->begin ? a->begin < b->begin : a->end < b->end;
  });
  std::uint64_t covered = 0;
  const SafetensorsEntry* previous = nullptr;
  for (const SafetensorsEntry* e : by_offset) {
    if (e->begin == e->end) continue;  // empty tensors occupy no bytes
    if (e->begin < covered) {
      throw OperatorError(fmt::format("{}: tensors '{}' and '{}' overlap (bytes [{}, {}) of the data)", path,
                                      previous->name, e->name, e->begin, std::min(covered, e->end)));
    }
    if (e->begin > covered) {
      throw OperatorError(fmt::format("{}: bytes [{}, {}) of the data are covered by no tensor", path, covered, e->begin));
    }
    covered = e->end;
    previous = e;
  }
  const std::uint64_t data_size = size - out.data_start;
  if (covered > data_size) {
    throw OperatorError(fmt::format("{}: truncated: tensors need {} data bytes, the file has {}", path, covered, data_size));
  }
  if (covered < data_size) {
    throw OperatorError(fmt::format("{}: bytes [{}, {}) of the data are covered by no tensor", path, covered, data_size));
  }
  std::sort(out.index.tensors.begin(), out.index.tensors.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

// A header read (partly) from a file that shrank meanwhile is reported as that, not as malformed.
ParsedFile parse_file(std::shared_ptr<const MappedFile> file) {
  return file->checked([&] { return parse_header(file); });
}

}  // namespace

std::vector<std::string> SafetensorsIndex::names() const {
  std::vector<std::string> out;
  for (const auto& t : tensors) out.push_back(t.name);
  return out;
}

SafetensorsIndex read_safetensors_index(const std::string& path) { return parse_file(MappedFile::open(path)).index; }

Tensor load_safetensors(const std::string& path, const std::string& name) {
  return load_safetensors(MappedFile::open(path), name);
}

Tensor load_safetensors(std::shared_ptr<const MappedFile> file, const std::string& name) {
  ParsedFile parsed = parse_file(std::move(file));
  const std::string& path = parsed.file->path();
  for (const auto& e : parsed.index.tensors) {
    if (e.name != name) continue;
    const CodeInfo* info = find_code(e.dtype_code);
    if (!info->dtype) {
      throw OperatorError(fmt::format("{}: tensor '{}' has dtype {}, which rubric does not support", path, name, e.dtype_code));
    }
    const std::byte* data = parsed.file->data() + parsed.data_start + e.begin;
    auto strides = c_order_strides(e.shape, info->itemsize);
    return Tensor(*info->dtype, e.shape, data, std::move(strides), !host_is_little_endian(), parsed.file,
                  fmt::format("{}:{}", path, name));
  }
  std::string names;
  for (const auto& n : parsed.index.names()) names += fmt::format("{}{}", names.empty() ? "" : ", ", n);
  throw OperatorError(fmt::format("{}: no tensor named '{}'; tensors: {}", path, name, names.empty() ? "(none)" : names));
}

std::string safetensors_dtype_code(DType t) {
  for (std::size_t i = 0; i < kCodeCount; ++i) {
    if (code_table()[i].dtype == t) return code_table()[i].code;
  }
  return "?";
}

namespace {
std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<int>(c));
      continue;
    }
    out += c;
  }
  return out + "\"";
}
}  // namespace

void save_safetensors(const std::string& path, const std::vector<std::pair<std::string, Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata) {
  if (!host_is_little_endian()) throw OperatorError("save_safetensors: big-endian hosts are not supported");
  std::string header = "{";
  if (!metadata.empty()) {
    header += "\"__metadata__\":{";
    bool first = true;
    for (const auto& [k, v] : metadata) {
      header += fmt::format("{}{}:{}", first ? "" : ",", json_string(k), json_string(v));
      first = false;
    }
    header += "}";
  }
  std::uint64_t offset = 0;
  for (const auto& [name, t] : tensors) {
    std::string shape;
    for (std::size_t i = 0; i < t.shape().size(); ++i) shape += fmt::format("{}{}", i ? "," : "", t.shape()[i]);
    const std::uint64_t bytes = static_cast<std::uint64_t>(t.size()) * t.itemsize();
    header += fmt::format("{}{}:{{\"dtype\":\"{}\",\"shape\":[{}],\"data_offsets\":[{},{}]}}",
                          header.size() > 1 ? "," : "", json_string(name), safetensors_dtype_code(t.dtype()), shape,
                          offset, offset + bytes);
    offset += bytes;
  }
  header += "}";
  header.append((8 - header.size() % 8) % 8, ' ');  // keep the data 8-byte aligned
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
  if (!f) throw OperatorError(fmt::format("{}: cannot create: {}", path, std::strerror(errno)));
  unsigned char len[8];
  for (int i = 0; i < 8; ++i) len[i] = static_cast<unsigned char>((header.size() >> (8 * i)) & 0xff);
  bool ok = std::fwrite(len, 1, 8, f.get()) == 8 && std::fwrite(header.data(), 1, header.size(), f.get()) == header.size();
  std::vector<std::byte> element(8);
  for (const auto& [name, t] : tensors) {
    (void)name;
    if (!ok) break;
    if (t.is_contiguous()) {
      const std::size_t bytes = static_cast<std::size_t>(t.size()) * t.itemsize();
      ok = std::fwrite(t.data(), 1, bytes, f.get()) == bytes;
      continue;
    }
    for (std::int64_t i = 0; ok && i < t.size(); ++i) {
      copy_native_element(t, i, element.data());
      ok = std::fwrite(element.data(), 1, t.itemsize(), f.get()) == t.itemsize();
    }
  }
  // A write from a mapping that shrank fails with EFAULT: say which file shrank, not "Bad address".
  for (const auto& nt : tensors) require_intact(nt.second);
  if (!ok || std::fflush(f.get()) != 0) throw OperatorError(fmt::format("{}: write failed: {}", path, std::strerror(errno)));
}

}  // namespace rubric::tensor
