#include "operators/cuda/dtype_info.hpp"

#include <array>

namespace rubric::cuda {

using tensor::DType;

namespace {
struct Row {
  DType type;
  std::string_view label;
  std::size_t bytes;
  bool floating;
  std::uint64_t poison;
};
constexpr std::array<Row, 13> kRows{{
    {DType::f64, "f64", 8, true, 0x7FF8000000000000ull},
    {DType::f32, "f32", 4, true, 0x7FC00000ull},
    {DType::f16, "f16", 2, true, 0x7E00ull},
    {DType::bf16, "bf16", 2, true, 0x7FC0ull},
    {DType::f8e4m3, "f8e4m3", 1, true, 0x7Full},
    {DType::f8e5m2, "f8e5m2", 1, true, 0x7Full},
    {DType::i64, "i64", 8, false, 0xFFFFFFFFFFFFFFFFull},
    {DType::i32, "i32", 4, false, 0xFFFFFFFFull},
    {DType::i16, "i16", 2, false, 0xFFFFull},
    {DType::i8, "i8", 1, false, 0xFFull},
    {DType::u8, "u8", 1, false, 0xFFull},
    {DType::u64, "u64", 8, false, 0xFFFFFFFFFFFFFFFFull},
    {DType::boolean, "bool", 1, false, 0xFFull},
}};

const Row& row(DType t) {
  for (const Row& r : kRows)
    if (r.type == t) return r;
  return kRows[1];  // unreachable for valid enumerators
}
}  // namespace

std::size_t element_bytes(DType t) { return row(t).bytes; }
std::string_view dtype_label(DType t) { return row(t).label; }
bool is_floating(DType t) { return row(t).floating; }
std::uint64_t poison_pattern(DType t) { return row(t).poison; }

std::optional<DType> dtype_from_label(std::string_view label) {
  for (const Row& r : kRows)
    if (r.label == label) return r.type;
  return std::nullopt;
}

}  // namespace rubric::cuda
