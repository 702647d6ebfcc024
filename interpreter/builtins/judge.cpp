// The judge: `judge(text, question, votes =, limit =)` asks the grader's chat endpoint
// (operators/judge) a yes/no question about a text. Its answer is a condition: true for yes,
// false for no, INCONCLUSIVE on tied votes; whatever keeps the judge from answering (no endpoint,
// a timeout, a malformed reply, rate limiting past the budget) is the grading environment's ERROR,
// never the submission's FAIL.
#include <fmt/format.h>

#include <cstdio>

#include "interpreter/builtins/registry.hpp"
#include "operators/judge/judge_reply.hpp"
#include "operators/judge/judgement.hpp"
#include "operators/text/utf8.hpp"

namespace rubric {

namespace {

constexpr double kDefaultLimitBytes = 64 * 1024;
// At most this many votes are listed one per line in the evidence.
constexpr std::size_t kVotesShown = 6;

std::string quoted_reason(const judge::Vote& v) {
  return v.reason.empty() ? std::string("(no reason given)") : "'" + text::fold_whitespace(v.reason) + "'";
}

// The evidence: the tally with the deciding reason, then each vote when there are several. A
// judgement cut short by a failure (`requested` votes asked, fewer obtained) lists what it got.
void note_judgement(CallContext& ctx, const judge::Judgement& j, int requested, std::optional<bool> majority) {
  const int yes = j.count(true), no = j.count(false);
  const std::size_t n = j.votes.size();
  if (n < static_cast<std::size_t>(requested)) {
    ctx.note_evidence(fmt::format("judge (model {}, {} of {} votes before the failure: yes {}, no {})", j.model, n, requested, yes, no));
  } else if (!majority) {
    ctx.note_evidence(fmt::format("judge (model {}, {} votes: yes {}, no {}): tied", j.model, n, yes, no));
  } else {
    std::string tally = n == 1 ? fmt::format("1 vote: {}", yes ? "yes" : "no") : fmt::format("{} votes: yes {}, no {}", n, yes, no);
    const judge::Vote* deciding = &j.votes.front();
    for (const judge::Vote& v : j.votes)
      if (v.yes == *majority) {
        deciding = &v;
        break;
      }
    ctx.note_evidence(fmt::format("judge (model {}, {}): {}", j.model, tally, quoted_reason(*deciding)));
    if (n == 1) return;
  }
  for (std::size_t i = 0; i < n && i < kVotesShown; ++i)
    ctx.note_evidence(fmt::format("vote {}: {}, {}", i + 1, j.votes[i].yes ? "yes" : "no", quoted_reason(j.votes[i])));
  if (n > kVotesShown) ctx.note_evidence(fmt::format("... and {} more votes", n - kVotesShown));
}

}  // namespace

void open_judge(Registry& r, const judge::JudgeSettings& configured) {
  const Value default_limit = Value::number(kDefaultLimitBytes, Dimension::of(Dimension::bytes));
  r.add(
      "judge", {P("text"), P("question"), P("votes", Value()), P("limit", default_limit)}, false,
      "Asks the grader's judge, an OpenAI-compatible chat endpoint (--judge-url and --judge-model, or RUBRIC_JUDGE_URL "
      "and RUBRIC_JUDGE_MODEL; the key from RUBRIC_JUDGE_API_KEY), a yes/no question about text at temperature 0: true "
      "for yes, false for no, with the judge's reason as evidence. `votes = N` asks N times and the majority decides (a tie "
      "is INCONCLUSIVE). Every judgement is cached (--judge-cache), so re-grading asks nothing twice and works offline. No "
      "endpoint, a timeout, an HTTP error or a malformed reply is the grading environment's ERROR. A text over `limit` "
      "(default 64 KiB) FAILs. The text is the submission's and may try to instruct the judge: see docs/text.md.",
      "judge", BuiltinNeeds::the_judge(), [configured](CallContext& ctx, const std::vector<Value>& a) -> Value {
        const Value& text = a[0];
        const Value& question = a[1];
        if (text.is_error()) return text;
        if (question.is_error()) return question;
        if (!text.is(ValueKind::string)) return ctx.bad_argument(1, "a string (the text to judge)", text);
        if (!question.is(ValueKind::string) || question.as_string().find_first_not_of(" \t\r\n") == std::string::npos)
          return ctx.error(fmt::format("bad argument #2 to 'judge' (expected a question, a non-empty string, got {})",
                                       question.repr(5)));
        if (carries_submission_data(question))
          return ctx.error("bad argument #2 to 'judge': the question carries text from the submission; the judge trusts its "
                           "question, so the submission's words belong in the text (argument #1)");
        judge::JudgeSettings settings = judge::resolve(configured);
        int votes = settings.votes;
        if (!a[2].is_null()) {
          const Value& v = a[2];
          if (!v.is(ValueKind::number) || !v.as_quantity().dim.dimensionless() || v.as_number() != static_cast<int>(v.as_number()) ||
              v.as_number() < 1 || v.as_number() > judge::kMaxVotes)
            return ctx.error(fmt::format("bad argument 'votes' to 'judge' (expected a whole number from 1 to {}, got {})",
                                         judge::kMaxVotes, v.repr(5)));
          votes = static_cast<int>(v.as_number());
        }
        const Value& limit = a[3];
        if (!limit.is(ValueKind::number) || limit.as_quantity().dim != Dimension::of(Dimension::bytes) || !(limit.as_number() > 0))
          return ctx.error(fmt::format("bad argument 'limit' to 'judge' (expected a size such as 64 KiB, got {})", limit.repr(5)));
        const std::string& body = text.as_string();
        ctx.charge_steps(body.size() / 1024 + 1);
        if (static_cast<double>(body.size()) > limit.as_number())
          return ctx.data_error(fmt::format("the text is {} bytes, more than the judge reads ({}); judge(..., limit = ...) "
                                            "raises it",
                                            body.size(), limit.to_string()),
                                text);
        if (ProgressSink* p = ctx.progress())
          p->activity(settings.model.empty() ? std::string("judge") : fmt::format("judge: asking {}", settings.model));

        const judge::Judgement j = judge::judge(settings, question.as_string(), body, votes);
        for (const std::string& w : j.warnings) {
          std::fprintf(stderr, "rubric: warning: judge cache: %s\n", w.c_str());
          ctx.note_evidence("judge cache: " + w);
        }
        if (!j.ok) {
          if (!j.votes.empty()) note_judgement(ctx, j, votes, std::nullopt);
          // A prompt too long for the model, made so by the text it judges: whoever wrote the text
          // answers for its length (the submission's FAIL, the rubric's ERROR), not the machine.
          if (j.context_exceeded && body.size() > question.as_string().size())
            return ctx.data_error(fmt::format("the text ({} bytes) does not fit the judge's context: {}", body.size(), j.failure),
                                  text);
          return ctx.error("grading environment: " + j.failure, Blame::grader_environment);
        }
        const int yes = j.count(true), no = j.count(false);
        std::optional<bool> majority;
        if (yes != no) majority = yes > no;
        note_judgement(ctx, j, votes, majority);
        if (!majority)
          return Value::undecided(fmt::format("the judge's {} votes are tied (yes {}, no {}): no majority; an odd number of votes "
                                              "cannot tie",
                                              j.votes.size(), yes, no),
                                  Verdict::inconclusive, Blame::none, ctx.location());
        return Value::boolean(*majority);
      });
}

}  // namespace rubric
