#include "operators/json/json_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <vector>

#include <simdjson.h>

#include "operators/error.hpp"
#include "operators/files/byte_order_mark.hpp"
#include "operators/files/safe_open.hpp"
#include "operators/json/json_quote.hpp"

namespace rubric::json {
namespace {

// Nesting deeper than this is rejected so hostile input cannot exhaust the stack.
constexpr int kMaxDepth = 512;
// Objects up to this many keys find a duplicate key by a scan per key.
constexpr std::size_t kLinearKeyCheck = 16;

class Reader {
 public:
  // `values_left`: the values the document may still hold (shared by the lines of JSON Lines);
  // null for no limit.
  Reader(std::string_view text, std::string_view name, std::size_t first_line = 1, std::size_t* values_left = nullptr,
         std::size_t max_values = 0)
      : text_(text), name_(name), first_line_(first_line), values_left_(values_left), max_values_(max_values) {}

  Value document() {
    skip_ws();
    Value v = value(0);
    skip_ws();
    if (pos_ != text_.size()) fail("unexpected text after the JSON value");
    return v;
  }

 private:
  [[noreturn]] void fail(std::string_view what) const {
    std::size_t line = first_line_, col = 1;
    for (std::size_t i = 0; i < pos_ && i < text_.size(); ++i) {
      if (text_[i] == '\n') { ++line; col = 1; } else { ++col; }
    }
    throw OperatorError(fmt::format("{}:{}:{}: {}", name_, line, col, what));
  }

  bool at_end() const { return pos_ >= text_.size(); }
  char peek() const { return at_end() ? '\0' : text_[pos_]; }

  void skip_ws() {
    while (!at_end() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\n' || text_[pos_] == '\r')) ++pos_;
  }

  void expect_word(std::string_view word) {
    if (text_.substr(pos_, word.size()) != word) fail(fmt::format("invalid literal (expected '{}')", word));
    pos_ += word.size();
  }

  Value value(int depth) {
    if (depth > kMaxDepth) fail("nesting deeper than 512 levels");
    if (values_left_ && (*values_left_)-- == 0)
      fail(fmt::format("more than {} values (the limit for reading JSON)", max_values_));
    if (at_end()) fail("unexpected end of input, expected a value");
    char c = peek();
    switch (c) {
      case '{': return object(depth);
      case '[': return array(depth);
      case '"': return Value{string()};
      case 't': expect_word("true"); return Value{true};
      case 'f': expect_word("false"); return Value{false};
      case 'n': expect_word("null"); return Value{nullptr};
      // Python's json module writes non-finite floats as these words (allow_nan=True, its default).
      case 'N': expect_word("NaN"); return Value{std::numeric_limits<double>::quiet_NaN()};
      case 'I': expect_word("Infinity"); return Value{std::numeric_limits<double>::infinity()};
      default:
        if (c == '-' && text_.substr(pos_, 9) == "-Infinity") {
          pos_ += 9;
          return Value{-std::numeric_limits<double>::infinity()};
        }
        if (c == '-' || (c >= '0' && c <= '9')) return Value{number()};
        fail(fmt::format("unexpected character '{}', expected a value", printable(c)));
    }
  }

  static std::string printable(char c) {
    unsigned char u = static_cast<unsigned char>(c);
    return (u >= 0x20 && u < 0x7f) ? std::string(1, c) : fmt::format("\\x{:02x}", u);
  }

  Value object(int depth) {
    ++pos_;  // '{'
    Object members;
    std::vector<std::size_t> key_positions;  // for a duplicate found once the object is read
    skip_ws();
    if (peek() == '}') { ++pos_; return Value{std::move(members)}; }
    for (;;) {
      skip_ws();
      if (peek() != '"') fail("expected a string key in object");
      std::size_t key_pos = pos_;
      std::string key = string();
      // Small objects are checked as each key arrives; large ones once, sorted, at the end: a
      // scan per key made an object of 200,000 keys (3 MB) take 30 s.
      if (members.size() < kLinearKeyCheck)
        for (const Member& m : members)
          if (m.first == key) { pos_ = key_pos; fail(fmt::format("duplicate key '{}'", key)); }
      key_positions.push_back(key_pos);
      skip_ws();
      if (peek() != ':') fail("expected ':' after object key");
      ++pos_;
      skip_ws();
      Value v = value(depth + 1);
      members.emplace_back(std::move(key), std::move(v));
      skip_ws();
      if (peek() == ',') { ++pos_; continue; }
      if (peek() == '}') {
        ++pos_;
        if (members.size() > kLinearKeyCheck) check_duplicates(members, key_positions);
        return Value{std::move(members)};
      }
      fail("expected ',' or '}' in object");
    }
  }

  // The first key in file order that repeats an earlier one, as the scan per key would report it,
  // in O(n log n).
  void check_duplicates(const Object& members, const std::vector<std::size_t>& key_positions) {
    std::vector<std::size_t> order(members.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      return members[a].first != members[b].first ? members[a].first < members[b].first : a < b;
    });
    std::size_t worst = members.size();
    for (std::size_t i = 1; i < order.size(); ++i)
      if (members[order[i]].first == members[order[i - 1]].first && order[i] < worst) worst = order[i];
    if (worst == members.size()) return;
    pos_ = key_positions[worst];
    fail(fmt::format("duplicate key '{}'", members[worst].first));
  }

