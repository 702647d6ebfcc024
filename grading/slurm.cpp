#include "grading/slurm.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "grading/batch_progress.hpp"
#include "grading/merge.hpp"
#include "grading/results_file.hpp"
#include "grading/shard.hpp"
#include "interpreter/engine.hpp"
#include "report/terminal_style.hpp"

namespace rubric::grading {
namespace {

namespace fs = std::filesystem;

struct CommandResult {
  int status = -1;  // exit status, or -1 when it could not run / was killed
  std::string out;
  std::string err;
};

// Runs argv (found on PATH) and collects what it printed; stderr goes through a file so that
// neither pipe can fill up while the other is read.
CommandResult run_command(const std::vector<std::string>& argv, const std::string& scratch_dir) {
  CommandResult r;
  const std::string err_path = (fs::path(scratch_dir) / fmt::format(".stderr.{}", ::getpid())).string();
  int out_pipe[2];
  if (::pipe2(out_pipe, O_CLOEXEC) != 0) throw std::runtime_error(fmt::format("pipe: {}", std::strerror(errno)));
  std::fflush(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(fmt::format("fork: {}", std::strerror(errno)));
  if (pid == 0) {
    ::dup2(out_pipe[1], STDOUT_FILENO);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (err >= 0) ::dup2(err, STDERR_FILENO);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    ::execvp(args[0], args.data());
    std::fprintf(stderr, "cannot run %s: %s\n", args[0], std::strerror(errno));
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  char buffer[4096];
  for (;;) {
    const ssize_t n = ::read(out_pipe[0], buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    r.out.append(buffer, static_cast<std::size_t>(n));
  }
  ::close(out_pipe[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (std::FILE* f = std::fopen(err_path.c_str(), "rb")) {
    std::size_t n;
    while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) r.err.append(buffer, n);
    std::fclose(f);
  }
  ::unlink(err_path.c_str());
  return r;
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  std::size_t i = 0;
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  return s.substr(i);
}

std::string self_executable() {
  std::error_code ec;
  const fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the rubric executable (/proc/self/exe)");
  return p.string();
}

bool is_terminal(const std::string& state) {
  static const std::set<std::string> terminal = {"COMPLETED", "FAILED",  "CANCELLED", "TIMEOUT",       "NODE_FAIL",
                                                 "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "REVOKED"};
  return terminal.count(state) > 0;
}

// States in which the cluster, not the grading, lost the task: worth one more try.
bool cluster_failure(const std::string& state) {
  return state == "NODE_FAIL" || state == "PREEMPTED" || state == "BOOT_FAIL";
}

// How many lines the shards' results files hold (progress only).
std::size_t count_lines(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return 0;
  std::size_t lines = 0;
  char buffer[1 << 16];
  std::size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) lines += static_cast<std::size_t>(std::count(buffer, buffer + n, '\n'));
  std::fclose(f);
  return lines;
}

std::string submit(const std::vector<std::string>& sbatch_args, const std::string& array, const std::string& script,
                   const std::string& scratch) {
  std::vector<std::string> argv = {"sbatch", "--parsable"};
  argv.insert(argv.end(), sbatch_args.begin(), sbatch_args.end());
  if (!array.empty()) argv.push_back("--array=" + array);
  argv.push_back(script);
  const CommandResult r = run_command(argv, scratch);
  if (r.status != 0)
    throw std::runtime_error(fmt::format("sbatch failed (status {}): {}", r.status, trim(r.err.empty() ? r.out : r.err)));
  std::string id = trim(r.out);
  id = id.substr(0, id.find(';'));  // "123;cluster"
  if (id.empty() || id.find_first_not_of("0123456789") != std::string::npos)
    throw std::runtime_error(fmt::format("sbatch printed no job id: '{}'", trim(r.out)));
  return id;
}

}  // namespace

std::vector<std::string> split_arguments(const std::string& text) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      else if (c == '\\' && quote == '"' && i + 1 < text.size()) word += text[++i];
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == '\\' && i + 1 < text.size()) {
      word += text[++i];
      in_word = true;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote) throw std::invalid_argument(fmt::format("--slurm-args '{}': unterminated {} quote", text, quote));
  if (in_word) words.push_back(word);
  return words;
}

std::map<unsigned, TaskState> parse_scontrol_tasks(const std::string& output) {
  std::map<unsigned, TaskState> tasks;
  std::istringstream lines(output);
  std::string line;
  while (std::getline(lines, line)) {
    std::map<std::string, std::string> fields;
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      const auto eq = word.find('=');
      if (eq != std::string::npos) fields.emplace(word.substr(0, eq), word.substr(eq + 1));
    }
    if (!fields.count("ArrayTaskId") || !fields.count("JobState")) continue;
    TaskState st;
    st.state = fields["JobState"];
    if (auto e = fields.find("ExitCode"); e != fields.end()) {
      std::sscanf(e->second.c_str(), "%d:%d", &st.exit_code, &st.signal);
    }
    std::string ids = fields["ArrayTaskId"];
    ids.erase(std::remove(ids.begin(), ids.end(), '['), ids.end());
    ids.erase(std::remove(ids.begin(), ids.end(), ']'), ids.end());
    ids = ids.substr(0, ids.find('%'));
    std::istringstream parts(ids);
    std::string part;
    while (std::getline(parts, part, ',')) {
      unsigned lo = 0, hi = 0;
      const int got = std::sscanf(part.c_str(), "%u-%u", &lo, &hi);
      if (got == 1) hi = lo;
      if (got < 1 || hi < lo || hi - lo > 1000000) continue;
      for (unsigned t = lo; t <= hi; ++t) tasks[t] = st;
    }
  }
  return tasks;
}

int grade_on_slurm(const GradeSettings& s, const SlurmSettings& slurm) {
  const std::vector<std::string> sbatch_args = split_arguments(slurm.sbatch_args);

  // The rubric is checked here first, so a broken one costs no cluster time.
  {
    EngineOptions options;
    options.include_dirs = s.include_dirs;
    options.set_params = s.set_params;
    options.seed = s.seed;
    Engine engine(options);
    const std::vector<Diagnostic> diagnostics = engine.load(s.rubric);
    if (!diagnostics.empty())
      fmt::print(stderr, "{}", format_diagnostics(diagnostics, report::colour_wanted(STDERR_FILENO, s.no_color)));
    if (has_errors(diagnostics)) {
      fmt::print(stderr, "rubric grade: '{}' does not load; nothing was submitted\n", s.rubric);
      return 2;
    }
  }

  std::vector<std::string> corpus;
  std::set<std::string> seen;
  for (const std::string& sub : s.submissions)
    if (seen.insert(normalized_submission_path(sub)).second) corpus.push_back(sub);
  unsigned tasks = slurm.tasks;
  if (tasks == 0) tasks = std::clamp<unsigned>(static_cast<unsigned>((corpus.size() + 24) / 25), 1, 256);
  tasks = std::max(1u, std::min<unsigned>(tasks, static_cast<unsigned>(corpus.size())));

  std::error_code ec;
  const fs::path out = fs::absolute(s.out_dir, ec).lexically_normal();
  const fs::path slurm_dir = out / "slurm";
  const fs::path shards_dir = out / "shards";
  fs::create_directories(slurm_dir, ec);
  fs::create_directories(shards_dir, ec);
  if (ec) throw std::runtime_error(fmt::format("cannot create '{}': {}", slurm_dir.string(), ec.message()));

  // The list and the script the tasks run; paths stay as given, so the task starts where we are.
  // One path a line; NUL-separated when a path holds a line break (read_submission_list takes both).
  const bool breaks = std::any_of(corpus.begin(), corpus.end(), [](const std::string& p) {
    return p.find_first_of("\r\n") != std::string::npos;
  });
  std::string list;
  for (const std::string& sub : corpus) list += sub + (breaks ? '\0' : '\n');
  write_file_atomically((slurm_dir / "submissions.txt").string(), list);
  std::string command = fmt::format("{} grade {} --submissions-from {} --out {}/\"$SLURM_ARRAY_TASK_ID\" --shard "
                                    "\"$SLURM_ARRAY_TASK_ID\"/{} --quiet --no-color",
                                    shell_quote(self_executable()), shell_quote(s.rubric),
                                    shell_quote((slurm_dir / "submissions.txt").string()), shell_quote(shards_dir.string()),
                                    tasks);
  if (!s.reference.empty()) command += " --reference " + shell_quote(s.reference);
  for (const auto& [k, v] : s.set_params) command += " --set " + shell_quote(k + "=" + v);
  for (const std::string& d : s.include_dirs) command += " -I " + shell_quote(d);
  if (s.seed) command += fmt::format(" --seed {}", *s.seed);
  // The judge's options as given (the key travels in the environment, never on a command line);
  // without --judge-cache each task keeps its cache in its shard's folder.
  if (!s.judge.url.empty()) command += " --judge-url " + shell_quote(s.judge.url);
  if (!s.judge.model.empty()) command += " --judge-model " + shell_quote(s.judge.model);
  if (s.judge.votes > 0) command += fmt::format(" --judge-votes {}", s.judge.votes);
  if (s.judge.timeout_seconds > 0) command += fmt::format(" --judge-timeout {}", s.judge.timeout_seconds);
  if (s.judge.retry_budget_seconds >= 0) command += fmt::format(" --judge-retry-budget {}", s.judge.retry_budget_seconds);
  if (!s.judge.cache_file.empty())
    command += " --judge-cache " + shell_quote(fs::absolute(s.judge.cache_file, ec).lexically_normal().string());
  if (slurm.jobs_given) command += fmt::format(" --jobs {}", s.jobs);
  if (s.timeout_seconds > 0) command += fmt::format(" --timeout {}", s.timeout_seconds);
  if (s.retry_errors) command += " --retry-errors";
  if (s.regrade) command += " --regrade";
  const std::string script_path = (slurm_dir / "grade.sbatch").string();
  const std::string script = fmt::format(
      "#!/bin/sh\n"
      "# Written by `rubric grade --slurm`: task I of the array grades shard I/{0} into shards/I.\n"
      "#SBATCH --job-name=rubric-grade\n"
      "#SBATCH --array=1-{0}\n"
      "# (sbatch gets --output on its command line: a folder name cannot break a directive)\n"
      "cd {1} || exit 3\n"
      "exec {2}\n",
      tasks, shell_quote(fs::current_path().string()), command);
  write_file_atomically(script_path, script);
  ::chmod(script_path.c_str(), 0755);

  std::vector<std::string> submit_args = sbatch_args;
  submit_args.insert(submit_args.begin(), "--output=" + (slurm_dir / "task-%a.out").string());
  const std::string job = submit(submit_args, "", script_path, slurm_dir.string());
  const bool show = !s.quiet && !s.json;
  if (show) fmt::print(stderr, "rubric grade: submitted job array {} ({} tasks) with {}\n", job, tasks, script_path);

  // Follow: the job each task last ran under, and what scontrol last said of it.
  std::map<unsigned, std::string> job_of;
  for (unsigned t = 1; t <= tasks; ++t) job_of[t] = job;
  std::map<unsigned, TaskState> state;
  std::set<unsigned> resubmitted;
  std::set<unsigned> finished;
  const BatchProgress::Mode mode = BatchProgress::mode_for_stderr(!show);
  auto last_line = std::chrono::steady_clock::now() - std::chrono::hours(1);
  int scontrol_failures = 0;
  const auto started = std::chrono::steady_clock::now();
  while (finished.size() < tasks) {
    std::set<std::string> jobs;
    for (unsigned t = 1; t <= tasks; ++t)
      if (!finished.count(t)) jobs.insert(job_of[t]);
    for (const std::string& j : jobs) {
      const CommandResult r = run_command({"scontrol", "-o", "show", "job", j}, slurm_dir.string());
      if (r.status != 0) {
        if ((r.err + r.out).find("Invalid job id") != std::string::npos) {
          // Purged from the controller (MinJobAge): its tasks ended; the shard folders say how.
          for (unsigned t = 1; t <= tasks; ++t)
            if (job_of[t] == j && !finished.count(t)) {
              state[t] = TaskState{"GONE", 0, 0};
              finished.insert(t);
            }
          continue;
        }
        if (++scontrol_failures > 120)
          throw std::runtime_error(fmt::format("scontrol keeps failing: {}", trim(r.err.empty() ? r.out : r.err)));
        continue;
      }
      scontrol_failures = 0;
      for (const auto& [t, st] : parse_scontrol_tasks(r.out)) {
        if (t < 1 || t > tasks || job_of[t] != j || finished.count(t)) continue;
        state[t] = st;
        if (!is_terminal(st.state)) continue;
        if (cluster_failure(st.state) && !resubmitted.count(t)) {
          resubmitted.insert(t);
          job_of[t] = submit(submit_args, std::to_string(t), script_path, slurm_dir.string());
          if (show) fmt::print(stderr, "rubric grade: task {} ended {}; submitted again as job {}\n", t, st.state, job_of[t]);
          continue;
        }
        finished.insert(t);
      }
    }
    const auto now = std::chrono::steady_clock::now();
    const double since = std::chrono::duration<double>(now - last_line).count();
    if (mode != BatchProgress::Mode::silent && (since >= (mode == BatchProgress::Mode::live ? 0.5 : 5.0) || finished.size() == tasks)) {
      std::size_t lines = 0;
      for (unsigned t = 1; t <= tasks; ++t) lines += count_lines((shards_dir / std::to_string(t) / "results.jsonl").string());
      std::size_t running = 0;
      for (const auto& [t, st] : state) running += st.state == "RUNNING" && !finished.count(t);
      const std::string text =
          fmt::format("slurm job {}: tasks {}/{} done, {} running · {}/{} graded · {:.0f} s", job, finished.size(), tasks,
                      running, std::min(lines, corpus.size()), corpus.size(),
                      std::chrono::duration<double>(now - started).count());
      if (mode == BatchProgress::Mode::live) fmt::print(stderr, "\r\x1b[K{}", text);
      else fmt::print(stderr, "{}\n", text);
      std::fflush(stderr);
      last_line = now;
    }
    if (finished.size() < tasks) std::this_thread::sleep_for(std::chrono::duration<double>(slurm.poll_seconds));
  }
  if (mode == BatchProgress::Mode::live) fmt::print(stderr, "\r\x1b[K");

  // Tasks that did not end as a finished grade (0: all verdicts, 2: some ERROR).
  std::vector<std::string> failed;
  for (unsigned t = 1; t <= tasks; ++t) {
    const TaskState& st = state[t];
    const bool graded = (st.state == "COMPLETED" || st.state == "FAILED") && (st.exit_code == 0 || st.exit_code == 2) &&
                        st.signal == 0;
    if (!graded && st.state != "GONE")
      failed.push_back(fmt::format("task {} (job {}) ended {} with exit code {}:{}; its log: {}/task-{}.out", t, job_of[t],
                                   st.state, st.exit_code, st.signal, slurm_dir.string(), t));
  }

  MergeSettings m;
  for (unsigned t = 1; t <= tasks; ++t) m.dirs.push_back((shards_dir / std::to_string(t)).string());
  m.out_dir = s.out_dir;
  m.expected = corpus;
  m.quiet = s.quiet;
  m.json = s.json;
  m.no_color = s.no_color;
  for (const std::string& f : failed) fmt::print(stderr, "rubric grade: {}\n", f);
  const int merged = merge(m);
  return failed.empty() ? merged : 2;
}

}  // namespace rubric::grading
