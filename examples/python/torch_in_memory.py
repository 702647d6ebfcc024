#!/usr/bin/env python3
"""Grades a candidate softmax against a torch fp32 reference with softmax.rubric, in memory: the
tensors reach the rubric as numpy views of torch's own memory (no copy, no files). Each verdict is
set beside torch.testing.assert_close on the same tensors with the same tolerance.

usage: torch_in_memory.py        (PYTHONPATH holding the rubric package)
"""
import pathlib
import sys
import tempfile

import torch

import rubric

HERE = pathlib.Path(__file__).resolve().parent


def candidates(x):
    """Three candidate kernels: right in fp32; right but computed in bf16 (8 bits of mantissa
    are not 1e-3); and one that forgets to subtract the row maximum, so exp overflows."""
    yield "fp32", torch.softmax(x, dim=-1)
    yield "bf16", torch.softmax(x.bfloat16(), dim=-1).float()
    e = torch.exp(x)
    yield "fp32, no max subtracted", e / e.sum(dim=-1, keepdim=True)


def main():
    torch.manual_seed(0)
    x = torch.randn(256, 1024) * 4
    x[7, 3] = 100.0  # one large logit: exp overflows in fp32 unless the row maximum is subtracted
    reference = torch.softmax(x.double(), dim=-1).float()
    ref_view = reference.numpy()  # shares the tensor's memory
    graded = rubric.load(HERE / "softmax.rubric", inputs={"candidate": ref_view, "expected": ref_view})
    empty = tempfile.mkdtemp(prefix="rubric-no-files-")  # the submission folder: this rubric reads none of it
    disagreements = 0
    for name, out in candidates(x):
        report = graded.check(empty, inputs={"candidate": out.numpy(), "expected": ref_view})
        try:
            torch.testing.assert_close(out, reference, rtol=1e-3, atol=1e-3)
            torch_says = "PASS"
        except AssertionError:
            torch_says = "FAIL"
        numerics = report.criterion("numerics")
        print(f"{name:24} rubric {report.verdict:5} torch.testing.assert_close {torch_says}")
        if numerics.verdict != "PASS":
            for line in numerics.checks[0].evidence:
                print(f"{'':26}{line}")
        disagreements += numerics.verdict != torch_says
    pathlib.Path(empty).rmdir()
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())
