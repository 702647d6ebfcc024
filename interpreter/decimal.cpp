#include "interpreter/decimal.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <utility>

namespace rubric::decimal {
namespace {

using Int = __int128;

// Coefficients stay below 10^36, so a sum of two or a product of two 17-digit ones fits Int.
constexpr int max_digits = 36;

Int power_of_ten(int n) {
  Int p = 1;
  while (n-- > 0) p *= 10;
  return p;
}

Int magnitude(Int c) { return c < 0 ? -c : c; }

int digit_count(Int c) {
  c = magnitude(c);
  int n = 1;
  while (c >= 10) c /= 10, ++n;
  return n;
}

constexpr Int digits_limit = [] {
  Int p = 1;
  for (int i = 0; i < max_digits; ++i) p *= 10;
  return p;
}();

bool fits(Int c) { return magnitude(c) < digits_limit; }

Decimal normalized(Decimal d) {
  if (d.coefficient == 0) return {0, 0};
  while (d.coefficient % 10 == 0) d.coefficient /= 10, ++d.exponent;
  return d;
}

// a and b at the smaller of their exponents; nullopt when that needs more than max_digits.
std::optional<std::pair<Decimal, Decimal>> aligned(Decimal a, Decimal b) {
  if (a.coefficient == 0) a.exponent = b.exponent;
  if (b.coefficient == 0) b.exponent = a.exponent;
  if (a.exponent < b.exponent) std::swap(a, b);  // a has the larger exponent now
  const long shift = static_cast<long>(a.exponent) - b.exponent;
  if (shift > max_digits || digit_count(a.coefficient) + shift > max_digits) return std::nullopt;
  a.coefficient *= power_of_ten(static_cast<int>(shift));
  a.exponent = b.exponent;
  return std::make_pair(a, b);
}

std::optional<Decimal> exact_sum(const Decimal& a, const Decimal& b) {
  auto ab = aligned(a, b);
  if (!ab) return std::nullopt;
  Decimal r{ab->first.coefficient + ab->second.coefficient, ab->first.exponent};
  if (!fits(r.coefficient)) return std::nullopt;
  return normalized(r);
}

std::optional<Decimal> exact_product(const Decimal& a, const Decimal& b) {
  if (digit_count(a.coefficient) + digit_count(b.coefficient) > max_digits) return std::nullopt;
  return normalized({a.coefficient * b.coefficient, a.exponent + b.exponent});
}

Int gcd(Int a, Int b) {
  a = magnitude(a), b = magnitude(b);
  while (b != 0) a = std::exchange(b, a % b);
  return a;
}

// a / b terminates when b, in lowest terms, is 2^i·5^j: a/b = a·2^(k-i)·5^(k-j) / 10^k, k = max(i, j).
std::optional<Decimal> exact_quotient(const Decimal& a, const Decimal& b) {
  if (b.coefficient == 0) return std::nullopt;
  Int g = gcd(a.coefficient, b.coefficient);
  Int num = a.coefficient / g, den = b.coefficient / g;
  if (den < 0) num = -num, den = -den;
  int twos = 0, fives = 0;
  while (den % 2 == 0) den /= 2, ++twos;
  while (den % 5 == 0) den /= 5, ++fives;
  if (den != 1) return std::nullopt;
  const int k = twos > fives ? twos : fives;
  for (int i = twos; i < k; ++i)
    if (__builtin_mul_overflow(num, Int{2}, &num)) return std::nullopt;
  for (int j = fives; j < k; ++j)
    if (__builtin_mul_overflow(num, Int{5}, &num)) return std::nullopt;
  if (!fits(num)) return std::nullopt;
  return normalized({num, a.exponent - b.exponent - k});
}

std::string digits_of(Int c) {
  std::string s;
  c = magnitude(c);
  do s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(c % 10))), c /= 10;
  while (c != 0);
  return s;
}

template <typename Exact, typename Inexact>
double exactly(double x, double y, Exact exact, Inexact inexact) {
  auto a = of(x), b = of(y);
  if (a && b)
    if (auto r = exact(*a, *b)) return to_double(*r);
  return inexact(x, y);
}

}  // namespace

