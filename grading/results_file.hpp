#pragma once
// results.jsonl on disk: read back what an earlier (possibly killed) run left, append finished
// lines durably, and rewrite the file atomically. A kill at any moment leaves every finished line
// and a file that parses line by line; a torn last line is dropped on the next load.
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string_view>
#include <thread>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "operators/json/json_value.hpp"

namespace rubric::grading {

// What a result line is keyed by: the same key means the same result.
struct CacheKey {
  std::string rubric_sha256;      // the rubric and every module it loaded from disk
  std::string submission_sha256;  // grading/folder_hash.hpp
  std::string params_sha256;      // --set, --seed, -I, the reference folder
  std::string tool_version;
  bool operator==(const CacheKey& o) const {
    return rubric_sha256 == o.rubric_sha256 && submission_sha256 == o.submission_sha256 &&
           params_sha256 == o.params_sha256 && tool_version == o.tool_version;
  }
};

// What the lines of one run share: the rubric's, the parameters' and the tool's keys and the
// reference files read. Held once per distinct value however many lines carry it, so that an
// index of 300,000 earlier results costs little more than their paths.
struct RunKey {
  std::string rubric_sha256;
  std::string params_sha256;
  std::string tool_version;
  std::vector<std::pair<std::string, std::string>> reference_files;  // path in the reference folder, xxh3-128
};

// One line of an earlier run, as much as deciding about it needs; the text stays on disk.
struct StoredResult {
  std::string verdict;     // PASS, FAIL, ERROR, INCOMPLETE
  std::string submission_sha256;
  std::shared_ptr<const RunKey> run;  // never null
  std::uint64_t offset = 0;  // the line's bytes in its file, newline excluded
  std::uint64_t length = 0;

  CacheKey key() const { return CacheKey{run->rubric_sha256, submission_sha256, run->params_sha256, run->tool_version}; }
  const std::vector<std::pair<std::string, std::string>>& reference_files() const { return run->reference_files; }
};

struct LoadedResults {
  std::map<std::string, StoredResult> latest;  // by submission as given; a later line replaces an earlier one
  std::uint64_t valid_bytes = 0;               // the prefix ending with the last line that parses
  std::size_t dropped_lines = 0;               // torn or unparsable lines skipped
};

// Reads `path` (a missing file is empty). Never throws for bad content, only for an unreadable file.
LoadedResults load_results(const std::string& path);


// Appends lines to results.jsonl, each written whole with one write(2). A background thread makes
// them durable (fdatasync) as they come, the lines of kGroupCommit together, so grading never
// waits for the disk; sync() waits until every line appended so far is on disk. (The thread
// touches nothing a forked process uses.)
class ResultsAppender {
 public:
  // Cuts the file to `valid_bytes` first (a torn tail), creating it when missing.
  ResultsAppender(std::string path, std::uint64_t valid_bytes);
  ~ResultsAppender();
  ResultsAppender(const ResultsAppender&) = delete;
  ResultsAppender& operator=(const ResultsAppender&) = delete;

  // Returns the offset the line starts at. `line` holds no newline.
  std::uint64_t append(const std::string& line);
  void sync();

 private:
  void sync_loop();

  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;     // bytes written
  std::mutex mutex_;
  std::condition_variable changed_;
  std::uint64_t durable_ = 0;  // bytes known to be on disk
  int waiting_ = 0;            // callers of sync() waiting: no group commit delay then
  static constexpr std::chrono::milliseconds kGroupCommit{20};
  bool stopping_ = false;
  std::string sync_error_;     // the syncer's failure, reported by the next append or sync
  std::thread syncer_;
};

// Removes the temporary files ("PATH.tmp.PID") that writers of `path` killed before their rename
// left; the caller holds the folder's lock, so no live writer owns one.
void remove_stale_temporaries(const std::string& path);

// Writes `content` to `path` through a temporary file in the same folder, fsync and rename, so a
// reader sees the old file or the new one, never a mix.
void write_file_atomically(const std::string& path, const std::string& content);

// The same, for content written in pieces: nothing replaces `path` until commit(); a writer
// destroyed before it removes its temporary file.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  void write(std::string_view piece);
  void commit();

 private:
  std::string path_, temp_;
  int fd_ = -1;
};

// A line in one of several files: which file, where, how long (newline excluded).
struct LineSpan {
  std::size_t source = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
};

// Writes `path` to hold exactly the lines at `spans` of `sources`, in that order, atomically. A
// source may be `path` itself. `each_line`, when given, sees every line (newline excluded) as it
// is copied, so that a summary needs no second read of the file.
void rewrite_lines(const std::vector<std::string>& sources, const std::vector<LineSpan>& spans, const std::string& path,
                   const std::function<void(std::string_view)>& each_line = {});

}  // namespace rubric::grading
