#include "operators/process/bench_runs.hpp"

#include <fmt/format.h>

#include <cmath>

#include "operators/error.hpp"
#include "operators/json/json_reader.hpp"

namespace rubric::process {
namespace {

std::string run_label(int index, const BenchSpec& spec) {
  return index < spec.warmup ? fmt::format("warm-up run {} of {}", index + 1, spec.warmup)
                             : fmt::format("run {} of {}", index - spec.warmup + 1, spec.repeat);
}

std::string with_tail(std::string reason, const RunResult& r) {
  std::string tail = r.stderr_tail();
  if (tail.empty()) return reason + "; stderr was empty";
  return fmt::format("{}; stderr tail:\n{}", reason, tail);
}

}  // namespace

BenchResult bench(const BenchSpec& spec) {
  if (spec.repeat < 1) throw OperatorError(fmt::format("bench: repeat must be at least 1, got {}", spec.repeat));
  if (spec.warmup < 0) throw OperatorError(fmt::format("bench: warmup must not be negative, got {}", spec.warmup));
  BenchResult out;
  out.unit = spec.metric.empty() ? "s" : "";
  const int total = spec.warmup + spec.repeat;
  for (int i = 0; i < total; ++i) {
    const std::string label = run_label(i, spec);
    if (spec.on_run) spec.on_run(label);
    out.runs.push_back(run_isolated(spec.run));
    const RunResult& r = out.runs.back();
    if (!r.succeeded()) {
      out.setup_failed = r.launch_failed && r.setup_failed;
      out.failure = with_tail(fmt::format("{}: {}", label, r.status_text()), r);
      return out;
    }
    double sample = r.wall_seconds;
    if (!spec.metric.empty()) {
      json::Value doc;
      try {
        doc = json::parse(r.stdout_text, fmt::format("stdout of {}", label));
      } catch (const OperatorError& e) {
        out.failure = with_tail(fmt::format("{}: stdout is not valid JSON: {}", label, e.what()), r);
        return out;
      }
      const json::Value* field = json::find_path(doc, spec.metric);
      if (!field) {
        std::string keys = json::key_list(doc);
        out.failure = with_tail(fmt::format("{}: no field '{}' in its JSON output{}", label, spec.metric,
                                            keys.empty() ? "" : fmt::format(" (top-level keys: {})", keys)), r);
        return out;
      }
      if (!field->is_number()) {
        out.failure = with_tail(fmt::format("{}: field '{}' is a {}, not a number", label, spec.metric, json::kind_name(*field)), r);
        return out;
      }
      sample = field->as_number();
      // NaN or an infinity is no measurement: the run printed no usable result.
      if (!std::isfinite(sample)) {
        out.failure = with_tail(fmt::format("{}: field '{}' is {}, not a finite number", label, spec.metric,
                                            std::isnan(sample) ? "NaN" : sample > 0 ? "Infinity" : "-Infinity"), r);
        return out;
      }
    }
    if (i >= spec.warmup) out.samples.push_back(sample);
    // A run that succeeded has given its sample: its output (up to 8 MiB a stream) is not kept,
    // or a program printing that much made 30 runs hold 500 MB of the grader's memory.
    RunResult& done = out.runs.back();
    std::string().swap(done.stdout_text);
    std::string().swap(done.stderr_text);
  }
  out.ok = true;
  return out;
}

}  // namespace rubric::process
