#pragma once
// The judge's memory: one JSON Lines file of judgements, each keyed by SHA-256 of (model, prompt)
// and its vote number, so re-grading asks nothing that was asked before and works offline.
// Appends are single writes under an exclusive flock, fsynced; a line that is torn, tampered
// with or not a judgement is skipped with a warning. Processes grading at once (rubric grade)
// share the file: each reads what the others appended before it asks the endpoint.
// Reading indexes lines by their prompt digest without parsing them; a line is parsed and
// verified only when its prompt is looked up, so a grading process that asks a few questions of
// a cache of 100,000 judgements does not parse the other 99,990.
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rubric::judge {

struct CachedVote {
  std::string model;
  bool yes = false;
  std::string reason;
};

class JudgeCache {
 public:
  // The process's one cache for `path` (created on first use; the file itself only when a
  // judgement is stored).
  static std::shared_ptr<JudgeCache> open(const std::string& path);

  explicit JudgeCache(std::string path) : path_(std::move(path)) {}

  const std::string& path() const { return path_; }

  // The judgement of `model` for this prompt and vote (1-based), reading lines other processes
  // appended since the last look.
  std::optional<CachedVote> find(const std::string& model, const std::string& prompt_digest, int vote);
  // Without a model: every model's judgement of this prompt and vote, one per model.
  std::vector<CachedVote> find_any_model(const std::string& prompt_digest, int vote);

  // Appends a judgement. Returns "" or what went wrong (the judgement still counts; only its
  // reuse is lost).
  std::string store(const std::string& model, const std::string& prompt_digest, int vote, const CachedVote& judged,
                    const std::string& question);

  // Warnings about skipped lines since the last call ("FILE:7: ...; the line is skipped").
  std::vector<std::string> take_warnings();

 private:
  void refresh();  // indexes lines appended since the last read (under a shared lock)
  void parse_indexed(const std::string& prompt_digest);  // parses the indexed lines of one prompt
  void add_line(const std::string& line, std::size_t line_number);

  struct LineRef {
    std::uint64_t offset = 0;
    std::uint32_t length = 0;
    std::size_t number = 0;
  };

  std::string path_;
  std::mutex lock_;
  std::uint64_t read_offset_ = 0;  // bytes consumed (whole lines only)
  std::size_t lines_read_ = 0;
  // (prompt digest, vote) → model → judgement; the first line for a key wins.
  std::map<std::pair<std::string, int>, std::map<std::string, CachedVote>> entries_;
  // Lines read but not parsed yet, by prompt digest.
  std::map<std::string, std::vector<LineRef>> unparsed_;
  std::vector<std::string> warnings_;
};

}  // namespace rubric::judge
