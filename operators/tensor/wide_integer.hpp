#pragma once
// One type that holds every value of every integer dtype exactly: i64 and u64 together span
// [-2^63, 2^64), 65 bits, and a difference of two of them 66. GCC, Clang and nvcc (host and
// device) all have 128-bit integers; __extension__ keeps -Wpedantic quiet about them.
namespace rubric::tensor {

__extension__ typedef __int128 WideInteger;
__extension__ typedef unsigned __int128 WideUnsigned;

}  // namespace rubric::tensor
