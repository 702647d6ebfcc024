#!/usr/bin/env python3
"""`rubric check` on a tensor file that another process truncates after the grader has mapped it
and before it compares it (a candidate that found the original submission would do this).

The rubric loads out.npy and ref.npy, then runs a program that sleeps, then compares. The test
waits until the grader has the file mapped (/proc/PID/maps) and has started the program (a child
in /proc/PID/task/PID/children), truncates it while the program sleeps, and expects: the grader survives (no SIGBUS death), the comparison FAILs naming the
submission file (or is the rubric's ERROR for the reference file), nothing decided on zeros.

usage: shrinking_file_cli.py RUBRIC_BINARY
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

RUBRIC = """rubric "shrink" { version: "1.0" }
criterion numerics "the answer matches the reference" {
  let out = load(submission / "out.npy")
  let ref = load(reference / "ref.npy")
  expect out.shape == ref.shape
  expect run(["sleep", "3"]).exit == 0
  expect out matches ref
  expect rel_l2(out, ref) < 1e-6
}
"""

NPY_BYTES = 128 + 512 * 512 * 4


def running_program(pid):
    """Whether the grader has started the rubric's program (it has a child): its loads are done."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            return f.read().strip() != ""
    except OSError:
        return False


def mapped(pid, path):
    try:
        with open(f"/proc/{pid}/maps") as f:
            return any(line.rstrip().endswith(path) for line in f)
    except OSError:
        return False


def check_once(binary, shrink, expect_verdict, expect_text):
    with tempfile.TemporaryDirectory(prefix="rubric-shrink-") as base:
        os.mkdir(f"{base}/sub")
        os.mkdir(f"{base}/ref")
        data = np.arange(512 * 512, dtype=np.float32).reshape(512, 512)
        np.save(f"{base}/sub/out.npy", data)
        np.save(f"{base}/ref/ref.npy", data)
        with open(f"{base}/task.rubric", "w") as f:
            f.write(RUBRIC)
        target = os.path.realpath(f"{base}/{shrink}")
        proc = subprocess.Popen([binary, "check", f"{base}/task.rubric", "--submission", f"{base}/sub",
                                 "--reference", f"{base}/ref", "--format", "json"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 60
        # Truncate once the file is mapped and the program is running, so the loads before it have
        # finished: a cut during load() is a different case (the load itself reports the shrink).
        while not (mapped(proc.pid, target) and running_program(proc.pid)):
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                out, err = proc.communicate()
                sys.exit(f"FAIL: the grader never mapped {target}\n{out}\n{err}")
            time.sleep(0.005)
        os.truncate(target, 4096)
        out, err = proc.communicate(timeout=120)
        if proc.returncode < 0:
            sys.exit(f"FAIL: the grader died of signal {-proc.returncode}\n{err}")
        report = json.loads(out)
        checks = report["criteria"][0]["checks"]
        verdicts = [c["verdict"] for c in checks]
        if verdicts[:2] != ["PASS", "PASS"]:
            sys.exit(f"FAIL: the checks before the truncation should pass: {verdicts}\n{out}\n{err}")
        want = f"{expect_text} shrank while it was read ({NPY_BYTES} bytes mapped, 4096 now)"
        for c in checks[2:]:
            if c["verdict"] != expect_verdict or want not in c["explanation"]:
                sys.exit(f"FAIL: {c['source']}: {c['verdict']} {c['explanation']!r}, expected {expect_verdict} "
                         f"with {want!r}")
            if target in c["explanation"]:
                sys.exit(f"FAIL: the message names the file by where it lies: {c['explanation']!r}")
        expected_exit = 1 if expect_verdict == "FAIL" else 2
        if proc.returncode != expected_exit:
            sys.exit(f"FAIL: exit status {proc.returncode}, expected {expected_exit}\n{err}")
        print(f"ok: {shrink} truncated while mapped: {expect_verdict} {want}")


def main():
    binary = sys.argv[1]
    check_once(binary, "sub/out.npy", "FAIL", "submission/out.npy")
    check_once(binary, "ref/ref.npy", "ERROR", "reference/ref.npy")


if __name__ == "__main__":
    main()
