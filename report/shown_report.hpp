#pragma once
// The report as every printer shows it. A Report's strings mix the tool's words with text from the
// submission, a candidate program or the rubric's data; a printer cannot tell them apart, so every
// printer starts from shown_report(), which passes every string of the model through display_text
// (report/display_text.hpp) and shows absolute paths of the grading machine relative to their roots.
// The pass names every field of every struct of the model (structured bindings), so a field added
// to the model is a compile error there until it is classified.
#include "interpreter/report_model.hpp"

namespace rubric::report {

// A Report whose strings are safe to print. Only shown_report() makes one.
class ShownReport {
 public:
  const Report& get() const { return report_; }
  const Report* operator->() const { return &report_; }

 private:
  explicit ShownReport(Report r) : report_(std::move(r)) {}
  friend ShownReport shown_report(const Report& report);
  Report report_;
};

// Every string escaped (one line, printable, capped); in evidence, explanations, messages, reasons,
// notes, titles, labels and warnings: `<submission dir>/x` shown as `submission/x`, the reference
// folder as `reference/`, a program's scratch directory (`$TMPDIR/rubric-run-XXXXXX/`) as `scratch/`.
// The provenance keeps its folders as given (they describe the grading run, not the submission).
ShownReport shown_report(const Report& report);

}  // namespace rubric::report
