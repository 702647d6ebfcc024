#pragma once
// What the judge is asked, and the digests that key its answers in the cache. The question (the
// rubric's) goes in the system message with the instructions; the text (the submission's,
// untrusted) is the whole user message, between markers it cannot forge.
#include <string>
#include <string_view>

namespace rubric::judge {

// Part of every digest: a change to the prompt's wording must change it, so that answers to the
// old wording are never reused for the new one.
inline constexpr const char* kPromptVersion = "rubric-judge-prompt-1";

struct Prompt {
  std::string system;
  std::string user;
};

// `text` goes in as judged_text(text).
Prompt make_prompt(std::string_view question, std::string_view text);

// What the judge reads of a text: its words, without what could pass for the chat template's own
// markup or hide from a human reader. Bytes that are not UTF-8 become U+FFFD; Unicode tag
// characters (U+E0000-U+E007F, invisible "ASCII smuggling"), bidi controls and zero-width
// characters other than the joiners of emoji are dropped; the role and turn markers of the common
// templates ("<|im_start|>", "<|eot_id|>", "[INST]", "<<SYS>>", "<start_of_turn>") get a space
// inside, so no tokenizer reads them as its special tokens.
std::string judged_text(std::string_view text);

// The request body for POST /chat/completions: the two messages, temperature 0.
std::string request_body(const std::string& model, const Prompt& prompt);

// SHA-256 (hex) of the prompt: the question, the instructions and the text.
std::string prompt_digest(const Prompt& prompt);
// SHA-256 (hex) of (model, prompt digest): the key a judgement is cached under (with its vote).
std::string judgement_key(const std::string& model, const std::string& prompt_digest);

}  // namespace rubric::judge
