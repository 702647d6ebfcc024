#pragma once
// Kernel names as profilers print them (ncu's "Kernel Name", nsys's "Name"): demangled C++ with a
// return type, namespaces, template arguments and a parameter list, e.g.
// "void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>(int, T2, T3)"
// or "(anonymous namespace)::rmsnorm_kernel(const __half *, __half *, int)".
#include <string>
#include <string_view>

namespace rubric::tables {

// Without the return type and the parameter list: "gemm<float, 128>", "(anonymous
// namespace)::rmsnorm_kernel", "cutlass::Kernel2<Op>"; a bare name ("vecAdd") stays as it is,
// and a mangled one ("_Z6vecAddPfi") is demangled first.
std::string short_kernel_name(std::string_view full);

// The function's own name, as ncu's "function" kernel-name base and its ==PROF== Profiling lines
// print it: no namespaces, template arguments or parameters ("vectorized_elementwise_kernel").
std::string kernel_function_name(std::string_view full);

}  // namespace rubric::tables
