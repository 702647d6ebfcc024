#include "interpreter/units.hpp"

#include "interpreter/decimal.hpp"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <vector>

namespace rubric {

bool Dimension::dimensionless() const {
  for (auto e : exp)
    if (e != 0) return false;
  return true;
}

Dimension Dimension::operator*(const Dimension& o) const {
  Dimension r;
  for (int i = 0; i < count; ++i) r.exp[i] = static_cast<std::int8_t>(exp[i] + o.exp[i]);
  return r;
}

Dimension Dimension::operator/(const Dimension& o) const {
  Dimension r;
  for (int i = 0; i < count; ++i) r.exp[i] = static_cast<std::int8_t>(exp[i] - o.exp[i]);
  return r;
}

Dimension Dimension::of(Base b, int power) {
  Dimension d;
  d.exp[b] = static_cast<std::int8_t>(power);
  return d;
}

namespace {

const char* base_symbol(int b) {
  static const char* names[] = {"s", "B", "tok", "req", "FLOP"};
  return names[b];
}

struct Atom {
  std::string_view name;
  double scale;
  Dimension::Base base;
  int power = 1;  // -1 for the frequencies (Hz is 1/s)
};

const std::array<Atom, 31>& atom_table() {
  static const std::array<Atom, 31> table = {{
      {"ns", 1e-9, Dimension::time},        {"us", 1e-6, Dimension::time},
      {"\xC2\xB5s", 1e-6, Dimension::time}, {"ms", 1e-3, Dimension::time},
      {"s", 1, Dimension::time},            {"min", 60, Dimension::time},
      {"h", 3600, Dimension::time},         {"B", 1, Dimension::bytes},
      {"kB", 1e3, Dimension::bytes},        {"KB", 1e3, Dimension::bytes},
      {"MB", 1e6, Dimension::bytes},        {"GB", 1e9, Dimension::bytes},
      {"TB", 1e12, Dimension::bytes},       {"KiB", 1024.0, Dimension::bytes},
      {"MiB", 1048576.0, Dimension::bytes}, {"GiB", 1073741824.0, Dimension::bytes},
      {"TiB", 1099511627776.0, Dimension::bytes},
      {"tok", 1, Dimension::tokens},        {"req", 1, Dimension::requests},
      {"FLOP", 1, Dimension::operations},   {"kFLOP", 1e3, Dimension::operations},
      {"MFLOP", 1e6, Dimension::operations}, {"GFLOP", 1e9, Dimension::operations},
      {"TFLOP", 1e12, Dimension::operations}, {"PFLOP", 1e15, Dimension::operations},
      {"\xCE\xBCs", 1e-6, Dimension::time},  // Greek mu, which some editors produce for µ
      {"sec", 1, Dimension::time},
      {"Hz", 1, Dimension::time, -1},        {"kHz", 1e3, Dimension::time, -1},
      {"MHz", 1e6, Dimension::time, -1},     {"GHz", 1e9, Dimension::time, -1},
  }};
  return table;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

}  // namespace

const std::array<std::string_view, 31>& unit_atoms() {
  static const std::array<std::string_view, 31> names = [] {
    std::array<std::string_view, 31> n{};
    for (std::size_t i = 0; i < atom_table().size(); ++i) n[i] = atom_table()[i].name;
    return n;
  }();
  return names;
}

std::string dimension_name(const Dimension& d) {
  std::string num, den;
  for (int b = 0; b < Dimension::count; ++b) {
    int e = d.exp[b];
    if (e == 0) continue;
    std::string& side = e > 0 ? num : den;
    int n = e > 0 ? e : -e;
    if (!side.empty()) side += "*";
    side += base_symbol(b);
    if (n > 1) side += fmt::format("^{}", n);
  }
  if (den.empty()) return num;
  if (num.empty()) num = "1";
  return num + "/" + den;
}

std::string dimension_description(const Dimension& d) {
  return d.dimensionless() ? std::string("dimensionless") : dimension_name(d);
}

std::optional<Unit> parse_unit(std::string_view text, std::string* error) {
  Unit u;
  text = trim(text);
  if (text.empty()) {
    if (error) *error = "empty unit";
    return std::nullopt;
  }
  bool dividing = false;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t next = text.find_first_of("/*", pos);
    std::string_view atom = trim(text.substr(pos, next == std::string_view::npos ? std::string_view::npos : next - pos));
    const Atom* found = nullptr;
    for (const auto& a : atom_table())
      if (a.name == atom) found = &a;
    if (!found) {
      if (error) *error = fmt::format("unknown unit '{}'", atom);
      return std::nullopt;
    }
    Dimension d = Dimension::of(found->base, found->power);
    if (dividing) {
      u.scale = decimal::div(u.scale, found->scale);
      u.dim = u.dim / d;
    } else {
      u.scale = decimal::mul(u.scale, found->scale);
      u.dim = u.dim * d;
    }
    if (next == std::string_view::npos) break;
    if (text[next] == '/') dividing = true;
    pos = next + 1;
  }
  return u;
}

std::string percent_text(double fraction) {
  double x = std::fabs(fraction) * 100;
  if (x >= 10) return fmt::format("{:.0f}%", x);
  if (x >= 1) return fmt::format("{:.1f}%", x);
  return fmt::format("{:.2g}%", x);
}

std::string format_number(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // A short decimal (up to 12 significant digits) is what the language holds exactly (3.424837,
  // a sum of integer nanoseconds in ms): it prints in full. Longer ones come from inexact
  // arithmetic (1 / 3, a mean, a bootstrap's median), which prints to 6.
  if (auto exact = decimal::shortest_digits(v, 12)) return *exact;
  if (std::fabs(v) < 1e15 && v == std::floor(v)) return fmt::format("{:.0f}", v);
  return fmt::format("{:.6g}", v);
}

namespace {

struct Prefix {
  double factor;
  const char* name;
};

// Picks the largest prefix not above |v| (or the smallest one when |v| is below all).
const Prefix& pick(const std::vector<Prefix>& ps, double v) {
  double a = std::fabs(v);
  const Prefix* best = &ps.front();
  for (const auto& p : ps)
    if (a >= p.factor * 0.9999995) best = &p;
  return *best;
}

// The dimension with one base removed (exponent set to zero).
Dimension without(Dimension d, Dimension::Base b) {
  d.exp[b] = 0;
  return d;
}

std::string join_unit(const std::string& head, const Dimension& rest) {
  std::string tail = dimension_name(rest);
  if (tail.empty()) return head;
  if (tail.rfind("1/", 0) == 0) return head + tail.substr(1);
  return head + "*" + tail;
}

}  // namespace

namespace {

// The unit a quantity reads best in: base units per shown unit, and its name ("" when dimensionless).
struct ShownUnit {
  double factor = 1;
  std::string name;
};

ShownUnit shown_unit(double v, const Dimension& d) {
  if (d.dimensionless()) return {};
  if (!std::isfinite(v) || v == 0) return {1, dimension_name(d)};

  if (d.exp[Dimension::bytes] == 1) {
    Dimension rest = without(d, Dimension::bytes);
    // Exact binary multiples read best in binary units (4 GiB, not 4.29497 GB).
    static const std::vector<Prefix> binary = {{1099511627776.0, "TiB"}, {1073741824.0, "GiB"}, {1048576.0, "MiB"}, {1024.0, "KiB"}};
    if (rest.dimensionless()) {
      for (const auto& p : binary) {
        double q = v / p.factor;
        if (std::fabs(v) >= p.factor && q == std::floor(q) && std::fabs(q) < 1e4 && std::fmod(v, 1000.0) != 0)
          return {p.factor, p.name};
      }
    }
    static const std::vector<Prefix> decimal = {{1, "B"}, {1e3, "kB"}, {1e6, "MB"}, {1e9, "GB"}, {1e12, "TB"}};
    const Prefix& p = pick(decimal, v);
    return {p.factor, join_unit(p.name, rest)};
  }
  if (d.exp[Dimension::operations] == 1) {
    Dimension rest = without(d, Dimension::operations);
    static const std::vector<Prefix> ops = {{1, "FLOP"}, {1e9, "GFLOP"}, {1e12, "TFLOP"}, {1e15, "PFLOP"}};
    const Prefix& p = pick(ops, v);
    return {p.factor, join_unit(p.name, rest)};
  }
  if (d.exp[Dimension::time] == -1 && without(d, Dimension::time).dimensionless()) {
    // A frequency: ncu's clock rates (1.75 GHz), or any count per second without a unit of its own.
    static const std::vector<Prefix> hertz = {{1, "Hz"}, {1e3, "kHz"}, {1e6, "MHz"}, {1e9, "GHz"}};
    const Prefix& p = pick(hertz, v);
    return {p.factor, p.name};
  }
  if (d.exp[Dimension::time] == 1) {
    Dimension rest = without(d, Dimension::time);
    static const std::vector<Prefix> times = {{1e-9, "ns"}, {1e-6, "\xC2\xB5s"}, {1e-3, "ms"}, {1, "s"}};
    const Prefix& p = pick(times, v);
    return {p.factor, join_unit(p.name, rest)};
  }
  return {1, dimension_name(d)};
}

std::string with_unit(std::string number, const ShownUnit& u) { return u.name.empty() ? number : number + " " + u.name; }

}  // namespace

std::string format_quantity(double v, const Dimension& d) {
  ShownUnit u = shown_unit(v, d);
  return with_unit(format_number(decimal::div(v, u.factor)), u);
}

std::string format_number(double v, int digits) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  // A short decimal in full, as format_number(v) prints it; the shortest decimal also tells any
  // two doubles apart, so it stands whenever it fits the digits asked for.
  if (auto exact = decimal::shortest_digits(v, std::max(digits, 12))) return *exact;
  const double a = std::fabs(v);
  if (a < 1e15 && v == std::floor(v)) return fmt::format("{:.0f}", v);
  if (a < 1e-4 || a >= 1e15) return fmt::format("{:.{}g}", v, digits);
  const int exponent = static_cast<int>(std::floor(std::log10(a)));
  const int decimals = std::max(1, digits - 1 - exponent);
  std::string s = fmt::format("{:.{}f}", v, decimals);
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s;
}

std::pair<std::string, std::string> format_quantity_pair(double a, double b, const Dimension& d) {
  auto usable = [](double x) { return std::isfinite(x) && x != 0; };
  double pick_from = usable(a) && (!usable(b) || std::fabs(a) <= std::fabs(b)) ? a : b;
  ShownUnit u = shown_unit(pick_from, d);
  // Enough significant digits for the difference to show in the last place or two of both.
  int start = 6;
  const double big = std::max(std::fabs(a), std::fabs(b)), gap = std::fabs(a - b);
  if (std::isfinite(big) && gap > 0 && big > 0) start = std::clamp(static_cast<int>(std::ceil(std::log10(big / gap))) + 2, 6, 17);
  std::string sa, sb;
  for (int digits = start; digits <= 17; ++digits) {
    sa = format_number(decimal::div(a, u.factor), digits);
    sb = format_number(decimal::div(b, u.factor), digits);
    if (sa != sb || a == b) break;
  }
  return {with_unit(sa, u), with_unit(sb, u)};
}

}  // namespace rubric