  Value array(int depth) {
    ++pos_;  // '['
    Array items;
    skip_ws();
    if (peek() == ']') { ++pos_; return Value{std::move(items)}; }
    for (;;) {
      skip_ws();
      items.push_back(value(depth + 1));
      skip_ws();
      if (peek() == ',') { ++pos_; continue; }
      if (peek() == ']') { ++pos_; return Value{std::move(items)}; }
      fail("expected ',' or ']' in array");
    }
  }

  unsigned hex4() {
    unsigned v = 0;
    for (int i = 0; i < 4; ++i) {
      char c = peek();
      v <<= 4;
      if (c >= '0' && c <= '9') v |= unsigned(c - '0');
      else if (c >= 'a' && c <= 'f') v |= unsigned(c - 'a' + 10);
      else if (c >= 'A' && c <= 'F') v |= unsigned(c - 'A' + 10);
      else fail("invalid \\u escape (expected 4 hex digits)");
      ++pos_;
    }
    return v;
  }

  std::string string() {
    ++pos_;  // opening quote
    std::string out;
    for (;;) {
      if (at_end()) fail("unterminated string");
      char c = text_[pos_];
      if (c == '"') { ++pos_; return out; }
      if (static_cast<unsigned char>(c) < 0x20) fail("control character in string (must be escaped)");
      if (c != '\\') { out += c; ++pos_; continue; }
      ++pos_;
      char e = peek();
      ++pos_;
      switch (e) {
        case '"': out += '"'; break;
        case '\\': out += '\\'; break;
        case '/': out += '/'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'n': out += '\n'; break;
        case 'r': out += '\r'; break;
        case 't': out += '\t'; break;
        case 'u': {
          unsigned cp = hex4();
          if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (text_.substr(pos_, 2) != "\\u") fail("high surrogate not followed by a low surrogate");
            pos_ += 2;
            unsigned lo = hex4();
            if (lo < 0xDC00 || lo > 0xDFFF) fail("high surrogate not followed by a low surrogate");
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          } else if (cp >= 0xDC80 && cp <= 0xDCFF) {
            // A byte that was not UTF-8, escaped as json_quote and Python's surrogateescape write it.
            out += static_cast<char>(cp - 0xDC00);
            break;
          } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
            fail("lone low surrogate in \\u escape");
          }
          append_utf8(out, cp);
          break;
        }
        default: --pos_; fail(fmt::format("invalid escape '\\{}'", printable(e)));
      }
    }
  }

  static bool digit(char c) { return c >= '0' && c <= '9'; }

  double number() {
    std::size_t start = pos_;
    if (peek() == '-') ++pos_;
    if (peek() == '0') {
      ++pos_;
      if (digit(peek())) fail("leading zero in number");
    } else if (digit(peek())) {
      while (digit(peek())) ++pos_;
    } else {
      fail("expected a digit in number");
    }
    if (peek() == '.') {
      ++pos_;
      if (!digit(peek())) fail("expected a digit after '.' in number");
      while (digit(peek())) ++pos_;
    }
    if (peek() == 'e' || peek() == 'E') {
      ++pos_;
      if (peek() == '+' || peek() == '-') ++pos_;
      if (!digit(peek())) fail("expected a digit in exponent");
      while (digit(peek())) ++pos_;
    }
    std::string lexeme(text_.substr(start, pos_ - start));
    errno = 0;
    double v = std::strtod(lexeme.c_str(), nullptr);
    if (errno == ERANGE && (v == HUGE_VAL || v == -HUGE_VAL)) { pos_ = start; fail(fmt::format("number {} out of range", lexeme)); }
    return v;
  }

