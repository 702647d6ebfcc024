#include "interpreter/engine.hpp"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <functional>
#include <set>
#include <string_view>

#include "grammar/ast_walk.hpp"
#include "grammar/parse.hpp"
#include "grammar/suggest.hpp"
#include "interpreter/builtins/registry.hpp"
#include "interpreter/checker.hpp"
#include "interpreter/evaluator.hpp"
#include "interpreter/needs.hpp"
#include "interpreter/literal.hpp"
#include "interpreter/modules.hpp"
#include "interpreter/paths.hpp"
#include "operators/machine/grading_machine.hpp"
#include "operators/tool_version.hpp"

namespace rubric {

struct Engine::Impl {
  EngineOptions options;
  Registry registry;
  std::unique_ptr<Program> program;
  std::map<std::string, ast::ExprPtr> overrides;
  std::vector<SourcePtr> override_sources;
  bool loadable = false;
  std::string rubric_path;  // as given to load()
  std::vector<Diagnostic> load_diagnostics;
};

void StopRequest::request(const std::string& reason) {
  int none = 0;
  if (!state_.compare_exchange_strong(none, 1)) return;
  reason_ = reason;
  state_.store(2, std::memory_order_release);
}

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>()) {
  impl_->options = std::move(options);
  open_core(impl_->registry, impl_->options.judge);
}

Engine::~Engine() = default;

const EngineOptions& Engine::options() const { return impl_->options; }
Engine::Engine(Engine&&) noexcept = default;
Engine& Engine::operator=(Engine&&) noexcept = default;

Registry& Engine::registry() { return impl_->registry; }

void Engine::register_operator(HostOperator op) {
  Builtin b;
  b.name = op.name;
  b.doc = op.doc;
  b.family = "host";
  for (const auto& p : op.params) {
    auto eq = p.find('=');
    std::string name = p.substr(0, eq);
    while (!name.empty() && name.back() == ' ') name.pop_back();
    if (name.size() > 3 && name.compare(name.size() - 3, 3, "...") == 0) {
      b.variadic = true;
      continue;
    }
    ParamSpec spec{name, std::nullopt};
    if (eq != std::string::npos) {
      std::string why;
      auto v = parse_literal(p.substr(eq + 1), &why);
      if (!v) throw std::invalid_argument(fmt::format("operator '{}': default of '{}' is not a literal: {}", op.name, name, why));
      spec.default_value = *v;
    }
    b.params.push_back(std::move(spec));
  }
  b.fn = std::move(op.fn);
  impl_->registry.add(std::move(b));
}

namespace {

// Every criterion and group id of the file, in order.
std::vector<std::string> criterion_ids(const ast::File& file) {
  std::vector<std::string> ids;
  ast::walk_criteria(
      file.items, [&](const ast::Criterion& c, int) { ids.push_back(c.id.name); },
      [&](const ast::Group& g, int) { ids.push_back(g.id.name); });
  return ids;
}

}  // namespace

void Engine::bind(const std::string& name, Value value) { impl_->registry.bind(name, std::move(value)); }

std::vector<Diagnostic> Engine::load(const std::string& rubric_path) {
  impl_->rubric_path = rubric_path;  // for the report of a rubric that cannot be read
  SourcePtr src;
  try {
    src = SourceFile::read(rubric_path);
  } catch (const std::exception& e) {
    impl_->loadable = false;
    impl_->program.reset();
    impl_->load_diagnostics = {Diagnostic{Severity::error, nullptr, {}, e.what(), {}}};
    return impl_->load_diagnostics;
  }
  return load_source(src);
}

