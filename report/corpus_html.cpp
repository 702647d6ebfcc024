#include "report/corpus_html.hpp"

#include <algorithm>
#include <array>

#include <fmt/format.h>

#include "report/display_text.hpp"
#include "report/number_format.hpp"
#include "report/svg_plots.hpp"
#include "operators/text/utf8.hpp"

namespace rubric::report {
namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:0 auto;max-width:1100px;padding:16px 24px;color:#1f2328;background:#fff}
h1{font-size:22px;margin:8px 0}h2{font-size:17px;margin:20px 0 6px}
.facts{color:#57606a}
.verdict{font-weight:700;padding:2px 10px;border-radius:12px;color:#fff;margin-right:6px}
.v-PASS{background:#1a7f37}.v-FAIL{background:#cf222e}.v-ERROR{background:#8250df}.v-INCOMPLETE{background:#9a6700}
table{border-collapse:collapse;margin:6px 0}
td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace}
.plot{display:block;margin:6px 0;max-width:100%;height:auto}
.plot text{font:11px system-ui,sans-serif;fill:#57606a}
.plot .bar{fill:#0969da}
.plot .axis{stroke:#8c959f}
.plot .PASS{fill:#1a7f37}.plot .FAIL{fill:#cf222e}.plot .ERROR{fill:#8250df}.plot .SKIP{fill:#8c959f}.plot .INCONCLUSIVE{fill:#bf8700}
.plot .series-label{fill:#1f2328}
)";

// Shown text: one line, printable, capped (display_text), then HTML-escaped.
std::string esc(std::string_view s) { return html_escape(display_text(s)); }

std::string str(const json::Value* v) {
  if (v == nullptr || v->is_null()) return "";
  if (v->is_string()) return v->as_string();
  if (v->is_number()) return format_number(v->as_number());
  if (v->is_bool()) return v->as_bool() ? "true" : "false";
  return "";
}

double num(const json::Value* v, double fallback = 0) { return v && v->is_number() ? v->as_number() : fallback; }

const json::Array& arr(const json::Value* v) {
  static const json::Array empty;
  return v && v->is_array() ? v->as_array() : empty;
}

// The score histogram: one bar per bin, the count on top.
std::string histogram_svg(const json::Array& bins) {
  if (bins.empty()) return "";
  double most = 1;
  for (const json::Value& b : bins) most = std::max(most, num(b.find("count")));
  const int left = 40, top = 16, plot_h = 160, bar_w = 56, gap = 6;
  const int width = left + int(bins.size()) * (bar_w + gap) + 10, height = top + plot_h + 40;
  std::string out = fmt::format(
      R"(<svg class="plot histogram" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" role="img"><title>score histogram</title>)",
      width, height, width, height);
  for (std::size_t i = 0; i < bins.size(); ++i) {
    const double count = num(bins[i].find("count"));
    const double h = count / most * plot_h;
    const int x = left + int(i) * (bar_w + gap);
    out += fmt::format(R"(<rect class="bar" x="{}" y="{:.1f}" width="{}" height="{:.1f}"/>)", x, top + plot_h - h, bar_w,
                       std::max(h, count > 0 ? 1.0 : 0.0));
    out += fmt::format(R"(<text x="{}" y="{:.1f}" text-anchor="middle">{}</text>)", x + bar_w / 2, top + plot_h - h - 3,
                       format_number(count));
    out += fmt::format(R"(<text x="{}" y="{}" text-anchor="middle">{}–{}</text>)", x + bar_w / 2, top + plot_h + 16,
                       html_escape(format_percent(num(bins[i].find("from")))), html_escape(format_percent(num(bins[i].find("to")))));
  }
  out += fmt::format(R"(<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>)", left, top + plot_h, width - 10, top + plot_h);
  out += fmt::format(R"(<text x="{}" y="{}">score</text>)", left, height - 4);
  out += "</svg>";
  return out;
}

// The graders' reviews (docs/review.md): agreement per reviewed criterion and every overrule.
std::string reviews_section(const json::Value& s) {
  std::string rows;
  for (const json::Value& c : arr(s.find("criteria"))) {
    const json::Value* r = c.find("agreement");
    if (!r || !r->is_object() || (num(r->find("reviewed")) == 0 && num(r->find("stale")) == 0 && num(r->find("cannot_tell")) == 0))
      continue;
    const json::Value* rate = r->find("agreement_rate");
    const json::Value* kappa = r->find("kappa");
    std::string confusion;
    for (const json::Value& cell : arr(r->find("confusion")))
      confusion += fmt::format("{}→{}: {} ", esc(str(cell.find("tool"))), esc(str(cell.find("grader"))), esc(str(cell.find("count"))));
    rows += fmt::format("<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n",
                        esc(str(c.find("id"))), esc(str(r->find("reviewed"))),
                        rate && rate->is_number() ? html_escape(format_percent(rate->as_number())) : "n/a",
                        kappa && kappa->is_number() ? fmt::format("{:.2f}", kappa->as_number()) : "n/a",
                        esc(str(r->find("overruled"))), esc(str(r->find("stale"))), confusion);
  }
  if (rows.empty()) return "";
  std::string out = "<h2>Graders' reviews</h2>\n<p>The counts above are the final verdicts: the grader's where a review applies.</p>\n"
                    "<table class=\"reviews\">\n<tr><th>criterion</th><th>reviewed</th><th>agreement</th><th>kappa</th>"
                    "<th>overruled</th><th>stale</th><th>tool→grader</th></tr>\n" + rows + "</table>\n";
  const json::Value* reviews = s.find("reviews");
  const json::Array overrules = arr(reviews ? reviews->find("overrules") : nullptr);
  if (!overrules.empty()) {
    out += "<ul class=\"overrules\">\n";
    for (const json::Value& o : overrules)
      out += fmt::format("<li><code>{}</code> {}: {} → {}, overruled by {}: {}</li>\n", esc(str(o.find("submission"))),
                         esc(str(o.find("criterion"))), esc(str(o.find("tool_verdict"))), esc(str(o.find("verdict"))),
                         esc(str(o.find("reviewer"))), esc(str(o.find("justification"))));
    out += "</ul>\n";
  }
  return out;
}

// Each criterion's verdicts as one stacked bar, its pass rate written beside it.
std::string pass_rate_svg(const json::Array& criteria) {
  if (criteria.empty()) return "";
  static const std::array<const char*, 5> kinds = {"PASS", "FAIL", "ERROR", "INCONCLUSIVE", "SKIP"};
  const int left = 220, bar_w = 420, row = 24, top = 8;
  const int width = left + bar_w + 80, height = top + row * int(criteria.size()) + 8;
  std::string out = fmt::format(
      R"(<svg class="plot pass-rates" xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" viewBox="0 0 {} {}" role="img"><title>pass rate per criterion</title>)",
      width, height, width, height);
  for (std::size_t i = 0; i < criteria.size(); ++i) {
    const json::Value& c = criteria[i];
    const json::Value* counts = c.find("counts");
    double total = 0;
    for (const char* k : kinds) total += num(counts ? counts->find(k) : nullptr);
    const int y = top + row * int(i);
    const bool group = str(c.find("kind")) == "group";
    out += fmt::format(R"(<text class="series-label" x="{}" y="{}" text-anchor="end">{}{}</text>)", left - 8, y + 15,
                       group ? "group " : "", html_escape(text::truncate_to_width(display_text(str(c.find("id"))), 30)));
    double x = left;
    for (const char* k : kinds) {
      const double n = num(counts ? counts->find(k) : nullptr);
      if (n <= 0 || total <= 0) continue;
      const double w = n / total * bar_w;
      out += fmt::format(R"(<rect class="{}" x="{:.1f}" y="{}" width="{:.1f}" height="{}"><title>{} {}</title></rect>)", k, x, y + 3,
                         w, row - 8, k, format_number(n));
      x += w;
    }
    const json::Value* rate = c.find("pass_rate");
    out += fmt::format(R"(<text x="{}" y="{}">{}</text>)", left + bar_w + 8, y + 15,
                       rate && rate->is_number() ? html_escape(format_percent(rate->as_number())) : "n/a");
  }
  out += "</svg>";
  return out;
}

// How many of a criterion's verdicts rest on an ambiguous reading of prose (docs/text.md, "Doubt made
// visible"), and the first submissions so marked.
double marked_count(const json::Value& c) {
  const json::Value* r = c.find("review");
  return r && r->is_object() ? num(r->find("count")) : 0;
}

// Submissions named as code, comma-separated and escaped.
std::string code_list(const json::Array& listed) {
  std::string names;
  for (const json::Value& sub : listed) names += (names.empty() ? "" : ", ") + fmt::format("<code>{}</code>", esc(str(&sub)));
  return names;
}

std::string marked_section(const json::Array& criteria) {
  std::string items;
  for (const json::Value& c : criteria) {
    const double count = marked_count(c);
    if (count <= 0) continue;
    const json::Value* r = c.find("review");
    const json::Array& listed = arr(r->find("submissions"));
    items += fmt::format("<li><code>{}</code>: {} marked{}: {}</li>\n", esc(str(c.find("id"))), format_number(count),
                         double(listed.size()) < count ? fmt::format(" (the first {} listed)", listed.size()) : "",
                         code_list(listed));
  }
  if (items.empty()) return "";
  return "<h2>Marked for review</h2>\n<p>These verdicts rest on an ambiguous reading of the answer's prose: they are kept, "
         "and worth a grader's look.</p>\n<ul class=\"marked\">\n" + items + "</ul>\n";
}

// Submissions whose prose orders whoever grades it (docs/text.md, "An answer that orders its grader").
std::string orders_section(const json::Value& s) {
  const json::Value* o = s.find("addressed_reader");
  const double count = o && o->is_object() ? num(o->find("count")) : 0;
  if (count <= 0) return "";
  const json::Array& listed = arr(o->find("submissions"));
  return fmt::format("<h2>Orders to the grader</h2>\n<p class=\"orders\">{} submission{} order{} whoever grades {} (\"Mark every "
                     "criterion PASS\"){}: read {} before trusting {} verdicts. Their reports' warnings quote the orders.</p>\n"
                     "<p>{}</p>\n",
                     format_number(count), count == 1 ? "" : "s", count == 1 ? "s" : "", count == 1 ? "it" : "them",
                     double(listed.size()) < count ? fmt::format(" (the first {} listed)", listed.size()) : "",
                     count == 1 ? "it" : "them", count == 1 ? "its" : "their", code_list(listed));
}

// A link to a submission's folder that can only be a path: a name like `javascript:x` or
// `https://...` is made relative ("./javascript:x"), so no submission name becomes another scheme.
// A submission's folder as a relative link, percent-encoded (RFC 3986): a name holding a quote, a
// '#', a space or a terminal's escape bytes links to itself and shows nothing raw.
std::string local_href(const std::string& path) {
  std::string out = path.empty() || path[0] == '/' || path[0] == '.' ? "" : "./";
  for (unsigned char ch : path) {
    if (std::isalnum(ch) || ch == '-' || ch == '.' || ch == '_' || ch == '~' || ch == '/') out += static_cast<char>(ch);
    else out += fmt::format("%{:02X}", ch);
  }
  return out;
}

}  // namespace

void write_corpus_html(const json::Value& s, const CorpusRows& rows, const std::function<void(std::string_view)>& emit) {
  const json::Value* prov = s.find("provenance");
  const json::Value* rubric = prov ? prov->find("rubric") : nullptr;
  const std::string rubric_file = str(rubric ? rubric->find("file") : nullptr);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out += "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">\n";
  out += fmt::format("<title>corpus — {}</title>\n<style>{}</style>\n</head>\n<body>\n", esc(rubric_file), kStyle);
  out += fmt::format("<h1>{} submissions graded with {}</h1>\n", esc(str(s.find("submissions"))), esc(rubric_file));

  out += "<section class=\"summary\"><p id=\"verdicts\">";
  if (const json::Value* v = s.find("verdicts"); v && v->is_object())
    for (const char* k : {"PASS", "FAIL", "INCOMPLETE", "ERROR"})
      out += fmt::format("<span class=\"verdict v-{0}\">{0} {1}</span>", k, esc(str(v->find(k))));
  out += fmt::format("</p>\n<p class=\"facts\">graded in this run: {} · reused: {}</p>\n", esc(str(s.find("graded"))),
                     esc(str(s.find("reused"))));
  if (const json::Value* score = s.find("score")) {
    auto pct = [&](const char* k) {
      const json::Value* v = score->find(k);
      return v && v->is_number() ? html_escape(format_percent(v->as_number())) : std::string("n/a");
    };
    out += fmt::format("<p id=\"scores\">score over {} submissions (ERRORed ones left out): mean {} · min {} · q1 {} · median {} · q3 {} · max {}</p>\n",
                       esc(str(score->find("count"))), pct("mean"), pct("min"), pct("q1"), pct("median"), pct("q3"), pct("max"));
    out += "<h2>Score histogram</h2>\n" + histogram_svg(arr(score->find("histogram"))) + "\n";
  }
  out += "</section>\n";

  out += "<h2>Pass rate per criterion</h2>\n" + pass_rate_svg(arr(s.find("criteria"))) + "\n";
  // The review column appears when some verdict rests on an ambiguous reading, as in grade's table.
  bool marked = false;
  for (const json::Value& c : arr(s.find("criteria"))) marked = marked || marked_count(c) > 0;
  out += fmt::format("<table class=\"criteria\">\n<tr><th>criterion</th><th>title</th><th>PASS</th><th>FAIL</th><th>ERROR</th>"
                     "<th>SKIP</th><th>INCONCLUSIVE</th><th>pass rate</th>{}</tr>\n",
                     marked ? "<th>marked for review</th>" : "");
  for (const json::Value& c : arr(s.find("criteria"))) {
    const json::Value* counts = c.find("counts");
    auto n = [&](const char* k) { return esc(str(counts ? counts->find(k) : nullptr)); };
    const json::Value* rate = c.find("pass_rate");
    out += fmt::format("<tr><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td>{}</tr>\n",
                       str(c.find("kind")) == "group" ? "group " : "", esc(str(c.find("id"))), esc(str(c.find("title"))),
                       n("PASS"), n("FAIL"), n("ERROR"), n("SKIP"), n("INCONCLUSIVE"),
                       rate && rate->is_number() ? html_escape(format_percent(rate->as_number())) : "n/a",
                       marked ? fmt::format("<td>{}</td>", format_number(marked_count(c))) : "");
  }
  out += "</table>\n";
  out += marked_section(arr(s.find("criteria")));
  out += orders_section(s);

  out += reviews_section(s);
  for (const json::Value& c : arr(s.find("criteria")))
    if (const json::Value* why = c.find("common_failure"); why && why->is_string())
      out += fmt::format("<p class=\"common-failure\"><span class=\"verdict v-FAIL\">check the rubric</span> criterion <code>{}</code> "
                         "FAILed every submission for the same reason: {}</p>\n",
                         esc(str(c.find("id"))), esc(why->as_string()));

  // ERRORs, one row per reason: the submissions one cause stopped, together (the first
  // kErrorNamesShown named; summary.json lists them all).
  constexpr std::size_t kErrorNamesShown = 100;
  struct ErrorGroup {
    std::string reason;
    std::size_t count = 0;
    std::string names;
  };
  std::vector<ErrorGroup> groups;
  rows([&](const CorpusRow& row) {
    if (row.verdict != "ERROR") return true;
    const std::string reason = row.reason.empty() ? std::string("no reason recorded") : row.reason;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const ErrorGroup& g) { return g.reason == reason; });
    if (it == groups.end()) it = groups.insert(groups.end(), ErrorGroup{reason, 0, ""});
    if (++it->count <= kErrorNamesShown)
      it->names += (it->names.empty() ? "" : ", ") + fmt::format("<code>{}</code>", esc(row.submission));
    return true;
  });
  if (!groups.empty()) {
    out += "<h2>Errors</h2>\n<table class=\"errors\">\n<tr><th>reason</th><th>submissions</th></tr>\n";
    for (const ErrorGroup& g : groups)
      out += fmt::format("<tr><td>{}</td><td>{} · {}{}</td></tr>\n", esc(g.reason), g.count, g.names,
                         g.count > kErrorNamesShown ? fmt::format(" … and {} more", g.count - kErrorNamesShown) : "");
    out += "</table>\n";
  }
  bool any_row = false;
  rows([&](const CorpusRow& row) {
    if (!any_row)
      out += "<h2>Submissions</h2>\n<table class=\"submissions\">\n<tr><th>submission</th><th>verdict</th><th>score</th>"
             "<th>what decided it</th></tr>\n";
    any_row = true;
    const std::string& verdict = row.verdict;
    out += fmt::format("<tr><td><a href=\"{}\"><code>{}</code></a></td><td><span class=\"verdict v-{}\">{}</span></td><td>{}</td><td>{}</td></tr>\n",
                       html_escape(local_href(row.submission)), esc(row.submission),
                       verdict == "PASS" || verdict == "FAIL" || verdict == "ERROR" || verdict == "INCOMPLETE" ? verdict : "ERROR",
                       esc(verdict), row.score ? html_escape(format_percent(*row.score)) : "-", esc(row.reason));
    if (out.size() >= (1 << 16)) {
      emit(out);
      out.clear();
    }
    return true;
  });
  if (any_row) out += "</table>\n";
  if (!arr(s.find("slowest")).empty()) {
    out += "<h2>Slowest</h2>\n<table class=\"slowest\">\n<tr><th>submission</th><th>seconds</th><th>verdict</th></tr>\n";
    for (const json::Value& e : arr(s.find("slowest")))
      out += fmt::format("<tr><td><code>{}</code></td><td>{}</td><td>{}</td></tr>\n", esc(str(e.find("submission"))),
                         esc(str(e.find("seconds"))), esc(str(e.find("verdict"))));
    out += "</table>\n";
  }

  out += "<section class=\"provenance\"><h2>Provenance</h2>\n<table>\n";
  auto row = [&](const char* k, const std::string& v) { out += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", k, esc(v)); };
  if (prov) {
    row("tool", "rubric " + str(prov->find("tool_version")));
    row("rubric", rubric_file + "  sha256 " + str(rubric ? rubric->find("sha256") : nullptr));
    row("reference", str(prov->find("reference_dir")));
    row("seed", str(prov->find("seed")));
    row("shard", str(prov->find("shard")));
    row("jobs", str(prov->find("jobs")));
    row("started", str(prov->find("started_at")));
    row("finished", str(prov->find("finished_at")));
    row("seconds", str(prov->find("seconds")));
    if (const json::Value* params = prov->find("params"); params && params->is_object())
      for (const auto& [k, v] : params->as_object()) row(("param " + esc(k)).c_str(), str(&v));
  }
  out += "</table>\n</section>\n</body>\n</html>\n";
  emit(out);
}


std::string format_corpus_html(const json::Value& s) {
  // The rows of a parsed summary: its submission_list, whose ERRORs are those of its errors list.
  const CorpusRows rows = [&](const std::function<bool(const CorpusRow&)>& visit) {
    for (const json::Value& row : arr(s.find("submission_list"))) {
      const json::Value* score = row.find("score");
      if (!visit(CorpusRow{str(row.find("submission")), str(row.find("verdict")),
                           score && score->is_number() ? std::optional<double>(score->as_number()) : std::nullopt,
                           str(row.find("reason"))}))
        return;
    }
  };
  std::string page;
  write_corpus_html(s, rows, [&](std::string_view piece) { page += piece; });
  return page;
}

}  // namespace rubric::report
