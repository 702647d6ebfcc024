#pragma once
// A small streaming JSON writer with two-space indentation. Strings are escaped per RFC 8259:
// quotes, backslashes and control characters escaped; valid UTF-8 passed through; invalid bytes
// replaced by U+FFFD so the output always parses.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rubric::report {

class JsonWriter {
 public:
  // `one_line`: no line breaks or indentation and no final newline (a JSON Lines record); the
  // separators are otherwise those of the indented form.
  enum class Layout { indented, one_line };
  explicit JsonWriter(Layout layout = Layout::indented) : one_line_(layout == Layout::one_line) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  // The key of the next member; only inside an object.
  void key(std::string_view name);

  void value(std::string_view s);
  void value(const char* s) { value(std::string_view(s)); }
  void value(const std::string& s) { value(std::string_view(s)); }
  void value(double d);  // NaN and infinities become null (JSON has no such numbers)
  void value(std::int64_t i);
  void value(std::uint64_t u);
  void value(int i) { value(static_cast<std::int64_t>(i)); }
  void value(std::uint32_t u) { value(static_cast<std::uint64_t>(u)); }
  void value(bool b);
  void null();
  void value(const std::optional<double>& d);
  // A member: key(name) then value(v).
  template <class T>
  void field(std::string_view name, const T& v) {
    key(name);
    value(v);
  }

  // The document so far, ending with a newline once the top-level value is closed (indented).
  const std::string& str() const { return out_; }
  std::string take() { return std::move(out_); }
  // What was written since the last call, handed over, while the document goes on: a long
  // document streams out in pieces.
  std::string take_written() { return std::exchange(out_, std::string()); }

 private:
  void before_value();
  void newline();

  struct Level {
    bool is_object;
    bool empty = true;
  };
  std::string out_;
  std::vector<Level> stack_;
  bool after_key_ = false;
  bool one_line_ = false;
};

// `s` as a JSON string literal, quotes included.
std::string json_quote(std::string_view s);

}  // namespace rubric::report
