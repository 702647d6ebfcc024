#include "operators/judge/judgement.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "operators/judge/chat_client.hpp"
#include "operators/judge/judge_cache.hpp"
#include "operators/judge/judge_prompt.hpp"
#include "operators/judge/judge_reply.hpp"

namespace rubric::judge {

namespace {

std::string vote_text(int k, int votes) { return votes == 1 ? std::string() : fmt::format(" (vote {} of {})", k, votes); }

}  // namespace

int Judgement::count(bool yes) const {
  int n = 0;
  for (const Vote& v : votes) n += v.yes == yes;
  return n;
}

Judgement judge(const JudgeSettings& s, std::string_view question, std::string_view text, int votes) {
  Judgement out;
  const Prompt prompt = make_prompt(question, text);
  const std::string digest = prompt_digest(prompt);
  auto cache = JudgeCache::open(s.cache_file);
  auto finish = [&](std::string failure) {
    for (std::string& w : cache->take_warnings()) out.warnings.push_back(std::move(w));
    out.failure = std::move(failure);
    out.ok = out.failure.empty();
    return out;
  };

  out.model = s.model;
  if (out.model.empty()) {
    // No model named: the cache may still answer, if one model judged this prompt.
    std::set<std::string> models;
    for (const CachedVote& c : cache->find_any_model(digest, 1)) models.insert(c.model);
    if (models.size() > 1) {
      std::string list;
      for (const std::string& m : models) list += (list.empty() ? "" : ", ") + m;
      return finish(fmt::format("no judge model is configured and the judge cache {} holds judgements of several models ({}) "
                                "for this question and text: choose one with --judge-model or {}",
                                s.cache_file, list, kModelVariable));
    }
    if (models.empty())
      return finish(fmt::format("no judge model is configured (--judge-model or {}) and the judge cache {} holds no "
                                "judgement of this question and text",
                                kModelVariable, s.cache_file));
    out.model = *models.begin();
  }

  for (int k = 1; k <= votes; ++k) {
    if (auto hit = cache->find(out.model, digest, k)) {
      out.votes.push_back(Vote{hit->yes, hit->reason, true});
      continue;
    }
    if (s.url.empty())
      return finish(fmt::format("no judge endpoint is configured (--judge-url or {}) and the judge cache {} holds no judgement "
                                "of model {} for this question and text{}",
                                kUrlVariable, s.cache_file, out.model, vote_text(k, votes)));
    ChatRequest request;
    request.url = completions_url(s.url);
    request.body = request_body(out.model, prompt);
    request.api_key = api_key_from_environment();
    request.timeout_seconds = s.timeout_seconds;
    request.connect_timeout_seconds = std::min(kDefaultConnectTimeoutSeconds, s.timeout_seconds);
    request.retry_budget_seconds = s.retry_budget_seconds;
    const ChatResponse response = post_chat(request);
    if (!response.ok) {
      out.context_exceeded = response.context_exceeded;
      return finish(fmt::format("the judge endpoint did not answer{}: {}", vote_text(k, votes), response.failure));
    }
    const ParsedReply reply = parse_completion(response.body);
    if (!reply.answer)
      return finish(fmt::format("malformed reply from the judge (model {}, {}){}: {}", out.model, display_url(s.url),
                                vote_text(k, votes), without_secret(reply.problem, request.api_key)));
    const std::string reason = without_secret(reply.answer->reason, request.api_key);
    out.votes.push_back(Vote{reply.answer->yes, reason, false});
    const std::string stored = cache->store(out.model, digest, k, CachedVote{out.model, reply.answer->yes, reason}, std::string(question));
    if (!stored.empty()) out.warnings.push_back(stored + "; the judgement is not kept for re-grading");
  }
  return finish("");
}

}  // namespace rubric::judge
