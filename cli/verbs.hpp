#pragma once
// The `rubric` command's verbs (language.md §13). Each takes the arguments after its name and
// returns the process exit code: 0 success/PASS, 1 FAIL, 2 usage error/ERROR/unparsable rubric,
// 3 INCOMPLETE.
#include <string>
#include <vector>

namespace rubric::cli {

int run_check(const std::vector<std::string>& args);
int run_lint(const std::vector<std::string>& args);
int run_doc(const std::vector<std::string>& args);
int run_test(const std::vector<std::string>& args);
int run_grade(const std::vector<std::string>& args);
int run_merge(const std::vector<std::string>& args);
int run_review(const std::vector<std::string>& args);

}  // namespace rubric::cli
