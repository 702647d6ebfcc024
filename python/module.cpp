// rubric._engine: the engine as a Python extension. The package `rubric` (rubric/__init__.py)
// is the API; this module holds what must be native: loading, checking with the GIL released and
// Ctrl-C heard, values from Python without a copy, and the CLI verbs' library calls.
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "calibration/calibration.hpp"
#include "calibration/calibration_report.hpp"
#include "calibration/cases_file.hpp"
#include "grading/grade_run.hpp"
#include "interpreter/engine.hpp"
#include "operators/files/temp_owner.hpp"
#include "python/loaded_rubric.hpp"
#include "python/python_values.hpp"
#include "python/stoppable_run.hpp"
#include "report/report_format.hpp"
#include "report/text_report.hpp"
#include "operators/tool_version.hpp"

namespace py = pybind11;
namespace fs = std::filesystem;

namespace rubric::python {
namespace {

// rubric.RubricError, defined by the package (it carries the diagnostics as Python objects).
py::object& rubric_error_class() {
  static py::object* cls = new py::object();  // never destroyed: outlives the interpreter's teardown
  return *cls;
}

// What killed graders left under TMPDIR and /tmp goes, as the CLI's check, test and grade do at
// start (docs/processes.md): once per process before the first evaluation.
void sweep_stale_scratch_once() {
  static std::once_flag swept;
  std::call_once(swept, [] { files::sweep_stale_temp_dirs(files::owned_temp_bases()); });
}

py::dict diagnostic_dict(const Diagnostic& d) {
  py::dict out;
  out["severity"] = d.severity == Severity::error ? "error" : d.severity == Severity::warning ? "warning" : "note";
  std::string file;
  std::uint32_t line = 0, column = 0;
  if (d.source) {
    file = d.source->name();
    if (d.range.known()) {
      const LineColumn lc = d.source->position(d.range.begin);
      line = lc.line;
      column = lc.column;
    }
  }
  out["file"] = file;
  out["line"] = line;
  out["column"] = column;
  out["message"] = d.message;
  out["notes"] = d.notes;
  out["text"] = format_diagnostic(d);
  return out;
}

py::list diagnostic_list(const std::vector<Diagnostic>& ds) {
  py::list out;
  for (const Diagnostic& d : ds) out.append(diagnostic_dict(d));
  return out;
}

void require_file(const std::string& what, const std::string& path) {
  std::error_code ec;
  if (!fs::exists(path, ec)) throw py::value_error(fmt::format("{} '{}' does not exist", what, path));
  if (!fs::is_regular_file(path, ec)) throw py::value_error(fmt::format("{} '{}' is not a file", what, path));
}

void require_directory(const std::string& what, const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) throw py::value_error(fmt::format("{} folder '{}' does not exist", what, dir));
  if (!fs::is_directory(dir, ec)) throw py::value_error(fmt::format("{} '{}' is not a folder", what, dir));
}

std::map<std::string, Value> values_from_python(const py::dict& values, const char* what) {
  std::map<std::string, Value> out;
  for (const auto& [key, value] : values) {
    const std::string name = py::str(key).cast<std::string>();
    out.emplace(name, value_from_python(value, fmt::format("{} '{}'", what, name)));
  }
  return out;
}

// A report as the engine made it; the package's Report reads it through to_json().
struct ReportHandle {
  Report report;
  bool timed_out = false;

