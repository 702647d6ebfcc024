#include "operators/regex/regex.hpp"

#include <re2/re2.h>

#include <boost/regex.hpp>

namespace rubric::regex {

std::optional<std::string> re2_form(const std::string& p) {
  std::string out;
  bool in_class = false;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const char c = p[i];
    if (c == '\\') {
      if (i + 1 >= p.size()) return std::nullopt;
      const char e = p[++i];
      // Backreferences, \u and \c escapes, octal: Boost's meaning, not RE2's.
      if ((e >= '0' && e <= '9') || e == 'k' || e == 'u' || e == 'c' || e == 'x') return std::nullopt;
      if (e == 's') {
        out += in_class ? "\\t\\n\\v\\f\\r " : "[\\t\\n\\v\\f\\r ]";
      } else if (e == 'S') {
        if (in_class) return std::nullopt;
        out += "[^\\t\\n\\v\\f\\r ]";
      } else {
        out += '\\';
        out += e;
      }
      continue;
    }
    if (in_class) {
      if (c == ']') in_class = false;
      out += c;
      continue;
    }
    if (c == '[') {
      in_class = true;
      out += c;
      if (i + 1 < p.size() && p[i + 1] == '^') out += p[++i];
      if (i + 1 < p.size() && p[i + 1] == ']') out += p[++i];  // a ']' first is a member
      continue;
    }
    // Line anchors: Boost's lines end at \n, \r, \f and before \r\n; RE2's only at \n.
    if (c == '^' || c == '$') return std::nullopt;
    if (c == '(' && i + 1 < p.size() && p[i + 1] == '?') {
      // Lookaround is not RE2's; named groups are written (?P<name>) there.
      if (i + 2 < p.size() && (p[i + 2] == '=' || p[i + 2] == '!')) return std::nullopt;
      if (i + 2 < p.size() && p[i + 2] == '<') {
        if (i + 3 < p.size() && (p[i + 3] == '=' || p[i + 3] == '!')) return std::nullopt;
        out += "(?P<";
        i += 2;
        continue;
      }
    }
    out += c;
  }
  if (in_class) return std::nullopt;
  return out;
}

struct Regex::Impl {
  std::unique_ptr<RE2> re2;
  std::optional<boost::regex> boost;
};

namespace {

RE2::Options bytewise_options() {
  RE2::Options o;
  o.set_encoding(RE2::Options::EncodingLatin1);  // bytes, as Boost matches a std::string
  o.set_dot_nl(true);                            // Boost's `.` takes a line break
  o.set_log_errors(false);
  o.set_max_mem(64 << 20);
  return o;
}

std::string first_sentence(const std::string& s) { return s.substr(0, s.find('.')); }

}  // namespace

Regex::Regex(const std::string& pattern, Engine engine) : impl_(std::make_unique<Impl>()) {
  if (engine == Engine::automatic) {
    if (auto form = re2_form(pattern)) {
      auto re = std::make_unique<RE2>(*form, bytewise_options());
      if (re->ok()) {
        impl_->re2 = std::move(re);
        return;
      }
    }
  }
  try {
    impl_->boost.emplace(pattern, boost::regex::ECMAScript);
  } catch (const boost::regex_error& e) {
    throw RegexError(e.what());
  }
}

Regex::~Regex() = default;
Regex::Regex(Regex&&) noexcept = default;
Regex& Regex::operator=(Regex&&) noexcept = default;

bool Regex::linear() const { return impl_->re2 != nullptr; }

bool Regex::search(std::string_view text) const {
  if (impl_->re2) return RE2::PartialMatch(re2::StringPiece(text.data(), text.size()), *impl_->re2);
  try {
    return boost::regex_search(text.begin(), text.end(), *impl_->boost);
  } catch (const std::runtime_error& e) {
    throw RegexTooCostly(first_sentence(e.what()));
  }
}

void Regex::matches(std::string_view text, Visitor& v) const {
  if (impl_->re2) {
    const RE2& re = *impl_->re2;
    const int groups = re.NumberOfCapturingGroups() + 1;
    std::vector<re2::StringPiece> found(static_cast<std::size_t>(groups));
    const re2::StringPiece all(text.data(), text.size());
    Match m(static_cast<std::size_t>(groups));
    for (std::size_t pos = 0; pos <= text.size();) {
      if (!re.Match(all, pos, text.size(), RE2::UNANCHORED, found.data(), groups)) return;
      for (int g = 0; g < groups; ++g)
        m[static_cast<std::size_t>(g)] = found[static_cast<std::size_t>(g)].data()
                                             ? std::optional<std::string_view>(std::string_view(found[g].data(), found[g].size()))
                                             : std::nullopt;
      if (!v.visit(m)) return;
      const std::size_t end = static_cast<std::size_t>(found[0].data() - text.data()) + found[0].size();
      pos = found[0].empty() ? end + 1 : end;
    }
    return;
  }
  try {
    using It = std::string_view::const_iterator;
    for (boost::regex_iterator<It> it(text.begin(), text.end(), *impl_->boost), stop; it != stop; ++it) {
      const auto& bm = *it;
      Match m(bm.size());
      for (std::size_t g = 0; g < bm.size(); ++g)
        if (bm[g].matched)
          m[g] = std::string_view(text.data() + (bm[g].first - text.begin()), static_cast<std::size_t>(bm[g].second - bm[g].first));
      if (!v.visit(m)) return;
    }
  } catch (const std::runtime_error& e) {
    throw RegexTooCostly(first_sentence(e.what()));
  }
}

}  // namespace rubric::regex
