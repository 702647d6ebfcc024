#!/usr/bin/python3
"""Golden tests: runs `rubric` on every case under tests/golden/<feature>/ and compares its output
with <name>.expected.

A case is a .rubric file holding a `# exit: N` comment line; .rubric files without one are modules
the cases use. Directives (comment lines anywhere in the case):
  # exit: N             expected exit code
  # verb: check|lint    the command (default check)
  # submission: DIR     --submission, relative to the case's folder (check only)
  # args: ...           more arguments, split like a shell would
  # skip-if: gpu        skip the case on a machine with an NVIDIA device (its verdict would differ)
  # skip-if: no-nvcc    skip it where the CUDA compiler is missing (several: "gpu, no-nvcc")
The command runs in the case's folder with --no-color; the expected text is stdout, then
"--- stderr ---" and stderr when stderr is not empty.

usage: run_golden.py --rubric PATH [--update] [FEATURE_OR_CASE...]
  --update rewrites the .expected files from the current output (review the diff before committing).
"""
import argparse
import difflib
import os
import re
import shlex
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DIRECTIVE = re.compile(r"^\s*#\s*(exit|verb|submission|args|skip-if):\s*(.*?)\s*$")


def directives(path):
    found = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            m = DIRECTIVE.match(line)
            if m:
                found[m.group(1)] = m.group(2)
    return found


def find_cases(selectors):
    cases = []
    for root, _, files in os.walk(HERE):
        for name in sorted(files):
            if not name.endswith(".rubric"):
                continue
            path = os.path.join(root, name)
            if "exit" not in directives(path):
                continue
            rel = os.path.relpath(path, HERE)
            if selectors and not any(rel == s or rel.startswith(s.rstrip("/") + "/") or rel == s + ".rubric"
                                     for s in selectors):
                continue
            cases.append(path)
    return sorted(cases)


def has_gpu():
    return os.path.exists("/dev/nvidia0") or os.path.exists("/dev/nvidiactl")


def has_nvcc():
    return os.path.exists("/usr/local/cuda/bin/nvcc") or shutil.which("nvcc") is not None


def run_case(rubric_exe, path):
    d = directives(path)
    folder, name = os.path.split(path)
    verb = d.get("verb", "check")
    command = [rubric_exe, verb, name]
    if verb == "check":
        if "submission" in d:
            command += ["--submission", d["submission"]]
    command += ["--no-color"] + shlex.split(d.get("args", ""))
    env = {k: v for k, v in os.environ.items()
           if k not in ("RUBRIC_PATH", "NO_COLOR", "CLICOLOR_FORCE") and not k.startswith("RUBRIC_JUDGE_")}
    env["LC_ALL"] = "C.UTF-8"
    proc = subprocess.run(command, cwd=folder, env=env, stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    out = proc.stdout.decode("utf-8", errors="replace")
    err = proc.stderr.decode("utf-8", errors="replace")
    text = out + ("--- stderr ---\n" + err if err else "")
    return text, proc.returncode, int(d["exit"]), d


def main():
    parser = argparse.ArgumentParser(description="rubric golden tests")
    parser.add_argument("--rubric", required=True, help="the rubric executable")
    parser.add_argument("--update", action="store_true", help="rewrite the .expected files")
    parser.add_argument("selectors", nargs="*", help="feature folders or case paths relative to tests/golden")
    args = parser.parse_args()
    rubric_exe = os.path.abspath(args.rubric)

    cases = find_cases(args.selectors)
    if not cases:
        print("no golden cases matched", args.selectors)
        return 1
    failed, skipped = [], 0
    for path in cases:
        rel = os.path.relpath(path, HERE)
        d = directives(path)
        skip_if = {w.strip() for w in d.get("skip-if", "").split(",")}
        if "gpu" in skip_if and has_gpu():
            print(f"SKIP {rel} (an NVIDIA device is present)")
            skipped += 1
            continue
        if "no-nvcc" in skip_if and not has_nvcc():
            print(f"SKIP {rel} (no CUDA compiler)")
            skipped += 1
            continue
        text, code, want_code, _ = run_case(rubric_exe, path)
        expected_path = path[: -len(".rubric")] + ".expected"
        problems = []
        if code != want_code:
            problems.append(f"exit code {code}, expected {want_code}")
        if args.update:
            old = open(expected_path, encoding="utf-8").read() if os.path.exists(expected_path) else None
            if old != text:
                with open(expected_path, "w", encoding="utf-8") as f:
                    f.write(text)
                print(f"UPDATED {rel}")
        elif not os.path.exists(expected_path):
            problems.append(f"no {os.path.relpath(expected_path, HERE)} (run with --update, then review it)")
        else:
            expected = open(expected_path, encoding="utf-8").read()
            if expected != text:
                diff = difflib.unified_diff(expected.splitlines(True), text.splitlines(True),
                                            fromfile=os.path.relpath(expected_path, HERE), tofile="actual output")
                problems.append("report changed:\n" + "".join(diff))
        if problems:
            failed.append(rel)
            print(f"FAIL {rel}")
            for p in problems:
                print("  " + p.replace("\n", "\n  "))
            if code != want_code:
                print("  output was:\n    " + text.replace("\n", "\n    "))
        else:
            print(f"ok   {rel}")
    print(f"{len(cases) - len(failed) - skipped} passed, {len(failed)} failed, {skipped} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
