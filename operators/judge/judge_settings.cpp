#include "operators/judge/judge_settings.hpp"

#include <cstdlib>

namespace rubric::judge {

namespace {

std::string environment(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

bool ends_with(const std::string& s, const std::string& tail) {
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

JudgeSettings resolve(JudgeSettings s) {
  if (s.url.empty()) s.url = environment(kUrlVariable);
  if (s.model.empty()) s.model = environment(kModelVariable);
  if (s.votes <= 0) s.votes = 1;
  if (s.timeout_seconds <= 0) s.timeout_seconds = kDefaultTimeoutSeconds;
  if (s.retry_budget_seconds < 0) s.retry_budget_seconds = kDefaultRetryBudgetSeconds;
  if (s.cache_file.empty()) s.cache_file = environment(kCacheVariable);
  if (s.cache_file.empty()) s.cache_file = default_cache_file();
  return s;
}

std::string default_cache_file() {
  std::string base = environment("XDG_CACHE_HOME");
  if (base.empty() || base[0] != '/') {
    const std::string home = environment("HOME");
    if (home.empty()) return "rubric-judge-cache.jsonl";
    base = home + "/.cache";
  }
  return base + "/rubric/judge-cache.jsonl";
}

std::string cache_file_beside(const std::string& report_path) { return report_path + ".judge-cache.jsonl"; }

JudgeSettings with_default_cache(JudgeSettings s, const std::string& fallback) {
  if (s.cache_file.empty() && environment(kCacheVariable).empty()) s.cache_file = fallback;
  return s;
}

std::string display_url(const std::string& url) {
  std::string out = url;
  const auto cut = out.find_first_of("?#");
  if (cut != std::string::npos) out.erase(cut);
  const auto scheme = out.find("://");
  const std::size_t host_start = scheme == std::string::npos ? 0 : scheme + 3;
  const auto path_start = out.find('/', host_start);
  const auto at = out.rfind('@', path_start == std::string::npos ? std::string::npos : path_start);
  if (at != std::string::npos && at >= host_start) out.erase(host_start, at + 1 - host_start);
  return out;
}

std::string completions_url(const std::string& base) {
  std::string url = base;
  while (!url.empty() && url.back() == '/') url.pop_back();
  if (ends_with(url, "/chat/completions")) return url;
  return url + "/chat/completions";
}

std::string api_key_from_environment() { return environment(kApiKeyVariable); }

std::string without_secret(std::string text, const std::string& secret) {
  if (secret.empty()) return text;
  for (auto at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) text.replace(at, secret.size(), "***");
  return text;
}

}  // namespace rubric::judge
