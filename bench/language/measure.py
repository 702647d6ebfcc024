#!/usr/bin/env python3
"""Times `rubric lint` and `rubric check` on a generated 2,000-criterion rubric: wall time and peak memory.

Usage: measure.py RUBRIC_BINARY [N]. The baseline is the same binary's `rubric --version` start-up,
measured in the same run, so the numbers separate the work from process start.
"""
import os
import resource
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def run(cmd, repeat=5):
    """Best wall time of `repeat` runs and the peak RSS (MiB) of the largest."""
    best, peak = float("inf"), 0.0
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        best = min(best, time.perf_counter() - t0)
        peak = max(peak, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024.0, before / 1024.0)
        if proc.returncode not in (0, 1, 3):
            sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[-2000:]}")
    return best, peak


def main():
    rubric = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, os.path.join(HERE, "gen_rubric.py"), tmp, str(n)], check=True)
        path = os.path.join(tmp, "generated.rubric")
        start, _ = run([rubric, "--version"])
        lint, lint_mem = run([rubric, "lint", path])
        check, check_mem = run([rubric, "check", path, "--submission", os.path.join(tmp, "submission"),
                                "--reference", os.path.join(tmp, "reference"),
                                "--format", "json", "--output", os.path.join(tmp, "report.json")])
    print(f"language: {n} criteria over {max(1, n // 20)} JSON file pairs (best of 5; peak RSS)")
    print(f"  start-up (rubric --version)  {start * 1e3:8.1f} ms")
    print(f"  rubric lint                  {lint * 1e3:8.1f} ms  {lint_mem:6.1f} MiB   target < 100 ms, < 100 MiB")
    print(f"  rubric check                 {check * 1e3:8.1f} ms  {check_mem:6.1f} MiB   target < 100 ms, < 100 MiB")
    print(f"  check / start-up ratio       {check / start:8.1f}x")


if __name__ == "__main__":
    main()
