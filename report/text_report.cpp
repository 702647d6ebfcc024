#include "report/text_report.hpp"

#include <fmt/format.h>

#include "report/number_format.hpp"
#include "report/shown_report.hpp"
#include "report/terminal_style.hpp"
#include "operators/text/utf8.hpp"
#include "report/verdict_summary.hpp"

namespace rubric::report {
namespace {

constexpr std::size_t kEvidenceIndent = 4;  // evidence sits 4 columns right of its check's marker

std::string location_text(const SourceLocation& loc) {
  if (!loc.known()) return loc.file;
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

// "weight 4 · required · after numerics · needs gpu · score 100%"
std::string criterion_facts(const CriterionResult& c) {
  std::vector<std::string> facts;
  if (c.penalty) facts.push_back("penalty " + format_number(*c.penalty));
  else facts.push_back("weight " + format_number(c.weight));
  if (c.required) facts.push_back("required");
  if (!c.after.empty()) {
    std::string after = "after ";
    for (std::size_t i = 0; i < c.after.size(); ++i) after += (i ? ", " : "") + c.after[i];
    facts.push_back(after);
  }
  for (const std::string& n : c.needs) facts.push_back("needs " + n);
  if (c.penalty) {
    // A penalty criterion has no score of its own: say whether its penalty was taken.
    facts.push_back(penalty_state(c));
  } else {
    facts.push_back(c.score ? "score " + format_percent(*c.score) : "not scored");
  }
  std::string out;
  for (const std::string& f : facts) out += (out.empty() ? "" : " · ") + f;
  return out;
}

// "rubric 0.1.0 (GCC 14.2.0) on gpu-07 · Debian GNU/Linux 13 (trixie) · Linux 6.8.0 x86_64 · CUDA driver 13.0, runtime 13.0"
std::string grading_machine_line(const Provenance& p) {
  std::string out = fmt::format("rubric {}", p.tool_version.empty() ? "-" : p.tool_version);
  if (!p.compiler.empty()) out += fmt::format(" ({})", p.compiler);
  const auto field = [&](const char* key) {
    const auto it = p.host.find(key);
    return it == p.host.end() ? std::string() : it->second;
  };
  if (!field("name").empty()) out += " on " + field("name");
  for (const std::string& part : {field("os"), field("kernel") + (field("arch").empty() ? "" : " " + field("arch"))})
    if (!part.empty() && part != " ") out += " · " + part;
  if (!p.cuda.empty()) {
    std::string cuda;
    for (const auto& [k, v] : p.cuda) cuda += fmt::format("{}{} {}", cuda.empty() ? "" : ", ", k, v);
    out += " · CUDA " + cuda;
  }
  return out;
}

class TextWriter {
 public:
  // Only a ShownReport: every string from the model is escaped before a line is built from it.
  TextWriter(const ShownReport& report, const TextOptions& options)
      : report_(report.get()), options_(options), style_(options.colour) {}

  std::string write() {
    header();
    warnings();
    for (const CriterionResult& c : report_.criteria) criterion(c, 0);
    summary();
    return std::move(out_);
  }

 private:
  void line(std::size_t indent, std::string_view text) {
    out_.append(indent, ' ');
    out_ += text;
    out_ += '\n';
  }

  void header() {
    std::string title = style_.paint(report_.title, Colour::bold);
    if (!report_.version.empty()) title += fmt::format(" (version {})", report_.version);
    line(0, title);
    for (const auto& [key, value] : report_.metadata) {
      line(0, fmt::format("{}: {}", key, value));
    }
    if (!report_.provenance.params.empty()) {
      std::string params;
      for (const auto& [name, value] : report_.provenance.params) {
        params += fmt::format("{}{} = {}", params.empty() ? "" : ", ", name, value);
      }
      line(0, "params: " + params);
    }
  }

  void warnings() {
    if (report_.warnings.empty()) return;
    out_ += '\n';
    out_ += format_diagnostics(report_.warnings, options_.colour);
  }

  void criterion(const CriterionResult& c, std::size_t depth) {
    const std::size_t indent = 2 * depth;
    const std::string bracketed = fmt::format("[{}]", verdict_name(c.verdict));
    const std::size_t detail_indent = indent + bracketed.size() + 1;  // under the id, past "[FAIL] "
    out_ += '\n';
    const std::string verdict = style_.paint(bracketed, c.verdict);
    line(indent, fmt::format("{} {}{} — {}", verdict, c.is_group ? "group " : "", c.id,
                             c.title));
    line(detail_indent, style_.paint(criterion_facts(c), Colour::grey));
    if (!c.reason.empty()) line(detail_indent, "reason: " + c.reason);
    if (const std::string review = review_reason(c); !review.empty())
      line(detail_indent, style_.paint("marked for review (verdict kept): " + review, Colour::yellow));
    for (const std::string& note : c.notes) line(detail_indent, "note: " + note);
    for (const CheckResult& check : c.checks) check_entry(check, indent + 2);
    for (const CriterionResult& child : c.children) criterion(child, depth + 1);
  }

  void check_entry(const CheckResult& check, std::size_t indent) {
    std::string head = fmt::format("{} {}", verdict_marker(check.verdict), check.source_text);
    if (!check.label.empty()) head += fmt::format("  [{}]", check.label);
    const std::string location = location_text(check.location);
    const std::size_t used = indent + text::display_width(head) + text::display_width(location);
    const std::size_t gap = used + 2 <= options_.location_column ? options_.location_column - used : 2;
    // Only the marker is coloured so that alignment is computed on plain text.
    const std::string marker = verdict_marker(check.verdict);
    std::string painted = style_.paint(marker, check.verdict) + head.substr(marker.size());
    line(indent, painted + std::string(gap, ' ') + style_.paint(location, Colour::grey));
    const std::size_t detail = indent + kEvidenceIndent;
    for (const std::string& e : check.evidence) line(detail, e);
    if (!check.explanation.empty()) line(detail, "→ " + check.explanation);
    if (!check.message.empty()) line(detail, "else: " + check.message);
    if (!check.review.empty()) line(detail, "review: " + check.review);
  }

  void summary() {
    out_ += '\n';
    out_ += std::string(40, '-');
    out_ += '\n';
    line(0, fmt::format("criteria: {} · checks: {}", describe_counts(count_criteria(report_)),
                        describe_counts(count_checks(report_))));
    if (const std::string marked = describe_marked(report_); !marked.empty()) line(0, style_.paint(marked, Colour::yellow));
    line(0, describe_score(report_));
    line(0, fmt::format("verdict: {} — {}",
                        style_.paint(overall_verdict_name(report_.verdict), report_.verdict),
                        overall_reason(report_)));
    if (options_.verbose) {
      const Provenance& p = report_.provenance;
      line(0, style_.paint(fmt::format("checked in {} · started {} · {} files read · {} program runs · seed {}",
                                       format_seconds(p.seconds), p.started_at.empty() ? "-" : p.started_at,
                                       p.files.size(), p.runs.size(), p.seed),
                           Colour::grey));
      line(0, style_.paint(grading_machine_line(p), Colour::grey));
    }
  }

  const Report& report_;
  const TextOptions& options_;
  TerminalStyle style_;
  std::string out_;
};

}  // namespace

std::string format_text(const Report& report, const TextOptions& options) {
  return TextWriter(shown_report(report), options).write();
}

}  // namespace rubric::report
