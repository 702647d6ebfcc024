#include "grammar/suggest.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>

namespace rubric {

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

std::string stem(const std::string& file) {
  std::string s = lower(file);
  auto dot = s.find('.');
  return dot == std::string::npos || dot == 0 ? s : s.substr(0, dot);
}

// Names longer than this (a hostile file name) are not compared.
constexpr std::size_t kLongest = 200;

// `p90_ttft_ms` and `p99_ttft_ms`, `bench_16384` and `bench_32768` name different quantities:
// names that differ only in their digits are not near misses of each other.
bool differ_only_in_digits(const std::string& a, const std::string& b) {
  std::string x, y;
  for (char c : a)
    if (!std::isdigit(static_cast<unsigned char>(c))) x += c;
  for (char c : b)
    if (!std::isdigit(static_cast<unsigned char>(c))) y += c;
  return x == y;
}

}  // namespace

std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates) {
  if (name.size() > kLongest) return "";
  const std::string folded = lower(name);
  std::string best;
  std::size_t best_d = SIZE_MAX;
  for (const auto& c : candidates) {
    if (c == name || c.size() > kLongest || differ_only_in_digits(c, name)) continue;
    std::size_t d = lower(c) == folded ? 0 : edit_distance(name, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best_d <= std::max<std::size_t>(1, name.size() / 3) ? best : "";
}

std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates) {
  std::string best = nearest_name(name, candidates);
  return best.empty() ? "" : fmt::format(" (did you mean '{}'?)", best);
}

std::vector<std::string> near_miss_files(const std::string& name, const std::vector<std::string>& candidates) {
  const std::string best = nearest_name(name, candidates);
  const std::string s = stem(name);
  std::vector<std::string> out;
  for (const auto& c : candidates)
    if (c != name && (c == best || (!s.empty() && stem(c) == s))) out.push_back(c);
  return out;
}

}  // namespace rubric
