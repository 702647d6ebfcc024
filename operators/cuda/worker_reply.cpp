#include "operators/cuda/worker_reply.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <numeric>

#include <fmt/format.h>

namespace rubric::cuda {

namespace {

// The grader's clock and the worker's tick differently and the reply takes time to arrive: a
// claim may exceed what the grader saw by this much before it is impossible.
constexpr double kClockSlack = 1.001;
constexpr double kClockSlackS = 0.002;

std::string shown(std::string_view text) {
  return text.size() > 60 ? std::string(text.substr(0, 60)) + "..." : std::string(text);
}

double parse_number(std::string_view key, std::string_view text) {
  std::string s(text);
  char* end = nullptr;
  errno = 0;
  double v = s.empty() ? NAN : std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || errno == ERANGE || !std::isfinite(v))
    throw MalformedReply{fmt::format("field '{}' = '{}' is not a finite number", key, shown(text))};
  return v;
}

}  // namespace

double reply_number(const Message& m, std::string_view key, double lo, double hi) {
  auto v = m.get(key);
  if (!v) throw MalformedReply{fmt::format("field '{}' is missing", key)};
  double x = parse_number(key, *v);
  if (x < lo || x > hi) throw MalformedReply{fmt::format("field '{}' = {:g} is outside [{:g}, {:g}]", key, x, lo, hi)};
  return x;
}

long long reply_count(const Message& m, std::string_view key, long long lo, long long hi) {
  double x = reply_number(m, key, static_cast<double>(lo), static_cast<double>(hi));
  if (x != std::floor(x)) throw MalformedReply{fmt::format("field '{}' = {:g} is not a whole number", key, x)};
  return static_cast<long long>(x);
}

std::vector<double> reply_seconds_list(const Message& m, std::string_view key) {
  auto v = m.get(key);
  if (!v) throw MalformedReply{fmt::format("field '{}' is missing", key)};
  std::vector<double> out;
  std::string_view text = *v;
  for (std::size_t start = 0; start < text.size();) {
    std::size_t comma = text.find(',', start);
    std::string_view part = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    double x = parse_number(key, part);
    if (!(x > 0)) throw MalformedReply{fmt::format("field '{}' holds {:g}, not a positive number of seconds", key, x)};
    out.push_back(x);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::vector<std::string> reply_library_list(const Message& m, std::string_view key) {
  std::vector<std::string> out;
  auto v = m.get(key);
  if (!v || v->empty()) return out;
  std::string_view text = *v;
  for (std::size_t start = 0; start <= text.size();) {
    std::size_t comma = text.find(',', start);
    std::string_view name = text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start);
    const bool plain = !name.empty() && name.size() <= 255 && std::all_of(name.begin(), name.end(), [](char c) {
      return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-' || c == '+' || c == '?';
    });
    if (!plain || out.size() == 256)
      throw MalformedReply{fmt::format("field '{}' is not a list of library file names", key)};
    out.emplace_back(name);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return out;
}

std::string timing_claim_problem(const TimingClaim& c, const TimingRules& rules, double grader_seconds) {
  const double seen = grader_seconds * kClockSlack + kClockSlackS;
  const double total = std::accumulate(c.samples.begin(), c.samples.end(), 0.0);
  const long long taken = static_cast<long long>(c.samples.size()) + c.escaped + c.dropped_low_clock;
  auto ms = [](double s) {
    return s >= 1 ? fmt::format("{:.3g} s", s) : s >= 1e-3 ? fmt::format("{:.3g} ms", s * 1e3) : fmt::format("{:.3g} µs", s * 1e6);
  };
  for (std::size_t i = 0; i < c.samples.size(); ++i)
    if (c.samples[i] > seen)
      return fmt::format("sample {} claims {}, longer than the {} the grader's clock saw the whole request take", i + 1,
                         ms(c.samples[i]), ms(grader_seconds));
  if (total > seen || c.elapsed_s > seen || c.first_call_s > seen)
    return fmt::format("the worker claims {} of samples ({} of sampling, a first call of {}) in a request the grader's "
                       "clock saw take {}", ms(total), ms(c.elapsed_s), ms(c.first_call_s), ms(grader_seconds));
  if (taken > rules.max_samples)
    return fmt::format("the worker claims {} samples taken, more than the loop's limit of {}", taken, rules.max_samples);
  // The loop stops only with enough samples and measured time, at its time limit, or at its sample
  // limit; whichever it claims must have happened.
  const bool enough = static_cast<long long>(c.samples.size()) >= rules.min_samples && total >= rules.min_time_s;
  const bool time_limit = grader_seconds >= rules.max_time_s;
  const bool sample_limit = taken >= rules.max_samples;
  if (!enough && !time_limit && !sample_limit)
    return fmt::format("the worker stopped after {} samples measuring {} in a request the grader's clock saw take {}: "
                       "the loop stops only after {} samples and {} of measured time, or after {:g} s",
                       c.samples.size(), ms(total), ms(grader_seconds), rules.min_samples, ms(rules.min_time_s),
                       rules.max_time_s);
  return {};
}

}  // namespace rubric::cuda
