#include "operators/tables/prometheus_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <unordered_set>

#include "operators/error.hpp"
#include "operators/files/byte_order_mark.hpp"

namespace rubric::tables {
namespace {

bool name_start(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'; }
bool name_char(char c) { return name_start(c) || (c >= '0' && c <= '9'); }

class LineReader {
 public:
  LineReader(std::string_view line, std::string_view name, std::size_t line_no)
      : s_(line), name_(name), line_(line_no) {}

  [[noreturn]] void fail(std::string_view what) const {
    throw OperatorError(fmt::format("{}:{}:{}: {}", name_, line_, pos_ + 1, what));
  }
  void blanks() { while (pos_ < s_.size() && (s_[pos_] == ' ' || s_[pos_] == '\t')) ++pos_; }
  bool done() const { return pos_ >= s_.size(); }

  std::string metric_name() {
    std::size_t b = pos_;
    if (done() || !name_start(s_[pos_])) fail("expected a metric name");
    while (pos_ < s_.size() && name_char(s_[pos_])) ++pos_;
    return std::string(s_.substr(b, pos_ - b));
  }

  Labels labels() {
    Labels out;
    std::unordered_set<std::string> seen;  // a set, so a sample with many labels stays linear
    if (done() || s_[pos_] != '{') return out;
    ++pos_;
    for (;;) {
      blanks();
      if (!done() && s_[pos_] == '}') { ++pos_; return out; }
      std::size_t b = pos_;
      if (done() || !(name_start(s_[pos_]) && s_[pos_] != ':')) fail("expected a label name");
      while (pos_ < s_.size() && name_char(s_[pos_]) && s_[pos_] != ':') ++pos_;
      std::string key(s_.substr(b, pos_ - b));
      blanks();
      if (done() || s_[pos_] != '=') fail(fmt::format("expected '=' after label {}", key));
      ++pos_;
      blanks();
      if (done() || s_[pos_] != '"') fail(fmt::format("expected a quoted value for label {}", key));
      ++pos_;
      std::string value;
      for (;;) {
        if (done()) fail(fmt::format("the value of label {} is not closed", key));
        char c = s_[pos_++];
        if (c == '"') break;
        if (c != '\\') { value += c; continue; }
        if (done()) fail("a backslash ends the line");
        char e = s_[pos_++];
        if (e == 'n') value += '\n';
        else if (e == '\\' || e == '"') value += e;
        else { --pos_; fail(fmt::format("invalid escape '\\{}' in a label value", e)); }
      }
      if (!seen.insert(key).second) fail(fmt::format("label {} given twice", key));
      out.emplace_back(std::move(key), std::move(value));
      blanks();
      if (!done() && s_[pos_] == ',') { ++pos_; continue; }
      if (!done() && s_[pos_] == '}') { ++pos_; return out; }
      fail("expected ',' or '}' after a label");
    }
  }

  std::string word() {
    std::size_t b = pos_;
    while (pos_ < s_.size() && s_[pos_] != ' ' && s_[pos_] != '\t') ++pos_;
    return std::string(s_.substr(b, pos_ - b));
  }

  double value() {
    std::size_t at = pos_;
    std::string w = word();
    if (w == "+Inf" || w == "Inf") return std::numeric_limits<double>::infinity();
    if (w == "-Inf") return -std::numeric_limits<double>::infinity();
    if (w == "NaN") return std::numeric_limits<double>::quiet_NaN();
    char* end = nullptr;
    double v = std::strtod(w.c_str(), &end);
    bool shape_ok = !w.empty() && w.find_first_not_of("0123456789+-.eE") == std::string::npos;
    if (!shape_ok || !end || *end != '\0') { pos_ = at; fail(fmt::format("'{}' is not a sample value", w)); }
    return v;
  }

  void timestamp() {
    std::size_t at = pos_;
    std::string w = word();
    char* end = nullptr;
    std::strtod(w.c_str(), &end);
    if (w.empty() || w.find_first_not_of("0123456789+-.eE") != std::string::npos || *end != '\0') {
      pos_ = at;
      fail("expected a timestamp or the line's end");
    }
  }

  std::string_view rest() const { return s_.substr(std::min(pos_, s_.size())); }

 private:
  std::string_view s_;
  std::string_view name_;
  std::size_t line_;
  std::size_t pos_ = 0;
};

// The family a sample belongs to: histogram, summary and (in OpenMetrics) counter and info
// samples carry suffixes after the family's name.
std::string family_of(const std::string& sample, const std::map<std::string, std::string>& types) {
  if (types.count(sample)) return sample;  // prometheus_client declares foo_created as a gauge of its own
  struct Suffix { const char* suffix; const char* types[3]; };
  static const Suffix suffixes[] = {
      {"_bucket", {"histogram", "gaugehistogram", nullptr}}, {"_sum", {"histogram", "summary", nullptr}},
      {"_count", {"histogram", "summary", nullptr}},        {"_created", {"histogram", "summary", "counter"}},
      {"_total", {"counter", nullptr, nullptr}},            {"_info", {"info", nullptr, nullptr}},
      {"_gsum", {"gaugehistogram", nullptr, nullptr}},      {"_gcount", {"gaugehistogram", nullptr, nullptr}}};
  for (const Suffix& x : suffixes) {
    std::string_view s(x.suffix);
    if (sample.size() <= s.size() || sample.compare(sample.size() - s.size(), s.size(), s) != 0) continue;
    auto it = types.find(sample.substr(0, sample.size() - s.size()));
    if (it == types.end()) continue;
    for (const char* t : x.types)
      if (t && it->second == t) return it->first;
  }
  return sample;
}

}  // namespace

PromScrape parse_prometheus(std::string_view text, std::string_view name, std::size_t max_samples) {
  std::size_t samples = 0;
  text = files::without_byte_order_mark(text);
  PromScrape scrape;
  std::map<std::string, std::size_t> index;
  std::map<std::string, std::string> types;
  auto family = [&](const std::string& n) -> PromFamily& {
    auto it = index.find(n);
    if (it != index.end()) return scrape.families[it->second];
    index[n] = scrape.families.size();
    scrape.families.push_back(PromFamily{n, "untyped", "", "", {}});
    return scrape.families.back();
  };
  std::size_t start = 0, line_no = 1;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    LineReader r(line, name, line_no);
    r.blanks();
    if (!r.done()) {
      if (line.substr(line.find_first_not_of(" \t"))[0] == '#') {
        std::string_view rest = line.substr(line.find('#') + 1);
        std::size_t b = rest.find_first_not_of(" \t");
        rest = b == std::string_view::npos ? std::string_view() : rest.substr(b);
        if (rest == "EOF") break;  // OpenMetrics' end of the exposition
        bool help = rest.rfind("HELP ", 0) == 0, type = rest.rfind("TYPE ", 0) == 0, unit = rest.rfind("UNIT ", 0) == 0;
        if (unit) {
          LineReader d(rest.substr(5), name, line_no);
          d.blanks();
          std::string metric = d.metric_name();
          d.blanks();
          family(metric).unit = std::string(d.rest());
        } else if (help || type) {  // other comments are free text
          LineReader d(rest.substr(5), name, line_no);
          d.blanks();
          std::string metric = d.metric_name();
          d.blanks();
          std::string arg(d.rest());
          if (type) {
            static const char* kinds[] = {"counter", "gauge", "histogram", "summary", "untyped",
                                          "info", "stateset", "gaugehistogram", "unknown"};
            if (std::find(std::begin(kinds), std::end(kinds), arg) == std::end(kinds))
              d.fail(fmt::format("unknown metric type '{}'", arg));
            types[metric] = arg;
            family(metric).type = arg;
          } else {
            std::string unescaped;
            for (std::size_t i = 0; i < arg.size(); ++i) {
              if (arg[i] == '\\' && i + 1 < arg.size() && (arg[i + 1] == 'n' || arg[i + 1] == '\\')) {
                unescaped += arg[i + 1] == 'n' ? '\n' : '\\';
                ++i;
              } else {
                unescaped += arg[i];
              }
            }
            family(metric).help = unescaped;
          }
        }
      } else {
        if (max_samples && ++samples > max_samples)
          throw ReadLimitExceeded(fmt::format("{}:{}: more than {} samples (the limit for reading a Prometheus exposition)",
                                              name, line_no, max_samples));
        PromSample s;
        s.line = line_no;
        s.name = r.metric_name();
        r.blanks();
        s.labels = r.labels();
        r.blanks();
        if (r.done()) r.fail("expected a sample value");
        s.value = r.value();
        r.blanks();
        // A timestamp: milliseconds in 0.0.4, seconds with a fraction in OpenMetrics. Then, in
        // OpenMetrics, an exemplar ("# {trace_id=\"a\"} 0.67 1700000000.1"), which is not a sample.
        if (!r.done() && r.rest()[0] != '#') {
          r.timestamp();
          r.blanks();
        }
        if (!r.done() && r.rest()[0] != '#') r.fail("text after the timestamp");
        family(family_of(s.name, types)).samples.push_back(std::move(s));
      }
    }
    start = end + 1;
    ++line_no;
  }
  return scrape;
}

std::vector<PromHistogram> histogram_series(const PromFamily& f) {
  std::vector<PromHistogram> out;
  // Series by their labels (sorted, without le): a map, so many series stay n log n (a search
  // through the series found so far was quadratic in their number).
  std::map<Labels, std::size_t> index;
  auto series_for = [&](const Labels& labels) -> PromHistogram& {
    Labels key;
    for (const auto& kv : labels)
      if (kv.first != "le") key.push_back(kv);
    Labels written = key;
    std::sort(key.begin(), key.end());
    auto [it, added] = index.try_emplace(std::move(key), out.size());
    if (added) {
      out.emplace_back();
      out.back().labels = std::move(written);
    }
    return out[it->second];
  };
  for (const PromSample& s : f.samples) {
    PromHistogram& h = series_for(s.labels);
    if (s.name == f.name + "_bucket") {
      auto le = std::find_if(s.labels.begin(), s.labels.end(), [](const auto& kv) { return kv.first == "le"; });
      if (le == s.labels.end())
        throw OperatorError(fmt::format("line {}: a {} bucket without an le label", s.line, f.name));
      double bound;
      // Any spelling of a number Go's strconv.ParseFloat (PromQL's reader) takes: "0.2", "2e-1",
      // ".2", "+Inf", "+inf", "Infinity".
      char* end = nullptr;
      bound = std::strtod(le->second.c_str(), &end);
      if (le->second.empty() || *end != '\0' || std::isspace(static_cast<unsigned char>(le->second[0])))
        throw OperatorError(fmt::format("line {}: le=\"{}\" is not a number", s.line, le->second));
      h.buckets.push_back(PromBucket{bound, s.value});
    } else if (s.name == f.name + "_sum" || s.name == f.name + "_gsum") {
      h.sum = s.value;
      h.has_sum = true;
    } else if (s.name == f.name + "_count" || s.name == f.name + "_gcount") {
      h.count = s.value;
      h.has_count = true;
    }
  }
  for (PromHistogram& h : out) {
    std::stable_sort(h.buckets.begin(), h.buckets.end(), [](const PromBucket& a, const PromBucket& b) { return a.le < b.le; });
    // Bounds equal as numbers ("0.2", "2e-1", "2.0e-1"; "+Inf", "+inf") are one bucket whose
    // count is their sum, as PromQL's histogram_quantile coalesces them.
    std::vector<PromBucket> merged;
    for (const PromBucket& b : h.buckets)
      if (!merged.empty() && merged.back().le == b.le) merged.back().count += b.count;
      else merged.push_back(b);
    h.buckets = std::move(merged);
  }
  return out;
}

double histogram_quantile(double q, const PromHistogram& h) {
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  if (std::isnan(q)) return nan;
  if (q < 0) return -inf;
  if (q > 1) return inf;
  const auto& b = h.buckets;
  if (b.size() < 2 || !std::isinf(b.back().le) || b.back().le < 0) return nan;
  // Counts scraped mid-update can dip; PromQL makes them monotonic before interpolating.
  std::vector<double> counts;
  for (const PromBucket& x : b) counts.push_back(counts.empty() ? x.count : std::max(counts.back(), x.count));
  double total = counts.back();
  if (total == 0 || std::isnan(total)) return nan;
  double rank = q * total;
  std::size_t i = 0;
  while (i < b.size() - 1 && counts[i] < rank) ++i;
  if (i == b.size() - 1) return b[b.size() - 2].le;
  if (i == 0 && b[0].le <= 0) return b[0].le;
  double start = 0, end = b[i].le, count = counts[i];
  if (i > 0) {
    start = b[i - 1].le;
    count -= counts[i - 1];
    rank -= counts[i - 1];
  }
  if (count == 0) return end;
  return start + (end - start) * (rank / count);
}

}  // namespace rubric::tables
