#include "report/display_text.hpp"

#include <fmt/format.h>

#include "operators/text/utf8.hpp"

namespace rubric::report {
namespace {

// Code points that are valid UTF-8 yet would break a report: they end or reorder lines, hide text,
// or are not allowed in XML (the noncharacters).
bool is_hidden_or_breaking(char32_t cp) {
  if (cp >= 0x80 && cp <= 0x9F) return true;                        // C1 controls (0x9B is CSI)
  if (cp == 0x061C || cp == 0x180E) return true;                     // Arabic letter mark, Mongolian vowel separator
  if (cp >= 0x200B && cp <= 0x200F) return true;                     // zero-width spaces, LRM, RLM
  if (cp >= 0x2028 && cp <= 0x202E) return true;                     // line/paragraph separators, bidi embeddings
  if (cp >= 0x2060 && cp <= 0x206F) return true;                     // word joiner, bidi isolates, invisible operators
  if (cp == 0xFEFF) return true;                                     // byte order mark
  if (cp >= 0xFFF9 && cp <= 0xFFFB) return true;                     // interlinear annotations
  if (cp >= 0xFDD0 && cp <= 0xFDEF) return true;                     // noncharacters
  if ((cp & 0xFFFE) == 0xFFFE) return true;                          // U+FFFE, U+FFFF and each plane's pair
  if (cp >= 0xE0000 && cp <= 0xE007F) return true;                   // tag characters (invisible text)
  return false;
}

// The visible form of one ASCII control character.
std::string control_escape(unsigned char c) {
  switch (c) {
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: return fmt::format("\\x{:02x}", static_cast<unsigned>(c));
  }
}

// Calls emit(piece, raw_bytes_consumed) for each shown piece of `raw`, stopping when emit says so.
template <typename Emit>
void for_each_piece(std::string_view raw, Emit&& emit) {
  for (std::size_t i = 0; i < raw.size();) {
    const auto byte = static_cast<unsigned char>(raw[i]);
    if (byte < 0x20 || byte == 0x7F) {
      if (!emit(std::string_view(control_escape(byte)), i, 1)) return;
      ++i;
      continue;
    }
    const std::size_t n = text::utf8_sequence_length(raw, i);
    if (n == 0) {
      if (!emit(std::string_view(fmt::format("\\x{:02x}", static_cast<unsigned>(byte))), i, 1)) return;
      ++i;
      continue;
    }
    const char32_t cp = text::utf8_code_point(raw, i, n);
    if (is_hidden_or_breaking(cp)) {
      if (!emit(std::string_view(fmt::format("\\u{{{:x}}}", static_cast<std::uint32_t>(cp))), i, n)) return;
    } else {
      if (!emit(raw.substr(i, n), i, n)) return;
    }
    i += n;
  }
}

}  // namespace

std::string display_text(std::string_view raw, std::size_t limit) {
  std::string out;
  out.reserve(std::min(raw.size(), limit) + 16);
  std::size_t cut_at = raw.size();
  for_each_piece(raw, [&](std::string_view piece, std::size_t at, std::size_t) {
    if (out.size() + piece.size() > limit) {
      cut_at = at;
      return false;
    }
    out += piece;
    return true;
  });
  if (cut_at < raw.size()) out += fmt::format("… ({} more bytes not shown)", raw.size() - cut_at);
  return out;
}

bool is_display_safe(std::string_view raw, std::size_t limit) {
  if (raw.size() > limit) return false;
  bool safe = true;
  for_each_piece(raw, [&](std::string_view piece, std::size_t at, std::size_t length) {
    safe = piece == raw.substr(at, length);
    return safe;
  });
  return safe;
}

}  // namespace rubric::report