  std::string_view text_;
  std::string_view name_;
  std::size_t first_line_ = 1;
  std::size_t* values_left_ = nullptr;
  std::size_t max_values_ = 0;
  std::size_t pos_ = 0;
};

// simdjson reads a well-formed document several times faster than Reader; whatever it does not
// take (an error, or what this reader allows beyond RFC 8259: Python's NaN and Infinity, escaped
// non-UTF-8 bytes) goes to Reader, which accepts it or names the file:line:col. It hands a Builder
// what Reader would read: duplicate keys and the value limit send the document to Reader too.
class FastReader {
 public:
  FastReader(std::size_t max_values, Builder& out) : out_(out), values_left_(max_values), limited_(max_values != 0) {}

  // false: Reader decides.
  // `padded`: SIMDJSON_PADDING bytes past the text may be read (their content does not matter).
  bool document(std::string_view text, bool padded = false) {
    simdjson::dom::parser& parser = shared_parser();
    simdjson::dom::element root;
    if (parser.parse(text.data(), text.size(), !padded).get(root) != simdjson::SUCCESS) return false;
    const bool ok = build(root);
    // A large document's buffers are not kept for the rest of the process, only while a lease is held.
    if (buffer_leases == 0) release_large_buffers();
    return ok;
  }

  static void release_large_buffers() {
    simdjson::dom::parser& parser = shared_parser();
    if (parser.capacity() > kKeptCapacity) parser = simdjson::dom::parser();
  }

  static thread_local std::size_t buffer_leases;

 private:
  static constexpr std::size_t kKeptCapacity = 1 << 20;

  static simdjson::dom::parser& shared_parser() {
    // Deeper than Reader allows is Reader's to reject, with its message.
    // (A failed allocation leaves the parser failing every parse: Reader then reads everything.)
    thread_local simdjson::dom::parser parser;
    if (parser.max_depth() != kMaxDepth && parser.allocate(simdjson::SIMDJSON_PADDING, kMaxDepth) != simdjson::SUCCESS)
      parser = simdjson::dom::parser(0);
    return parser;
  }

  bool count() {
    if (!limited_) return true;
    if (values_left_ == 0) return false;
    --values_left_;
    return true;
  }

  bool build(simdjson::dom::element e) {
    if (!count()) return false;
    using T = simdjson::dom::element_type;
    switch (e.type()) {
      case T::OBJECT: {
        simdjson::dom::object object = e.get_object().value_unsafe();
        if (has_duplicate(object)) return false;
        out_.begin_object(object.size());
        for (simdjson::dom::key_value_pair kv : object) {
          out_.key(kv.key);
          if (!build(kv.value)) return false;
        }
        out_.end_object();
        return true;
      }
      case T::ARRAY: {
        simdjson::dom::array array = e.get_array().value_unsafe();
        out_.begin_array(array.size());
        for (simdjson::dom::element item : array)
          if (!build(item)) return false;
        out_.end_array();
        return true;
      }
      case T::STRING: out_.string(e.get_string().value_unsafe()); return true;
      case T::DOUBLE: out_.number(e.get_double().value_unsafe()); return true;
      // An integer reads as strtod reads its digits: the nearest double. "-0" is an integer 0
      // to simdjson but -0.0 to strtod: Reader reads those.
      case T::INT64: out_.number(static_cast<double>(e.get_int64().value_unsafe())); return true;
      case T::UINT64: out_.number(static_cast<double>(e.get_uint64().value_unsafe())); return true;
      case T::BOOL: out_.boolean(e.get_bool().value_unsafe()); return true;
      case T::NULL_VALUE: out_.null(); return true;
    }
    return false;
  }

  static bool has_duplicate(simdjson::dom::object object) {
    if (object.size() <= kLinearKeyCheck) {
      std::string_view keys[kLinearKeyCheck];
      std::size_t n = 0;
      for (simdjson::dom::key_value_pair kv : object) {
        for (std::size_t j = 0; j < n; ++j)
          if (keys[j] == kv.key) return true;
        keys[n++] = kv.key;
      }
      return false;
    }
    std::vector<std::string_view> keys;
    keys.reserve(object.size());
    for (simdjson::dom::key_value_pair kv : object) keys.push_back(kv.key);
    std::sort(keys.begin(), keys.end());
    return std::adjacent_find(keys.begin(), keys.end()) != keys.end();
  }

