#pragma once
// Reading the judge's reply. The chat completions response must carry a first choice whose
// message content is the JSON object the prompt asks for ({"answer": "yes"|"no", "reason": ...}),
// possibly fenced or after a <think> block, or else plain text whose first word is yes or no.
// Anything else is a malformed reply, never a guess.
#include <optional>
#include <string>
#include <string_view>

namespace rubric::judge {

inline constexpr std::size_t kMaxReasonBytes = 600;

struct Answer {
  bool yes = false;
  std::string reason;  // may be empty; cut at kMaxReasonBytes
};

struct ParsedReply {
  std::optional<Answer> answer;
  std::string problem;  // when !answer: what is wrong, with an excerpt of the reply
};

// The whole HTTP response body of POST /chat/completions.
ParsedReply parse_completion(std::string_view body);
// The message content alone.
ParsedReply parse_answer(std::string_view content);

// At most `limit` bytes of `s` (cut on a UTF-8 boundary, "…" appended), for messages.
std::string excerpt(std::string_view s, std::size_t limit = 120);

}  // namespace rubric::judge
