#pragma once
// The worker protocol: each request and response is a block of "key=value" lines ended by a line
// "end". Values are escaped (\n, \\) so any text fits on one line. Tensors never travel on the
// pipe: they are files in the client's private scratch folder, named in the message.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rubric::cuda {

class Message {
 public:
  Message& set(std::string key, std::string value);
  std::optional<std::string> get(std::string_view key) const;
  // Throws OperatorError naming the key when it is missing.
  std::string require(std::string_view key) const;
  std::string get_or(std::string_view key, std::string fallback) const;
  const std::vector<std::pair<std::string, std::string>>& fields() const { return fields_; }

  std::string encode() const;

 private:
  std::vector<std::pair<std::string, std::string>> fields_;
};

enum class ReadStatus { ok, closed, timed_out, malformed };

// No honest message comes near this (a million samples take about 25 MB); a peer that sends more
// without ending its message is malformed, not a reason to grow without bound.
inline constexpr std::size_t kMaxMessageBytes = 64u << 20;

// Buffered reader over a file descriptor; one per connection.
class MessageReader {
 public:
  explicit MessageReader(int fd) : fd_(fd) {}
  // With no deadline, blocks until a whole message or end of file.
  ReadStatus read(Message& out, std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt);

 private:
  int fd_;
  std::string buffer_;
};

// Writes the whole message; false when the peer is gone (never raises SIGPIPE).
bool write_message(int fd, const Message& m);

std::string join_shape(const std::vector<std::int64_t>& shape);
// Throws OperatorError for malformed text.
std::vector<std::int64_t> parse_shape(std::string_view text);

}  // namespace rubric::cuda
