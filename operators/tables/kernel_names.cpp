#include "operators/tables/kernel_names.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace rubric::tables {
namespace {

// A mangled name (ncu --print-kernel-base mangled, nsys --mangled) demangled as the tools would
// print it; anything else, or a name too long to be a kernel's, as it is (the demangler recurses
// on the name's structure, and the name comes from the submission's file).
std::string demangled(std::string_view name) {
  if (name.size() < 3 || name.size() > 4096 || name.substr(0, 2) != "_Z") return std::string(name);
  for (char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' || c == '$'))
      return std::string(name);
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(abi::__cxa_demangle(std::string(name).c_str(), nullptr, nullptr, &status),
                                             std::free);
  return status == 0 && out ? std::string(out.get()) : std::string(name);
}

bool opens(char c) { return c == '(' || c == '<' || c == '['; }
bool closes(char c) { return c == ')' || c == '>' || c == ']'; }

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_mangled(std::string_view name) { return name.size() >= 3 && name.substr(0, 2) == "_Z"; }

// The name without return type or parameters, as a view into `name`.
std::string_view short_view(std::string_view s) {
  // The parameter list is the bracketed group that ends the name; parentheses earlier in it
  // ("(anonymous namespace)::", "<(int)32>", "[lambda(int) (instance 1)]") stay.
  if (!s.empty() && s.back() == ')') {
    int depth = 0;
    for (std::size_t i = s.size(); i-- > 0;) {
      if (s[i] == ')') ++depth;
      else if (s[i] == '(' && --depth == 0) {
        if (i > 0) s = trimmed(s.substr(0, i));
        break;
      }
    }
  }
  // The return type ends at the last blank outside any brackets ("void ", "__global__ void ").
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (opens(s[i])) ++depth;
    else if (closes(s[i]) && depth > 0) --depth;
    else if (s[i] == ' ' && depth == 0) start = i + 1;
  }
  return s.substr(start);
}

}  // namespace

// A name that is not mangled is cut as a view and copied once: a profile's name may be as long as
// its file, and each copy of it counts.
std::string short_kernel_name(std::string_view full) {
  std::string_view name = trimmed(full);
  if (!is_mangled(name)) return std::string(short_view(name));
  const std::string plain = demangled(name);
  return std::string(short_view(plain));
}

std::string kernel_function_name(std::string_view full) {
  std::string s = short_kernel_name(full);
  // Drop every bracketed group outside the others (template arguments, "(anonymous namespace)"),
  // then keep what follows the last "::".
  if (s.find_first_of("()<>[]") == std::string::npos) {
    std::size_t scope = s.rfind("::");
    if (scope == std::string::npos || scope + 2 == s.size()) return s;
    return s.substr(scope + 2);
  }
  std::string outside;
  int depth = 0;
  for (char c : s) {
    if (opens(c)) ++depth;
    else if (closes(c) && depth > 0) --depth;
    else if (depth == 0) outside += c;
  }
  std::size_t scope = outside.rfind("::");
  std::string name = scope == std::string::npos ? outside : outside.substr(scope + 2);
  return name.empty() ? s : name;
}

}  // namespace rubric::tables
