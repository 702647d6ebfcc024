// Programs: `run` and `bench` run a candidate's program isolated (operators/process) and give
// back a record or samples. A program that crashes, hangs or prints no parsable result is the
// submission's failure; a command the rubric got wrong is an ERROR.
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <utility>
#include <vector>

#include "interpreter/builtins/args.hpp"
#include "interpreter/builtins/json_value.hpp"
#include "interpreter/builtins/registry.hpp"
#include "operators/error.hpp"
#include "operators/files/safe_open.hpp"
#include "operators/json/json_reader.hpp"
#include "operators/process/bench_runs.hpp"
#include "operators/process/folder_layout.hpp"
#include "operators/process/run_isolated.hpp"

namespace rubric {

namespace {

using Args = std::vector<Value>;

// The command and its confinement from run's and bench's shared arguments
// (cmd, timeout, env, cwd). Returns an error value when an argument is malformed.
std::optional<Value> run_spec_from(CallContext& ctx, const Args& a, std::size_t timeout_at, std::size_t env_at,
                                   std::size_t cwd_at, process::RunSpec& spec) {
  const Value& cmd = a[0];
  if (cmd.is(ValueKind::string)) {
    spec = process::RunSpec::shell(cmd.as_string());
  } else if (cmd.is(ValueKind::list) && !cmd.as_list().empty()) {
    for (const Value& w : cmd.as_list()) {
      if (w.is(ValueKind::string)) spec.argv.push_back(w.as_string());
      else if (w.is(ValueKind::path)) spec.argv.push_back(w.as_path().full());
      else if (w.is(ValueKind::number)) spec.argv.push_back(w.to_string());
      else return ctx.bad_argument(1, "a command: a string, or a list of strings", cmd);
    }
  } else {
    return ctx.bad_argument(1, "a command: a string, or a list of strings", cmd);
  }

  const Value& timeout = a[timeout_at];
  if (!timeout.is(ValueKind::number) || timeout.as_quantity().dim != Dimension::of(Dimension::time))
    return ctx.error(fmt::format("bad argument 'timeout' to '{}' (expected a time such as 60 s, got {})",
                                 ctx.function_name(), timeout.repr(5)));
  // A run with no time at all cannot start: the bound's writer answers (the rubric, or the
  // candidate's manifest it came from), never the grading machine.
  if (!(timeout.as_number() > 0))
    return ctx.data_error(fmt::format("bad argument 'timeout' to '{}' (a time above 0 s, got {})", ctx.function_name(),
                                      timeout.to_string()),
                          timeout);
  spec.timeout_seconds = timeout.as_number();

  if (!a[env_at].is_null()) {
    if (!a[env_at].is(ValueKind::record)) return ctx.bad_argument(static_cast<int>(env_at + 1), "a record of strings", a[env_at]);
    for (const auto& [k, v] : a[env_at].as_record().fields)
      spec.env.emplace_back(k, v.is(ValueKind::string) ? v.as_string() : v.to_string());
  }

  auto submission = ctx.root_dir("submission");
  if (a[cwd_at].is(ValueKind::path)) {
    // A folder the rubric names but the submission lacks (its build/ folder) is the submission's
    // FAIL; one missing under the reference is the rubric's ERROR, never the machine's.
    // (Where it leads is checked below, with the reference's place.)
    const PathValue& p = a[cwd_at].as_path();
    std::error_code ec;
    if (!std::filesystem::is_directory(p.full(), ec))
      return ctx.file_error(p, fmt::format("{}: {} (the folder '{}' runs in)", p.display(),
                                           std::filesystem::exists(p.full(), ec) ? "not a folder" : "no such folder",
                                           ctx.function_name()));
    spec.cwd = p.full();
  }
  else if (a[cwd_at].is_null() && submission) spec.cwd = *submission;
  else if (!a[cwd_at].is_null()) return ctx.bad_argument(static_cast<int>(cwd_at + 1), "a path", a[cwd_at]);

  // The candidate must not read the reference answer, whichever way the folders nest: a reference
  // inside the run's folder would be copied along with the candidate's files, and a submission
  // inside the reference (the default --reference is the rubric's folder, which often holds
  // submissions/) shares the reference's folder. Both are refused wherever the program runs from,
  // with or without the whitelist sandbox; paths are compared with symbolic links resolved.
  if (auto reference = ctx.root_dir("reference")) {
    std::vector<std::pair<std::string, const char*>> folders;
    if (submission) folders.emplace_back(*submission, "submission folder");
    if (!spec.cwd.empty() && (!submission || spec.cwd != *submission)) folders.emplace_back(spec.cwd, "run folder");
    for (const auto& [folder, what] : folders) {
      const process::FolderRelation rel = process::relate_folders(*reference, folder);
      if (rel.nesting == process::Nesting::same || rel.nesting == process::Nesting::first_inside_second)
        return ctx.error(fmt::format(
            "'{}' refuses to run: the reference folder {} is {} the {} {}, so the candidate's program would be "
            "given the reference answer with its own files. Keep the reference outside the submission "
            "(e.g. --reference next to --submission, not inside it).",
            ctx.function_name(), rel.first, rel.nesting == process::Nesting::same ? "the same as" : "inside", what,
            rel.second));
      if (rel.nesting == process::Nesting::second_inside_first)
        return ctx.error(fmt::format(
            "'{}' refuses to run: the {} {} is inside the reference folder {}, and a candidate's program never "
            "runs from within the reference answer's folder. Keep the submission outside the reference folder: "
            "--reference DIR and --submission DIR side by side (without --reference, the reference folder is the "
            "rubric's own folder, so a submission inside the rubric's folder needs --reference).",
            ctx.function_name(), what, rel.second, rel.first));
    }
    spec.isolation.hidden_paths.push_back(*reference);
  }
  return std::nullopt;
}

std::string command_text(const process::RunSpec& spec) {
  std::string out;
  for (const auto& w : spec.argv) out += (out.empty() ? "" : " ") + w;
  return out;
}

void record(CallContext& ctx, const process::RunSpec& spec, const process::RunResult& r) {
  ctx.record_run(RunRecord{command_text(spec), r.isolation.describe(), r.wall_seconds, r.exited ? r.exit_code : -r.signal});
}

// A word of a command as a grader reads it: a path in the submission or reference folder by its
// root ("submission/solve"), with `.` and `..` resolved; anything else as given.
std::string shown_word(CallContext& ctx, const std::string& w) {
  if (w.empty() || w.front() != '/') return w;
  std::string norm = std::filesystem::path(w).lexically_normal().generic_string();
  for (const char* root : {"submission", "reference"}) {
    auto dir = ctx.root_dir(root);
    if (!dir) continue;
    std::string d = std::filesystem::path(*dir).lexically_normal().generic_string();
    while (d.size() > 1 && d.back() == '/') d.pop_back();
    if (norm == d) return root;
    if (norm.size() > d.size() && norm.compare(0, d.size(), d) == 0 && norm[d.size()] == '/')
      return std::string(root) + norm.substr(d.size());
  }
  return norm;
}

// The word quoted so a shell would take it back as one word.
std::string shell_quoted(const std::string& w) {
  bool plain = !w.empty() && w.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=:,+@%") == std::string::npos;
  if (plain) return w;
  std::string q = w;
  for (std::size_t at = 0; (at = q.find('\'', at)) != std::string::npos; at += 4) q.replace(at, 1, "'\\''");
  for (std::size_t at = 0; at < q.size(); ++at)
    if (static_cast<unsigned char>(q[at]) < 0x20 || q[at] == 0x7f) {
      // A control character (a newline in an argument) would break the evidence line: shown escaped.
      std::string esc = q[at] == '\n' ? "\\n" : q[at] == '\t' ? "\\t" : fmt::format("\\x{:02x}", static_cast<unsigned char>(q[at]));
      q.replace(at, 1, "'$'" + esc + "''");
      at += esc.size() + 4;
    }
  return "'" + q + "'";
}

// The command as it ran: the program as resolved, named by its folder (submission/solve,
// /usr/bin/sh), each word quoted for a shell.
std::string shown_command(CallContext& ctx, const process::RunSpec& spec, const process::RunResult& r) {
  std::string shown;
  for (std::size_t i = 0; i < spec.argv.size(); ++i) {
    const std::string& w = i == 0 && !r.executable.empty() ? r.executable : spec.argv[i];
    shown += (shown.empty() ? "" : " ") + shell_quoted(shown_word(ctx, w));
  }
  return shown;
}

// What every check reading a run's fields shows: the command as it ran (the program as resolved,
// named by its folder: submission/solve, /usr/bin/sh; each word quoted for a shell), how it ended
// and the tail of its stderr.
std::vector<std::string> run_evidence(CallContext& ctx, const process::RunSpec& spec, const process::RunResult& r) {
  std::vector<std::string> lines;
  std::string status = r.status_text();
  if (r.stdout_truncated || r.stderr_truncated)
    status += fmt::format("; output cap reached ({} truncated)", r.stdout_truncated && r.stderr_truncated ? "stdout and stderr"
                                                                  : r.stdout_truncated                      ? "stdout"
                                                                                                           : "stderr");
  const std::string shown = shown_command(ctx, spec, r);
  lines.push_back(fmt::format("run {}: {}", shown, status));
  std::string tail = r.stderr_tail(5);
  if (tail.empty()) return lines;
  lines.push_back("stderr (last lines):");
  std::size_t start = 0;
  while (start <= tail.size()) {
    std::size_t end = tail.find('\n', start);
    if (end == std::string::npos) end = tail.size();
    lines.push_back("  | " + tail.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

Value run_record(CallContext& ctx, const process::RunSpec& spec, const process::RunResult& r) {
  Record rec;
  rec.origin = "run()";
  rec.evidence = std::make_shared<const std::vector<std::string>>(run_evidence(ctx, spec, r));
  if (r.timed_out || !r.exited)
    rec.abnormal = fmt::format("the program {}{}", r.timed_out || r.memory_exceeded ? "" : "was ", r.status_text());
  // How the program ended and what it printed are the candidate's, like a file under the
  // submission: a null exit code (it was killed) compared with a number FAILs, never an ERROR.
  auto candidate = [](Value v) { return v.mark_from_submission(); };
  rec.fields.emplace_back("exit", candidate(r.exited ? Value::number(r.exit_code) : Value()));
  rec.fields.emplace_back("signal", candidate(r.signal ? Value::string(r.signal_name) : Value()));
  rec.fields.emplace_back("status", candidate(Value::string(r.status_text())));
  rec.fields.emplace_back("stdout", candidate(Value::string(r.stdout_text)));
  rec.fields.emplace_back("stderr", candidate(Value::string(r.stderr_text)));
  rec.fields.emplace_back("wall", candidate(Value::number(r.wall_seconds, Dimension::of(Dimension::time))));
  rec.fields.emplace_back("timed_out", candidate(Value::boolean(r.timed_out)));
  rec.fields.emplace_back("truncated", candidate(Value::boolean(r.stdout_truncated || r.stderr_truncated)));
  rec.fields.emplace_back("isolation", Value::string(r.isolation.describe()));
  // Output that is not JSON is the program's failure, so reading `.json` fails the check with why.
  Value parsed;
  try {
    parsed = builtins::value_from_json(json::parse(r.stdout_text, "stdout"), "the program's stdout");
  } catch (const OperatorError& e) {
    parsed = ctx.error(fmt::format("the program printed no JSON ({}; {}): {}", r.status_text(),
                                   r.stdout_text.empty() ? "stdout empty" : "stdout not JSON", e.what()),
                       Blame::submission);
  }
  rec.fields.emplace_back("json", parsed);
  return Value::record(std::move(rec));
}

// `memory =`: the run's memory limit (a size), or an error value.
std::optional<Value> memory_arg(CallContext& ctx, const Args& a, std::size_t at, process::RunSpec& spec) {
  const Value& v = a[at];
  if (!v.is(ValueKind::number) || v.as_quantity().dim != Dimension::of(Dimension::bytes) || !(v.as_number() >= 1048576) ||
      !(v.as_number() < 1.8e19))
    return ctx.error(fmt::format("bad argument 'memory' to '{}' (expected a size of at least 1 MiB such as 4 GiB, got {})",
                                 ctx.function_name(), v.repr(5)));
  spec.limits.memory_bytes = static_cast<std::uint64_t>(v.as_number());
  return std::nullopt;
}

// Who answers for a program that did not start. A bare command name the rubric wrote
// (["python3", ...]) that the run's PATH lacks is a tool missing from the grading machine; a
// program of the candidate's folder, or a name the candidate's data supplied, is the submission's.
Blame launch_blame(const Value& cmd, const process::RunResult& r) {
  if (!r.launch_failed || !r.tool_not_in_path) return Blame::submission;
  const Value& first = cmd.is(ValueKind::list) && !cmd.as_list().empty() ? cmd.as_list().front() : cmd;
  return carries_submission_data(cmd) || carries_submission_data(first) ? Blame::submission : Blame::grader_environment;
}

Value run(CallContext& ctx, const Args& a) {
  process::RunSpec spec;
  if (auto e = run_spec_from(ctx, a, 1, 2, 3, spec)) return *e;
  if (auto e = memory_arg(ctx, a, 4, spec)) return *e;
  if (auto* p = ctx.progress()) p->activity(fmt::format("run: {}", command_text(spec)));
  try {
    process::RunResult r = process::run_isolated(spec);
    record(ctx, spec, r);
    if (r.launch_failed && r.setup_failed)
      return ctx.error(fmt::format("'run' could not be set up on this machine: could not start {}: {}",
                                   shown_command(ctx, spec, r), r.launch_error),
                       Blame::grader_environment);
    if (r.launch_failed) {
      const Blame blame = launch_blame(a[0], r);
      return ctx.error(fmt::format("{}could not start {}: {}", blame == Blame::grader_environment ? "grading environment: " : "",
                                   shown_command(ctx, spec, r), r.launch_error),
                       blame);
    }
    return run_record(ctx, spec, r);
  } catch (const files::FileError& e) {
    // The submission's folder cannot be copied within its budget, or a file in it cannot be read.
    return ctx.error(fmt::format("'run': {}", e.what()), Blame::submission);
  } catch (const OperatorError& e) {
    // The run could not be set up (no scratch directory under TMPDIR, a copy that failed, no
    // namespaces): the grading machine's fault, never the candidate's FAIL.
    return ctx.error(fmt::format("'run' could not be set up on this machine: {}", e.what()), Blame::grader_environment);
  }
}

Value bench(CallContext& ctx, const Args& a) {
  process::BenchSpec spec;
  if (auto e = run_spec_from(ctx, a, 4, 5, 6, spec.run)) return *e;
  if (auto e = memory_arg(ctx, a, 7, spec.run)) return *e;
  for (std::size_t i : {1u, 2u})
    if (auto e = builtins::want_plain(ctx, a, i)) return *e;
  // Checked before the cast to int, which is undefined past INT_MAX (repeat = 1e12 became a
  // negative count).
  for (std::size_t i : {1u, 2u}) {
    double n = a[i].as_number();
    if (!(n >= 0 && n <= 1'000'000 && n == std::floor(n)))
      return ctx.error(fmt::format("bad argument '{}' to 'bench' (a whole number of runs in 0 .. 1000000, got {})",
                                   i == 1 ? "repeat" : "warmup", a[i].to_string()));
  }
  spec.repeat = static_cast<int>(a[1].as_number());
  spec.warmup = static_cast<int>(a[2].as_number());
  if (spec.repeat < 1) return ctx.error(fmt::format("bad argument 'repeat' to 'bench' (at least 1 run, got {})", spec.repeat));
  if (a[3].is(ValueKind::string)) spec.metric = a[3].as_string();
  else if (!a[3].is_null()) return ctx.bad_argument(4, "a JSON field name, or null for wall time", a[3]);
  if (auto* p = ctx.progress()) {
    std::string command = command_text(spec.run);
    spec.on_run = [p, command](const std::string& label) { p->activity(fmt::format("bench {}: {}", command, label)); };
  }
  try {
    process::BenchResult r = process::bench(spec);
    for (const auto& run : r.runs) record(ctx, spec.run, run);
    if (!r.ok && r.setup_failed)
      return ctx.error(fmt::format("'bench' could not be set up on this machine: bench of {}: {}", command_text(spec.run),
                                   r.failure),
                       Blame::grader_environment);
    if (!r.ok) {
      const Blame blame = r.runs.empty() ? Blame::submission : launch_blame(a[0], r.runs.back());
      return ctx.error(fmt::format("{}bench of {}: {}", blame == Blame::grader_environment ? "grading environment: " : "",
                                   command_text(spec.run), r.failure),
                       blame);
    }
    SampleSet s;
    s.values = r.samples;
    if (spec.metric.empty()) s.dim = Dimension::of(Dimension::time);
    s.description = fmt::format("bench: {} runs of {} after {} warm-up, {}; isolation: {}", spec.repeat,
                                command_text(spec.run), spec.warmup,
                                spec.metric.empty() ? std::string("wall time") : "field " + spec.metric,
                                r.runs.empty() ? std::string("none") : r.runs.back().isolation.describe());
    return Value::samples_of(std::move(s));
  } catch (const files::FileError& e) {
    return ctx.error(fmt::format("'bench': {}", e.what()), Blame::submission);
  } catch (const OperatorError& e) {
    // The arguments were checked above: what is left is the runs' setup on this machine.
    return ctx.error(fmt::format("'bench' could not be set up on this machine: {}", e.what()), Blame::grader_environment);
  }
}

}  // namespace

void open_programs(Registry& r) {
  const std::string fam = "programs";
  const Value minute = Value::number(60, Dimension::of(Dimension::time));
  const Value four_gib = Value::number(4.0 * 1073741824.0, Dimension::of(Dimension::bytes));
  r.add("run", {P("cmd"), P("timeout", minute), P("env", Value()), P("cwd", Value()), P("memory", four_gib)}, false,
        "Runs a candidate's program isolated (own process group and PID namespace, limits, no network, a scratch copy "
        "of its folder, the reference hidden) and returns {exit, signal, status, stdout, stderr, wall, timed_out, "
        "truncated, isolation, json}. `cmd` is a list of words, or a string for sh -c; cwd defaults to the "
        "submission. Reading `.json` of output that is not JSON fails the check with the reason.",
        fam, run);
  r.add("bench",
        {P("cmd"), P("repeat", Value::number(10)), P("warmup", Value::number(1)), P("metric", Value::string("output_throughput")),
         P("timeout", minute), P("env", Value()), P("cwd", Value()), P("memory", four_gib)},
        false,
        "Runs a program `warmup` times, then `repeat` times, and returns samples of the JSON field `metric` (a dotted "
        "path) of each run's stdout, or of wall time with metric = null. A run that fails, times out or prints no "
        "such field fails the check with its stderr tail.",
        fam, BuiltinNeeds::timing(), bench);
}

}  // namespace rubric
