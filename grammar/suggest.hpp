#pragma once
// "Did you mean": the near misses of a name among the names that exist, wherever a name is looked
// up (keywords in the parser, names in the checker, record keys, files, criterion ids, kernels).
// X3-free: the parser's diagnostics and the interpreter's messages share it.
#include <cstddef>
#include <string>
#include <vector>

namespace rubric {

// Optimal string alignment distance: Levenshtein plus adjacent transpositions.
std::size_t edit_distance(const std::string& a, const std::string& b);

// The closest candidate to `name`, or "" when none is close: differing only in letter case, or
// within max(1, len/3) edits, and never differing only in digits (`p90` is not a typo of `p99`).
std::string nearest_name(const std::string& name, const std::vector<std::string>& candidates);

// " (did you mean 'x'?)" for the nearest candidate, or "".
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);

// File names a user may have meant by `name` (`answer.md` for `ANSWER.txt`, `bench.jsonl` for
// `bench.json`): the nearest by name, the same name in another case, the same stem with another
// extension. In the candidates' order.
std::vector<std::string> near_miss_files(const std::string& name, const std::vector<std::string>& candidates);

}  // namespace rubric
