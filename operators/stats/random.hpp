#pragma once
// A small seeded generator with its own distributions, so a seed gives the same draws on every
// platform and standard library (std:: distributions are implementation-defined).
#include <cstdint>

namespace rubric::stats {

class Random {
 public:
  explicit Random(std::uint64_t seed);
  std::uint64_t next();      // xoshiro256**
  double uniform();          // in (0, 1), never 0 or 1
  double normal();           // standard normal (Marsaglia polar)
  double gamma(double shape);  // Gamma(shape, 1), shape >= 1 (Marsaglia-Tsang)
  double beta(double a, double b);  // Beta(a, b), a, b >= 1

 private:
  std::uint64_t s_[4];
  double spare_normal_ = 0;
  bool has_spare_ = false;
};

}  // namespace rubric::stats
