#include "operators/tensor/npy_header.hpp"

#include <cctype>
#include <fmt/format.h>

#include "operators/error.hpp"

namespace rubric::tensor {
namespace {

// A recursive-descent reader for the small subset of Python literals numpy writes.
class LiteralReader {
 public:
  LiteralReader(std::string_view text, const std::string& path) : s_(text), path_(path) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw OperatorError(fmt::format("{}: bad .npy header dict at byte {}: {}", path_, pos_, what));
  }
  void skip_space() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool accept(char c) {
    skip_space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(fmt::format("expected '{}'", c));
  }
  bool at_end() {
    skip_space();
    return pos_ == s_.size();
  }
  std::string string() {
    skip_space();
    if (pos_ >= s_.size() || (s_[pos_] != '\'' && s_[pos_] != '"')) fail("expected a quoted string");
    const char quote = s_[pos_++];
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != quote) {
      if (s_[pos_] == '\\') fail("escapes are not supported in header strings");
      out += s_[pos_++];
    }
    if (pos_ >= s_.size()) fail("unterminated string");
    ++pos_;
    return out;
  }
  bool boolean() {
    skip_space();
    if (s_.substr(pos_, 4) == "True") {
      pos_ += 4;
      return true;
    }
    if (s_.substr(pos_, 5) == "False") {
      pos_ += 5;
      return false;
    }
    fail("expected True or False");
  }
  std::int64_t integer() {
    skip_space();
    const std::size_t begin = pos_;
    std::int64_t v = 0;
    while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
      const int digit = s_[pos_++] - '0';
      if (v > (INT64_MAX - digit) / 10) fail("dimension too large");
      v = v * 10 + digit;
    }
    if (pos_ == begin) fail("expected a non-negative integer");
    if (pos_ < s_.size() && (s_[pos_] == 'L' || s_[pos_] == 'l')) ++pos_;  // Python 2 long suffix
    return v;
  }
  Shape tuple() {
    expect('(');
    Shape shape;
    if (accept(')')) return shape;
    for (;;) {
      shape.push_back(integer());
      if (accept(')')) return shape;
      expect(',');
      if (accept(')')) return shape;
    }
  }

 private:
  std::string_view s_;
  const std::string& path_;
  std::size_t pos_ = 0;
};

}  // namespace

NpyHeader parse_npy_header(std::string_view text, const std::string& path) {
  LiteralReader r(text, path);
  NpyHeader h;
  bool seen_descr = false, seen_order = false, seen_shape = false;
  r.expect('{');
  while (!r.accept('}')) {
    const std::string key = r.string();
    r.expect(':');
    if (key == "descr") {
      if (r.accept('[')) r.fail("structured dtypes (a descr list) are not supported");
      h.descr = r.string();
      seen_descr = true;
    } else if (key == "fortran_order") {
      h.fortran_order = r.boolean();
      seen_order = true;
    } else if (key == "shape") {
      h.shape = r.tuple();
      seen_shape = true;
    } else {
      r.fail(fmt::format("unexpected key '{}'", key));
    }
    if (!r.accept(',')) {
      r.expect('}');
      break;
    }
  }
  if (!r.at_end()) r.fail("text after the closing brace");
  if (!seen_descr) throw OperatorError(fmt::format("{}: .npy header has no 'descr'", path));
  if (!seen_order) throw OperatorError(fmt::format("{}: .npy header has no 'fortran_order'", path));
  if (!seen_shape) throw OperatorError(fmt::format("{}: .npy header has no 'shape'", path));
  return h;
}

std::string format_npy_header(const NpyHeader& header) {
  std::string shape = "(";
  for (std::size_t i = 0; i < header.shape.size(); ++i) {
    shape += fmt::format("{}{}", i ? ", " : "", header.shape[i]);
  }
  if (header.shape.size() == 1) shape += ",";
  shape += ")";
  return fmt::format("{{'descr': '{}', 'fortran_order': {}, 'shape': {}, }}", header.descr,
                     header.fortran_order ? "True" : "False", shape);
}

}  // namespace rubric::tensor