std::optional<Decimal> of(double v) {
  if (!std::isfinite(v)) return std::nullopt;
  if (v == 0) return Decimal{};
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  if (ec != std::errc()) return std::nullopt;
  // "-3.584e-06": sign, digits around one point, exponent.
  const char* p = buf;
  bool negative = *p == '-';
  if (negative) ++p;
  Int c = 0;
  int fraction_digits = 0;
  bool after_point = false;
  for (; p < end && *p != 'e'; ++p) {
    if (*p == '.') {
      after_point = true;
      continue;
    }
    c = c * 10 + (*p - '0');
    fraction_digits += after_point;
  }
  int exponent = 0;
  if (p < end) std::from_chars(p + 1 + (p[1] == '+'), end, exponent);
  return normalized({negative ? -c : c, exponent - fraction_digits});
}

double to_double(const Decimal& d) {
  if (d.coefficient == 0) return 0.0;
  std::string text = (d.coefficient < 0 ? "-" : "") + digits_of(d.coefficient) + "e" + std::to_string(d.exponent);
  return std::strtod(text.c_str(), nullptr);  // glibc rounds to nearest, and overflows to ±inf
}

double add(double x, double y) {
  return exactly(x, y, exact_sum, [](double a, double b) { return a + b; });
}

double sub(double x, double y) {
  return exactly(x, y, [](const Decimal& a, Decimal b) { b.coefficient = -b.coefficient; return exact_sum(a, b); },
                 [](double a, double b) { return a - b; });
}

double mul(double x, double y) {
  return exactly(x, y, exact_product, [](double a, double b) { return a * b; });
}

double div(double x, double y) {
  return exactly(x, y, exact_quotient, [](double a, double b) { return a / b; });
}

void Sum::add(double v) {
  if (whole_only_) {
    // Each partial sum below 10^36 is what the decimal sum would hold; past it, or at the first
    // number that is not whole, the decimal sum takes over from the integer sum so far.
    if (std::fabs(v) < 9007199254740992.0 && v == std::trunc(v)) {
      const Int next = whole_ + static_cast<Int>(static_cast<long long>(v));
      if (fits(next)) {
        whole_ = next;
        return;
      }
    }
    whole_only_ = false;
    exact_ = normalized({whole_, 0});
  }
  if (is_exact_) {
    auto d = of(v);
    auto s = d ? exact_sum(exact_, *d) : std::nullopt;
    if (s) {
      exact_ = *s;
      return;
    }
    is_exact_ = false;
    inexact_.add(to_double(exact_));
  }
  inexact_.add(v);
}

double Sum::value() const {
  if (whole_only_) return to_double(normalized({whole_, 0}));
  if (is_exact_) return to_double(exact_);
  return std::isfinite(inexact_.sum) ? inexact_.value() : inexact_.sum;  // an infinity's compensation is NaN
}

std::optional<std::string> shortest_digits(double v, int max_significant) {
  auto d = of(v);
  if (!d) return std::nullopt;
  if (d->coefficient == 0) return std::string("0");
  const std::string digits = digits_of(d->coefficient), sign = d->coefficient < 0 ? "-" : "";
  const int n = static_cast<int>(digits.size()), lead = d->exponent + n - 1;  // the leading digit's power of ten
  if (n > max_significant) return std::nullopt;
  if (lead < -4 || lead >= 15) {
    std::string e = fmt::format("e{}{:02}", lead < 0 ? '-' : '+', lead < 0 ? -lead : lead);
    return sign + digits.substr(0, 1) + (n > 1 ? "." + digits.substr(1) : "") + e;
  }
  if (d->exponent >= 0) return sign + digits + std::string(static_cast<std::size_t>(d->exponent), '0');
  if (lead < 0) return sign + "0." + std::string(static_cast<std::size_t>(-lead - 1), '0') + digits;
  const auto point = static_cast<std::size_t>(lead + 1);
  return sign + digits.substr(0, point) + "." + digits.substr(point);
}

}  // namespace rubric::decimal
