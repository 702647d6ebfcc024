#!/usr/bin/python3
"""`rubric check` through the real CLI: the documented exit codes (0 PASS, 1 FAIL, 2 ERROR, 3
INCOMPLETE, 2 for a rubric that does not load and for usage errors), the same verdict in the text
and JSON reports, one bad check never hiding the others, and a JSON report with the load errors
when the rubric does not load.

usage: cli_verdicts.py PATH_TO_RUBRIC
"""
import json
import os
import subprocess
import sys
import tempfile

RUBRICS = {
    # name: (text, expected exit, expected verdict, {criterion: verdict})
    "pass": ('criterion a "a" { expect 1 < 2 }\n', 0, "PASS", {"a": "PASS"}),
    "fail": ('criterion a "a" { expect json(submission / "missing.json").x == 1 }\n'
             'criterion b "b" { expect 1 < 2 }\n', 1, "FAIL", {"a": "FAIL", "b": "PASS"}),
    # The rubric's error beside the candidate's failure: ERROR wins, every criterion is reported.
    "error": ('criterion a "a" { expect [1][4] == 1 }\n'
              'criterion b "b" { expect json(submission / "missing.json").x == 1 }\n'
              'criterion c "c" { expect 1 < 2 }\n', 2, "ERROR", {"a": "ERROR", "b": "FAIL", "c": "PASS"}),
    "incomplete": ('criterion a "a" needs gpu { expect device.available }\n'
                   'criterion b "b" { expect 1 < 2 }\n', 3, "INCOMPLETE", {"a": "SKIP", "b": "PASS"}),
}


def run(exe, args):
    env = {k: v for k, v in os.environ.items() if not k.startswith("RUBRIC_")}
    env["LC_ALL"] = "C.UTF-8"
    return subprocess.run([exe] + args, env=env, capture_output=True, stdin=subprocess.DEVNULL, timeout=120)


def main():
    exe = sys.argv[1]
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        sub = os.path.join(tmp, "sub")
        ref = os.path.join(tmp, "ref")
        os.makedirs(sub)
        os.makedirs(ref)
        have_gpu = os.path.exists("/dev/nvidia0")
        for name, (body, code, verdict, criteria) in RUBRICS.items():
            if name == "incomplete" and have_gpu:
                continue  # with a device the criterion runs
            path = os.path.join(tmp, name + ".rubric")
            with open(path, "w") as f:
                f.write(f'rubric "{name}" {{ version: "1" }}\n' + body)
            base = ["check", path, "--submission", sub, "--reference", ref]
            j = run(exe, base + ["--format", "json"])
            t = run(exe, base + ["--no-color"])
            if j.returncode != code or t.returncode != code:
                problems.append(f"{name}: exit {j.returncode} (json) / {t.returncode} (text), expected {code}")
            report = json.loads(j.stdout)
            got = {c["id"]: c["verdict"] for c in report["criteria"]}
            if report["verdict"] != verdict or got != criteria or report["exit_code"] != code:
                problems.append(f"{name}: JSON verdict {report['verdict']} {got}, expected {verdict} {criteria}")
            if f"verdict: {verdict}" not in t.stdout.decode():
                problems.append(f"{name}: the text report lacks 'verdict: {verdict}'")

        # A rubric that does not load (a unit error the checker sees): exit 2, the error on stderr with
        # file:line:col, and with --format json a report: ERROR, nothing evaluated, the error listed.
        bad = os.path.join(tmp, "bad.rubric")
        with open(bad, "w") as f:
            f.write('rubric "bad" { version: "1" }\ncriterion a "a" { expect 1 ms > 2 }\n')
        j = run(exe, ["check", bad, "--submission", sub, "--format", "json"])
        if j.returncode != 2 or "bad.rubric:2:" not in j.stderr.decode():
            problems.append(f"load error: exit {j.returncode}, stderr {j.stderr.decode()[:200]!r}")
        try:
            report = json.loads(j.stdout)
            errors = [d for d in report["warnings"] if d["severity"] == "error"]
            if report["verdict"] != "ERROR" or report["criteria"] or report["exit_code"] != 2 or not errors:
                problems.append(f"load error: JSON report {report['verdict']}, {len(report['criteria'])} criteria, {errors}")
            elif errors[0]["location"]["line"] != 2 or "dimension" not in errors[0]["message"]:
                problems.append(f"load error: the diagnostic {errors[0]} does not name the line and the fault")
        except ValueError:
            problems.append(f"load error: no JSON report on stdout: {j.stdout[:200]!r}")

        # Usage errors: exit 2 and a message naming what is wrong, nothing on stdout.
        for args, words in [(["check", bad], "--submission"),
                            (["check", bad, "--submission", os.path.join(tmp, "nowhere")], "does not exist"),
                            (["check", os.path.join(tmp, "none.rubric"), "--submission", sub], "cannot read rubric file"),
                            (["check", bad, "--submission", sub, "--format", "xml"], "unknown --format")]:
            p = run(exe, args)
            if p.returncode != 2 or words not in p.stderr.decode() or p.stdout:
                problems.append(f"usage {args[1:]}: exit {p.returncode}, stderr {p.stderr.decode()[:200]!r}")
    for p in problems:
        print("FAIL:", p)
    print(f"{len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
