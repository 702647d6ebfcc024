#pragma once
// What a criterion needs of the grading machine, found statically from what its builtins declare
// (Builtin::needs): one that uses GPU operators (a `cuda_fn` of a .cu source, `achieved`),
// directly or through the lets and defs it names,
// needs a GPU even where its author forgot `needs gpu`, so a machine without one SKIPs it
// instead of failing every student. One that asks the judge needs its endpoint (or cache).
#include <optional>
#include <string>

#include "grammar/ast.hpp"
#include "interpreter/modules.hpp"

namespace rubric {

class Registry;

// Why the criterion needs a GPU ("cuda_fn of transpose.cu", "achieved"), or nullopt when nothing
// in it (as far as names can be followed statically) uses one.
std::optional<std::string> gpu_use(const ast::Criterion& c, const Module& m, const Registry& registry);

// Whether the criterion asks the judge (`judge(...)`, directly or through its lets and defs): "judge"
// or nullopt. Grading it needs a judge endpoint, or a judge cache that holds its judgements.
std::optional<std::string> judge_use(const ast::Criterion& c, const Module& m, const Registry& registry);

}  // namespace rubric
