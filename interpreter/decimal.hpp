#pragma once
// The language's arithmetic on numbers as the decimals they are written as (semantics.md,
// "Numbers"). A number is held as a double; its decimal is the shortest one that reads back as
// that double (3.584e-6 for `3.584 us`), which for any decimal of up to 15 significant digits is
// the decimal itself. +, -, ×, ÷ and unit scaling compute the exact decimal result and round it
// once to the nearest double, so `3584 ns == 3.584 us` and a sum of integer nanoseconds prints as
// the integer it is. Where the result is no finite decimal of at most 36 digits (1 / 3, or
// operands of 17 digits at distant scales), the double operation stands, rounded as IEEE 754 says.
#include <optional>
#include <string>

#include "operators/numerics/neumaier_sum.hpp"

namespace rubric::decimal {

// value = coefficient × 10^exponent
struct Decimal {
  __int128 coefficient = 0;
  int exponent = 0;
};

// The shortest decimal that reads back as v; nullopt for NaN and infinities.
std::optional<Decimal> of(double v);
// The double nearest to d (ties to even), ±inf past the largest.
double to_double(const Decimal& d);

double add(double x, double y);
double sub(double x, double y);
double mul(double x, double y);
double div(double x, double y);  // y != 0

// Exact sums of many numbers (a list's `sum`): the decimals add exactly while they fit, and the
// sum is rounded once at the end; past 36 digits it continues compensated (Neumaier) in doubles.
class Sum {
 public:
  void add(double v);
  double value() const;

 private:
  // While every number added is whole and below 2^53 (counts, token totals), their decimals are
  // the integers themselves and the exact sum is the integer sum: no decimal is formed per number.
  __int128 whole_ = 0;
  bool whole_only_ = true;
  Decimal exact_;
  bool is_exact_ = true;
  numerics::NeumaierSum inexact_;
};

// v's decimal written out when it has at most `max_digits` significant digits: plain where
// printf's %g would be ("3.424837", "0.0001", "1200", up to 15 integer digits), else in
// scientific notation ("1.5e-07"); nullopt for more digits, NaN and infinities.
std::optional<std::string> shortest_digits(double v, int max_digits);

}  // namespace rubric::decimal