  Builder& out_;
  std::size_t values_left_;
  bool limited_;
};

thread_local std::size_t FastReader::buffer_leases = 0;

// A json::Value tree from what FastReader hands it.
class TreeBuilder final : public Builder {
 public:
  Value take() { return std::move(root_); }

  void null() override { place(Value{}); }
  void boolean(bool b) override { place(Value{b}); }
  void number(double x) override { place(Value{x}); }
  void string(std::string_view s) override { place(Value{std::string(s)}); }
  void begin_array(std::size_t size) override {
    Array items;
    items.reserve(size);
    open_.push_back(place(Value{std::move(items)}));
  }
  void end_array() override { open_.pop_back(); }
  void begin_object(std::size_t size) override {
    Object members;
    members.reserve(size);
    open_.push_back(place(Value{std::move(members)}));
  }
  void key(std::string_view k) override { std::get<Object>(open_.back()->data).emplace_back(std::string(k), Value{}); }
  void end_object() override { open_.pop_back(); }

 private:
  // Where the next value goes: the root, the next item of the open array, or the member whose key came last.
  Value* place(Value v) {
    if (open_.empty()) {
      root_ = std::move(v);
      return &root_;
    }
    Value& parent = *open_.back();
    if (auto* items = std::get_if<Array>(&parent.data)) return &items->emplace_back(std::move(v));
    Value& slot = std::get<Object>(parent.data).back().second;
    slot = std::move(v);
    return &slot;
  }

  Value root_;
  std::vector<Value*> open_;  // the arrays and objects being filled, innermost last
};

// Below about 64 bytes the careful reader is as fast (0.08 us against 0.10 us for 16 bytes).
constexpr std::size_t kFastFrom = 64;

// Text simdjson may read an integer of as something else than strtod does: a "-0" (an integer 0
// to it, -0.0 to strtod). Rare enough that Reader takes the whole document.
bool has_negative_zero(std::string_view text) {
  for (std::size_t at = text.find("-0"); at != std::string_view::npos; at = text.find("-0", at + 2)) {
    const char before = at > 0 ? text[at - 1] : ' ';
    const char after = at + 2 < text.size() ? text[at + 2] : ' ';
    const bool starts_value = before == ':' || before == '[' || before == ',' || before == ' ' || before == '\t' ||
                              before == '\n' || before == '\r';
    if (starts_value && after != '.' && after != 'e' && after != 'E' && !(after >= '0' && after <= '9')) return true;
  }
  return false;
}

}  // namespace

Value parse(std::string_view text, std::string_view source_name, std::size_t max_values) {
  text = files::without_byte_order_mark(text);
  if (text.size() >= kFastFrom && !has_negative_zero(text)) {
    TreeBuilder tree;
    if (FastReader(max_values, tree).document(text)) return tree.take();
  }
  std::size_t left = max_values;
  return Reader(text, source_name, 1, max_values ? &left : nullptr, max_values).document();
}

std::shared_ptr<const void> keep_parser_buffers() {
  struct Lease {
    Lease() { ++FastReader::buffer_leases; }
    ~Lease() {
      if (--FastReader::buffer_leases == 0) FastReader::release_large_buffers();
    }
  };
  return std::make_shared<const Lease>();
}

bool parse_into(const std::string& text, std::size_t max_values, Builder& out) {
  // Spare capacity past the text (read_capped leaves some) is simdjson's padding: no copy is made.
  const bool padded = text.capacity() - text.size() >= simdjson::SIMDJSON_PADDING;
  const std::string_view view = files::without_byte_order_mark(text);
  return view.size() >= kFastFrom && !has_negative_zero(view) && FastReader(max_values, out).document(view, padded);
}

Array parse_lines(std::string_view text, std::string_view source_name, std::size_t max_values) {
  text = files::without_byte_order_mark(text);
  std::size_t left = max_values;
  Array out;
  std::size_t line = 1, start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view row = text.substr(start, end - start);
    if (row.find_first_not_of(" \t\r") != std::string_view::npos) out.push_back(Reader(row, source_name, line, max_values ? &left : nullptr, max_values).document());
    start = end + 1;
    ++line;
  }
  return out;
}

Value read_file(const std::string& path, std::uint64_t cap) {
  return parse(files::read_capped(path, path, cap, "a JSON file"), path);
}

}  // namespace rubric::json
