#pragma once
// Generates the translation unit that wraps a candidate source: it includes the source, checks at
// compile time that `entry` has exactly the declared type, and exports one extern "C" function
//   void rubric_call(void** args)
// whose args[i] points at the i-th argument's value (a device pointer, a scalar, or the stream).
#include <string>
#include <string_view>

#include "operators/cuda/signature.hpp"

namespace rubric::cuda {

enum class ModuleKind {
  cuda,         // .cu compiled with nvcc; pointers are device memory
  cpu_standin,  // .cpp compiled with the host compiler; pointers are host memory, streams ignored
};

inline constexpr std::string_view kTrampolineSymbol = "rubric_call";

// Throws OperatorError when `entry` is not a (possibly ::-qualified) C++ identifier.
std::string generate_trampoline(const Signature& sig, std::string_view entry, std::string_view source_path,
                                ModuleKind kind);

}  // namespace rubric::cuda
