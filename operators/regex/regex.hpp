#pragma once
// A regular expression in the ECMAScript syntax the language documents, matched bytewise as
// Boost.Regex matches it (`.` takes a line break, `^`/`$` are line anchors, `\s` includes \v).
// A pattern RE2 can take with that same meaning is matched by RE2, in time linear in the text,
// whatever the text; one that needs backtracking (backreferences, lookaround, line anchors,
// \u escapes) is matched by Boost.Regex, whose backtracking is bounded: past the bound it throws
// RegexTooCostly instead of running for minutes.
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace rubric::regex {

// The pattern does not compile; what() is the engine's reason.
struct RegexError : std::runtime_error {
  using std::runtime_error::runtime_error;
};
// Backtracking gave up on this text; what() is the reason in one sentence.
struct RegexTooCostly : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One match: group 0 is the whole match; a group that took no part is nullopt.
using Match = std::vector<std::optional<std::string_view>>;

class Regex {
 public:
  enum class Engine { automatic, backtracking };
  explicit Regex(const std::string& pattern, Engine engine = Engine::automatic);
  ~Regex();
  Regex(Regex&&) noexcept;
  Regex& operator=(Regex&&) noexcept;

  bool search(std::string_view text) const;
  // Every match, left to right, as Perl and Boost iterate them (an empty match moves on by one
  // byte). `each` returns false to stop.
  template <class F>
  void for_each_match(std::string_view text, F&& each) const {
    struct Adapter : Visitor {
      F& f;
      explicit Adapter(F& g) : f(g) {}
      bool visit(const Match& m) override { return f(m); }
    } adapter(each);
    matches(text, adapter);
  }
  bool linear() const;  // matched by RE2

 private:
  struct Visitor {
    virtual bool visit(const Match& m) = 0;
    virtual ~Visitor() = default;
  };
  void matches(std::string_view text, Visitor& v) const;
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// The pattern rewritten for RE2 with the meaning Boost gives it, or nullopt when RE2 cannot
// express that meaning (exposed for tests).
std::optional<std::string> re2_form(const std::string& ecmascript);

}  // namespace rubric::regex