  std::string render(report::ReportFormat format, bool colour = false, bool verbose = false) const {
    report::TextOptions options;
    options.colour = colour;
    options.verbose = verbose;
    return report::render_report(report, format, options);
  }
};

// A ReportHandle method returning the report in one format.
auto rendered_as(report::ReportFormat format) {
  return [format](const ReportHandle& r) { return r.render(format); };
}

std::shared_ptr<ReportHandle> check(LoadedRubric& rubric, const std::string& submission, const std::string& reference,
                                    const std::map<std::string, std::string>& params, const py::dict& inputs,
                                    std::optional<double> timeout) {
  require_directory("submission", submission);
  if (!reference.empty()) require_directory("reference", reference);
  if (timeout && !(*timeout > 0)) throw py::value_error("timeout must be a positive number of seconds");
  std::map<std::string, Value> given = values_from_python(inputs, "input");
  for (const auto& [name, value] : given) {
    if (rubric.inputs().count(name)) continue;
    std::string declared;
    for (const auto& [known, v] : rubric.inputs()) declared += (declared.empty() ? "" : ", ") + known;
    throw py::value_error(fmt::format("input '{}' was not named when the rubric was loaded (load(..., inputs={{...}}) "
                                      "binds the names the rubric reads); named: {}",
                                      name, declared.empty() ? "none" : declared));
  }
  std::unique_ptr<LoadedRubric::Lease> lease;
  {
    py::gil_scoped_release nogil;
    lease = rubric.borrow(params);
  }
  for (const auto& [name, value] : given) lease->engine().bind(name, value);
  auto handle = std::make_shared<ReportHandle>();
  Engine& engine = lease->engine();
  const RunEnd end = run_stoppable([&] { handle->report = engine.check(submission, reference); }, lease->stop(), timeout);
  if (end == RunEnd::timed_out) {
    // Whatever a killed program left (a FAIL for its signal) is not the submission's doing.
    handle->timed_out = true;
    handle->report.verdict = OverallVerdict::error;
    handle->report.warnings.push_back(Diagnostic{
        Severity::error, nullptr, {},
        fmt::format("the check ran past its timeout of {} s and was stopped: the criteria still running or yet to run "
                    "are ERRORs",
                    *timeout),
        {}});
  }
  return handle;
}

py::list lint(const std::string& path, const std::vector<std::string>& include_dirs) {
  require_file("rubric file", path);
  std::vector<Diagnostic> diagnostics;
  {
    py::gil_scoped_release nogil;
    EngineOptions options;
    options.include_dirs = include_dirs;
    Engine engine(options);
    diagnostics = engine.load(path);
    for (Diagnostic& note : engine.needs_notes()) diagnostics.push_back(std::move(note));
    for (Diagnostic& note : engine.gpu_notes()) diagnostics.push_back(std::move(note));
  }
  return diagnostic_list(diagnostics);
}

py::tuple doc(const std::string& module, const std::vector<std::string>& include_dirs) {
  EngineOptions options;
  options.include_dirs = include_dirs;
  const Engine engine(options);
  bool found = true;
  std::string text = engine.doc(module, &found);
  return py::make_tuple(text, found);
}

int grade(const std::string& rubric, const std::vector<std::string>& submissions, const std::string& out,
          const std::string& reference, unsigned jobs, const std::map<std::string, std::string>& params,
          const std::vector<std::string>& include_dirs, std::optional<std::uint64_t> seed, double timeout, bool regrade,
          bool retry_errors, bool quiet) {
  require_file("rubric file", rubric);
  if (!reference.empty()) require_directory("reference", reference);
  if (submissions.empty()) throw py::value_error("no submission folders given");
  if (regrade && retry_errors) throw py::value_error("retry_errors and regrade contradict each other");
  if (timeout < 0) throw py::value_error("timeout must not be negative");
  grading::GradeSettings s;
  s.rubric = rubric;
  s.submissions = submissions;
  s.out_dir = out;
  s.reference = reference;
  s.jobs = jobs;
  s.set_params = params;
  s.include_dirs = include_dirs;
  s.seed = seed;
  s.timeout_seconds = timeout;
  s.regrade = regrade;
  s.retry_errors = retry_errors;
  s.quiet = quiet;
  s.tool_version = kToolVersion;
  // grade() takes SIGINT for its run (it stops the batch and returns 130) and gives it back after.
  py::gil_scoped_release nogil;
  sweep_stale_scratch_once();
  const int status = grading::grade(s);
  // Stopped: the grading processes it killed left their scratch folders, now stale.
  if (status > 128) files::sweep_stale_temp_dirs(files::owned_temp_bases());
  return status;
}

py::tuple calibrate(const std::string& rubric, std::string cases_path, const std::vector<std::string>& include_dirs,
                    const std::map<std::string, std::string>& params, std::optional<std::uint64_t> seed) {
  require_file("rubric file", rubric);
  if (cases_path.empty()) {
    const auto found = calibration::find_default_cases_file(rubric);
    if (!found) {
      const fs::path p(rubric);
      throw py::value_error(fmt::format("no cases given and no '{}' or '{}' beside the rubric",
                                        (p.parent_path() / (p.stem().string() + ".cases.json")).string(),
                                        (p.parent_path() / "cases.json").string()));
    }
    cases_path = *found;
  }
  calibration::CasesFile cases;
  try {
    cases = calibration::read_cases_file(cases_path);
  } catch (const calibration::CasesError& e) {
    throw py::value_error(e.what());
  }
  auto stop = std::make_unique<StopRequest>();
  EngineOptions options;
  options.include_dirs = include_dirs;
  options.set_params = params;
  options.seed = seed;
  options.stop = stop.get();
  Engine engine(options);
  std::vector<Diagnostic> diagnostics;
  {
    py::gil_scoped_release nogil;
    sweep_stale_scratch_once();
    diagnostics = engine.load(rubric);
  }
  if (has_errors(diagnostics)) throw LoadFailed{diagnostics};
  calibration::CalibrationResult result;
  std::optional<std::string> cases_error;
  run_stoppable(
      [&] {
        try {
          result = calibration::calibrate(engine, rubric, cases);
        } catch (const calibration::CasesError& e) {
          cases_error = e.what();
        }
      },
      *stop, std::nullopt);
  if (cases_error) throw py::value_error(*cases_error);
  return py::make_tuple(calibration::format_calibration_json(result), calibration::format_calibration_text(result, {}),
                        result.exit_code());
}

}  // namespace
}  // namespace rubric::python

