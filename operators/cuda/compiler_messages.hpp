#pragma once
// Turns a compiler's full output into what a grader needs: the first errors, located in the
// candidate's file under the name the rubric used, without the generated trampoline's noise.
#include <string>
#include <string_view>

namespace rubric::cuda {

struct MessageContext {
  std::string source_path;       // absolute path the trampoline included
  std::string source_name;       // how to name it in messages (e.g. "softmax.cu")
  std::string trampoline_path;   // the generated file
  std::string entry;             // the entry name
  std::string signature;         // the declared signature text
};

// Keeps at most `max_errors` errors (each with its source line and caret); an error located in
// the trampoline is explained as a missing entry or a signature mismatch.
std::string trim_compiler_output(std::string_view output, const MessageContext& ctx, int max_errors = 3);

}  // namespace rubric::cuda
