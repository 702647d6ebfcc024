// A deterministic random-input driver for the parser: mutations of a seed corpus (byte flips,
// truncations, splices, line edits), random token soup and deep nesting. Every input must parse
// without crashing, throwing or hanging, with diagnostics that point inside the text.
//
//   grammar_fuzz [--count N] [--seed S] [--start I] [--time-limit-ms T] [--progress K] [--dump I] CORPUS_DIR...
//
// Input I is generated from (S, I) alone, so `--start I --count 1` or `--dump I` reproduces it.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <time.h>

#include "grammar/ast_print.hpp"
#include "grammar/parse.hpp"

namespace {

using Rng = std::mt19937_64;

// The per-input limit is on this thread's CPU time: a parse that blows up spends CPU, while a loaded
// machine (ctest -j on a busy host) only stretches the wall time of an ordinary one.
double thread_cpu_ms() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

const std::vector<std::string> tokens = {
    "rubric", "use", "import", "as", "param", "let", "def", "criterion", "group", "weight", "penalty",
    "required", "after", "needs", "expect", "else", "note", "score", "check", "for", "in", "if", "then",
    "and", "or", "not", "true", "false", "null", "within", "of", "matches", "to", "mentions", "any", "all",
    "rtol", "atol", "ulp", "gpu", "x", "ref", "out", "variance", "iffy", "f", "_a1", "std", ".", ",", ":",
    ";", "(", ")", "[", "]", "{", "}", "=", "==", "!=", "<", "<=", ">", ">=", "=>", "+", "-", "*", "/", "%",
    "1", "0.5", "1e-3", "2.5E+6", "32Ki", "5%", "1.5x", "12k", "5ms", "5 ms", "1.2 TB/s", "4 GiB",
    "150 tok/s", "\xC2\xB5s", "min", "h", "req", "FLOP", "\"s\"", "\"a{x}b\"", "\"{{\"", "\"\\n\\{\"",
    "r\"\\d{3}\"", "\"", "r\"", "{x}", "#", "## doc", "\n", "\n", " ", "\t", "\\", "\xFF", "\xC3\xA9",
    std::string(1, '\0'), "1e999", "9999999999999999999999", "..", "'", "@", "$", "?"};

const std::vector<std::pair<std::string, std::string>> nests = {
    {"(", ")"},         {"[", "]"},   {"{a: ", "}"},        {"- ", ""},         {"not ", ""},
    {"x => ", ""},      {"f(", ")"},  {"\"{", "}\""},       {"if a then b else ", ""},
    {"g(a = ", ")"},    {"(a, b) => ", ""}, {"xs[", "]"},   {"x as ms + ", ""}};
const std::vector<std::pair<std::string, std::string>> block_nests = {
    {"if a {\n", "}\n"}, {"for x in xs {\n", "}\n"}, {"if b { } else {\n", "}\n"}};

std::string random_bytes(Rng& rng, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += static_cast<char>(rng() & 0xFF);
  return s;
}

std::string token_soup(Rng& rng) {
  std::string s;
  std::size_t n = 1 + rng() % 80;
  for (std::size_t i = 0; i < n; ++i) {
    s += tokens[rng() % tokens.size()];
    if (rng() % 3 != 0) s += ' ';
  }
  return s;
}

std::string deep_nesting(Rng& rng) {
  std::size_t depth = 1 + rng() % (rng() % 4 == 0 ? 5000 : 400);
  bool statements = rng() % 3 == 0;
  std::string open, close;
  for (std::size_t i = 0; i < depth; ++i) {
    const auto& pair = statements ? block_nests[rng() % block_nests.size()] : nests[rng() % nests.size()];
    open += pair.first;
    close.insert(0, pair.second);
  }
  if (rng() % 4 == 0) close.resize(rng() % (close.size() + 1));  // unbalanced
  std::string inner = statements ? "expect 1\n" : "1";
  std::string body = open + inner + close;
  if (statements) return "criterion c \"t\" {\n" + body + "}\n";
  return rng() % 2 ? "param p = " + body + "\n" : "criterion c \"t\" { expect " + body + " }\n";
}

std::vector<std::string> split_lines(const std::string& s) {
  std::vector<std::string> lines;
  std::stringstream in(s);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string mutate(Rng& rng, const std::vector<std::string>& corpus) {
  std::string s = corpus[rng() % corpus.size()];
  int edits = 1 + static_cast<int>(rng() % 4);
  for (int e = 0; e < edits; ++e) {
    switch (rng() % 7) {
      case 0:  // byte flips
        for (int k = 0, n = 1 + static_cast<int>(rng() % 8); k < n && !s.empty(); ++k)
          s[rng() % s.size()] = static_cast<char>(rng() & 0xFF);
        break;
      case 1:  // truncation
        s.resize(s.empty() ? 0 : rng() % s.size());
        break;
      case 2: {  // splice a chunk of another file in
        const std::string& other = corpus[rng() % corpus.size()];
        if (other.empty()) break;
        std::size_t a = rng() % other.size(), len = rng() % std::min<std::size_t>(200, other.size() - a + 1);
        s.insert(s.empty() ? 0 : rng() % s.size(), other.substr(a, len));
        break;
      }
      case 3: {  // delete a range
        if (s.empty()) break;
        std::size_t a = rng() % s.size();
        s.erase(a, rng() % 40);
        break;
      }
      case 4: {  // insert tokens
        std::string t = tokens[rng() % tokens.size()];
        s.insert(s.empty() ? 0 : rng() % s.size(), t);
        break;
      }
      case 5: {  // duplicate, drop or swap lines
        auto lines = split_lines(s);
        if (lines.empty()) break;
        std::size_t i = rng() % lines.size(), j = rng() % lines.size();
        int op = static_cast<int>(rng() % 3);
        if (op == 0) lines.insert(lines.begin() + static_cast<long>(i), lines[j]);
        if (op == 1) lines.erase(lines.begin() + static_cast<long>(i));
        if (op == 2) std::swap(lines[i], lines[j]);
        s.clear();
        for (const auto& l : lines) s += l + "\n";
        break;
      }
      case 6:  // random bytes
        s.insert(s.empty() ? 0 : rng() % s.size(), random_bytes(rng, 1 + rng() % 16));
        break;
    }
  }
  return s;
}

std::string generate(std::uint64_t seed, std::uint64_t index, const std::vector<std::string>& corpus) {
  Rng rng(seed * 0x9E3779B97F4A7C15ull + index);
  switch (rng() % 10) {
    case 0:
    case 1: return token_soup(rng);
    case 2: return deep_nesting(rng);
    case 3: return random_bytes(rng, rng() % 256);
    default: return mutate(rng, corpus);
  }
}

// Problems found in one input; empty when it is fine.
std::string check_result(const std::string& text, const rubric::ParseResult& r) {
  if (!r.file) return "ParseResult.file is null";
  std::size_t errors = 0;
  for (const auto& d : r.diagnostics) {
    if (d.severity == rubric::Severity::error) ++errors;
    if (d.range.begin > text.size() || d.range.end > text.size() || d.range.end < d.range.begin)
      return fmt::format("diagnostic range {}..{} outside the text of {} bytes", d.range.begin, d.range.end, text.size());
    if (d.message.empty()) return "empty diagnostic message";
  }
  if (errors > 20) return fmt::format("{} errors reported (at most 20)", errors);
  (void)rubric::format_diagnostics(r.diagnostics, true);
  (void)rubric::ast::to_sexpr(*r.file);
  return {};
}

std::string check_expression(const std::string& text, const rubric::ExpressionParseResult& r) {
  if (!r.expr && r.diagnostics.empty()) return "expression: neither a value nor a diagnostic";
  if (r.expr && (r.expr->range.end > text.size())) return "expression range outside the text";
  if (r.expr) (void)rubric::ast::to_sexpr(*r.expr);
  return {};
}

struct Options {
  std::uint64_t count = 20000;
  std::uint64_t seed = 1;
  std::uint64_t start = 0;
  double time_limit_ms = 2000;
  long dump = -1;
  std::uint64_t progress = 0;  // print a line every `progress` inputs (0: never)
  std::vector<std::string> corpus_dirs;
};

Options parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "grammar_fuzz: %s needs a value\n", a.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--count") o.count = std::stoull(next());
    else if (a == "--seed") o.seed = std::stoull(next());
    else if (a == "--start") o.start = std::stoull(next());
    else if (a == "--time-limit-ms") o.time_limit_ms = std::stod(next());
    else if (a == "--dump") o.dump = std::stol(next());
    else if (a == "--progress") o.progress = std::stoull(next());
    else o.corpus_dirs.push_back(a);
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt = parse_options(argc, argv);
  std::vector<std::string> corpus;
  for (const std::string& dir : opt.corpus_dirs) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      if (entry.path().extension() != ".rubric") continue;
      std::ifstream in(entry.path(), std::ios::binary);
      std::stringstream buf;
      buf << in.rdbuf();
      corpus.push_back(buf.str());
    }
    if (ec) {
      std::fprintf(stderr, "grammar_fuzz: cannot read corpus folder %s: %s\n", dir.c_str(), ec.message().c_str());
      return 2;
    }
  }
  if (corpus.empty()) {
    std::fprintf(stderr, "grammar_fuzz: no .rubric files in the corpus folders given\n");
    return 2;
  }
  if (opt.dump >= 0) {
    std::string text = generate(opt.seed, static_cast<std::uint64_t>(opt.dump), corpus);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }

  // A watchdog: an input running ten times past the limit is a hang; say which and abort.
  std::atomic<std::uint64_t> current{opt.start};
  std::atomic<bool> done{false};
  std::mutex m;
  std::condition_variable cv;
  std::thread watchdog([&] {
    std::uint64_t seen = current.load();
    auto hang_after = std::chrono::milliseconds(static_cast<long>(opt.time_limit_ms * 10) + 1000);
    std::unique_lock<std::mutex> lock(m);
    while (!cv.wait_for(lock, hang_after, [&] { return done.load(); })) {
      std::uint64_t now = current.load();
      if (now == seen) {
        std::fprintf(stderr, "grammar_fuzz: HANG on input %llu (seed %llu): reproduce with --start %llu --count 1\n",
                     static_cast<unsigned long long>(now), static_cast<unsigned long long>(opt.seed),
                     static_cast<unsigned long long>(now));
        std::abort();
      }
      seen = now;
    }
  });

  auto run_start = std::chrono::steady_clock::now();
  std::uint64_t with_errors = 0, slowest_index = 0, failures = 0;
  double slowest_ms = 0;
  std::size_t bytes = 0;
  for (std::uint64_t i = opt.start; i < opt.start + opt.count; ++i) {
    current = i;
    std::string text = generate(opt.seed, i, corpus);
    bytes += text.size();
    const double t0 = thread_cpu_ms();
    std::string problem;
    try {
      auto source = std::make_shared<const rubric::SourceFile>(fmt::format("fuzz{}.rubric", i), text);
      rubric::ParseResult r = rubric::parse_file(source);
      problem = check_result(text, r);
      if (!r.ok()) ++with_errors;
      if (problem.empty() && i % 4 == 0) problem = check_expression(text, rubric::parse_expression(source));
    } catch (const std::exception& e) {
      problem = fmt::format("exception escaped the parser: {}", e.what());
    } catch (...) {
      problem = "unknown exception escaped the parser";
    }
    double ms = thread_cpu_ms() - t0;
    if (ms > slowest_ms) {
      slowest_ms = ms;
      slowest_index = i;
    }
    if (ms > opt.time_limit_ms) problem = fmt::format("took {:.1f} ms of CPU time (limit {} ms)", ms, opt.time_limit_ms);
    if (opt.progress && (i - opt.start + 1) % opt.progress == 0) {
      std::printf("grammar_fuzz: %llu inputs done, %.1f s\n", static_cast<unsigned long long>(i - opt.start + 1),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count());
      std::fflush(stdout);
    }
    if (!problem.empty()) {
      ++failures;
      std::fprintf(stderr, "grammar_fuzz: input %llu: %s (reproduce: --start %llu --count 1; --dump %llu)\n",
                   static_cast<unsigned long long>(i), problem.c_str(), static_cast<unsigned long long>(i),
                   static_cast<unsigned long long>(i));
      if (failures >= 10) break;
    }
  }
  {
    std::lock_guard<std::mutex> lock(m);
    done = true;
  }
  cv.notify_all();
  watchdog.join();
  double total_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - run_start).count();
  std::printf("grammar_fuzz: %llu inputs (%zu corpus files, seed %llu, %.1f MiB) in %.1f s; %llu with syntax errors; "
              "slowest %.2f ms (input %llu); %llu failures\n",
              static_cast<unsigned long long>(opt.count), corpus.size(), static_cast<unsigned long long>(opt.seed),
              static_cast<double>(bytes) / (1024.0 * 1024.0), total_s, static_cast<unsigned long long>(with_errors),
              slowest_ms, static_cast<unsigned long long>(slowest_index), static_cast<unsigned long long>(failures));
  return failures == 0 ? 0 : 1;
}
