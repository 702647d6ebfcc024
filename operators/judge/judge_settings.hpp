#pragma once
// How the grader configures the judge: endpoint, model, votes, timeouts and the cache file, from
// command-line options with the environment as the fallback. The API key is not here: it is read
// from RUBRIC_JUDGE_API_KEY only when a request is sent, and never stored or printed.
#include <string>

namespace rubric::judge {

inline constexpr const char* kUrlVariable = "RUBRIC_JUDGE_URL";
inline constexpr const char* kModelVariable = "RUBRIC_JUDGE_MODEL";
inline constexpr const char* kApiKeyVariable = "RUBRIC_JUDGE_API_KEY";
inline constexpr const char* kCacheVariable = "RUBRIC_JUDGE_CACHE";

inline constexpr double kDefaultTimeoutSeconds = 60;
inline constexpr double kDefaultConnectTimeoutSeconds = 10;
inline constexpr double kDefaultRetryBudgetSeconds = 120;
inline constexpr int kMaxVotes = 25;

struct JudgeSettings {
  std::string url;                    // the API base ("http://127.0.0.1:8000/v1"); "": RUBRIC_JUDGE_URL
  std::string model;                  // "": RUBRIC_JUDGE_MODEL
  int votes = 0;                      // votes of a judge() call that names none; 0: 1
  double timeout_seconds = 0;         // one request, connecting included; 0: 60 s
  double retry_budget_seconds = -1;   // waiting between retries on 429 and 5xx, per request; < 0: 120 s
  std::string cache_file;             // "": RUBRIC_JUDGE_CACHE, else default_cache_file()
};

// The settings with the environment and the defaults filled in where the options left a field
// unset. Pure but for reading the environment.
JudgeSettings resolve(JudgeSettings settings);

// $XDG_CACHE_HOME/rubric/judge-cache.jsonl, else $HOME/.cache/rubric/judge-cache.jsonl, else
// ./rubric-judge-cache.jsonl.
std::string default_cache_file();

// The cache file that goes with a report written to `report_path`: "<report>.judge-cache.jsonl".
std::string cache_file_beside(const std::string& report_path);

// Settings whose cache file, when neither the options nor RUBRIC_JUDGE_CACHE name one, is
// `fallback` (beside the report, in grade's out folder).
JudgeSettings with_default_cache(JudgeSettings settings, const std::string& fallback);

// The URL as reports may show it: no user name or password, no query or fragment (where a key
// could hide).
std::string display_url(const std::string& url);

// POST target of the chat completions API for a base URL (".../v1" → ".../v1/chat/completions";
// a URL that already ends in /chat/completions is kept).
std::string completions_url(const std::string& base);

// RUBRIC_JUDGE_API_KEY, or "" when unset.
std::string api_key_from_environment();

// `text` with every occurrence of `secret` replaced by "***": whatever a server echoes (an error
// body, a reason) never carries the key into a report, a log or the cache.
std::string without_secret(std::string text, const std::string& secret);

}  // namespace rubric::judge
