#pragma once
// An RFC 8259 JSON reader that also takes Python's non-finite numbers (NaN, Infinity, -Infinity,
// which Python's json module writes by default). Malformed input throws OperatorError
// "name:line:col: what is wrong".
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "operators/json/json_value.hpp"

namespace rubric::json {

// `source_name` is used only in error messages (a file path, or "stdout of run 3"). With
// `max_values` (0: no limit), a document of more values (numbers, strings, arrays, objects...)
// throws "name:line:col: more than N values (the limit for reading JSON)": each value costs tens
// of bytes once read, so the bound is one on memory.
Value parse(std::string_view text, std::string_view source_name, std::size_t max_values = 0);

// Receives a document's values in document order: a reader of JSON into values of its own,
// without a json::Value tree in between. A key comes before its member's value.
class Builder {
 public:
  virtual ~Builder() = default;
  virtual void null() = 0;
  virtual void boolean(bool b) = 0;
  virtual void number(double x) = 0;
  virtual void string(std::string_view s) = 0;
  virtual void begin_array(std::size_t size) = 0;
  virtual void end_array() = 0;
  virtual void begin_object(std::size_t size) = 0;
  virtual void key(std::string_view k) = 0;
  virtual void end_object() = 0;
};
// Hands `out` the document when the fast reader takes it (RFC 8259 JSON with unique keys, within
// `max_values`, from 64 bytes) and returns true. Otherwise returns false, `out` holding part of
// it: parse() then reads the document, or names what is wrong in it. The text is read in place
// when the string has 64 bytes of spare capacity past it (as read_capped leaves), else copied.
bool parse_into(const std::string& text, std::size_t max_values, Builder& out);
// While the returned lease is held (by one thread, which also drops it), the fast reader keeps a
// large document's buffers for the next document instead of releasing them after each: a check
// reading two 31 MB files then allocates and touches them once.
std::shared_ptr<const void> keep_parser_buffers();
// JSON Lines: one document per non-blank line, in order; errors name the line in the whole text.
// `max_values` bounds all the lines together.
Array parse_lines(std::string_view text, std::string_view source_name, std::size_t max_values = 0);

// Reads and parses a whole file; an unreadable file is an OperatorError naming it.
// The file must be a regular file of at most `cap` bytes (a FIFO or a larger file throws
// OperatorError naming it, before anything is read).
Value read_file(const std::string& path, std::uint64_t cap = 256ull << 20);

}  // namespace rubric::json
