#pragma once
// The one walk over a rubric's criteria and groups: whatever lists, counts, selects, notes or
// documents them (the engine's notes and --only ids, the evaluator's --only selection and
// progress total, the checker's ids, `rubric doc`) goes through it, so a new kind of item is
// taught to one place.
#include <memory>
#include <variant>

#include "grammar/ast.hpp"

namespace rubric::ast {

// Depth first in source order over `items` (a File's or a Group's): on_group(group, depth) before
// the group's own items, on_criterion(criterion, depth) for each criterion; depth 0 at `items`.
template <class Items, class OnCriterion, class OnGroup>
void walk_criteria(const Items& items, OnCriterion&& on_criterion, OnGroup&& on_group, int depth = 0) {
  for (const auto& item : items) {
    if (const auto* c = std::get_if<Criterion>(&item)) {
      on_criterion(*c, depth);
    } else if (const auto* g = std::get_if<std::shared_ptr<const Group>>(&item)) {
      on_group(**g, depth);
      walk_criteria((*g)->items, on_criterion, on_group, depth + 1);
    }
  }
}

// Every criterion among `items` and in the groups among them, in source order.
template <class Items, class OnCriterion>
void for_each_criterion(const Items& items, OnCriterion&& on_criterion) {
  walk_criteria(items, [&](const Criterion& c, int) { on_criterion(c); }, [](const Group&, int) {});
}

}  // namespace rubric::ast
