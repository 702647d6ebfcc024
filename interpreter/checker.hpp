#pragma once
// The static checker (`rubric lint`): names (with "did you mean"), arity of builtins and defs,
// duplicate criterion ids, `after` order, unit dimensions wherever both sides are known, `expect`
// of a non-bool, `check` of a non-check def and calls of check defs outside `check`, and name
// clashes between modules used unqualified. Evaluates nothing and changes nothing: its result is
// the diagnostics.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "grammar/ast.hpp"
#include "grammar/diagnostic.hpp"
#include "interpreter/modules.hpp"
#include "interpreter/units.hpp"

namespace rubric {

class Registry;

struct StaticType {
  enum class Kind { unknown, null, boolean, number, string, list, record, path, function, samples };
  Kind kind = Kind::unknown;
  std::optional<Dimension> dim;  // number / samples, when known
  // A record built by a literal (here or in a def, `vllm_bench(p)`): its keys and their types.
  std::shared_ptr<const std::map<std::string, StaticType>> fields;
  // A list whose items are all of one known type (`[1 s, 2 s]`).
  std::shared_ptr<const StaticType> item;
  // Never a value: `error(...)`, or a def whose value is one (kind stays unknown). An `if` with such
  // a branch has the other branch's type (`if wrong_file(p) then error(...) else record(p)`).
  bool never = false;
};

// What a name refers to.
enum class NameKind { local, let, param, def, check_def, module_alias, builtin, binding, root };

struct CheckerResult {
  std::vector<Diagnostic> diagnostics;
};

CheckerResult check_program(const Program& program, const Registry& registry);

}  // namespace rubric
