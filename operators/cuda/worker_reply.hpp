#pragma once
// What a reply from a worker that has loaded candidate code may claim. Candidate code runs in
// that process and can write to its channel or rewrite its memory, so nothing it says is taken as
// it stands: every field is parsed strictly (a malformed one is the candidate's failure), and the
// timing figures must fit what the grader's own clock saw of the request (docs/gpu.md).
#include <string>
#include <string_view>
#include <vector>

#include "operators/cuda/protocol.hpp"

namespace rubric::cuda {

// A reply field that is missing, not a number, not finite or out of range.
struct MalformedReply {
  std::string reason;
};

// A finite number in [lo, hi]; throws MalformedReply naming the field.
double reply_number(const Message& m, std::string_view key, double lo, double hi);
// A whole number in [lo, hi]; throws MalformedReply.
long long reply_count(const Message& m, std::string_view key, long long lo, long long hi);
// "s1,s2,...": each a finite positive number of seconds; throws MalformedReply.
std::vector<double> reply_seconds_list(const Message& m, std::string_view key);
// "libcublas.so.13,libz.so.1": shared-library file names (an absent field: none); at most 256,
// each a file name's usual characters; throws MalformedReply.
std::vector<std::string> reply_library_list(const Message& m, std::string_view key);

// The rules of the timing loop (worker/timing_loop.cpp) an honest reply obeys.
struct TimingRules {
  int min_samples = 10;
  double min_time_s = 0.5;
  double max_time_s = 15;
  long long max_samples = 1000000;
};

// What a `time` reply claims about its samples.
struct TimingClaim {
  std::vector<double> samples;  // kept samples, seconds
  long long escaped = 0, dropped_low_clock = 0;
  double elapsed_s = 0;         // the sample loop's wall time, by the worker's clock
  double first_call_s = 0;
};

// "" when the claim fits the rules and `grader_seconds` (the request's wall time by the grader's
// clock, from sending it to reading the reply); else why it cannot be true.
std::string timing_claim_problem(const TimingClaim& claim, const TimingRules& rules, double grader_seconds);

}  // namespace rubric::cuda
