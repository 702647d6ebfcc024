#pragma once
// One POST to an OpenAI-compatible chat completions endpoint over libcurl: TLS verified, no
// redirects (a redirect would carry the key elsewhere), connect and total timeouts, the reply
// capped in size, and retries with exponential backoff on 429 and 5xx that honour Retry-After
// within a bounded budget. Every failure is described in words that name no secret.
#include <string>

namespace rubric::judge {

struct ChatRequest {
  std::string url;           // the full POST target (completions_url)
  std::string body;          // JSON
  std::string api_key;       // "" : no Authorization header
  double timeout_seconds = 60;          // one attempt, all included
  double connect_timeout_seconds = 10;  // one attempt's connection (at most timeout_seconds)
  double retry_budget_seconds = 120;    // time spent waiting before retries, in all
  int max_attempts = 8;
};

struct ChatResponse {
  bool ok = false;           // an HTTP 200 with a body
  std::string body;
  std::string failure;       // when !ok: what happened ("cannot connect to ...", "HTTP 500 ...")
  // The endpoint refused the prompt as longer than the model's context (HTTP 400 or 413 saying
  // so, as vLLM, SGLang and OpenAI word it).
  bool context_exceeded = false;
  int attempts = 0;
};

ChatResponse post_chat(const ChatRequest& request);

}  // namespace rubric::judge
