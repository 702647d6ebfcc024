#include "operators/judge/judge_cache.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>

#include "operators/error.hpp"
#include "operators/json/json_reader.hpp"
#include "operators/judge/judge_prompt.hpp"
#include "operators/judge/judge_reply.hpp"
#include "operators/json/json_quote.hpp"

namespace rubric::judge {

namespace {

// Holds a flock for its lifetime; the descriptor stays the caller's.
class FileLock {
 public:
  FileLock(int fd, int how) : fd_(fd) {
    while (::flock(fd_, how) != 0 && errno == EINTR) {
    }
  }
  ~FileLock() { ::flock(fd_, LOCK_UN); }
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_;
};

bool is_hex_digest(const std::string& s) {
  if (s.size() != 64) return false;
  for (char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string utc_now() {
  std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

bool write_all(int fd, const std::string& s) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

std::shared_ptr<JudgeCache> JudgeCache::open(const std::string& path) {
  static std::mutex registry_lock;
  static std::map<std::string, std::shared_ptr<JudgeCache>> caches;
  std::lock_guard<std::mutex> hold(registry_lock);
  auto& slot = caches[path];
  if (!slot) slot = std::make_shared<JudgeCache>(path);
  return slot;
}

void JudgeCache::add_line(const std::string& line, std::size_t line_number) {
  auto skip = [&](const std::string& why) {
    warnings_.push_back(fmt::format("{}:{}: {}; the line is skipped", path_, line_number, why));
  };
  if (line.find_first_not_of(" \t\r") == std::string::npos) return;
  json::Value doc;
  try {
    doc = json::parse(line, "line");
  } catch (const OperatorError&) {
    return skip("not JSON (a torn or edited line)");
  }
  auto str = [&](const char* k) -> const std::string* {
    const json::Value* v = doc.find(k);
    return v && v->is_string() ? &v->as_string() : nullptr;
  };
  const std::string *key = str("key"), *prompt = str("prompt"), *model = str("model"), *answer = str("answer"),
                    *reason = str("reason");
  const json::Value* vote = doc.find("vote");
  if (!doc.is_object() || !key || !prompt || !model || !answer || !vote || !vote->is_number())
    return skip("not a judgement (it needs key, prompt, model, vote, answer)");
  if (!is_hex_digest(*key) || !is_hex_digest(*prompt)) return skip("key and prompt must be SHA-256 digests in hex");
  if (model->empty()) return skip("an empty model");
  const double v = vote->as_number();
  if (!(v >= 1 && v <= 1000 && v == static_cast<int>(v))) return skip("vote must be a whole number from 1");
  if (*answer != "yes" && *answer != "no") return skip(fmt::format("answer '{}' is neither yes nor no", excerpt(*answer, 40)));
  if (judgement_key(*model, *prompt) != *key) return skip("its key is not the digest of its model and prompt");
  auto& per_model = entries_[{*prompt, static_cast<int>(v)}];
  per_model.emplace(*model, CachedVote{*model, *answer == "yes", reason ? excerpt(*reason, kMaxReasonBytes) : std::string()});
}

namespace {

// The prompt digest of a cache line, found without parsing it: the 64 hex digits after
// "prompt":"; "" when there is none (the line is then parsed at once, to say what is wrong).
std::string prompt_of(std::string_view line) {
  auto at = line.find("\"prompt\"");
  if (at == std::string_view::npos) return "";
  at += 8;
  while (at < line.size() && (line[at] == ' ' || line[at] == ':' || line[at] == '\t')) ++at;
  if (at >= line.size() || line[at] != '"' || at + 65 > line.size()) return "";
  std::string digest(line.substr(at + 1, 64));
  return is_hex_digest(digest) ? digest : "";
}

}  // namespace

void JudgeCache::refresh() {
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    if (errno != ENOENT) warnings_.push_back(fmt::format("{}: cannot be read ({}); no judgement is reused", path_, std::strerror(errno)));
    return;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    warnings_.push_back(fmt::format("{}: not a regular file; no judgement is reused", path_));
    ::close(fd);
    return;
  }
  {
    FileLock shared(fd, LOCK_SH);
    if (::fstat(fd, &st) == 0 && st.st_size < static_cast<off_t>(read_offset_)) {
      // Replaced by a shorter file: what was parsed stays known, the rest is read again.
      read_offset_ = 0;
      lines_read_ = 0;
      unparsed_.clear();
    }
    std::string pending;  // the start of a line not yet ended
    std::uint64_t pending_at = read_offset_;
    std::vector<char> buf(1 << 20);
    std::uint64_t at = read_offset_;
    for (;;) {
      const ssize_t n = ::pread(fd, buf.data(), buf.size(), static_cast<off_t>(at));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      std::string_view chunk(buf.data(), static_cast<std::size_t>(n));
      std::size_t start = 0;
      for (auto nl = chunk.find('\n'); nl != std::string_view::npos; nl = chunk.find('\n', start)) {
        std::string_view piece = chunk.substr(start, nl - start);
        std::string joined;
        if (!pending.empty()) {
          joined = std::move(pending) + std::string(piece);
          pending.clear();
          piece = joined;
        }
        ++lines_read_;
        const std::uint64_t line_at = pending_at;
        std::string digest = prompt_of(piece);
        if (digest.empty() || piece.size() > UINT32_MAX) add_line(std::string(piece), lines_read_);
        else unparsed_[digest].push_back(LineRef{line_at, static_cast<std::uint32_t>(piece.size()), lines_read_});
        pending_at = line_at + piece.size() + 1;
        start = nl + 1;
      }
      pending.append(chunk.substr(start));
      at += static_cast<std::uint64_t>(n);
    }
    // A last line without its newline is a torn write (or one in progress): left for later.
    read_offset_ = pending_at;
  }
  ::close(fd);
}

void JudgeCache::parse_indexed(const std::string& prompt_digest) {
  auto it = unparsed_.find(prompt_digest);
  if (it == unparsed_.end()) return;
  std::vector<LineRef> refs = std::move(it->second);
  unparsed_.erase(it);
  const int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  for (const LineRef& r : refs) {
    std::string line(r.length, '\0');
    std::size_t got = 0;
    while (got < line.size()) {
      const ssize_t n = ::pread(fd, line.data() + got, line.size() - got, static_cast<off_t>(r.offset + got));
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<std::size_t>(n);
    }
    line.resize(got);
    add_line(line, r.number);
  }
  ::close(fd);
}

std::optional<CachedVote> JudgeCache::find(const std::string& model, const std::string& prompt_digest, int vote) {
  std::lock_guard<std::mutex> hold(lock_);
  auto look = [&]() -> std::optional<CachedVote> {
    auto it = entries_.find({prompt_digest, vote});
    if (it == entries_.end()) return std::nullopt;
    auto m = it->second.find(model);
    if (m == it->second.end()) return std::nullopt;
    return m->second;
  };
  parse_indexed(prompt_digest);
  if (auto hit = look()) return hit;
  refresh();
  parse_indexed(prompt_digest);
  return look();
}

std::vector<CachedVote> JudgeCache::find_any_model(const std::string& prompt_digest, int vote) {
  std::lock_guard<std::mutex> hold(lock_);
  refresh();
  parse_indexed(prompt_digest);
  std::vector<CachedVote> out;
  auto it = entries_.find({prompt_digest, vote});
  if (it != entries_.end())
    for (const auto& [model, judged] : it->second) out.push_back(judged);
  return out;
}

std::string JudgeCache::store(const std::string& model, const std::string& prompt_digest, int vote, const CachedVote& judged,
                              const std::string& question) {
  std::lock_guard<std::mutex> hold(lock_);
  entries_[{prompt_digest, vote}].emplace(model, judged);
  const std::string line =
      fmt::format("{{\"key\":\"{}\",\"prompt\":\"{}\",\"model\":{},\"vote\":{},\"answer\":\"{}\",\"reason\":{},\"question\":{},"
                  "\"time\":\"{}\"}}\n",
                  judgement_key(model, prompt_digest), prompt_digest, json::json_quote(model), vote, judged.yes ? "yes" : "no",
                  json::json_quote(judged.reason), json::json_quote(excerpt(question, 2000)), utc_now());
  std::error_code ec;
  const auto parent = std::filesystem::path(path_).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent, ec);
  const int fd = ::open(path_.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return fmt::format("cannot write the judge cache {}: {}", path_, std::strerror(errno));
  std::string failure;
  {
    FileLock exclusive(fd, LOCK_EX);
    // A torn last line (a writer that died mid-line) must not swallow this one.
    std::string text = line;
    struct stat st {};
    if (::fstat(fd, &st) == 0 && st.st_size > 0) {
      char last = '\n';
      const int rfd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
      if (rfd >= 0) {
        if (::pread(rfd, &last, 1, st.st_size - 1) != 1) last = '\n';
        ::close(rfd);
      }
      if (last != '\n') text.insert(text.begin(), '\n');
    }
    if (!write_all(fd, text) || ::fsync(fd) != 0)
      failure = fmt::format("cannot write the judge cache {}: {}", path_, std::strerror(errno));
  }
  ::close(fd);
  return failure;
}

std::vector<std::string> JudgeCache::take_warnings() {
  std::lock_guard<std::mutex> hold(lock_);
  return std::exchange(warnings_, {});
}

}  // namespace rubric::judge
