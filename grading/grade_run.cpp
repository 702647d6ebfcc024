#include "grading/grade_run.hpp"

#include <iterator>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <stdexcept>

#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "grading/batch_progress.hpp"
#include "grading/batch_summary.hpp"
#include "grading/review_store.hpp"
#include "grading/folder_hash.hpp"
#include "grading/measure_lock.hpp"
#include "grading/process_pool.hpp"
#include "grading/result_line.hpp"
#include "grading/results_file.hpp"
#include "interpreter/engine.hpp"
#include "operators/json/json_reader.hpp"
#include "operators/digest/content_digest.hpp"
#include "report/corpus_html.hpp"
#include "operators/digest/sha256.hpp"
#include "report/terminal_style.hpp"

namespace rubric::grading {
namespace {

namespace fs = std::filesystem;

std::atomic<int> g_stop_signal{0};

extern "C" void on_stop_signal(int sig) { g_stop_signal = sig; }

// SIGINT/SIGTERM stop the batch between events; installed for the run only.
class StopSignals {
 public:
  StopSignals() {
    g_stop_signal = 0;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(SIGINT, &sa, &old_int_);
    ::sigaction(SIGTERM, &sa, &old_term_);
  }
  ~StopSignals() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

// One `rubric grade` writes to an out folder at a time; a second would interleave with it.
class OutFolderLock {
 public:
  explicit OutFolderLock(const std::string& out_dir) {
    const std::string path = (fs::path(out_dir) / ".lock").string();
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw std::runtime_error(fmt::format("cannot create '{}': {}", path, std::strerror(errno)));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0)
      throw std::runtime_error(fmt::format("another `rubric grade` is writing to '{}' (it holds {})", out_dir, path));
  }
  ~OutFolderLock() { ::close(fd_); }
  int fd() const { return fd_; }
  OutFolderLock(const OutFolderLock&) = delete;
  OutFolderLock& operator=(const OutFolderLock&) = delete;

 private:
  int fd_ = -1;
};

std::string absolute_text(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  return (ec ? fs::path(path) : p).lexically_normal().string();
}

std::string reference_root(const GradeSettings& s) {
  if (!s.reference.empty()) return absolute_text(s.reference);
  return fs::path(absolute_text(s.rubric)).parent_path().string();
}

// `judge_model`: the judge's model when the rubric asks one ("" otherwise): another model's
// judgements are other results.
std::string params_sha256(const GradeSettings& s, const std::string& judge_model) {
  std::string text = "rubric-grade-params-1\n";
  for (const auto& [k, v] : s.set_params) text += fmt::format("set {}={}\n", k, v);
  text += fmt::format("seed {}\n", s.seed ? std::to_string(*s.seed) : "-");
  for (const std::string& d : s.include_dirs) text += fmt::format("include {}\n", absolute_text(d));
  text += fmt::format("reference {}\n", reference_root(s));
  if (!judge_model.empty()) text += fmt::format("judge-model {}\n", judge_model);
  return digest::sha256_hex(text);
}

std::string rubric_sha256(const std::vector<FileRecord>& sources) {
  std::string text = "rubric-grade-sources-1\n";
  for (const FileRecord& f : sources) text += fmt::format("{} {}\n", f.digest, f.path);
  return digest::sha256_hex(text);
}

// Folders by identity, kept in the order they were found.
struct FolderIdentities {
  std::vector<std::pair<dev_t, ino_t>> ids;
  using const_iterator = std::vector<std::pair<dev_t, ino_t>>::const_iterator;
  const_iterator begin() const { return ids.begin(); }
  const_iterator end() const { return ids.end(); }
  const_iterator find(const std::pair<dev_t, ino_t>& id) const { return std::find(ids.begin(), ids.end(), id); }
};

// `dir` (resolved) and every folder above it up to the root.
FolderIdentities folder_and_above(const std::string& dir) {
  FolderIdentities out;
  std::error_code ec;
  fs::path p = fs::weakly_canonical(dir, ec);
  if (ec) return out;
  for (;;) {
    struct stat st {};
    if (::stat(p.c_str(), &st) != 0) {
      if (out.ids.empty()) return out;  // no reference folder: no submission is it
    } else {
      out.ids.emplace_back(st.st_dev, st.st_ino);
    }
    if (!p.has_relative_path()) break;
    p = p.parent_path();
  }
  return out;
}

// A submission to grade, and what an earlier run left for it.
struct Pending {
  std::size_t given;  // its index in the submissions as given
  const StoredResult* previous = nullptr;
  bool keep = false;  // --retry-errors: an earlier non-ERROR result is kept without a look
};

// Each given submission's normalized path, computed once (it decides duplicates, the earlier
// result and the order of results.jsonl) and stored only where it differs from the path as
// given: a corpus of paths costs its list once, not once per use.
class NormalizedPaths {
 public:
  explicit NormalizedPaths(const std::vector<std::string>& given) : given_(given) {
    for (std::size_t i = 0; i < given.size(); ++i) {
      std::string norm = normalized_submission_path(given[i]);
      if (norm != given[i]) differs_.emplace(i, std::move(norm));
    }
  }
  const std::string& operator[](std::size_t i) const {
    const auto it = differs_.find(i);
    return it == differs_.end() ? given_[i] : it->second;
  }

