#include "interpreter/addressed_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <memory>
#include <string_view>
#include <utility>

#include "interpreter/evaluator.hpp"
#include "interpreter/text_analyses.hpp"
#include "operators/text/polarity.hpp"

namespace rubric {

namespace {

const char* const kCacheKey = "submission texts";
constexpr std::size_t kShownPerFile = 3;   // sentences quoted per file; the rest are counted
constexpr std::size_t kExcerptBytes = 100;  // of each quoted sentence

struct SubmissionTexts {
  std::vector<std::pair<std::string, Value>> files;  // display path, text; each path once
};

SubmissionTexts& texts_of(std::shared_ptr<const void>& slot) {
  if (!slot) slot = std::make_shared<SubmissionTexts>();
  return *std::const_pointer_cast<SubmissionTexts>(std::static_pointer_cast<const SubmissionTexts>(slot));
}

// The sentence's first kExcerptBytes, cut at a character, its line breaks as spaces.
std::string excerpt(std::string_view sentence) {
  std::size_t n = sentence.size();
  if (n > kExcerptBytes) {
    n = kExcerptBytes;
    while (n > 0 && (static_cast<unsigned char>(sentence[n]) & 0xC0) == 0x80) --n;
  }
  std::string out;
  for (char ch : sentence.substr(0, n)) out += (ch == '\n' || ch == '\r' || ch == '\t') ? ' ' : ch;
  if (n < sentence.size()) out += "...";
  return out;
}

}  // namespace

void remember_submission_text(CallContext& ctx, const std::string& display, const Value& text) {
  std::shared_ptr<const void> slot = ctx.cached(kCacheKey);
  if (!slot) ctx.store(kCacheKey, slot = std::make_shared<SubmissionTexts>());
  SubmissionTexts& t = texts_of(slot);
  for (const auto& f : t.files)
    if (f.first == display) return;
  t.files.emplace_back(display, text);
}

std::vector<Diagnostic> addressed_reader_warnings(Evaluator& ev) {
  std::vector<Diagnostic> out;
  auto it = ev.cache.find(kCacheKey);
  if (it == ev.cache.end() || !it->second) return out;
  for (const auto& [display, value] : texts_of(it->second).files) {
    auto analysed = analysed_text(ev, value);
    const std::string_view text = analysed->text();
    // Each order: where it begins and ends in the text, and whether an HTML comment hides it.
    struct Order {
      std::size_t begin, end;
      bool hidden;
    };
    std::vector<Order> orders;
    text::AnalysedText::Reader reader(*analysed);
    while (const text::Sentence* s = reader.next())
      if (text::addresses_reader(*s)) orders.push_back({s->begin, s->end, false});
    // An HTML comment is no prose, so no check reads it; a model given the raw answer (`judge`)
    // does, and an order hidden there is the plainest sign of an answer written for its grader.
    for (std::size_t open = text.find("<!--"); open != std::string_view::npos; open = text.find("<!--", open + 4)) {
      const std::size_t body = open + 4, close = std::min(text.find("-->", body), text.size());
      text::SentenceStream stream(text.substr(body, close - body), analysed->stemmer(), false);
      for (text::Sentence s; stream.next(s);)
        if (text::addresses_reader(s)) orders.push_back({body + s.begin, body + s.end, true});
      open = close;
    }
    if (orders.empty()) continue;
    std::sort(orders.begin(), orders.end(), [](const Order& a, const Order& b) { return a.begin < b.begin; });
    std::vector<std::string> found;
    std::size_t line = 1, scanned = 0, line_start = 0;
    for (const Order& o : orders) {
      if (found.size() == kShownPerFile) break;
      for (; scanned < o.begin && scanned < text.size(); ++scanned)
        if (text[scanned] == '\n') ++line, line_start = scanned + 1;
      std::size_t column = 1;  // in characters
      for (std::size_t k = line_start; k < o.begin && k < text.size(); ++k)
        column += (static_cast<unsigned char>(text[k]) & 0xC0) != 0x80;
      found.push_back(fmt::format("{}:{}:{}: \"{}\"{}", display, line, column, excerpt(text.substr(o.begin, o.end - o.begin)),
                                  o.hidden ? " (in an HTML comment: hidden from a reader of the page, not from a model given the text)"
                                           : ""));
    }
    const std::size_t count = orders.size();
    Diagnostic d{Severity::warning, nullptr, {},
                 fmt::format("{}{}{} {} an order to the reader, not part of the answer (wherever a check reads one, "
                             "what it says counts as hedged); read the answer yourself",
                             display, kAddressesReader, count, count == 1 ? "sentence is" : "sentences are"),
                 {}};
    for (std::string& f : found) d.notes.push_back(std::move(f));
    if (count > found.size()) d.notes.push_back(fmt::format("and {} more", count - found.size()));
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace rubric