std::vector<Diagnostic> Engine::load_source(SourcePtr source) {
  impl_->rubric_path = source->name();
  impl_->program = std::make_unique<Program>(load_program(source, module_search(impl_->options.include_dirs)));
  std::vector<Diagnostic> diags = impl_->program->diagnostics;
  impl_->overrides.clear();
  impl_->override_sources.clear();

  // --set NAME=VALUE: a rubric literal for a param of the rubric itself.
  const Module* root = impl_->program->root;
  for (const auto& [name, text] : impl_->options.set_params) {
    auto it = root && root->file ? root->decls.find(name) : decltype(root->decls.end()){};
    if (!root || !root->file || it == root->decls.end() || it->second.kind != Decl::Kind::param) {
      std::string params;
      if (root)
        for (const auto& d : root->decls)
          if (d.second.kind == Decl::Kind::param) params += (params.empty() ? "" : ", ") + d.first;
      diags.push_back(Diagnostic{Severity::error, nullptr, {}, fmt::format("--set {}: the rubric has no param '{}'", name, name),
                                 {params.empty() ? std::string("it declares no params") : "params: " + params}});
      continue;
    }
    auto src = std::make_shared<const SourceFile>(fmt::format("--set {}", name), text);
    ExpressionParseResult r = parse_expression(src);
    std::string why;
    if (!r.expr || !literal_value(*r.expr, &why)) {
      Diagnostic d{Severity::error, src, {}, fmt::format("--set {}={}: the value must be a rubric literal (16Ki, 5 ms, \"x\", [1, 2])", name, text), {}};
      if (!r.diagnostics.empty()) d.notes.push_back(r.diagnostics.front().message);
      else if (!why.empty()) d.notes.push_back(why);
      diags.push_back(std::move(d));
      continue;
    }
    impl_->override_sources.push_back(src);
    impl_->overrides[name] = r.expr;
  }

  // --only ID: an id the rubric lacks is a usage error, with the nearest id it has.
  if (root && root->file && !impl_->options.only.empty()) {
    const std::vector<std::string> ids = criterion_ids(*root->file);
    for (const std::string& id : impl_->options.only) {
      if (std::find(ids.begin(), ids.end(), id) != ids.end()) continue;
      std::string best = nearest_name(id, ids);
      std::string listed;
      for (const auto& known : ids) listed += (listed.empty() ? "" : ", ") + known;
      diags.push_back(Diagnostic{Severity::error, nullptr, {}, fmt::format("--only {}: the rubric has no criterion or group '{}'", id, id),
                                 {best.empty() ? (ids.empty() ? std::string("it has no criteria") : "ids: " + listed)
                                               : fmt::format("did you mean '{}'?", best)}});
    }
  }

  if (!has_errors(diags) && root && root->file) {
    CheckerResult checked = check_program(*impl_->program, impl_->registry);
    for (auto& d : checked.diagnostics) diags.push_back(std::move(d));
    // Criteria that use the GPU without saying so are treated as `needs gpu`; lint says which.
    ast::for_each_criterion(root->file->items, [&](const ast::Criterion& c) {
      for (const auto& n : c.needs)
        if (n.name == "gpu") return;
      if (auto why = gpu_use(c, *root, impl_->registry))
        diags.push_back(Diagnostic{Severity::note, root->file->source, c.id.range,
                                   fmt::format("criterion '{}' uses the GPU ({}) without `needs gpu`: it is treated as "
                                               "`needs gpu`, so a machine without a usable CUDA device skips it (unless a source it "
                                               "compiles does not build: that FAILs everywhere)",
                                               c.id.name, *why),
                                   {}});
    });
  }
  impl_->loadable = root && root->file && !has_errors(diags);
  impl_->load_diagnostics = diags;
  return diags;
}

std::vector<Diagnostic> Engine::needs_notes() const {
  std::vector<Diagnostic> notes;
  if (!impl_->program || !impl_->loadable) return notes;
  const Module* root = impl_->program->root;
  ast::for_each_criterion(root->file->items, [&](const ast::Criterion& c) {
    if (judge_use(c, *root, impl_->registry))
      notes.push_back(Diagnostic{Severity::note, root->file->source, c.id.range,
                                 fmt::format("criterion '{}' asks a judge: grading it needs a judge endpoint (--judge-url and "
                                             "--judge-model, or RUBRIC_JUDGE_URL and RUBRIC_JUDGE_MODEL), or a judge cache "
                                             "that holds its judgements",
                                             c.id.name),
                                 {}});
  });
  return notes;
}

std::vector<Diagnostic> Engine::gpu_notes() const {
  std::vector<Diagnostic> notes;
  if (!impl_->program || !impl_->loadable) return notes;
  const Module* root = impl_->program->root;
  ast::for_each_criterion(root->file->items, [&](const ast::Criterion& c) {
    for (const auto& n : c.needs)
      if (n.name == "gpu")
        notes.push_back(Diagnostic{Severity::note, root->file->source, c.id.range,
                                   fmt::format("criterion '{}' needs gpu: a machine without a usable CUDA device skips it "
                                               "(SKIP with the device's reason, not scored, and the criteria after it skipped "
                                               "too; a source that does not build still FAILs), so the rubric is INCOMPLETE "
                                               "there unless something else fails",
                                               c.id.name),
                                   {}});
  });
  return notes;
}