 private:
  const std::vector<std::string>& given_;
  std::map<std::size_t, std::string> differs_;
};

// Prints a file as it is (summary.json for --json), a piece at a time.
void copy_to_stdout(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) throw std::runtime_error(fmt::format("cannot read '{}': {}", path, std::strerror(errno)));
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) std::fwrite(buffer, 1, n, stdout);
  std::fclose(f);
}

}  // namespace

unsigned available_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (::sched_getaffinity(0, sizeof set, &set) == 0) {
    const int n = CPU_COUNT(&set);
    if (n > 0) return static_cast<unsigned>(n);
  }
  const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
  return n > 0 ? static_cast<unsigned>(n) : 1;
}

std::vector<std::string> read_submission_list(const std::string& file) {
  std::ifstream f;
  std::istream* in = &std::cin;
  if (file != "-") {
    // A folder is the submissions themselves, not a list of them: say how to give it.
    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
      throw std::runtime_error(fmt::format("--submissions-from '{}' is a folder; it takes a file listing submission folders, "
                                           "one a line (give the folders themselves as arguments: {}/*)",
                                           file, file));
    f.open(file);
    if (!f) throw std::runtime_error(fmt::format("cannot read --submissions-from '{}': {}", file, std::strerror(errno)));
    in = &f;
  }
  // NUL-separated when the text holds a NUL (find -print0, or `grade --slurm` for paths with line
  // breaks); otherwise one path a line.
  const std::string text((std::istreambuf_iterator<char>(*in)), std::istreambuf_iterator<char>());
  const bool nul = text.find('\0') != std::string::npos;
  std::vector<std::string> list;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(nul ? '\0' : '\n', start);
    if (end == std::string::npos) end = text.size();
    std::string entry = text.substr(start, end - start);
    start = end + 1;
    if (!nul && !entry.empty() && entry.back() == '\r') entry.pop_back();
    if (entry.empty() || (!nul && entry.find_first_not_of(" \t") == std::string::npos)) continue;
    list.push_back(std::move(entry));
  }
  return list;
}

