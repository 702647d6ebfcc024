#!/usr/bin/env python3
"""Per-call overhead of `Rubric.check` in this process against `rubric check` as a process, on the
same small rubric and submission, in the same run; and the same rubric fed from memory (a numpy
array and a dict as inputs, no files).

usage: measure.py RUBRIC_EXECUTABLE BUILD_PYTHON_DIR [CALLS]
"""
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

sys.path.insert(0, sys.argv[2])
import numpy as np  # noqa: E402

import rubric  # noqa: E402

RUBRIC = sys.argv[1]
CALLS = int(sys.argv[3]) if len(sys.argv) > 3 else 200

FILES_RUBRIC = """
rubric "Small" { version: "1.0", pass: 70% }
let m = json(submission / "metrics.json")
criterion throughput "throughput within 5% of 1000 tok/s" weight 2 {
  expect m.throughput >= 950
}
criterion numerics "output matches the reference to 1e-3" weight 3 {
  expect load(submission / "out.npy") matches load(reference / "ref.npy") to 1e-3
}
criterion answer "names the cause" {
  expect text(submission / "answer.md") affirms "recency"
}
"""
MEMORY_RUBRIC = """
rubric "Small, in memory" { version: "1.0", pass: 70% }
criterion throughput "throughput within 5% of 1000 tok/s" weight 2 {
  expect metrics.throughput >= 950
}
criterion numerics "output matches the reference to 1e-3" weight 3 {
  expect output matches expected to 1e-3
}
criterion answer "names the cause" {
  expect answer affirms "recency"
}
"""


def timed(fn, calls):
    fn()  # warm: page cache, first-use initialisation
    samples = []
    for _ in range(calls):
        start = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1e3, statistics.quantiles(samples, n=10)[-1] * 1e3


def main():
    print(f"python: {os.cpu_count()} cores, load average {' '.join(open('/proc/loadavg').read().split()[:3])}")
    with tempfile.TemporaryDirectory(prefix="rubric-bench-python-") as tmp:
        tmp = pathlib.Path(tmp)
        (tmp / "small.rubric").write_text(textwrap.dedent(FILES_RUBRIC))
        (tmp / "memory.rubric").write_text(textwrap.dedent(MEMORY_RUBRIC))
        sub, ref = tmp / "sub", tmp / "ref"
        sub.mkdir()
        ref.mkdir()
        rng = np.random.default_rng(1)
        reference = rng.standard_normal(4096).astype(np.float32)
        output = reference + np.float32(1e-5)
        np.save(ref / "ref.npy", reference)
        np.save(sub / "out.npy", output)
        (sub / "metrics.json").write_text('{"throughput": 990}')
        answer = "Recency-only eviction throws out the attention sinks."
        (sub / "answer.md").write_text(answer)

        cmd = [RUBRIC, "check", str(tmp / "small.rubric"), "--submission", str(sub), "--reference", str(ref),
               "--format", "json"]
        process_ms, process_p90 = timed(lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True), CALLS // 4)

        loaded = rubric.load(tmp / "small.rubric")
        assert loaded.check(sub, ref).verdict == "PASS"
        files_ms, files_p90 = timed(lambda: loaded.check(sub, ref).verdict, CALLS)
        json_ms, _ = timed(lambda: loaded.check(sub, ref).to_json(), CALLS)

        in_memory = rubric.load(tmp / "memory.rubric", inputs={"output": output, "expected": reference,
                                                               "metrics": {"throughput": 990}, "answer": answer})
        assert in_memory.check(sub).verdict == "PASS"
        memory_ms, memory_p90 = timed(lambda: in_memory.check(sub).verdict, CALLS)

    print(f"python: `rubric check` as a process        {process_ms:8.2f} ms median (p90 {process_p90:.2f} ms, {CALLS // 4} calls)")
    print(f"python: Rubric.check, files               {files_ms:8.2f} ms median (p90 {files_p90:.2f} ms, {CALLS} calls)"
          f"  {process_ms / files_ms:5.1f}x faster")
    print(f"python: Rubric.check, files, + to_json()  {json_ms:8.2f} ms median")
    print(f"python: Rubric.check, inputs in memory    {memory_ms:8.2f} ms median (p90 {memory_p90:.2f} ms, {CALLS} calls)"
          f"  {process_ms / memory_ms:5.1f}x faster")


if __name__ == "__main__":
    main()
