#include "operators/judge/chat_client.hpp"

#include <curl/curl.h>
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <memory>
#include <mutex>
#include <thread>

#include "operators/judge/curl_library.hpp"
#include "operators/judge/judge_reply.hpp"
#include "operators/judge/judge_settings.hpp"

namespace rubric::judge {

namespace {

constexpr std::size_t kMaxReplyBytes = 4u << 20;

struct Received {
  std::string body;
  bool too_large = false;
};

size_t on_body(char* data, size_t size, size_t count, void* user) {
  auto* r = static_cast<Received*>(user);
  const size_t n = size * count;
  if (r->body.size() + n > kMaxReplyBytes) {
    r->too_large = true;
    return 0;  // aborts the transfer
  }
  r->body.append(data, n);
  return n;
}

struct Attempt {
  CURLcode code = CURLE_OK;
  long status = 0;
  long retry_after = -1;  // seconds, when the server sent Retry-After
  std::string body;
  bool too_large = false;
  bool connected = false;  // the connection was made (a timeout came later)
  std::string curl_message;
};

Attempt attempt(const CurlLibrary& lib, const ChatRequest& req) {
  Attempt a;
  std::unique_ptr<CURL, void (*)(CURL*)> curl(lib.easy_init(), lib.easy_cleanup);
  if (!curl) {
    a.code = CURLE_FAILED_INIT;
    a.curl_message = "libcurl could not start a transfer";
    return a;
  }
  curl_slist* headers = nullptr;
  headers = lib.slist_append(headers, "Content-Type: application/json");
  headers = lib.slist_append(headers, "Accept: application/json");
  std::string auth;
  if (!req.api_key.empty()) {
    auth = "Authorization: Bearer " + req.api_key;
    headers = lib.slist_append(headers, auth.c_str());
  }
  std::unique_ptr<curl_slist, void (*)(curl_slist*)> header_list(headers, lib.slist_free_all);
  char error[CURL_ERROR_SIZE] = {0};
  Received received;
  const long timeout_ms = std::max(1L, static_cast<long>(req.timeout_seconds * 1000));
  const long connect_ms = std::max(1L, std::min(timeout_ms, static_cast<long>(req.connect_timeout_seconds * 1000)));
  CURL* c = curl.get();
  lib.easy_setopt(c, CURLOPT_URL, req.url.c_str());
  lib.easy_setopt(c, CURLOPT_PROTOCOLS_STR, "http,https");
  lib.easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
  lib.easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
  lib.easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
  lib.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // timeouts without SIGALRM: safe beside other threads
  lib.easy_setopt(c, CURLOPT_POST, 1L);
  lib.easy_setopt(c, CURLOPT_POSTFIELDS, req.body.data());
  lib.easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
  lib.easy_setopt(c, CURLOPT_HTTPHEADER, header_list.get());
  lib.easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
  lib.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
  lib.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  lib.easy_setopt(c, CURLOPT_WRITEDATA, &received);
  lib.easy_setopt(c, CURLOPT_ERRORBUFFER, error);
  lib.easy_setopt(c, CURLOPT_USERAGENT, "rubric-judge");
  a.code = lib.easy_perform(c);
  lib.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &a.status);
  curl_off_t retry_after = -1;
  if (lib.easy_getinfo(c, CURLINFO_RETRY_AFTER, &retry_after) == CURLE_OK && retry_after > 0)
    a.retry_after = static_cast<long>(retry_after);
  curl_off_t connect_us = 0;
  a.connected = lib.easy_getinfo(c, CURLINFO_CONNECT_TIME_T, &connect_us) == CURLE_OK && connect_us > 0;
  a.body = std::move(received.body);
  a.too_large = received.too_large;
  a.curl_message = error[0] ? error : lib.easy_strerror(a.code);
  return a;
}

// Transport failures worth another attempt: the connection broke, no timeout or refusal.
bool transient(CURLcode code) {
  return code == CURLE_GOT_NOTHING || code == CURLE_RECV_ERROR || code == CURLE_SEND_ERROR ||
         code == CURLE_PARTIAL_FILE || code == CURLE_HTTP2 || code == CURLE_HTTP2_STREAM;
}

// What servers say when a prompt does not fit the model: vLLM and SGLang ("maximum context
// length", "longer than the maximum"), OpenAI ("context_length_exceeded"), llama.cpp ("exceeds the
// available context size"), TGI ("must have less than ... tokens").
bool says_context_exceeded(const std::string& body) {
  std::string lower(body.substr(0, 4096));
  for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* cue : {"maximum context length", "context_length_exceeded", "context length", "context size",
                          "context window", "longer than the maximum", "prompt is too long", "too many tokens",
                          "must have less than"})
    if (lower.find(cue) != std::string::npos) return true;
  return false;
}