int grade(const GradeSettings& s) {
  const auto wall_start = std::chrono::steady_clock::now();
  BatchProvenance prov;
  prov.started_at = utc_now();
  prov.tool_version = s.tool_version;
  prov.rubric_file = s.rubric;
  prov.reference_dir = reference_root(s);
  prov.set_params = s.set_params;
  prov.seed = s.seed;
  prov.include_dirs = s.include_dirs;
  if (s.shard) prov.shard = fmt::format("{}/{}", s.shard->index, s.shard->count);
  const unsigned jobs = s.jobs == 0 ? available_cpus() : s.jobs;
  prov.jobs = jobs;

  // The corpus: each folder once (by its normalized path, the first given kept), then this
  // shard's part of it; indices into s.submissions.
  const NormalizedPaths normalized(s.submissions);
  std::vector<bool> repeated(s.submissions.size(), false);
  {
    std::vector<std::size_t> by_path(s.submissions.size());
    for (std::size_t i = 0; i < by_path.size(); ++i) by_path[i] = i;
    std::stable_sort(by_path.begin(), by_path.end(), [&](std::size_t a, std::size_t b) { return normalized[a] < normalized[b]; });
    for (std::size_t k = 1; k < by_path.size(); ++k)
      if (normalized[by_path[k]] == normalized[by_path[k - 1]]) repeated[by_path[k]] = true;
  }
  std::vector<std::size_t> corpus;
  for (std::size_t i = 0; i < s.submissions.size(); ++i) {
    if (repeated[i]) continue;
    if (s.shard && shard_of(s.submissions[i], s.shard->count) != s.shard->index) continue;
    corpus.push_back(i);
  }
  std::vector<bool>().swap(repeated);

  // Load the rubric once; every grading process inherits the loaded engine.
  EngineOptions options;
  options.include_dirs = s.include_dirs;
  options.set_params = s.set_params;
  options.seed = s.seed;
  options.judge = judge::with_default_cache(s.judge, absolute_text((fs::path(s.out_dir) / "judge-cache.jsonl").string()));
  Engine engine(options);
  guard_measurements(engine);
  const std::vector<Diagnostic> diagnostics = engine.load(s.rubric);
  if (!diagnostics.empty()) {
    std::fflush(stdout);
    fmt::print(stderr, "{}", format_diagnostics(diagnostics, report::colour_wanted(STDERR_FILENO, s.no_color)));
  }
  if (has_errors(diagnostics)) {
    fmt::print(stderr, "rubric grade: '{}' does not load; nothing was graded\n", s.rubric);
    return 2;
  }
  for (const FileRecord& f : engine.sources()) prov.sources.emplace_back(f.path, f.digest);
  CacheKey base_key;
  base_key.rubric_sha256 = rubric_sha256(engine.sources());
  base_key.params_sha256 = params_sha256(s, engine.needs_notes().empty() ? std::string() : judge::resolve(options.judge).model);
  base_key.tool_version = s.tool_version;
  prov.rubric_sha256 = base_key.rubric_sha256;

  std::error_code ec;
  fs::create_directories(s.out_dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create --out folder '{}': {}", s.out_dir, ec.message()));
  OutFolderLock out_lock(s.out_dir);
  const std::string results_path = (fs::path(s.out_dir) / "results.jsonl").string();
  const std::string summary_path = (fs::path(s.out_dir) / "summary.json").string();
  // A run killed while it replaced one of these left its temporary file; the lock makes it stale.
  remove_stale_temporaries(results_path);
  remove_stale_temporaries(summary_path);

  // What earlier runs left, by normalized submission path.
  LoadedResults loaded = load_results(results_path);
  std::map<std::string, const StoredResult*> previous;
  for (const auto& [sub, r] : loaded.latest) previous[normalized_submission_path(sub)] = &r;
  if (loaded.dropped_lines > 0 && !s.quiet)
    fmt::print(stderr, "rubric grade: {} torn or unreadable line{} in '{}' dropped (an interrupted run)\n",
               loaded.dropped_lines, loaded.dropped_lines == 1 ? "" : "s", results_path);

  std::vector<Pending> pending;
  pending.reserve(corpus.size());
  for (std::size_t given : corpus) {
    Pending p{given, nullptr, false};
    auto it = previous.find(normalized[given]);
    if (it != previous.end() && !s.regrade) {
      p.previous = it->second;
      if (s.retry_errors) {
        if (p.previous->verdict == "ERROR") p.previous = nullptr;  // re-graded, whatever its key
        else p.keep = true;
      }
    }
    pending.push_back(p);
  }

  // Reference files the earlier results depend on, hashed once here rather than in every process.
  const std::string ref_root = reference_root(s);
  std::map<std::string, std::string> reference_hashes;
  for (const Pending& p : pending)
    if (p.previous && !p.keep)
      for (const auto& [path, sha] : p.previous->reference_files())
        if (!reference_hashes.count(path)) {
          auto h = digest::content_digest_file((fs::path(ref_root) / path).string());  // as the reports record them
          reference_hashes[path] = h ? *h : std::string();
        }

  // The reference folder and the folders holding it, by identity (device, inode), the reference
  // first: a submission that is one of them is or holds the reference.
  FolderIdentities reference_and_above = folder_and_above(ref_root);
  const std::vector<std::string> devices = measurement_devices();
  BatchProgress progress(stderr, BatchProgress::mode_for_stderr(s.quiet || s.json || s.html), corpus.size());
  if (s.shard) progress.set_prefix(fmt::format("shard {}: ", prov.shard));

  // Spans of every submission's current line, by corpus position (results.jsonl is rewritten
  // from them at the end, one line per submission).
  std::vector<std::optional<LineSpan>> spans(pending.size());
  std::vector<std::size_t> to_run;
  for (std::size_t i = 0; i < pending.size(); ++i) {
    if (pending[i].keep) {
      spans[i] = LineSpan{0, pending[i].previous->offset, pending[i].previous->length};
      ++prov.reused;
      progress.finished(pending[i].previous->verdict, true);
    } else {
      to_run.push_back(i);
    }
  }

  ResultsAppender appender(results_path, loaded.valid_bytes);
  const StopSignals stop_signals;

  // A piece's output: "R" (the earlier result stands), or one byte holding the verdict's
  // OverallVerdict value followed by the result line, so that the parent never looks into the line.
  auto line_output = [](OverallVerdict verdict, std::string line) {
    line.insert(line.begin(), static_cast<char>('0' + static_cast<int>(verdict)));
    return line;
  };
  auto work = [&](std::size_t n) -> std::string {
    const Pending& p = pending[to_run[n]];
    const std::string& submission = s.submissions[p.given];
    const auto start = std::chrono::steady_clock::now();
    LineContext context;
    context.submission = submission;
    context.key = base_key;
    context.graded_at = utc_now();
    auto elapsed = [&] { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(); };
    auto error = [&](const std::string& reason) {
      context.seconds = elapsed();
      return line_output(OverallVerdict::error, format_error_line(context, reason));
    };
    struct stat st {};
    if (::stat(submission.c_str(), &st) != 0 || !S_ISDIR(st.st_mode)) {
      std::error_code e;
      return error(fmt::format("submission '{}' {}", submission, fs::exists(submission, e) ? "is not a folder" : "does not exist"));
    }
    // A corpus entry that is (a link to) the reference folder, or holds it, would grade the
    // reference as a submission: it is no submission. Told by the folder's identity, one stat.
    if (const auto at = reference_and_above.find({st.st_dev, st.st_ino}); at != reference_and_above.end()) {
      const bool is = at == reference_and_above.begin();
      if (is || !s.reference.empty())
        return error(fmt::format("submission '{}' {} the reference folder '{}': not graded", submission,
                                 is ? "is" : "holds", ref_root));
    }
    try {
      context.key.submission_sha256 = hash_folder(submission);
    } catch (const std::exception& ex) {
      return error(fmt::format("cannot hash the submission: {}", ex.what()));
    }
    if (p.previous && p.previous->key() == context.key) {
      bool same = true;
      for (const auto& [path, sha] : p.previous->reference_files()) same = same && reference_hashes[path] == sha;
      if (same) return "R";
    }
    reset_measurement_record();
    const Report report = engine.check(submission, s.reference);
    context.seconds = elapsed();
    context.measurements = measurement_record();
    return line_output(report.verdict, format_result_line(context, report));
  };

  auto done = [&](PieceOutcome&& o) {
    const std::size_t i = to_run[o.index];
    const Pending& p = pending[i];
    if (o.ok && o.output == "R") {
      spans[i] = LineSpan{0, p.previous->offset, p.previous->length};
      ++prov.reused;
      progress.finished(p.previous->verdict, true);
      return;
    }
    OverallVerdict verdict = OverallVerdict::error;
    std::string line;
    const int tag = o.ok && o.output.size() > 1 ? o.output[0] - '0' : -1;
    if (tag >= static_cast<int>(OverallVerdict::pass) && tag <= static_cast<int>(OverallVerdict::incomplete)) {
      verdict = static_cast<OverallVerdict>(tag);
      line = std::move(o.output);
      line.erase(0, 1);
    } else {
      LineContext context;
      context.submission = s.submissions[p.given];
      context.key = base_key;  // no submission hash: never reused, graded again next run
      context.seconds = o.seconds;
      context.graded_at = utc_now();
      line = format_error_line(context, o.ok ? "the grading process wrote no result" : o.failure);
    }
    const std::uint64_t offset = appender.append(line);
    spans[i] = LineSpan{0, offset, line.size()};
    ++prov.graded;
    progress.finished(overall_verdict_name(verdict), false);
  };

  PoolSettings pool;
  pool.jobs = jobs;
  pool.timeout_seconds = s.timeout_seconds;
  pool.tick = [&] { progress.tick(); };
  pool.stop_requested = [] { return g_stop_signal != 0; };
  pool.worker_started = [&](unsigned slot) {
    // The out folder's lock belongs to the batch, not to its workers (a worker outliving a killed
    // batch must not keep the folder locked).
    ::close(out_lock.fd());
    // With several GPUs each worker gets one, and measures under that GPU's lock.
    const std::string& device = devices[slot % devices.size()];
    if (devices.size() > 1) ::setenv("CUDA_VISIBLE_DEVICES", device.substr(3).c_str(), 1);
    set_measurement_lock(measurement_lock_path(device));
  };
  // A worker ends with _exit, which runs no destructor: the engine's state (GPU workers and their
  // scratch folder, started on first use) is released here, in the worker's copy.
  pool.worker_ending = [&] { const Engine finished = std::move(engine); };
  progress.tick();
  const bool finished = run_pieces(to_run.size(), pool, work, done);
  appender.sync();
  progress.tick();
  progress.clear();

  if (!finished) {
    const std::size_t done_count = std::count_if(spans.begin(), spans.end(), [](const auto& sp) { return sp.has_value(); });
    fmt::print(stderr,
               "rubric grade: interrupted; {} of {} submissions have results in '{}'. Run the same command again to "
               "grade the rest.\n",
               done_count, corpus.size(), results_path);
    return 128 + (g_stop_signal != 0 ? static_cast<int>(g_stop_signal) : SIGINT);
  }

  // One line per submission, in path order; lines of submissions outside this corpus are dropped.
  std::vector<std::size_t> order(pending.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return normalized[pending[a].given] < normalized[pending[b].given]; });
  std::vector<LineSpan> ordered;
  for (std::size_t i : order)
    if (spans[i]) ordered.push_back(*spans[i]);
  // The summary reads each line as the rewrite copies it: results.jsonl is read once.
  BatchSummary summary;
  summary.use_reviews(load_reviews(reviews_path(s.out_dir)).history);
  std::size_t line_number = 0;
  rewrite_lines({results_path}, ordered, results_path, [&](std::string_view line) {
    summary.add_text(line, fmt::format("{}:{}", results_path, ++line_number));
  });
  prov.finished_at = utc_now();
  prov.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall_start).count();
  {
    // Streamed to the file: a corpus's list of submissions is never held in memory whole.
    AtomicFileWriter summary_file(summary_path);
    summary.write_json(prov, [&](std::string_view piece) { summary_file.write(piece); });
    summary_file.commit();
  }

  if (s.json) {
    copy_to_stdout(summary_path);
  } else if (s.html) {
    summary.write_html(prov, [](std::string_view piece) { std::fwrite(piece.data(), 1, piece.size(), stdout); });
  } else if (!s.quiet) {
    fmt::print("{}", summary.to_text(prov, s.out_dir, report::colour_wanted(STDOUT_FILENO, s.no_color)));
  }
  std::fflush(stdout);
  return summary.count("ERROR") > 0 || summary.submissions() != corpus.size() ? 2 : 0;
}

}  // namespace rubric::grading
