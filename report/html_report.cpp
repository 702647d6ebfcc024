#include "report/html_report.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "report/number_format.hpp"
#include "report/shown_report.hpp"
#include "report/svg_plots.hpp"
#include "report/terminal_style.hpp"
#include "report/verdict_summary.hpp"

namespace rubric::report {
namespace {

// The page's only style. System fonts only (nothing fetched); colours as in the terminal.
constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:8px 0}
.summary{border:1px solid #d0d7de;border-radius:8px;padding:12px 16px;margin:12px 0}
.verdict{font-weight:700;padding:2px 10px;border-radius:12px;color:#fff}
.v-PASS{background:#1a7f37}.v-FAIL{background:#cf222e}.v-ERROR{background:#8250df}.v-INCOMPLETE,.v-INCONCLUSIVE{background:#9a6700}.v-SKIP{background:#6e7781}
.facts{color:#57606a}
details.criterion{border:1px solid #d0d7de;border-radius:8px;margin:8px 0;padding:0 12px}
details.criterion>summary{cursor:pointer;padding:8px 0;font-weight:600}
details.group{border-style:dashed}
.check{border-top:1px solid #eaeef2;padding:6px 0}
.marker{display:inline-block;width:1.4em;font-weight:700}
.m-PASS{color:#1a7f37}.m-FAIL{color:#cf222e}.m-ERROR{color:#8250df}.m-INCONCLUSIVE{color:#9a6700}.m-SKIP{color:#6e7781}
code,pre{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
pre.evidence{background:#f6f8fa;padding:6px 10px;margin:4px 0 4px 1.4em;white-space:pre-wrap;overflow-wrap:anywhere}
.location{color:#57606a;float:right}
.explanation,.message,.reason,.note,.review{margin:2px 0 2px 1.4em}
.review{color:#8a6d00}
.review-badge{font-size:12px;padding:1px 7px;border-radius:10px;background:#fff8c5;color:#7d4e00;border:1px solid #d4a72c}
.plot{display:block;margin:6px 0 6px 1.4em;max-width:100%;height:auto}
.plot .dot{fill:#0969da;fill-opacity:.45}
.plot .median{stroke:#1f2328;stroke-width:2}
.plot .axis,.plot .tick{stroke:#8c959f}
.plot text{font:11px system-ui,sans-serif;fill:#57606a}
.plot .series-label{fill:#1f2328}
.plot .passing-side{fill:#dafbe1}
.plot .interval{stroke:#1f2328;stroke-width:4}
.plot .estimate{fill:#1f2328}
.plot .bound{stroke:#cf222e;stroke-width:2;stroke-dasharray:4 3}
.plot .bound-label{fill:#cf222e}
.plot .map-frame{fill:#f6f8fa;stroke:#8c959f}
.plot .cell{fill:#cf222e}
table{border-collapse:collapse;margin:6px 0}
td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
.provenance{margin-top:24px}
)";

std::string esc(std::string_view s) { return html_escape(s); }

std::string location_text(const SourceLocation& loc) {
  if (!loc.known()) return loc.file;
  return fmt::format("{}:{}:{}", loc.file, loc.line, loc.column);
}

std::string facts(const CriterionResult& c) {
  std::vector<std::string> f;
  if (c.penalty) f.push_back("penalty " + format_number(*c.penalty));
  else f.push_back("weight " + format_number(c.weight));
  if (c.required) f.push_back("required");
  for (const std::string& a : c.after) f.push_back("after " + a);
  for (const std::string& n : c.needs) f.push_back("needs " + n);
  if (c.penalty) f.push_back(penalty_state(c));
  else f.push_back(c.score ? "score " + format_percent(*c.score) : "not scored");
  std::string out;
  for (const std::string& s : f) out += (out.empty() ? "" : " · ") + s;
  return out;
}

class HtmlWriter {
 public:
  explicit HtmlWriter(const Report& r) : r_(r) {}

  std::string write() {
    const std::string verdict = overall_verdict_name(r_.verdict);
    out_ += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
    // No request may leave the page: everything it shows is inline.
    out_ += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n";
    out_ += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
    out_ += fmt::format("<title>{} — {}</title>\n<style>{}</style>\n</head>\n<body>\n", verdict, esc(r_.title), kStyle);
    header(verdict);
    warnings();
    out_ += "<main>\n";
    for (const CriterionResult& c : r_.criteria) criterion(c);
    out_ += "</main>\n";
    provenance();
    out_ += "</body>\n</html>\n";
    return std::move(out_);
  }

 private:
  void header(const std::string& verdict) {
    out_ += fmt::format("<h1>{}{}</h1>\n", esc(r_.title),
                        r_.version.empty() ? "" : fmt::format(" <span class=\"facts\">version {}</span>", esc(r_.version)));
    out_ += "<section class=\"summary\">\n";
    out_ += fmt::format("<p><span class=\"verdict v-{0}\" id=\"verdict\">{0}</span> {1}</p>\n", verdict, esc(overall_reason(r_)));
    out_ += fmt::format("<p id=\"score\">{}</p>\n", esc(describe_score(r_)));
    out_ += fmt::format("<p class=\"facts\">criteria: {} · checks: {}</p>\n", esc(describe_counts(count_criteria(r_))),
                        esc(describe_counts(count_checks(r_))));
    if (const std::string marked = describe_marked(r_); !marked.empty())
      out_ += fmt::format("<p class=\"review\" id=\"marked\">{}</p>\n", esc(marked));
    if (!r_.metadata.empty() || !r_.provenance.params.empty()) {
      out_ += "<table class=\"metadata\">\n";
      for (const auto& [k, v] : r_.metadata) out_ += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", esc(k), esc(v));
      for (const auto& [k, v] : r_.provenance.params)
        out_ += fmt::format("<tr><th>param {}</th><td>{}</td></tr>\n", esc(k), esc(v));
      out_ += "</table>\n";
    }
    out_ += "</section>\n";
  }

  void warnings() {
    if (r_.warnings.empty()) return;
    out_ += "<section class=\"warnings\"><h2>Warnings</h2>\n<pre class=\"evidence\">";
    out_ += esc(format_diagnostics(r_.warnings, false));
    out_ += "</pre></section>\n";
  }

  void criterion(const CriterionResult& c) {
    const char* v = verdict_name(c.verdict);
    // Failures, anything undecided and a verdict marked for review open by default; a clear PASS is
    // one line until opened.
    const std::string review = review_reason(c);
    const bool open = c.verdict != Verdict::pass || !review.empty();
    out_ += fmt::format("<details class=\"criterion{}\" id=\"criterion-{}\" data-verdict=\"{}\"{}>\n", c.is_group ? " group" : "",
                        esc(c.id), v, open ? " open" : "");
    out_ += fmt::format("<summary><span class=\"verdict v-{0}\">{0}</span> {1}{2} — {3} <span class=\"facts\">{4}</span>{5}</summary>\n",
                        v, c.is_group ? "group " : "", esc(c.id), esc(c.title), esc(facts(c)),
                        review.empty() ? "" : " <span class=\"review-badge\">review</span>");
    if (!c.reason.empty()) out_ += fmt::format("<p class=\"reason\">reason: {}</p>\n", esc(c.reason));
    if (!review.empty()) out_ += fmt::format("<p class=\"review\">marked for review (verdict kept): {}</p>\n", esc(review));
    for (const std::string& n : c.notes) out_ += fmt::format("<p class=\"note\">note: {}</p>\n", esc(n));
    for (const CheckResult& check : c.checks) check_entry(check);
    for (const CriterionResult& child : c.children) criterion(child);
    out_ += "</details>\n";
  }

  void check_entry(const CheckResult& check) {
    const char* v = verdict_name(check.verdict);
    out_ += fmt::format("<div class=\"check\" data-verdict=\"{}\">\n", v);
    out_ += fmt::format("<div><span class=\"marker m-{}\" title=\"{}\">{}</span><code>{}</code>{} <span class=\"location\">{}</span></div>\n", v, v,
                        verdict_marker(check.verdict), esc(check.source_text),
                        check.label.empty() ? "" : fmt::format(" <span class=\"facts\">[{}]</span>", esc(check.label)),
                        esc(location_text(check.location)));
    if (!check.evidence.empty()) {
      out_ += "<pre class=\"evidence\">";
      for (std::size_t i = 0; i < check.evidence.size(); ++i) out_ += (i ? "\n" : "") + esc(check.evidence[i]);
      out_ += "</pre>\n";
    }
    if (!check.explanation.empty()) out_ += fmt::format("<p class=\"explanation\">→ {}</p>\n", esc(check.explanation));
    if (!check.message.empty()) out_ += fmt::format("<p class=\"message\">else: {}</p>\n", esc(check.message));
    if (!check.review.empty()) out_ += fmt::format("<p class=\"review\">review: {}</p>\n", esc(check.review));
    if (check.samples) out_ += svg_sample_plot(*check.samples) + "\n";
    if (check.mismatch_map) {
      const MismatchMap& m = *check.mismatch_map;
      out_ += fmt::format("<p class=\"explanation\">where the mismatches lie: the tensor as {} × {}, each cell about {} × {} "
                          "elements, darker where more of them mismatch</p>\n",
                          m.rows, m.cols, (m.rows + m.grid_rows - 1) / std::max<std::uint64_t>(m.grid_rows, 1),
                          (m.cols + m.grid_cols - 1) / std::max<std::uint64_t>(m.grid_cols, 1));
      out_ += svg_mismatch_map(m) + "\n";
    }
    out_ += "</div>\n";
  }

  void provenance() {
    const Provenance& p = r_.provenance;
    out_ += "<section class=\"provenance\">\n<details open>\n<summary>Provenance</summary>\n<table>\n";
    auto row = [&](const char* k, const std::string& v) { out_ += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", k, esc(v)); };
    row("tool", "rubric " + p.tool_version);
    row("rubric", p.rubric_file + (p.rubric_digest.empty() ? "" : "  xxh3-128 " + p.rubric_digest));
    row("submission", p.submission_dir);
    row("reference", p.reference_dir);
    row("seed", std::to_string(p.seed));
    row("started", p.started_at);
    row("checked in", format_seconds(p.seconds));
    for (const auto& [k, v] : p.device) row(("device " + esc(k)).c_str(), v);
    if (!p.compiler.empty()) row("built with", p.compiler);
    for (const auto& [k, v] : p.host) row(("host " + esc(k)).c_str(), v);
    for (const auto& [k, v] : p.cuda) row(("CUDA " + esc(k)).c_str(), v);
    out_ += "</table>\n";
    if (!p.files.empty()) {
      out_ += "<table class=\"files\">\n<tr><th>file</th><th>root</th><th>bytes</th><th>xxh3-128</th></tr>\n";
      for (const FileRecord& f : p.files)
        out_ += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td><code>{}</code></td></tr>\n", esc(f.path), esc(f.root), f.bytes,
                            esc(f.digest));
      out_ += "</table>\n";
    }
    if (!p.runs.empty()) {
      out_ += "<table class=\"runs\">\n<tr><th>program run</th><th>isolation</th><th>exit</th><th>time</th></tr>\n";
      for (const RunRecord& r : p.runs)
        out_ += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td></tr>\n", esc(r.command), esc(r.isolation),
                            r.exit_code, esc(format_seconds(r.seconds)));
      out_ += "</table>\n";
    }
    out_ += "</details>\n</section>\n";
  }

  const Report& r_;
  std::string out_;
};

}  // namespace

std::string format_html(const Report& report) {
  const ShownReport shown = shown_report(report);
  return HtmlWriter(shown.get()).write();
}

}  // namespace rubric::report
