#pragma once
// Hand-made reports shaped like what the evaluator produces, for testing the printers alone.
#include "interpreter/report_model.hpp"

namespace rubric::test {

// The KV-cache example of language.md §2: numerics PASS (required), throughput FAIL,
// a group with a SKIPped GPU criterion and an ERRORed one, a failed penalty criterion.
Report kv_cache_report();

// One criterion with one check; everything else default.
Report single_check_report(Verdict check_verdict, OverallVerdict overall);

CheckResult make_check(std::string source, Verdict v, std::uint32_t line, std::vector<std::string> evidence = {},
                       std::string explanation = {}, std::string message = {});

}  // namespace rubric::test
