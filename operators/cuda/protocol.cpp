#include "operators/cuda/protocol.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

#include <fmt/format.h>

#include "operators/error.hpp"

namespace rubric::cuda {

namespace {

std::string escape(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '\\') out += "\\\\";
    else if (c == '\n') out += "\\n";
    else out += c;
  }
  return out;
}

std::string unescape(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '\\' && i + 1 < s.size()) {
      ++i;
      out += s[i] == 'n' ? '\n' : s[i];
    } else {
      out += s[i];
    }
  }
  return out;
}

}  // namespace

Message& Message::set(std::string key, std::string value) {
  for (auto& f : fields_)
    if (f.first == key) {
      f.second = std::move(value);
      return *this;
    }
  fields_.emplace_back(std::move(key), std::move(value));
  return *this;
}

std::optional<std::string> Message::get(std::string_view key) const {
  for (const auto& f : fields_)
    if (f.first == key) return f.second;
  return std::nullopt;
}

std::string Message::require(std::string_view key) const {
  auto v = get(key);
  if (!v) throw OperatorError(fmt::format("worker message lacks the field '{}'", key));
  return *v;
}

std::string Message::get_or(std::string_view key, std::string fallback) const {
  auto v = get(key);
  return v ? *v : fallback;
}

std::string Message::encode() const {
  std::string out;
  for (const auto& f : fields_) out += f.first + "=" + escape(f.second) + "\n";
  return out + "end\n";
}

ReadStatus MessageReader::read(Message& out, std::optional<std::chrono::steady_clock::time_point> deadline) {
  out = Message();
  while (true) {
    // Parse whole lines already buffered.
    std::size_t nl;
    while ((nl = buffer_.find('\n')) != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      if (line == "end") return ReadStatus::ok;
      auto eq = line.find('=');
      if (eq == std::string::npos) return ReadStatus::malformed;
      std::string key = line.substr(0, eq);
      // A key twice is never written by Message::encode: lines spliced in by another writer.
      if (out.get(key)) return ReadStatus::malformed;
      out.set(std::move(key), unescape(std::string_view(line).substr(eq + 1)));
    }
    int wait_ms = -1;
    if (deadline) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
      if (left.count() <= 0) return ReadStatus::timed_out;
      wait_ms = static_cast<int>(std::min<long long>(left.count(), 1 << 30));
    }
    pollfd p{fd_, POLLIN, 0};
    int r = ::poll(&p, 1, wait_ms);
    if (r < 0) {
      if (errno == EINTR) continue;
      return ReadStatus::closed;
    }
    if (r == 0) return ReadStatus::timed_out;
    char chunk[65536];
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return ReadStatus::closed;
    buffer_.append(chunk, static_cast<std::size_t>(n));
    if (buffer_.size() > kMaxMessageBytes) return ReadStatus::malformed;
  }
}

bool write_message(int fd, const Message& m) {
  std::string data = m.encode();
  std::size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

std::string join_shape(const std::vector<std::int64_t>& shape) {
  std::string s;
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? "," : "") + std::to_string(shape[i]);
  return s;
}

std::vector<std::int64_t> parse_shape(std::string_view text) {
  std::vector<std::int64_t> shape;
  if (text.empty()) return shape;
  std::size_t start = 0;
  while (true) {
    auto comma = text.find(',', start);
    std::string part(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    std::size_t used = 0;
    long long v = -1;
    try {
      v = std::stoll(part, &used);
    } catch (...) {
      used = 0;
    }
    if (used != part.size() || v < 0) throw OperatorError(fmt::format("malformed shape '{}'", text));
    shape.push_back(v);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return shape;
}

}  // namespace rubric::cuda
