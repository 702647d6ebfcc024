#include "operators/cuda/signature.hpp"

#include <fmt/format.h>

#include <cctype>
#include <optional>

#include "operators/error.hpp"

namespace rubric::cuda {

using tensor::DType;

namespace {

struct BaseType {
  std::string_view spelling;
  DType dtype;                      // when used behind a pointer
  std::optional<ParamKind> scalar;  // when used by value
};

// Spellings accepted in signatures; the generated code keeps the spelling the author wrote.
constexpr BaseType kBaseTypes[] = {
    {"float", DType::f32, ParamKind::float32},
    {"double", DType::f64, ParamKind::float64},
    {"__half", DType::f16, std::nullopt},
    {"half", DType::f16, std::nullopt},
    {"__nv_bfloat16", DType::bf16, std::nullopt},
    {"nv_bfloat16", DType::bf16, std::nullopt},
    {"__nv_fp8_e4m3", DType::f8e4m3, std::nullopt},
    {"__nv_fp8_e5m2", DType::f8e5m2, std::nullopt},
    {"int64_t", DType::i64, ParamKind::int64},
    {"long long", DType::i64, ParamKind::int64},
    {"long", DType::i64, ParamKind::int64},
    {"int32_t", DType::i32, ParamKind::int32},
    {"int", DType::i32, ParamKind::int32},
    {"int16_t", DType::i16, std::nullopt},
    {"short", DType::i16, std::nullopt},
    {"int8_t", DType::i8, std::nullopt},
    {"uint64_t", DType::u64, std::nullopt},
    {"unsigned long long", DType::u64, std::nullopt},
    {"unsigned long", DType::u64, std::nullopt},
    {"uint8_t", DType::u8, std::nullopt},
    {"unsigned char", DType::u8, std::nullopt},
    {"bool", DType::boolean, std::nullopt},
};

std::vector<std::string> split_words(std::string_view s) {
  std::vector<std::string> words;
  std::string cur;
  for (char c : s) {
    if (c == '*') {
      if (!cur.empty()) words.push_back(cur), cur.clear();
      words.emplace_back("*");
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (!cur.empty()) words.push_back(cur), cur.clear();
    } else {
      cur += c;
    }
  }
  if (!cur.empty()) words.push_back(cur);
  return words;
}

bool is_identifier(std::string_view w) {
  if (w.empty() || !(std::isalpha(static_cast<unsigned char>(w[0])) || w[0] == '_')) return false;
  for (char c : w)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

std::string trim(std::string_view s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return std::string(s.substr(b, e - b));
}

constexpr std::string_view kExpected =
    "expected a pointer to float, double, __half, __nv_bfloat16, __nv_fp8_e4m3, __nv_fp8_e5m2, int64_t, "
    "uint64_t, int32_t, int16_t, int8_t, uint8_t or bool, a scalar int, int64_t, float or double, or cudaStream_t";

Param parse_param(std::string_view text, std::size_t index) {
  auto fail = [&](std::string_view why) {
    return OperatorError(fmt::format("signature parameter {} '{}': {}", index + 1, trim(text), why));
  };
  std::vector<std::string> words = split_words(text);
  bool is_const = false;
  int stars = 0;
  std::string base;
  std::vector<std::string> rest;
  for (const std::string& w : words) {
    if (w == "const") {
      if (stars == 0) is_const = true;  // "float* const" is a const pointer: same call semantics
    } else if (w == "__restrict__" || w == "__restrict" || w == "restrict") {
    } else if (w == "*") {
      ++stars;
    } else if (stars == 0) {
      base += base.empty() ? w : " " + w;
    } else {
      rest.push_back(w);
    }
  }
  // A trailing parameter name ("const float* x") is allowed and ignored.
  if (rest.size() > 1 || (rest.size() == 1 && !is_identifier(rest[0]))) throw fail("unexpected words after '*'");
  if (stars == 0 && !base.empty()) {
    auto sp = base.rfind(' ');
    if (sp != std::string::npos && is_identifier(base.substr(sp + 1))) {
      std::string head = base.substr(0, sp);
      bool head_known = head == "cudaStream_t";
      for (const BaseType& b : kBaseTypes) head_known = head_known || b.spelling == head;
      if (head_known) base = head;
    }
  }
  if (base.empty()) throw fail("missing type");
  if (stars > 1) throw fail("pointers to pointers are not supported");

  Param p;
  if (base == "cudaStream_t") {
    if (stars) throw fail("cudaStream_t must be passed by value");
    p.kind = ParamKind::stream;
    p.c_type = "cudaStream_t";
    return p;
  }
  for (const BaseType& b : kBaseTypes) {
    if (b.spelling != base) continue;
    if (stars == 1) {
      p.kind = ParamKind::pointer;
      p.dtype = b.dtype;
      p.is_const = is_const;
      p.c_type = fmt::format("{}{}*", is_const ? "const " : "", base);
      return p;
    }
    if (!b.scalar) throw fail(fmt::format("'{}' is supported only behind a pointer", base));
    p.kind = *b.scalar;
    p.c_type = base;
    return p;
  }
  throw fail(fmt::format("unsupported type ({})", kExpected));
}

}  // namespace

std::size_t Signature::caller_arity() const {
  std::size_t n = 0;
  for (const Param& p : params) n += p.kind != ParamKind::stream;
  return n;
}

Signature parse_signature(std::string_view text) {
  std::string s = trim(text);
  auto fail = [&](std::string_view why) {
    return OperatorError(fmt::format("signature '{}': {}", s, why));
  };
  auto open = s.find('(');
  if (open == std::string::npos || s.back() != ')') throw fail("expected the form 'void(type, type, ...)'");
  std::string ret = trim(std::string_view(s).substr(0, open));
  if (ret != "void") throw fail(fmt::format("the return type must be void, not '{}'", ret));
  std::string inner = trim(std::string_view(s).substr(open + 1, s.size() - open - 2));
  if (inner.find_first_of("()") != std::string::npos) throw fail("unexpected parenthesis inside the parameter list");

  Signature sig;
  if (!inner.empty() && inner != "void") {
    std::size_t start = 0;
    while (true) {
      auto comma = inner.find(',', start);
      std::string_view part = std::string_view(inner).substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (trim(part).empty()) throw fail(fmt::format("parameter {} is empty", sig.params.size() + 1));
      sig.params.push_back(parse_param(part, sig.params.size()));
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
  }
  int streams = 0;
  for (const Param& p : sig.params) streams += p.kind == ParamKind::stream;
  if (streams > 1) throw fail("at most one cudaStream_t parameter");
  sig.text = "void(";
  for (std::size_t i = 0; i < sig.params.size(); ++i) sig.text += (i ? ", " : "") + sig.params[i].c_type;
  sig.text += ")";
  return sig;
}

}  // namespace rubric::cuda
