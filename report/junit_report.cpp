#include "report/junit_report.hpp"

#include <fmt/format.h>

#include "report/number_format.hpp"
#include "report/shown_report.hpp"
#include "report/terminal_style.hpp"
#include "operators/text/utf8.hpp"
#include "report/verdict_summary.hpp"

namespace rubric::report {
namespace {

struct Case {
  const CriterionResult* criterion;
  std::string classname;
};

void collect(const std::vector<CriterionResult>& list, const std::string& prefix, std::vector<Case>& out) {
  for (const CriterionResult& c : list) {
    if (c.is_group) collect(c.children, prefix + "." + c.id, out);
    else out.push_back({&c, prefix});
  }
}

// The body of a <failure>/<error>/<skipped>: every check with its evidence, as in the text report.
std::string case_details(const CriterionResult& c) {
  std::string out;
  if (!c.reason.empty()) out += "reason: " + c.reason + "\n";
  if (const std::string review = review_reason(c); !review.empty()) out += "marked for review (verdict kept): " + review + "\n";
  for (const std::string& note : c.notes) out += "note: " + note + "\n";
  for (const CheckResult& check : c.checks) {
    out += fmt::format("{} {} {}", verdict_marker(check.verdict), verdict_name(check.verdict),
                       text::fold_whitespace(check.source_text));
    if (!check.label.empty()) out += fmt::format("  [{}]", check.label);
    if (check.location.known()) {
      out += fmt::format("  ({}:{}:{})", check.location.file, check.location.line, check.location.column);
    }
    out += '\n';
    for (const std::string& e : check.evidence) out += "    " + e + "\n";
    if (!check.explanation.empty()) out += "    → " + check.explanation + "\n";
    if (!check.message.empty()) out += "    else: " + check.message + "\n";
    if (!check.review.empty()) out += "    review: " + check.review + "\n";
  }
  return out;
}

// The one-line message attribute: the criterion's reason, else its first undecided/failed check.
std::string case_message(const CriterionResult& c) {
  if (!c.reason.empty()) return c.reason;
  for (const CheckResult& check : c.checks) {
    if (check.verdict != c.verdict) continue;
    if (!check.message.empty()) return check.message;
    if (!check.explanation.empty()) return check.explanation;
    return text::fold_whitespace(check.source_text);
  }
  return verdict_name(c.verdict);
}

}  // namespace

std::string xml_escape(std::string_view raw) {
  const std::string text = text::sanitize_utf8(raw);
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t n = text::utf8_sequence_length(text, i);  // never 0: sanitize_utf8 left valid UTF-8
    const char32_t cp = text::utf8_code_point(text, i, n);
    switch (cp) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;  // also keeps "]]>" out of the document
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: {
        // XML 1.0 Char: #x9 | #xA | #xD | [#x20-#xD7FF] | [#xE000-#xFFFD] | [#x10000-#x10FFFF].
        const bool allowed = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
                             (cp >= 0xE000 && cp <= 0xFFFD) || cp >= 0x10000;
        if (allowed) out.append(text, i, n);
        else out += "\xEF\xBF\xBD";
      }
    }
    i += n;
  }
  return out;
}

std::string format_junit(const Report& unescaped) {
  // Text from the model is escaped for display first (one line per string, no U+FFFE or controls);
  // xml_escape then makes it XML.
  const ShownReport shown = shown_report(unescaped);
  const Report& report = shown.get();
  std::vector<Case> cases;
  collect(report.criteria, "rubric", cases);
  std::size_t failures = 0, errors = 0, skipped = 0;
  for (const Case& c : cases) {
    switch (c.criterion->verdict) {
      case Verdict::fail: ++failures; break;
      case Verdict::error: ++errors; break;
      case Verdict::skip:
      case Verdict::inconclusive: ++skipped; break;
      case Verdict::pass: break;
    }
  }
  const Provenance& p = report.provenance;
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out += fmt::format("<testsuites name=\"rubric\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\">\n",
                     cases.size(), failures, errors, skipped, p.seconds);
  out += fmt::format("  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.3f}\"{}>\n",
                     xml_escape(report.title), cases.size(), failures, errors, skipped, p.seconds,
                     p.started_at.empty() ? "" : fmt::format(" timestamp=\"{}\"", xml_escape(p.started_at)));
  out += "    <properties>\n";
  const auto property = [&](std::string_view name, std::string_view value) {
    out += fmt::format("      <property name=\"{}\" value=\"{}\"/>\n", xml_escape(name), xml_escape(value));
  };
  property("verdict", overall_verdict_name(report.verdict));
  property("verdict_reason", overall_reason(report));
  property("score", report.score ? format_percent(*report.score) : "null");
  property("pass_mark", format_percent(report.pass_mark));
  property("version", report.version);
  for (const auto& [k, v] : report.metadata) property("metadata." + k, v);
  for (const auto& [k, v] : p.params) property("param." + k, v);
  property("tool_version", p.tool_version);
  property("compiler", p.compiler);
  for (const auto& [k, v] : p.host) property("host." + k, v);
  for (const auto& [k, v] : p.cuda) property("cuda." + k, v);
  out += "    </properties>\n";
  for (const Case& c : cases) {
    const CriterionResult& cr = *c.criterion;
    out += fmt::format("    <testcase name=\"{}\" classname=\"{}\" time=\"{:.3f}\"",
                       xml_escape(fmt::format("{}: {}", cr.id, cr.title)), xml_escape(c.classname), cr.seconds);
    // A verdict resting on an ambiguous reading: a property CI tools show beside the case.
    if (const std::string review = review_reason(cr); !review.empty())
      out += fmt::format(">\n      <properties>\n        <property name=\"review\" value=\"{}\"/>\n      </properties", xml_escape(review));
    const std::string details = xml_escape(case_details(cr));
    const std::string message = xml_escape(case_message(cr));
    switch (cr.verdict) {
      case Verdict::pass:
        out += fmt::format(">\n      <system-out>{}</system-out>\n    </testcase>\n", details);
        break;
      case Verdict::fail:
        out += fmt::format(">\n      <failure message=\"{}\" type=\"FAIL\">{}</failure>\n    </testcase>\n", message, details);
        break;
      case Verdict::error:
        out += fmt::format(">\n      <error message=\"{}\" type=\"ERROR\">{}</error>\n    </testcase>\n", message, details);
        break;
      case Verdict::skip:
      case Verdict::inconclusive:
        out += fmt::format(">\n      <skipped message=\"{}: {}\"/>\n      <system-out>{}</system-out>\n    </testcase>\n",
                           verdict_name(cr.verdict), message, details);
        break;
    }
  }
  // The rubric's warnings (load and header warnings, a file that shrank as it was read): where CI tools show a suite's stderr.
  if (!report.warnings.empty())
    out += fmt::format("    <system-err>{}</system-err>\n", xml_escape(format_diagnostics(report.warnings, false)));
  out += "  </testsuite>\n</testsuites>\n";
  return out;
}

}  // namespace rubric::report
