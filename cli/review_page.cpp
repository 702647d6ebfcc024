#include "cli/review_page.hpp"

#include <algorithm>
#include <fcntl.h>
#include <functional>
#include <filesystem>
#include <sys/stat.h>
#include <unistd.h>

#include <fmt/format.h>

#include "grading/reviewed_results.hpp"
#include "report/display_text.hpp"
#include "report/number_format.hpp"
#include "report/svg_plots.hpp"

namespace rubric::cli {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kFileBytesShown = 64 * 1024;
constexpr std::size_t kFilesShown = 40;

// A string from a result, a file or a review, as the page shows it.
std::string shown(const std::string& raw) { return report::html_escape(report::display_text(raw)); }

std::string str(const json::Value& o, const char* name) {
  const json::Value* v = o.find(name);
  return v && v->is_string() ? v->as_string() : std::string();
}

std::string page(const std::string& title, const std::string& body) {
  return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + shown(title) +
         "</title><style>body{font-family:sans-serif;max-width:64em;margin:1em auto;padding:0 1em}"
         "pre{white-space:pre-wrap;background:#f6f6f6;padding:.5em;max-height:30em;overflow:auto}"
         ".PASS{color:#176f2c}.FAIL{color:#b3261e}.ERROR{color:#8b0000;font-weight:bold}"
         ".criterion{border-top:1px solid #ccc;padding:.5em 0}.notice{background:#fff3cd;padding:.5em}"
         ".stale{color:#8a6d3b}</style></head><body>\n" +
         body + "</body></html>\n";
}

std::string link(const ReviewSite& site, std::size_t index, const std::string& text) {
  return fmt::format("<a href=\"/s/{}?token={}\">{}</a>", index, site.token, text);
}

// `site.submissions` is in the lines' (sorted) order.
std::size_t index_of(const ReviewSite& site, const std::string& submission) {
  const auto it = std::lower_bound(site.submissions.begin(), site.submissions.end(), submission);
  return static_cast<std::size_t>(it - site.submissions.begin());
}

std::size_t applied_reviews(const std::string& submission, const json::Value& line, const ReviewsInForce& reviews) {
  std::size_t n = 0;
  for (const json::Value* c : leaf_criteria(line)) {
    const auto r = reviews.find({submission, str(*c, "id")});
    if (r != reviews.end() && !grading::is_stale(r->second, line)) ++n;
  }
  return n;
}

// A file of the submission, read without following a link or opening anything but a regular
// file, cut at kFileBytesShown; shown as text, never run.
std::string file_section(const fs::path& root, const fs::path& relative) {
  const fs::path path = root / relative;
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
  struct stat st {};
  if (fd < 0 || ::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (fd >= 0) ::close(fd);
    return "";
  }
  std::string bytes(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), kFileBytesShown), '\0');
  const ssize_t got = ::read(fd, bytes.data(), bytes.size());
  ::close(fd);
  bytes.resize(got > 0 ? static_cast<std::size_t>(got) : 0);
  std::string body;
  if (bytes.find('\0') != std::string::npos) body = "(binary: not shown)";
  else {
    std::size_t start = 0;
    while (start <= bytes.size()) {
      const std::size_t end = std::min(bytes.find('\n', start), bytes.size());
      body += shown(bytes.substr(start, end - start)) + "\n";
      start = end + 1;
    }
    if (static_cast<std::size_t>(st.st_size) > kFileBytesShown)
      body += fmt::format("… (cut: {} of {} bytes shown)\n", kFileBytesShown, st.st_size);
  }
  const std::string name = relative.string();
  const bool open_it = relative.extension() == ".md" || relative.extension() == ".txt";
  return fmt::format("<details{}><summary>{} ({} bytes)</summary><pre>{}</pre></details>\n", open_it ? " open" : "",
                     shown(name), st.st_size, body);
}

