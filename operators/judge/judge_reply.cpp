#include "operators/judge/judge_reply.hpp"

#include <fmt/format.h>

#include <cctype>

#include "operators/error.hpp"
#include "operators/json/json_reader.hpp"

namespace rubric::judge {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

bool starts_with(std::string_view s, std::string_view head) { return s.substr(0, head.size()) == head; }

// "yes" or "no" after case folding and dropping a final full stop; nullopt otherwise.
std::optional<bool> yes_no(std::string_view word) {
  std::string w = lower(trim(word));
  while (!w.empty() && (w.back() == '.' || w.back() == '!')) w.pop_back();
  if (w == "yes") return true;
  if (w == "no") return false;
  return std::nullopt;
}

std::string clean_reason(std::string_view s) {
  s = trim(s);
  return excerpt(s, kMaxReasonBytes);
}

// A reply in words: "Yes. The answer names ...", "**No** - it blames ...".
std::optional<Answer> first_word_answer(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size() && !std::isalnum(static_cast<unsigned char>(s[i]))) {
    const char c = s[i];
    if (!(is_space(c) || c == '*' || c == '_' || c == '#' || c == '"' || c == '\'' || c == '`' || c == '>')) return std::nullopt;
    ++i;
  }
  std::size_t j = i;
  while (j < s.size() && std::isalpha(static_cast<unsigned char>(s[j]))) ++j;
  auto verdict = yes_no(s.substr(i, j - i));
  if (!verdict || j == i) return std::nullopt;
  std::string_view rest = s.substr(j);
  while (!rest.empty() && (is_space(rest.front()) || std::string_view(".,:;!-*_\"'`").find(rest.front()) != std::string_view::npos))
    rest.remove_prefix(1);
  if (starts_with(rest, "\xE2\x80\x94") || starts_with(rest, "\xE2\x80\x93")) rest.remove_prefix(3);  // em/en dash
  return Answer{*verdict, clean_reason(rest)};
}

}  // namespace

std::string excerpt(std::string_view s, std::size_t limit) {
  if (s.size() <= limit) return std::string(s);
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "\xE2\x80\xA6";
}

ParsedReply parse_answer(std::string_view content) {
  std::string_view s = trim(content);
  // A reasoning model's thoughts come first; only what follows them is the reply.
  if (starts_with(s, "<think>")) {
    const auto end = s.find("</think>");
    if (end == std::string_view::npos)
      return {std::nullopt, fmt::format("the reply is all thinking, with no answer after it (cut short?): '{}'", excerpt(s))};
    s = trim(s.substr(end + 8));
  }
  if (starts_with(s, "```")) {
    const auto nl = s.find('\n');
    s = nl == std::string_view::npos ? std::string_view() : s.substr(nl + 1);
    s = trim(s);
    if (s.size() >= 3 && s.substr(s.size() - 3) == "```") s = trim(s.substr(0, s.size() - 3));
  }
  if (s.empty()) return {std::nullopt, "the reply is empty"};

  const auto open = s.find('{');
  const auto close = s.rfind('}');
  if (open != std::string_view::npos && close != std::string_view::npos && close > open) {
    std::optional<json::Value> doc;
    try {
      doc = json::parse(s.substr(open, close - open + 1), "the judge's reply");
    } catch (const OperatorError&) {
      // Not JSON after all: it may still be an answer in words.
    }
    if (doc && doc->is_object()) {
      const json::Value* answer = doc->find("answer");
      if (!answer) return {std::nullopt, fmt::format("the reply's JSON has no \"answer\": '{}'", excerpt(s))};
      if (!answer->is_string())
        return {std::nullopt, fmt::format("the reply's \"answer\" is a {}, not \"yes\" or \"no\": '{}'", json::kind_name(*answer), excerpt(s))};
      auto verdict = yes_no(answer->as_string());
      if (!verdict)
        return {std::nullopt, fmt::format("the reply's \"answer\" is '{}', neither yes nor no", excerpt(answer->as_string(), 60))};
      const json::Value* reason = doc->find("reason");
      return {Answer{*verdict, reason && reason->is_string() ? clean_reason(reason->as_string()) : std::string()}, {}};
    }
  }
  if (auto words = first_word_answer(s)) return {std::move(words), {}};
  return {std::nullopt, fmt::format("the reply is neither {{\"answer\": \"yes\"|\"no\"}} nor a yes or no: '{}'", excerpt(s))};
}

ParsedReply parse_completion(std::string_view body) {
  json::Value doc;
  try {
    doc = json::parse(body, "reply");
  } catch (const OperatorError& e) {
    return {std::nullopt, fmt::format("the reply is not JSON ({}): '{}'", e.what(), excerpt(trim(body)))};
  }
  if (!doc.is_object()) return {std::nullopt, fmt::format("the reply is a JSON {}, not an object", json::kind_name(doc))};
  const json::Value* choices = doc.find("choices");
  if (!choices || !choices->is_array() || choices->as_array().empty()) {
    if (const json::Value* err = doc.find("error")) {
      const json::Value* message = err->is_object() ? err->find("message") : err;
      if (message && message->is_string()) return {std::nullopt, fmt::format("the endpoint answered an error: {}", excerpt(message->as_string(), 200))};
    }
    return {std::nullopt, fmt::format("the reply has no choices: '{}'", excerpt(trim(body)))};
  }
  const json::Value& first = choices->as_array().front();
  const json::Value* message = first.is_object() ? first.find("message") : nullptr;
  const json::Value* content = message && message->is_object() ? message->find("content") : nullptr;
  if (!content || !content->is_string())
    return {std::nullopt, fmt::format("the reply's first choice has no message content: '{}'", excerpt(trim(body)))};
  ParsedReply parsed = parse_answer(content->as_string());
  if (!parsed.answer) {
    const json::Value* finish = first.find("finish_reason");
    if (finish && finish->is_string() && finish->as_string() == "length") parsed.problem += " (the reply was cut at its token limit)";
  }
  return parsed;
}

}  // namespace rubric::judge
