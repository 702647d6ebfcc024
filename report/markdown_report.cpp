#include "report/markdown_report.hpp"

#include <fmt/format.h>

#include "report/number_format.hpp"
#include "report/shown_report.hpp"
#include "report/terminal_style.hpp"
#include "operators/text/utf8.hpp"
#include "report/verdict_summary.hpp"

namespace rubric::report {
namespace {

// Text shown as itself in a heading, a table cell or a paragraph: every ASCII character with an
// inline meaning (emphasis, code, links, HTML, entities, strikethrough, the table's pipes) is
// backslash-escaped, so no string can open a comment that hides the rest of the report, link
// elsewhere, or end a table row. Line-start syntax cannot arise: each such text follows the
// printer's own words on its line.
std::string cell(std::string_view raw) {
  std::string out;
  for (char c : text::fold_whitespace(raw)) {
    switch (c) {
      case '\\': case '`': case '*': case '_': case '[': case ']': case '<': case '>':
      case '|': case '~': case '&': case '#': case '!':
        out += '\\';
        break;
      default: break;
    }
    out += c;
  }
  return out;
}

// A fence longer than any run of backticks in `block` (at least three).
std::string fence_for(std::string_view block) {
  std::size_t longest = 0, run = 0;
  for (char ch : block) {
    run = ch == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  return std::string(std::max<std::size_t>(3, longest + 1), '`');
}

// An inline code span that survives backticks inside the text.
std::string code_span(std::string_view raw) {
  const std::string text = text::fold_whitespace(raw);
  std::size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  const std::string fence(longest + 1, '`');
  const bool pad = !text.empty() && (text.front() == '`' || text.back() == '`');
  return fence + (pad ? " " : "") + text + (pad ? " " : "") + fence;
}

std::string weight_text(const CriterionResult& c) {
  std::string w = c.penalty ? "penalty " + format_number(*c.penalty) : format_number(c.weight);
  if (c.required) w += ", required";
  return w;
}

void table_rows(std::string& out, const std::vector<CriterionResult>& list, int depth) {
  for (const CriterionResult& c : list) {
    out += fmt::format("| {}{}{} | {} | {} {} | {} | {} |\n", depth > 0 ? "↳ " : "", c.is_group ? "group " : "",
                       cell(c.id), cell(c.title), verdict_marker(c.verdict), verdict_name(c.verdict),
                       weight_text(c), c.score ? format_percent(*c.score) : "–");
    if (c.is_group) table_rows(out, c.children, depth + 1);
  }
}

void details(std::string& out, const CriterionResult& c, int depth) {
  const std::string hashes(static_cast<std::size_t>(std::min(depth + 3, 6)), '#');
  out += fmt::format("\n{} {} {} {} — {}\n\n", hashes, verdict_marker(c.verdict), verdict_name(c.verdict),
                     cell(c.id), cell(c.title));
  if (!c.reason.empty()) out += fmt::format("*Reason:* {}\n\n", cell(c.reason));
  if (const std::string review = review_reason(c); !review.empty())
    out += fmt::format("*Marked for review (verdict kept):* {}\n\n", cell(review));
  for (const std::string& note : c.notes) out += fmt::format("> {}\n\n", cell(note));
  for (const CheckResult& check : c.checks) {
    out += fmt::format("- {} {} {}", verdict_marker(check.verdict), verdict_name(check.verdict),
                       code_span(check.source_text));
    if (!check.label.empty()) out += fmt::format(" [{}]", cell(check.label));
    if (check.location.known()) {
      out += " — " + code_span(fmt::format("{}:{}:{}", check.location.file, check.location.line, check.location.column));
    }
    out += '\n';
    std::string block;
    for (const std::string& e : check.evidence) block += e + "\n";
    if (!check.explanation.empty()) block += "→ " + check.explanation + "\n";
    if (!check.message.empty()) block += "else: " + check.message + "\n";
    if (!check.review.empty()) block += "review: " + check.review + "\n";
    if (!block.empty()) {
      const std::string fence = fence_for(block);
      out += fmt::format("\n  {}\n", fence);
      std::size_t start = 0;
      while (start < block.size()) {
        const std::size_t end = block.find('\n', start);
        out += "  " + block.substr(start, end - start) + "\n";
        start = end + 1;
      }
      out += fmt::format("  {}\n\n", fence);
    }
  }
  for (const CriterionResult& child : c.children) details(out, child, depth + 1);
}

}  // namespace

std::string format_markdown(const Report& unescaped) {
  const ShownReport shown = shown_report(unescaped);
  const Report& report = shown.get();
  std::string out = fmt::format("# {}{}\n\n", cell(report.title),
                                report.version.empty() ? "" : fmt::format(" (version {})", cell(report.version)));
  out += fmt::format("**Verdict: {}** — {}\n\n", overall_verdict_name(report.verdict), cell(overall_reason(report)));
  out += fmt::format("{}; criteria: {}; checks: {}\n\n", describe_score(report),
                     describe_counts(count_criteria(report)), describe_counts(count_checks(report)));
  if (const std::string marked = describe_marked(report); !marked.empty()) out += fmt::format("*{}*\n\n", cell(marked));
  if (!report.provenance.params.empty()) {
    out += "Params:";
    for (const auto& [k, v] : report.provenance.params) out += fmt::format(" {} = {}", code_span(k), code_span(v));
    out += "\n\n";
  }
  out += "| criterion | title | verdict | weight | score |\n|---|---|---|---|---|\n";
  table_rows(out, report.criteria, 0);
  if (!report.warnings.empty()) {
    const std::string listing = format_diagnostics(report.warnings, false);
    const std::string fence = fence_for(listing);
    out += "\n## Warnings\n\n" + fence + "\n" + text::sanitize_utf8(listing) + fence + "\n";
  }
  out += "\n## Details\n";
  for (const CriterionResult& c : report.criteria) details(out, c, 0);
  return out;
}

}  // namespace rubric::report
