#pragma once
// The .npy header: a Python dict literal {'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }.
#include <string>
#include <string_view>

#include "operators/tensor/tensor.hpp"

namespace rubric::tensor {

struct NpyHeader {
  std::string descr;
  bool fortran_order = false;
  Shape shape;
};

// Parses the dict literal; throws OperatorError naming `path` and what is wrong
// (bad literal, missing or unexpected key, wrong value type).
NpyHeader parse_npy_header(std::string_view text, const std::string& path);

// Renders the dict literal numpy writes (without padding or newline).
std::string format_npy_header(const NpyHeader& header);

}  // namespace rubric::tensor
