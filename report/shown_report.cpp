#include "report/shown_report.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string_view>
#include <utility>
#include <vector>

#include "report/display_text.hpp"
#include "operators/text/utf8.hpp"

namespace rubric::report {
namespace {

// Characters that continue a path token: a root's folder found inside a longer name is not the root.
bool is_path_char(char c) {
  return !(c == ' ' || c == '\t' || c == '\n' || c == '"' || c == '\'' || c == '`' || c == '(' || c == ')' ||
           c == '[' || c == ']' || c == '<' || c == '>' || c == ',' || c == ';' || c == '=' || c == ':');
}

// Absolute folders of the grading machine and the names they are shown under.
class RootNames {
 public:
  explicit RootNames(const Provenance& p) {
    add(p.submission_dir, "submission");
    add(p.reference_dir, "reference");
    // Programs run in $TMPDIR/rubric-run-XXXXXX (operators/process/scratch_dir.cpp); this process
    // has the same TMPDIR, which may hold spaces no token rule could see past.
    const char* tmp = std::getenv("TMPDIR");
    for (std::string base : {std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp"), std::string("/tmp")}) {
      for (std::string form : {base, weakly_canonical(base)}) {
        while (form.size() > 1 && form.back() == '/') form.pop_back();
        if (std::find(scratch_bases_.begin(), scratch_bases_.end(), form) == scratch_bases_.end())
          scratch_bases_.push_back(form);
      }
    }
    // Longest first: a reference folder inside the submission's is named for the closer root.
    std::sort(roots_.begin(), roots_.end(),
              [](const auto& a, const auto& b) { return a.first.size() > b.first.size(); });
  }

  std::string relative(std::string text) const {
    for (const auto& [dir, name] : roots_) text = replace_root(std::move(text), dir, name);
    return replace_scratch(std::move(text));
  }

 private:
  void add(const std::string& dir, const char* name) {
    if (dir.size() < 2 || dir[0] != '/') return;  // "/" itself, or not absolute: nothing to hide
    for (std::string form : {dir, std::string(weakly_canonical(dir))}) {
      while (form.size() > 1 && form.back() == '/') form.pop_back();
      if (form.size() < 2) continue;
      if (std::none_of(roots_.begin(), roots_.end(), [&](const auto& r) { return r.first == form; }))
        roots_.emplace_back(form, name);
    }
  }

  static std::string weakly_canonical(const std::string& dir) {
    std::error_code ec;
    const std::filesystem::path p = std::filesystem::weakly_canonical(dir, ec);
    return ec ? dir : p.string();
  }

  // `dir` where it is a whole token or a token's leading folder ("/abs/sub/x.json" → "submission/x.json").
  static std::string replace_root(std::string text, const std::string& dir, const std::string& name) {
    std::size_t from = 0;
    while ((from = text.find(dir, from)) != std::string::npos) {
      const std::size_t end = from + dir.size();
      const bool starts_token = from == 0 || !is_path_char(text[from - 1]);
      const bool ends_folder = end == text.size() || text[end] == '/' || !is_path_char(text[end]);
      if (starts_token && ends_folder) {
        text.replace(from, dir.size(), name);
        from += name.size();
      } else {
        from = end;
      }
    }
    return text;
  }

  // "/tmp/x/rubric-run-Ab12Cd/work/a.py" → "scratch/work/a.py": a program's scratch directory
  // (operators/process/scratch_dir.cpp) lies under the grading machine's TMPDIR; one under another
  // folder is recognised as a token starting with '/'.
  std::string replace_scratch(std::string text) const {
    static constexpr std::string_view kMark = "/rubric-run-";
    std::size_t from = 0;
    while ((from = text.find(kMark, from)) != std::string::npos) {
      std::size_t end = from + kMark.size();
      std::size_t suffix = 0;
      while (end < text.size() && suffix < 6 && std::isalnum(static_cast<unsigned char>(text[end]))) ++end, ++suffix;
      std::size_t begin = from;
      for (const std::string& base : scratch_bases_) {
        const std::size_t at = from - std::min(from, base.size());
        if (from >= base.size() && text.compare(at, base.size(), base) == 0 && (at == 0 || !is_path_char(text[at - 1]))) {
          begin = from - base.size();
          break;
        }
      }
      if (begin == from)
        while (begin > 0 && is_path_char(text[begin - 1])) --begin;
      if (suffix == 6 && text[begin] == '/') {
        text.replace(begin, end - begin, "scratch");
        from = begin + 7;
      } else {
        from = end;
      }
    }
    return text;
  }

  std::vector<std::pair<std::string, std::string>> roots_;
  std::vector<std::string> scratch_bases_;
};

// The rubric's multi-line source on one line: each line break with the indentation around it
// becomes one space; other white space (a tab inside a string literal) stays and is escaped.
std::string join_lines(const std::string& source) {
  std::string out;
  for (std::size_t i = 0; i < source.size();) {
    if (source[i] != '\n' && source[i] != '\r') {
      out += source[i++];
      continue;
    }
    while (!out.empty() && (out.back() == ' ' || out.back() == '\t')) out.pop_back();
    while (i < source.size() && (source[i] == ' ' || source[i] == '\t' || source[i] == '\n' || source[i] == '\r')) ++i;
    if (!out.empty() && i < source.size()) out += ' ';
  }
  return out;
}

class Shower {
 public:
  explicit Shower(const Provenance& p) : roots_(p) {}

