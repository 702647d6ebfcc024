#include "operators/tensor/json_lite.hpp"

#include <cctype>
#include <cstdlib>
#include <fmt/format.h>

#include "operators/error.hpp"

namespace rubric::tensor::json_lite {
namespace {

class Reader {
 public:
  Reader(std::string_view s, const std::string& what) : s_(s), what_(what) {}

  [[noreturn]] void fail(const std::string& msg) const {
    throw OperatorError(fmt::format("{}: bad JSON header at byte {}: {}", what_, pos_, msg));
  }
  void space() {
    while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\r' || s_[pos_] == '\t')) ++pos_;
  }
  bool accept(char c) {
    space();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!accept(c)) fail(fmt::format("expected '{}'", c));
  }
  Value value(int depth) {
    if (depth > 64) fail("nesting too deep");
    space();
    if (pos_ >= s_.size()) fail("unexpected end of header");
    Value v;
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.kind = Value::Kind::object;
      if (accept('}')) return v;
      do {
        space();
        std::string key = string();
        expect(':');
        v.object.emplace_back(std::move(key), value(depth + 1));
      } while (accept(','));
      expect('}');
    } else if (c == '[') {
      ++pos_;
      v.kind = Value::Kind::array;
      if (accept(']')) return v;
      do v.array.push_back(value(depth + 1));
      while (accept(','));
      expect(']');
    } else if (c == '"') {
      v.kind = Value::Kind::string;
      v.string = string();
    } else if (s_.substr(pos_, 4) == "true" || s_.substr(pos_, 5) == "false") {
      v.kind = Value::Kind::boolean;
      v.boolean = s_[pos_] == 't';
      pos_ += v.boolean ? 4 : 5;
    } else if (s_.substr(pos_, 4) == "null") {
      pos_ += 4;
    } else if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) {
      number(v);
    } else {
      fail(fmt::format("unexpected character '{}'", c));
    }
    return v;
  }
  void finish() {
    space();
    if (pos_ != s_.size()) fail("text after the top-level value");
  }

 private:
  std::string string() {
    if (pos_ >= s_.size() || s_[pos_] != '"') fail("expected a string");
    ++pos_;
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string");
      if (c != '\\') {
        out += c;
        continue;
      }
      if (pos_ >= s_.size()) break;
      c = s_[pos_++];
      switch (c) {
        case '"': case '\\': case '/': out += c; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          if (pos_ + 4 > s_.size()) fail("short \\u escape");
          const unsigned long cp = std::strtoul(std::string(s_.substr(pos_, 4)).c_str(), nullptr, 16);
          pos_ += 4;
          // Encode the code unit as UTF-8 (surrogate pairs are kept as two 3-byte units).
          if (cp < 0x80) out += static_cast<char>(cp);
          else if (cp < 0x800) {
            out += static_cast<char>(0xc0 | (cp >> 6));
            out += static_cast<char>(0x80 | (cp & 0x3f));
          } else {
            out += static_cast<char>(0xe0 | (cp >> 12));
            out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (cp & 0x3f));
          }
          break;
        }
        default: fail(fmt::format("bad escape '\\{}'", c));
      }
    }
    if (pos_ >= s_.size()) fail("unterminated string");
    ++pos_;
    return out;
  }
  void number(Value& v) {
    const std::size_t begin = pos_;
    if (s_[pos_] == '-') ++pos_;
    bool integral = true;
    while (pos_ < s_.size()) {
      const char c = s_[pos_];
      if (std::isdigit(static_cast<unsigned char>(c))) ++pos_;
      else if (c == '.' || c == 'e' || c == 'E' || c == '+' || (c == '-' && pos_ > begin)) {
        integral = false;
        ++pos_;
      } else break;
    }
    const std::string text(s_.substr(begin, pos_ - begin));
    char* end = nullptr;
    v.kind = Value::Kind::number;
    v.number = std::strtod(text.c_str(), &end);
    if (end != text.c_str() + text.size() || text == "-") fail(fmt::format("bad number '{}'", text));
    if (integral) {
      errno = 0;
      v.integer = std::strtoll(text.c_str(), nullptr, 10);
      v.is_integer = errno == 0;
    }
  }

  std::string_view s_;
  const std::string& what_;
  std::size_t pos_ = 0;
};

}  // namespace

const Value* Value::find(std::string_view key) const {
  for (const auto& [k, v] : object) {
    if (k == key) return &v;
  }
  return nullptr;
}

Value parse(std::string_view text, const std::string& what) {
  Reader r(text, what);
  Value v = r.value(0);
  r.finish();
  return v;
}

}  // namespace rubric::tensor::json_lite