namespace {

// The tool, the host and the compiler: in every report, the ones that end early included.
void describe_grading_machine(Provenance& p) {
  p.tool_version = kToolVersion;
  p.host = machine::describe_host();
  p.compiler = machine::describe_compiler();
}

std::string absolute_dir(const std::string& dir) {
  return dir.empty() ? dir : std::filesystem::absolute(dir).lexically_normal().string();
}

}  // namespace

Report Engine::check(const std::string& submission_dir, const std::string& reference_dir) {
  Report report = evaluate(submission_dir, reference_dir);
  describe_grading_machine(report.provenance);
  return report;
}

Report Engine::evaluate(const std::string& submission_dir, const std::string& reference_dir) {
  if (!impl_->program || !impl_->loadable) {
    // Nothing evaluated: the rubric's ERROR, with its load diagnostics as the report's warnings.
    Report report;
    report.verdict = OverallVerdict::error;
    report.warnings = impl_->load_diagnostics;
    if (report.warnings.empty())
      report.warnings.push_back(Diagnostic{Severity::error, nullptr, {}, "no rubric is loaded (or it did not pass the checker)", {}});
    report.provenance.rubric_file = impl_->rubric_path;
    report.provenance.submission_dir = absolute_dir(submission_dir);
    report.provenance.reference_dir = absolute_dir(reference_dir);
    return report;
  }
  const Module* root = impl_->program->root;
  if (!root->file->header) {
    // A file without a header is a module: it declares checks but no criteria to grade.
    Report report;
    report.verdict = OverallVerdict::error;
    report.warnings.push_back(Diagnostic{Severity::error, root->file->source, {},
                                         "this file has no `rubric \"title\" { ... }` header: it is a module, and "
                                         "`rubric check` needs a rubric file",
                                         {}});
    return report;
  }
  std::string ref = reference_dir;
  if (ref.empty()) {
    const std::string& p = root->path;
    auto slash = p.rfind('/');
    ref = slash == std::string::npos ? "." : p.substr(0, slash == 0 ? 1 : slash);
  }
  EvalSettings settings{impl_->options, make_root("submission", submission_dir).root_dir, make_root("reference", ref).root_dir,
                        nullptr, impl_->overrides};
  if (reference_dir.empty())
    settings.reference_origin = std::make_shared<const std::string>("`reference` is the rubric's own folder, as no --reference was given");
  Evaluator ev(*impl_->program, impl_->registry, std::move(settings));
  Report report = ev.run();
  report.provenance.rubric_file = root->path;
  report.provenance.rubric_digest = root->digest;
  // Rubric sources and modules read from disk belong to the provenance too.
  const std::vector<FileRecord> sources = this->sources();
  report.provenance.files.insert(report.provenance.files.begin(), sources.begin(), sources.end());
  // The load's warnings lead the evaluation's, in the order a reader meets them: by file, then line.
  std::vector<Diagnostic> load_warnings;
  for (const Diagnostic& d : impl_->load_diagnostics)
    if (d.severity == Severity::warning) load_warnings.push_back(d);
  std::stable_sort(load_warnings.begin(), load_warnings.end(), [](const Diagnostic& a, const Diagnostic& b) {
    const std::string_view fa = a.source ? std::string_view(a.source->name()) : std::string_view();
    const std::string_view fb = b.source ? std::string_view(b.source->name()) : std::string_view();
    return fa != fb ? fa < fb : a.range.begin < b.range.begin;
  });
  report.warnings.insert(report.warnings.begin(), load_warnings.begin(), load_warnings.end());
  if (const Value* dev = impl_->registry.evaluated_binding("device"); dev && dev->is(ValueKind::record))
    for (const auto& f : dev->as_record().fields) report.provenance.device[f.first] = f.second.to_string();
  report.provenance.cuda = machine::cuda_versions(report.provenance.device);
  return report;
}

std::vector<FileRecord> Engine::sources() const {
  std::vector<FileRecord> sources;
  if (!impl_->program) return sources;
  for (const auto& m : impl_->program->modules) {
    if (m->is_stdlib || !m->file || !m->file->source) continue;
    sources.push_back(FileRecord{m->path, "rubric", m->digest, m->file->source->text().size()});
  }
  return sources;
}

}  // namespace rubric
