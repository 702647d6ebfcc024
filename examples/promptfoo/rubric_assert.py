"""A promptfoo assertion (`type: python`, `value: file://rubric_assert.py`) that grades each model
output with answer.rubric through the `rubric` module, in the process promptfoo starts for it."""
import pathlib
import tempfile

import rubric

HERE = pathlib.Path(__file__).resolve().parent
RUBRIC = rubric.load(HERE / "answer.rubric")  # parsed and checked once per process


def get_assert(output, context):
    # The rubric reads the answer from a submission folder, as `rubric grade` does.
    with tempfile.TemporaryDirectory(prefix="promptfoo-answer-") as folder:
        (pathlib.Path(folder) / "answer.md").write_text(output)
        report = RUBRIC.check(folder)
    failed = [f"{c.id}: {c.checks[0].message or c.checks[0].explanation}"
              for c in report.criteria if c.verdict != "PASS" and c.checks]
    return {
        "pass": report.verdict == "PASS",
        "score": report.score or 0.0,
        "reason": f"rubric {report.verdict}" + (" — " + "; ".join(failed) if failed else ""),
    }
