#include "interpreter/shrunk_files.hpp"

#include "operators/tensor/mapped_file.hpp"
#include "operators/tensor/tensor.hpp"

namespace rubric {

namespace {

Blame blame_of_file(const std::string& name) {
  return name.rfind("submission/", 0) == 0 ? Blame::submission : Blame::rubric;
}

// Tensors inside lists and records are looked for too, within a budget of values visited: this
// runs after every builtin call, and a list of a million numbers holds no tensor worth the scan.
void collect(const Value& v, int depth, int& budget, std::vector<const tensor::Tensor*>& out) {
  if (depth > 4 || --budget < 0) return;
  if (v.is(ValueKind::tensor)) {
    if (const auto& t = v.as_tensor(); t && t->mapped_file()) out.push_back(t.get());
  } else if (v.is(ValueKind::list)) {
    if (v.table_view()) return;  // records read from a file: no tensor among them
    for (const Value& x : v.as_list()) {
      if (budget <= 0) return;
      collect(x, depth + 1, budget, out);
    }
  } else if (v.is(ValueKind::record)) {
    for (const auto& field : v.as_record().fields) {
      if (budget <= 0) return;
      collect(field.second, depth + 1, budget, out);
    }
  }
}

}  // namespace

std::optional<ShrunkFile> shrunk_file(const std::vector<const Value*>& values) {
  std::vector<const tensor::Tensor*> mapped;
  int budget = 4096;
  for (const Value* v : values)
    if (v) collect(*v, 0, budget, mapped);
  std::optional<ShrunkFile> found;
  for (const tensor::Tensor* t : mapped) {
    try {
      tensor::require_intact(*t);
    } catch (const files::FileChanged& e) {
      ShrunkFile s = shrunk_file(e);
      if (s.blame != Blame::submission) return s;
      if (!found) found = s;
    }
  }
  return found;
}

ShrunkFile shrunk_file(const files::FileChanged& e) { return ShrunkFile{e.what(), blame_of_file(e.file)}; }

}  // namespace rubric
