#pragma once
// One judgement: a yes/no question about a text, put to the configured model as many times as
// there are votes, each vote read from the cache when it was asked before and stored there when
// it is new. No language types: the binding (interpreter/builtins/judge.cpp) decides verdicts.
#include <string>
#include <string_view>
#include <vector>

#include "operators/judge/judge_settings.hpp"

namespace rubric::judge {

struct Vote {
  bool yes = false;
  std::string reason;
  bool from_cache = false;
};

struct Judgement {
  bool ok = false;
  std::string failure;                // when !ok: what the grading environment lacked or got wrong
  bool context_exceeded = false;      // when !ok: the endpoint refused the prompt as too long for the model
  std::string model;                  // whose votes these are
  std::vector<Vote> votes;            // in order; when !ok, the ones obtained before the failure
  std::vector<std::string> warnings;  // cache lines skipped, a cache that could not be written

  int count(bool yes) const;
};

// `settings` as resolve() returns them; `votes` >= 1.
Judgement judge(const JudgeSettings& settings, std::string_view question, std::string_view text, int votes);

}  // namespace rubric::judge