bool retryable_status(long status) { return status == 429 || status == 500 || status == 502 || status == 503 || status == 504; }

std::string seconds_text(double s) { return fmt::format("{:g} s", std::round(s * 10) / 10); }

}  // namespace

ChatResponse post_chat(const ChatRequest& req) {
  ChatResponse out;
  std::string unloadable;
  const CurlLibrary* lib = curl_library(&unloadable);
  if (!lib) {
    out.attempts = 0;
    out.failure = fmt::format("cannot ask {}: the HTTP client library could not be loaded ({})", display_url(req.url), unloadable);
    return out;
  }
  const std::string where = display_url(req.url);
  const auto waited_budget = std::chrono::duration<double>(std::max(0.0, req.retry_budget_seconds));
  std::chrono::duration<double> waited{0};
  double backoff = 0.5;
  for (int n = 1;; ++n) {
    out.attempts = n;
    Attempt a = attempt(*lib, req);
    std::string problem;
    double wait = -1;  // < 0: give up
    if (a.code == CURLE_OK && a.status == 200) {
      out.ok = true;
      out.body = std::move(a.body);
      return out;
    }
    if (a.too_large) {
      problem = fmt::format("the reply from {} is larger than {} MiB", where, kMaxReplyBytes >> 20);
    } else if (a.code == CURLE_OPERATION_TIMEDOUT && !a.connected) {
      problem = fmt::format("cannot connect to {} within {} (timeout)", where,
                            seconds_text(std::min(req.connect_timeout_seconds, req.timeout_seconds)));
    } else if (a.code == CURLE_OPERATION_TIMEDOUT) {
      problem = fmt::format("no reply from {} within {} (timeout)", where, seconds_text(req.timeout_seconds));
    } else if (a.code == CURLE_COULDNT_CONNECT || a.code == CURLE_COULDNT_RESOLVE_HOST || a.code == CURLE_COULDNT_RESOLVE_PROXY) {
      problem = fmt::format("cannot connect to {}: {}", where, a.curl_message);
    } else if (a.code != CURLE_OK) {
      problem = fmt::format("the request to {} failed: {}", where, a.curl_message);
      if (transient(a.code)) wait = backoff;
    } else if (retryable_status(a.status)) {
      const std::string what = a.status == 429 ? "rate-limited (HTTP 429)" : fmt::format("HTTP {}", a.status);
      problem = fmt::format("{} from {}", what, where);
      if (!a.body.empty()) problem += fmt::format(": '{}'", excerpt(a.body, 160));
      wait = a.retry_after >= 0 ? static_cast<double>(a.retry_after) : backoff;
      if (a.retry_after >= 0 && waited + std::chrono::duration<double>(wait) > waited_budget) {
        out.failure = without_secret(
            fmt::format("{}; it asks to retry after {}, past the retry budget ({} left of {}), after {} attempt{}", problem,
                        seconds_text(wait), seconds_text((waited_budget - waited).count()),
                        seconds_text(waited_budget.count()), n, n == 1 ? "" : "s"),
            req.api_key);
        return out;
      }
    } else {
      problem = fmt::format("HTTP {} from {}", a.status, where);
      if (!a.body.empty()) problem += fmt::format(": '{}'", excerpt(a.body, 160));
      out.context_exceeded = (a.status == 400 || a.status == 413) && says_context_exceeded(a.body);
    }
    if (wait < 0) {
      out.failure = without_secret(n == 1 ? problem : fmt::format("{} (attempt {})", problem, n), req.api_key);
      return out;
    }
    if (n >= req.max_attempts || waited + std::chrono::duration<double>(wait) > waited_budget) {
      out.failure = without_secret(fmt::format("{}; gave up after {} attempt{} and {} of waiting (retry budget {})", problem, n,
                                            n == 1 ? "" : "s", seconds_text(waited.count()), seconds_text(waited_budget.count())),
                                req.api_key);
      return out;
    }
    std::this_thread::sleep_for(std::chrono::duration<double>(wait));
    waited += std::chrono::duration<double>(wait);
    backoff = std::min(backoff * 2, 8.0);
  }
}

}  // namespace rubric::judge