std::string files_section(const std::string& submission) {
  std::error_code ec;
  const fs::path root(submission);
  if (!fs::is_directory(fs::symlink_status(root, ec))) {
    return "<p>The submission folder is not at " + shown(submission) +
           " (start <code>rubric review</code> from the folder <code>rubric grade</code> ran in).</p>\n";
  }
  std::vector<fs::path> files;
  // Links are listed by the iterator but never followed into (directory_options::none).
  for (fs::recursive_directory_iterator it(root, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end && files.size() < kFilesShown; it.increment(ec))
    if (it->symlink_status(ec).type() == fs::file_type::regular) files.push_back(fs::relative(it->path(), root, ec));
  std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) {
    const bool at = a.extension() == ".md", bt = b.extension() == ".md";
    return at != bt ? at : a < b;
  });
  std::string out = "<h2>Files</h2>\n";
  for (const fs::path& f : files) out += file_section(root, f);
  if (files.size() == kFilesShown) out += fmt::format("<p>(the first {} files)</p>\n", kFilesShown);
  return out;
}

std::string tool_part(const json::Value& c) {
  std::string out = fmt::format("<p>the tool: <b class=\"{0}\">{0}</b>", shown(str(c, "verdict")));
  if (!str(c, "reason").empty()) out += " — " + shown(str(c, "reason"));
  out += "</p>\n";
  if (const json::Value* checks = c.find("checks"); checks && checks->is_array()) {
    out += "<ul>\n";
    for (const json::Value& k : checks->as_array()) {
      out += fmt::format("<li><b class=\"{0}\">{0}</b> <code>{1}</code>", shown(str(k, "verdict")), shown(str(k, "source")));
      if (const json::Value* ev = k.find("evidence"); ev && ev->is_array())
        for (const json::Value& line : ev->as_array())
          if (line.is_string()) out += "<br>" + shown(line.as_string());
      if (!str(k, "explanation").empty()) out += "<br>→ " + shown(str(k, "explanation"));
      if (!str(k, "message").empty()) out += "<br>" + shown(str(k, "message"));
      out += "</li>\n";
    }
    out += "</ul>\n";
  }
  return out;
}

std::string review_part(const grading::Review& r, const json::Value& line, bool hide_tool) {
  const bool stale = grading::is_stale(r, line);
  std::string out = fmt::format("<p class=\"review{}\">{} {} by {} at {}", stale ? " stale" : "",
                                r.overrules() && !hide_tool ? "overruled:" : "reviewed:", shown(grading::grader_verdict_name(r.verdict)),
                                shown(r.reviewer), shown(r.time));
  if (r.blind) out += " (blind)";
  if (!r.justification.empty()) out += ": " + shown(r.justification);
  if (stale) out += " — stale: made against another rubric or submission content, not applied";
  return out + "</p>\n";
}

std::string form(const ReviewSite& site, std::size_t index, const std::string& id, bool hide_tool) {
  std::string out = fmt::format("<form method=\"post\" action=\"/review?token={}\">"
                                "<input type=\"hidden\" name=\"s\" value=\"{}\">"
                                "<input type=\"hidden\" name=\"criterion\" value=\"{}\">",
                                site.token, index, shown(id));
  const std::vector<std::pair<const char*, const char*>> choices =
      hide_tool ? std::vector<std::pair<const char*, const char*>>{{"PASS", "PASS"}, {"FAIL", "FAIL"}, {"cannot tell", "cannot tell"}}
                : std::vector<std::pair<const char*, const char*>>{
                      {"agree", "agree"}, {"PASS", "PASS"}, {"FAIL", "FAIL"}, {"cannot tell", "cannot tell"}};
  for (const auto& [value, label] : choices)
    out += fmt::format("<label><input type=\"radio\" name=\"verdict\" value=\"{}\" required> {}</label> ", value, label);
  out += fmt::format("<br><textarea name=\"why\" rows=\"2\" cols=\"70\" placeholder=\"justification ({})\"></textarea>"
                     "<br><label>reviewer <input name=\"reviewer\" value=\"{}\"></label> "
                     "<button type=\"submit\">record</button></form>\n",
                     hide_tool ? "required for PASS or FAIL while the tool's verdict is hidden" : "required to overrule",
                     shown(site.reviewer));
  return out;
}

}  // namespace