  // Text the report shows as data: escaped, capped.
  std::string data(const std::string& s) const { return display_text(s); }
  // Text that explains a verdict and may name the submission's files: also relative to the roots.
  std::string evidence(const std::string& s) const { return display_text(roots_.relative(s)); }

  void data(std::vector<std::string>& list) const {
    for (std::string& s : list) s = data(s);
  }
  void evidence(std::vector<std::string>& list) const {
    for (std::string& s : list) s = evidence(s);
  }
  void data(std::map<std::string, std::string>& map) const {
    std::map<std::string, std::string> shown;
    for (const auto& [k, v] : map) shown.emplace(data(k), data(v));
    map = std::move(shown);
  }

  void location(SourceLocation& loc) const {
    auto& [file, line, column, raised_in] = loc;
    file = data(file);
    raised_in = data(raised_in);
    (void)line, (void)column;
  }

  void check(CheckResult& c) const {
    auto& [source_text, location_, label, verdict, blame, evidence_, explanation, message, review, seconds, samples,
           mismatch_map] = c;
    source_text = data(join_lines(source_text));  // the rubric's own text, on one line
    location(location_);
    label = evidence(label);
    evidence(evidence_);
    explanation = evidence(explanation);
    message = evidence(message);
    review = evidence(review);  // a claim's words may be the submission's
    if (samples) {
      auto& [unit, series, quantity, quantity_unit, estimate, lo, hi, bound, at_least] = *samples;
      for (SampleSeries& one : series) one.label = evidence(one.label);  // a leaf may name submission data
      quantity = data(quantity);
      (void)unit, (void)quantity_unit, (void)estimate, (void)lo, (void)hi, (void)bound, (void)at_least;
    }
    (void)verdict, (void)blame, (void)seconds, (void)mismatch_map;  // numbers only
  }

  void criterion(CriterionResult& c) const {
    auto& [id, title, location_, is_group, verdict, score, weight, penalty, deducted, required, after, needs, reason,
           notes, checks, children, seconds] = c;
    id = data(id);
    title = evidence(title);
    location(location_);
    data(after);
    data(needs);
    reason = evidence(reason);
    evidence(notes);
    for (CheckResult& check_ : checks) check(check_);
    for (CriterionResult& child : children) criterion(child);
    (void)is_group, (void)verdict, (void)score, (void)weight, (void)penalty, (void)deducted, (void)required, (void)seconds;
  }

  void diagnostic(Diagnostic& d) const {
    auto& [severity, source, range, message, notes] = d;
    message = evidence(message);
    evidence(notes);
    (void)severity, (void)source, (void)range;  // the rubric's source excerpt: printed by grammar/
  }

  void provenance(Provenance& p) const {
    auto& [tool_version, rubric_file, rubric_digest, submission_dir, reference_dir, seed, params, files, runs,
           started_at, seconds, device, host, compiler, cuda] = p;
    tool_version = data(tool_version);
    rubric_file = data(rubric_file);
    rubric_digest = data(rubric_digest);
    submission_dir = data(submission_dir);
    reference_dir = data(reference_dir);
    data(params);
    for (FileRecord& f : files) {
      auto& [path, root, digest, bytes] = f;
      path = data(path);
      root = data(root);
      digest = data(digest);
      (void)bytes;
    }
    for (RunRecord& r : runs) {
      auto& [command, isolation, run_seconds, exit_code] = r;
      command = evidence(command);
      isolation = data(isolation);
      (void)run_seconds, (void)exit_code;
    }
    started_at = data(started_at);
    data(device);
    data(host);
    compiler = data(compiler);
    data(cuda);
    (void)seed, (void)seconds;
  }

  void report(Report& r) const {
    auto& [title, version, metadata, pass_mark, confidence, verdict, score, criteria, warnings, provenance_] = r;
    title = evidence(title);
    version = data(version);
    data(metadata);
    for (CriterionResult& c : criteria) criterion(c);
    for (Diagnostic& d : warnings) diagnostic(d);
    provenance(provenance_);  // last: the roots above are read from the unescaped provenance
    (void)pass_mark, (void)confidence, (void)verdict, (void)score;
  }

 private:
  RootNames roots_;
};

}  // namespace

ShownReport shown_report(const Report& report) {
  Report copy = report;
  const Shower shower(report.provenance);
  shower.report(copy);
  return ShownReport(std::move(copy));
}

}  // namespace rubric::report
