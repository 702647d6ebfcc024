// A host program embedding rubric: it registers its own operator, `word_count(text)`, loads a
// rubric that uses it, checks a submission and prints the verdict.
//
//   word_count_host RUBRIC SUBMISSION_DIR    exit code: the rubric's (0 PASS, 1 FAIL, 2 ERROR, 3 INCOMPLETE)
#include <cctype>
#include <fmt/format.h>

#include "interpreter/engine.hpp"

int main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr, "usage: {} RUBRIC SUBMISSION_DIR\n", argv[0]);
    return 2;
  }
  rubric::Engine engine;
  engine.register_operator(rubric::HostOperator{
      "word_count",
      {"text", "min_length=1"},
      "The number of white-space separated words of at least `min_length` characters.",
      [](rubric::CallContext& ctx, const std::vector<rubric::Value>& args) -> rubric::Value {
        if (!args[0].is(rubric::ValueKind::string)) return ctx.bad_argument(1, "a string", args[0]);
        if (!args[1].is(rubric::ValueKind::number)) return ctx.bad_argument(2, "a number", args[1]);
        const std::string& t = args[0].as_string();
        double words = 0, len = 0;
        for (std::size_t i = 0; i <= t.size(); ++i) {
          if (i < t.size() && !std::isspace(static_cast<unsigned char>(t[i]))) {
            ++len;
          } else {
            if (len >= args[1].as_number() && len > 0) ++words;
            len = 0;
          }
        }
        return rubric::Value::number(words);
      }});
  engine.bind("house_style_min_words", rubric::Value::number(10));

  auto diagnostics = engine.load(argv[1]);
  if (!diagnostics.empty()) fmt::print(stderr, "{}", rubric::format_diagnostics(diagnostics));
  if (rubric::has_errors(diagnostics)) return 2;

  rubric::Report report = engine.check(argv[2]);
  for (const auto& c : report.criteria) {
    fmt::print("{:<6} {} — {}\n", rubric::verdict_name(c.verdict), c.id, c.title);
    for (const auto& check : c.checks) {
      fmt::print("         {} {}\n", check.verdict == rubric::Verdict::pass ? "ok " : "NOT", check.source_text);
      for (const auto& line : check.evidence) fmt::print("             {}\n", line);
    }
  }
  fmt::print("verdict: {}  score: {}\n", rubric::overall_verdict_name(report.verdict),
             report.score ? fmt::format("{:.0f}%", *report.score * 100) : std::string("none"));
  return rubric::exit_code(report.verdict);
}