std::vector<const json::Value*> leaf_criteria(const json::Value& line) {
  std::vector<const json::Value*> out;
  std::function<void(const json::Value*)> walk = [&](const json::Value* criteria) {
    if (!criteria || !criteria->is_array()) return;
    for (const json::Value& c : criteria->as_array()) {
      if (str(c, "kind") == "group") walk(c.find("criteria"));
      else out.push_back(&c);
    }
  };
  walk(line.find("criteria"));
  return out;
}

bool tool_hidden(const ReviewSite& site, const std::string& submission, const ReviewsInForce& reviews) {
  if (!site.blind) return false;
  const auto line = site.lines.find(submission);
  if (line == site.lines.end()) return true;
  return applied_reviews(submission, line->second, reviews) < leaf_criteria(line->second).size();
}

std::string message_page(const std::string& title, const std::string& text) {
  return page(title, "<h1>" + shown(title) + "</h1><p>" + shown(text) + "</p>\n");
}

std::string queue_page(const ReviewSite& site, const ReviewsInForce& reviews) {
  std::string body = fmt::format("<h1>Review queue: {}</h1>\n<p>{} submissions in {}{}.</p>\n", shown(site.out_dir),
                                 site.submissions.size(), shown(site.out_dir),
                                 site.blind ? "; blind: the tool's verdicts stay hidden until you commit yours" : "");
  for (const grading::QueueGroup& g : site.queue) {
    body += fmt::format("<h2>{} ({})</h2>\n<p>{}</p>\n<ul>\n", shown(g.name), g.submissions.size(),
                        shown(g.why));
    for (const std::string& s : g.submissions) {
      const json::Value& line = site.lines.at(s);
      const std::size_t index = index_of(site, s);
      std::string verdict;
      if (!tool_hidden(site, s, reviews)) {
        const json::Value* score = line.find("score");
        verdict = fmt::format(" <b class=\"{0}\">{0}</b>{1}", shown(str(line, "verdict")),
                              score && score->is_number() ? " " + report::format_percent(score->as_number()) : "");
      }
      body += fmt::format("<li>{}{} — {} of {} criteria reviewed</li>\n", link(site, index, shown(s)), verdict,
                          applied_reviews(s, line, reviews), leaf_criteria(line).size());
    }
    body += "</ul>\n";
  }
  return page("rubric review", body);
}

std::string submission_page(const ReviewSite& site, std::size_t index, const ReviewsInForce& reviews,
                            const std::string& notice) {
  const std::string& submission = site.submissions.at(index);
  const json::Value& line = site.lines.at(submission);
  const bool hide = tool_hidden(site, submission, reviews);
  std::string body = "<p><a href=\"/?token=" + site.token + "\">queue</a></p>\n<h1>" + shown(submission) + "</h1>\n";
  if (!notice.empty()) body += "<p class=\"notice\">" + shown(notice) + "</p>\n";
  if (hide) body += "<p>Blind review: the tool's verdicts and evidence appear once every criterion has your verdict.</p>\n";
  else {
    const json::Value* score = line.find("score");
    body += fmt::format("<p>the tool: <b class=\"{0}\">{0}</b>{1} — {2}</p>\n", shown(str(line, "verdict")),
                        score && score->is_number() ? " " + report::format_percent(score->as_number()) : "",
                        shown(str(line, "reason")));
  }
  body += "<h2>Criteria</h2>\n";
  for (const json::Value* c : leaf_criteria(line)) {
    const std::string id = str(*c, "id");
    body += fmt::format("<div class=\"criterion\" id=\"c-{0}\"><h3>{0} — {1}</h3>\n", shown(id), shown(str(*c, "title")));
    if (!hide) body += tool_part(*c);
    if (const auto r = reviews.find({submission, id}); r != reviews.end()) body += review_part(r->second, line, hide);
    body += form(site, index, id, hide) + "</div>\n";
  }
  body += files_section(submission);
  return page("review " + submission, body);
}

}  // namespace rubric::cli
