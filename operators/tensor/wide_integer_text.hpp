#pragma once
// Decimal text of a 128-bit unsigned integer (the worker's replies carry exact integer
// differences past 64 bits), both ways.
#include <stdexcept>
#include <string>
#include <string_view>

#include "operators/tensor/wide_integer.hpp"

namespace rubric::tensor {

inline std::string wide_to_string(WideUnsigned v) {
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return digits;
}

// Throws std::invalid_argument for text that is not a decimal below 2^128 (as std::stoull does).
inline WideUnsigned wide_from_string(std::string_view text) {
  if (text.empty() || text.size() > 39) throw std::invalid_argument("not an unsigned 128-bit decimal");
  WideUnsigned v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') throw std::invalid_argument("not an unsigned 128-bit decimal");
    const WideUnsigned next = v * 10 + static_cast<unsigned>(c - '0');
    if (next / 10 != v) throw std::invalid_argument("not an unsigned 128-bit decimal");
    v = next;
  }
  return v;
}

}  // namespace rubric::tensor
