#include "sample_reports.hpp"

namespace rubric::test {

CheckResult make_check(std::string source, Verdict v, std::uint32_t line, std::vector<std::string> evidence,
                       std::string explanation, std::string message) {
  CheckResult c;
  c.source_text = std::move(source);
  c.location = {"kv.rubric", line, 10, ""};
  c.verdict = v;
  c.blame = v == Verdict::fail ? Blame::submission : v == Verdict::error ? Blame::rubric : Blame::none;
  c.evidence = std::move(evidence);
  c.explanation = std::move(explanation);
  c.message = std::move(message);
  c.seconds = 0.25;
  return c;
}

Report kv_cache_report() {
  Report r;
  r.title = "KV-cache eviction: long-context throughput regression";
  r.version = "1.0";
  r.metadata["author"] = "grading team";
  r.pass_mark = 0.7;
  r.verdict = OverallVerdict::error;
  r.score = 4.0 / 7.0 - 1.0 / 7.0;

  CriterionResult numerics;
  numerics.id = "numerics";
  numerics.title = "logits match the fp32 reference to 1e-3";
  numerics.location = {"kv.rubric", 11, 1, ""};
  numerics.weight = 4;
  numerics.required = true;
  numerics.score = 1.0;
  numerics.checks.push_back(make_check("out.shape == ref.shape", Verdict::pass, 12, {"[4, 32000] == [4, 32000]"}));
  numerics.checks.push_back(make_check("out matches ref to 1e-3", Verdict::pass, 13,
                                       {"Mismatched elements: 0 / 128000 (0%)"}, "all 128000 elements within 0.001"));

  CriterionResult throughput;
  throughput.id = "throughput";
  throughput.title = "output throughput at 32768 context within 5% of baseline";
  throughput.location = {"kv.rubric", 18, 1, ""};
  throughput.weight = 3;
  throughput.after = {"numerics"};
  throughput.score = 0.0;
  throughput.verdict = Verdict::fail;
  throughput.checks.push_back(make_check("cand.output_throughput >= 0.95 * base.output_throughput", Verdict::fail, 19,
                                         {"11234.5 tok/s >= 11780 tok/s  (0.95 × 12400 tok/s)"}, "4.6% short"));

  CriterionResult gpu;
  gpu.id = "speed";
  gpu.title = "at least 1.5x faster";
  gpu.location = {"kv.rubric", 30, 3, ""};
  gpu.needs = {"gpu"};
  gpu.verdict = Verdict::skip;
  gpu.reason = "no usable CUDA device";

  CriterionResult broken;
  broken.id = "tail";
  broken.title = "p99 TTFT no worse than 10% over baseline";
  broken.location = {"kv.rubric", 35, 3, ""};
  broken.verdict = Verdict::error;
  broken.checks.push_back(make_check("cand.p99_ttft <= 1.1 * base.p99_ttft", Verdict::error, 36, {},
                                     "no key 'p99_ttft' in reference/bench_32768.json; keys: duration, completed"));
  broken.notes.push_back("baseline measured on an H100");

  CriterionResult group;
  group.id = "serving";
  group.title = "serving performance";
  group.is_group = true;
  group.verdict = Verdict::error;
  group.children = {gpu, broken};

  CriterionResult cheat;
  cheat.id = "hardcoded";
  cheat.title = "does not hard-code the outputs";
  cheat.penalty = 1;
  cheat.deducted = true;
  cheat.verdict = Verdict::fail;
  cheat.score = 0.0;
  cheat.checks.push_back(make_check("not (answer mentions \"increase the batch size\")", Verdict::fail, 40,
                                    {"answer mentions \"increase the batch size\" at line 3"}, "",
                                    "proposes the plausible but wrong fix"));
  cheat.checks.back().label = "for f = \"a \\\"quoted\\\" name\"";

  r.criteria = {numerics, throughput, group, cheat};

  Provenance& p = r.provenance;
  p.tool_version = "0.1.0";
  p.rubric_file = "/abs/path/kv.rubric";
  p.rubric_digest = std::string(32, 'a');
  p.submission_dir = "/abs/submission";
  p.reference_dir = "/abs/reference";
  p.seed = 7;
  p.params["context"] = "32768";
  p.files.push_back({"bench_32768.json", "submission", std::string(32, 'b'), 1234});
  p.runs.push_back({"python3 serve.py", "process group, rlimits", 1.5, 0});
  p.started_at = "2026-01-02T03:04:05Z";
  p.seconds = 12.5;
  return r;
}

Report single_check_report(Verdict check_verdict, OverallVerdict overall) {
  Report r;
  r.title = "one";
  r.verdict = overall;
  CriterionResult c;
  c.id = "only";
  c.title = "the only criterion";
  c.verdict = check_verdict;
  if (check_verdict == Verdict::pass) c.score = 1.0;
  if (check_verdict == Verdict::fail) c.score = 0.0;
  c.checks.push_back(make_check("x == 1", check_verdict, 3));
  r.criteria.push_back(c);
  r.score = c.score;
  return r;
}

}  // namespace rubric::test
