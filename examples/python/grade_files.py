#!/usr/bin/env python3
"""The command line's `check` and `grade` from Python, on examples/kv_cache: one report with its
evidence, then the whole folder of submissions graded into an out folder.

usage: grade_files.py [OUT_DIR]   (PYTHONPATH holding the rubric package)
"""
import pathlib
import sys

import rubric

KV = pathlib.Path(__file__).resolve().parent.parent / "kv_cache"


def main():
    r = rubric.load(KV / "kv_cache.rubric", params={"context": rubric.literal("32Ki")})
    report = r.check(KV / "submissions" / "regressed", KV / "reference")
    print(f"regressed: {report.verdict}, score {report.score:.0%}")
    for c in report.criteria:
        print(f"  [{c.verdict}] {c.id}: {c.title}")
        for check in c.checks:
            if check.verdict != "PASS":
                print(f"      {check.source}")
                for line in check.evidence:
                    print(f"        {line}")
    out = sys.argv[1] if len(sys.argv) > 1 else "rubric-results"
    summary = rubric.grade(r, sorted((KV / "submissions").iterdir()), out, reference=KV / "reference")
    print("grade:", ", ".join(f"{n} {v}" for v, n in summary["verdicts"].items()))


if __name__ == "__main__":
    main()