PYBIND11_MODULE(_engine, m) {
  using namespace rubric;
  using namespace rubric::python;
  m.doc() = "The rubric engine (C++); use the `rubric` package, which wraps it.";
  m.attr("version") = kToolVersion;

  m.def("_set_rubric_error", [](py::object cls) { rubric_error_class() = std::move(cls); });
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const LoadFailed& failed) {
      std::string text;
      for (const Diagnostic& d : failed.diagnostics)
        if (d.severity == Severity::error) text += (text.empty() ? "" : "\n") + format_diagnostic(d);
      while (!text.empty() && text.back() == '\n') text.pop_back();
      py::object& cls = rubric_error_class();
      if (!cls) {
        PyErr_SetString(PyExc_RuntimeError, text.c_str());
        return;
      }
      py::object error = cls(text, diagnostic_list(failed.diagnostics));
      PyErr_SetObject(cls.ptr(), error.ptr());
    }
  });

  py::class_<ReportHandle, std::shared_ptr<ReportHandle>>(m, "ReportHandle")
      .def_property_readonly("verdict", [](const ReportHandle& r) { return overall_verdict_name(r.report.verdict); })
      .def_property_readonly("exit_code", [](const ReportHandle& r) { return exit_code(r.report.verdict); })
      .def_property_readonly("timed_out", [](const ReportHandle& r) { return r.timed_out; })
      .def("to_json", rendered_as(report::ReportFormat::json))
      .def("text", [](const ReportHandle& r, bool colour, bool verbose) { return r.render(report::ReportFormat::text, colour, verbose); },
           py::arg("colour") = false, py::arg("verbose") = false)
      .def("markdown", rendered_as(report::ReportFormat::markdown))
      .def("html", rendered_as(report::ReportFormat::html))
      .def("junit", rendered_as(report::ReportFormat::junit));

  py::class_<LoadedRubric, std::shared_ptr<LoadedRubric>>(m, "LoadedRubric")
      .def(py::init([](std::string path, std::vector<std::string> include_dirs, std::map<std::string, std::string> params,
                       const py::dict& inputs) {
             require_file("rubric file", path);
             std::map<std::string, Value> values = values_from_python(inputs, "input");
             py::gil_scoped_release nogil;
             sweep_stale_scratch_once();
             return std::make_shared<LoadedRubric>(std::move(path), std::move(include_dirs), std::move(params),
                                                   std::move(values));
           }),
           py::arg("path"), py::arg("include_dirs"), py::arg("params"), py::arg("inputs"))
      .def_property_readonly("path", &LoadedRubric::path)
      .def_property_readonly("diagnostics", [](const LoadedRubric& r) { return diagnostic_list(r.diagnostics()); })
      .def_property_readonly("input_names", [](const LoadedRubric& r) {
        std::vector<std::string> names;
        for (const auto& [name, value] : r.inputs()) names.push_back(name);
        return names;
      })
      .def("check", &check, py::arg("submission"), py::arg("reference"), py::arg("params"), py::arg("inputs"),
           py::arg("timeout"));

  m.def("lint", &lint, py::arg("path"), py::arg("include_dirs"));
  m.def("doc", &doc, py::arg("module"), py::arg("include_dirs"));
  m.def("grade", &grade, py::arg("rubric"), py::arg("submissions"), py::arg("out"), py::arg("reference"), py::arg("jobs"),
        py::arg("params"), py::arg("include_dirs"), py::arg("seed"), py::arg("timeout"), py::arg("regrade"),
        py::arg("retry_errors"), py::arg("quiet"));
  m.def("calibrate", &calibrate, py::arg("rubric"), py::arg("cases"), py::arg("include_dirs"), py::arg("params"),
        py::arg("seed"));
}
