#include "grading/review_store.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "operators/json/json_quote.hpp"
#include "operators/json/json_reader.hpp"

namespace rubric::grading {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool blank(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](unsigned char c) { return std::isspace(c); });
}

std::string text_field(const json::Value& record, const char* name, bool required) {
  const json::Value* v = record.find(name);
  if (!v || v->is_null()) {
    if (required) throw std::runtime_error(fmt::format("no '{}'", name));
    return "";
  }
  if (!v->is_string()) throw std::runtime_error(fmt::format("'{}' is not a string", name));
  return v->as_string();
}

// Closes the descriptor, and with it the lock, on every path out.
struct LockedFile {
  int fd;
  ~LockedFile() { ::close(fd); }
};

void write_all(int fd, const std::string& bytes, const std::string& path) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error(fmt::format("cannot write '{}': {}", path, std::strerror(errno)));
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

const char* grader_verdict_name(GraderVerdict v) {
  switch (v) {
    case GraderVerdict::agree: return "agree";
    case GraderVerdict::pass: return "PASS";
    case GraderVerdict::fail: return "FAIL";
    case GraderVerdict::cannot_tell: return "cannot tell";
  }
  return "agree";
}

std::optional<GraderVerdict> parse_grader_verdict(std::string_view text) {
  const std::string t = lower(text);
  if (t == "agree") return GraderVerdict::agree;
  if (t == "pass") return GraderVerdict::pass;
  if (t == "fail") return GraderVerdict::fail;
  if (t == "cannot tell" || t == "cannot-tell" || t == "cannot_tell") return GraderVerdict::cannot_tell;
  return std::nullopt;
}

bool Review::overrules() const {
  return (verdict == GraderVerdict::pass && tool_verdict != "PASS") ||
         (verdict == GraderVerdict::fail && tool_verdict != "FAIL");
}

std::optional<std::string> Review::final_verdict() const {
  switch (verdict) {
    case GraderVerdict::agree: return tool_verdict;
    case GraderVerdict::pass: return std::string("PASS");
    case GraderVerdict::fail: return std::string("FAIL");
    case GraderVerdict::cannot_tell: return std::nullopt;
  }
  return std::nullopt;
}

std::string review_problem(const Review& r) {
  if (r.submission.empty()) return "no submission";
  if (r.criterion.empty()) return "no criterion";
  if (r.reviewer.empty() || blank(r.reviewer)) return "no reviewer";
  if (r.tool_verdict.empty()) return "no tool verdict";
  if (r.overrules() && blank(r.justification))
    return fmt::format("overruling the tool's {} with {} needs a justification (--why)", r.tool_verdict,
                       grader_verdict_name(r.verdict));
  return "";
}

std::string format_review_line(const Review& r) {
  const auto field = [](const char* name, const std::string& value) {
    return fmt::format("\"{}\":{}", name, json::json_quote(value));
  };
  return "{" + field("submission", r.submission) + "," + field("criterion", r.criterion) + "," +
         field("verdict", grader_verdict_name(r.verdict)) + "," + field("justification", r.justification) + "," +
         field("reviewer", r.reviewer) + "," + field("time", r.time) + "," + field("tool_verdict", r.tool_verdict) +
         "," + field("rubric_sha256", r.rubric_sha256) + "," + field("submission_sha256", r.submission_sha256) +
         ",\"blind\":" + (r.blind ? "true" : "false") + "}";
}

Review review_of(const json::Value& record) {
  if (!record.is_object()) throw std::runtime_error("a review is a JSON object");
  Review r;
  r.submission = text_field(record, "submission", true);
  r.criterion = text_field(record, "criterion", true);
  const std::string verdict = text_field(record, "verdict", true);
  const auto parsed = parse_grader_verdict(verdict);
  if (!parsed)
    throw std::runtime_error(fmt::format("verdict '{}' is not agree, PASS, FAIL or cannot tell", verdict));
  r.verdict = *parsed;
  r.justification = text_field(record, "justification", false);
  r.reviewer = text_field(record, "reviewer", false);
  r.time = text_field(record, "time", false);
  r.tool_verdict = text_field(record, "tool_verdict", false);
  r.rubric_sha256 = text_field(record, "rubric_sha256", false);
  r.submission_sha256 = text_field(record, "submission_sha256", false);
  const json::Value* blind = record.find("blind");
  if (blind && !blind->is_null() && !blind->is_bool()) throw std::runtime_error("'blind' is not true or false");
  r.blind = blind && blind->is_bool() && blind->as_bool();
  return r;
}

void append_reviews(const std::string& path, const std::vector<Review>& reviews) {
  std::string bytes;
  for (const Review& r : reviews) bytes += format_review_line(r) + "\n";
  if (bytes.empty()) return;
  LockedFile file{::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644)};
  if (file.fd < 0) throw std::runtime_error(fmt::format("cannot open '{}': {}", path, std::strerror(errno)));
  while (::flock(file.fd, LOCK_EX) != 0)
    if (errno != EINTR) throw std::runtime_error(fmt::format("cannot lock '{}': {}", path, std::strerror(errno)));
  struct stat st {};
  if (::fstat(file.fd, &st) == 0 && st.st_size > 0) {
    const int reader = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    char last = '\n';
    if (reader >= 0) {
      if (::pread(reader, &last, 1, st.st_size - 1) != 1) last = '\n';
      ::close(reader);
    }
    if (last != '\n') bytes.insert(bytes.begin(), '\n');
  }
  write_all(file.fd, bytes, path);
  if (::fdatasync(file.fd) != 0)
    throw std::runtime_error(fmt::format("cannot make '{}' durable: {}", path, std::strerror(errno)));
}

LoadedReviews load_reviews(const std::string& path) {
  LoadedReviews loaded;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::error_code ec;
    if (std::filesystem::exists(path, ec)) throw std::runtime_error(fmt::format("cannot read '{}'", path));
    return loaded;
  }
  std::ostringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = text.find('\n', start);
    if (end == std::string::npos) {  // no newline yet: torn, or being written
      ++loaded.dropped;
      break;
    }
    const std::string_view line(text.data() + start, end - start);
    start = end + 1;
    if (line.empty()) continue;
    try {
      loaded.history.push_back(review_of(json::parse(line, path)));
    } catch (const std::exception&) {
      ++loaded.dropped;
    }
  }
  return loaded;
}

std::map<std::pair<std::string, std::string>, Review> latest_reviews(const std::vector<Review>& history) {
  std::map<std::pair<std::string, std::string>, Review> latest;
  for (const Review& r : history) latest[{r.submission, r.criterion}] = r;
  return latest;
}

std::string reviews_path(const std::string& out_dir) {
  return (std::filesystem::path(out_dir) / "reviews.jsonl").string();
}

}  // namespace rubric::grading
