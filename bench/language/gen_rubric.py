#!/usr/bin/env python3
"""Writes a rubric of N criteria over JSON inputs, with its submission and reference folders.

Usage: gen_rubric.py OUTDIR [N]. The criteria mix the forms graders write most: unit-carrying
fields from vLLM-style bench JSON, `within`, comparisons against a baseline, text checks.
"""
import json
import os
import random
import sys


def main():
    out = sys.argv[1]
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    files = max(1, n // 20)
    rng = random.Random(7)
    for side in ("submission", "reference"):
        os.makedirs(os.path.join(out, side), exist_ok=True)
    for f in range(files):
        base = {"output_throughput": 12000 + rng.random() * 1000, "p99_ttft_ms": 200 + rng.random() * 50,
                "completed": 1000, "runs": [rng.random() for _ in range(10)]}
        cand = dict(base, output_throughput=base["output_throughput"] * (0.9 + rng.random() * 0.2),
                    p99_ttft_ms=base["p99_ttft_ms"] * (0.9 + rng.random() * 0.2))
        for side, data in (("reference", base), ("submission", cand)):
            with open(os.path.join(out, side, f"bench_{f}.json"), "w") as fh:
                json.dump(data, fh)
    with open(os.path.join(out, "submission", "answer.md"), "w") as fh:
        fh.write("The eviction policy dropped the attention sink tokens under recency pressure.\n")

    lines = ['rubric "generated: %d criteria" { version: "1.0", pass: 50%% }' % n, ""]
    for f in range(files):
        lines.append(f'let base{f} = json(reference / "bench_{f}.json")')
        lines.append(f'let cand{f} = json(submission / "bench_{f}.json")')
    lines.append('let answer = text(submission / "answer.md")')
    lines.append("def no_regression(cand, base, tol = 5%) {")
    lines.append('  expect cand >= (1 - tol) * base else "regressed by more than {tol}"')
    lines.append("}")
    for i in range(n):
        f = i % files
        kind = i % 4
        lines.append(f'criterion c{i} "criterion {i} over bench_{f}" weight {1 + i % 3} {{')
        if kind == 0:
            lines.append(f"  expect cand{f}.output_throughput as tok/s >= 0.95 * (base{f}.output_throughput as tok/s)")
        elif kind == 1:
            lines.append(f"  expect cand{f}.p99_ttft_ms as ms within 10% of base{f}.p99_ttft_ms as ms")
        elif kind == 2:
            lines.append(f"  check no_regression(cand{f}.output_throughput, base{f}.output_throughput)")
        else:
            lines.append('  expect answer mentions any ["attention sink", "recency"]')
            lines.append(f"  expect len(cand{f}.runs) == 10")
        lines.append("}")
    with open(os.path.join(out, "generated.rubric"), "w") as fh:
        fh.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
