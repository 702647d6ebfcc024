#!/usr/bin/env python3
"""promptfoo's verdicts (results.json of examples/promptfoo, graded by rubric_assert.py) against
`rubric grade` of the same outputs written as submission folders: the same verdict for each.

usage: compare_promptfoo.py RUBRIC_EXECUTABLE WORK_DIR
"""
import json
import pathlib
import subprocess
import sys

rubric, work = sys.argv[1], pathlib.Path(sys.argv[2])
results = json.loads((work / "results.json").read_text())["results"]["results"]
if len(results) != 9:
    sys.exit(f"FAIL: promptfoo graded {len(results)} outputs, expected 3 prompts × 3 tests")

answers = work / "answers"
by_folder = {}
for r in results:
    folder = answers / f"prompt{r['promptIdx']}_test{r['testIdx']}"
    folder.mkdir(parents=True)
    (folder / "answer.md").write_text(r["response"]["output"])
    by_folder[str(folder)] = r

grade = subprocess.run([rubric, "grade", str(work / "answer.rubric"), *sorted(by_folder), "--out", str(work / "graded"),
                        "--quiet"])
if grade.returncode != 0:
    sys.exit(f"FAIL: rubric grade exited {grade.returncode}")
lines = [json.loads(l) for l in (work / "graded" / "results.jsonl").read_text().splitlines()]
failures = 0
for line in lines:
    r = by_folder[line["submission"]]
    graded = r["gradingResult"]
    # promptfoo words a passing result itself; the assertion's own result is its component's.
    graded = (graded.get("componentResults") or [graded])[0]
    expected_reason = f"rubric {line['verdict']}"
    same = graded["pass"] == (line["verdict"] == "PASS") and graded["reason"].startswith(expected_reason)
    print(f"{'ok  ' if same else 'DIFF'} prompt {r['promptIdx']} test {r['testIdx']}: promptfoo "
          f"{'pass' if graded['pass'] else 'fail'} ({graded['reason']}), rubric grade {line['verdict']}")
    failures += not same
verdicts = {l["verdict"] for l in lines}
if len(lines) != 9 or failures or not {"PASS", "FAIL"} <= verdicts:
    sys.exit(f"FAIL: {failures} of {len(lines)} verdicts differ (verdicts seen: {sorted(verdicts)})")
print(f"promptfoo and rubric grade agree on all {len(lines)} outputs")
