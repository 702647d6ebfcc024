#include "operators/cuda/compiler_messages.hpp"

#include <fmt/format.h>

#include <vector>

namespace rubric::cuda {

namespace {

std::vector<std::string> split_lines(std::string_view s) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start <= s.size()) {
    auto nl = s.find('\n', start);
    if (nl == std::string_view::npos) {
      if (start < s.size()) lines.emplace_back(s.substr(start));
      break;
    }
    lines.emplace_back(s.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

void replace_all(std::string& s, std::string_view from, std::string_view to) {
  if (from.empty()) return;
  for (std::size_t pos = s.find(from); pos != std::string::npos; pos = s.find(from, pos + to.size()))
    s.replace(pos, from.size(), to);
}

// nvcc: "file(12): error: ..."; gcc/clang: "file:12:5: error: ..."; "fatal error" counts too.
bool is_error_line(const std::string& line) {
  return line.find(": error") != std::string::npos || line.find(": fatal error") != std::string::npos ||
         line.find("error: ") == 0;
}

bool is_noise(const std::string& line) {
  return line.find("errors detected in the compilation") != std::string::npos ||
         line.find("error detected in the compilation") != std::string::npos ||
         line.find("compilation terminated") != std::string::npos ||
         line.find("In file included from") != std::string::npos ||
         line.find("                 from ") == 0 || line.find(": In function") != std::string::npos ||
         line.find(": At global scope") != std::string::npos;
}

}  // namespace

std::string trim_compiler_output(std::string_view output, const MessageContext& ctx, int max_errors) {
  std::vector<std::string> lines = split_lines(output);
  std::vector<std::string> kept;
  int errors = 0;
  bool in_error = false;
  int context_left = 0;
  bool trampoline_error = false;
  std::string first_trampoline_error;
  for (const std::string& line : lines) {
    if (is_noise(line)) continue;
    if (is_error_line(line)) {
      in_error = false;
      bool in_trampoline = !ctx.trampoline_path.empty() && line.find(ctx.trampoline_path) != std::string::npos;
      if (in_trampoline) {
        if (!trampoline_error) first_trampoline_error = line;
        trampoline_error = true;
        continue;  // explained below, in the candidate's terms
      }
      if (errors >= max_errors) continue;
      ++errors;
      in_error = true;
      context_left = 2;  // the source line and the caret
      kept.push_back(line);
    } else if (in_error && context_left > 0 && !line.empty()) {
      // gcc's "note:" lines and nvcc's source/caret lines follow an error.
      if (line.find(ctx.trampoline_path) != std::string::npos) continue;
      kept.push_back(line);
      --context_left;
    }
  }
  std::string text;
  if (trampoline_error) {
    // Name-lookup failures read "undefined" (nvcc) or "not declared" (gcc).
    bool missing = first_trampoline_error.find("is undefined") != std::string::npos ||
                   first_trampoline_error.find("was not declared") != std::string::npos ||
                   first_trampoline_error.find("has not been declared") != std::string::npos;
    auto detail = first_trampoline_error.substr(first_trampoline_error.find("error") );
    if (missing)
      text = fmt::format("{} defines no function '{}' ({})", ctx.source_name, ctx.entry, detail);
    else
      text = fmt::format("entry '{}' in {} does not have the declared type {} ({})", ctx.entry, ctx.source_name,
                         ctx.signature, detail);
  }
  for (const std::string& k : kept) text += (text.empty() ? "" : "\n") + k;
  if (text.empty()) {
    // No recognisable error line: keep the last lines, which usually say what failed.
    std::size_t from = lines.size() > 6 ? lines.size() - 6 : 0;
    for (std::size_t i = from; i < lines.size(); ++i) text += (text.empty() ? "" : "\n") + lines[i];
  }
  replace_all(text, ctx.source_path, ctx.source_name);
  replace_all(text, "rubric_entry_type", fmt::format("'{}'", ctx.signature));
  return text;
}

}  // namespace rubric::cuda
