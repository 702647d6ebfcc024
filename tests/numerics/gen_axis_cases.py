#!/usr/bin/env python3
"""Per-axis metric cases with numpy's answers. Writes a/b .npy pairs into OUTDIR, for each case
and metric a float64 .npy with numpy's per-position values, and cases.txt, one line per case:
name a b rtol atol axes(comma-separated). numpy reduces over the named axes (axis=tuple) on
float64-widened arrays; the edge rules rubric documents are applied where numpy has none
(‖b‖ = 0: rel_l2 0 when ‖a−b‖ = 0, else inf; cosine 1 when both are zero, 0 when one is;
b = 0 in max_rel_err: 0 when a = 0, else inf). Run with /usr/bin/python3."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(31)
np.seterr(all="ignore")
lines = []


def metrics(a, b, axes, rtol, atol):
    d = a - b
    num = np.sqrt(np.sum(d * d, axis=axes))
    den = np.sqrt(np.sum(b * b, axis=axes))
    na = np.sqrt(np.sum(a * a, axis=axes))
    with np.errstate(all="ignore"):
        rel = np.where(den == 0, np.where(num == 0, 0.0, np.inf), num / den)
        cos = np.sum(a * b, axis=axes) / (na * den)
        cos = np.where((na == 0) & (den == 0), 1.0, np.where((na == 0) | (den == 0), 0.0, cos))
        r = np.abs(d) / np.abs(b)
        r = np.where(b == 0, np.where(d == 0, 0.0, np.inf), r)
    # A NaN anywhere in a position makes its value NaN (the sums above already are).
    has_nan = np.any(np.isnan(a) | np.isnan(b), axis=axes)
    return {
        "rel_l2": rel,
        "cosine": np.where(has_nan, np.nan, cos),
        "max_abs_err": np.where(has_nan, np.nan, np.max(np.abs(d), axis=axes)),
        "max_rel_err": np.where(has_nan, np.nan, np.max(r, axis=axes)),
        "frac_close": np.mean(np.isclose(a, b, rtol=rtol, atol=atol), axis=axes),
    }


cases = [
    ("rows_f32", (37, 129), np.float32, (1,)),
    ("cols_f32", (37, 129), np.float32, (0,)),
    ("neg_axis", (6, 5, 40), np.float32, (-1,)),
    ("two_axes", (6, 5, 40), np.float64, (0, 2)),
    ("middle_f16", (4, 300, 3), np.float16, (1,)),
    ("fortran_be", (50, 20), ">f4", (1,)),
    ("many_rows", (5000, 8), np.float32, (1,)),
]
for name, shape, dtype, axes in cases:
    b = rng.standard_normal(shape).astype(dtype)
    a = (b.astype(np.float64) * (1 + rng.standard_normal(shape) * 1e-3)).astype(dtype)
    if name == "fortran_be":
        a, b = np.asfortranarray(a), np.asfortranarray(b)
    if name in ("rows_f32", "cols_f32"):
        a[3, 7] = np.nan      # one NaN position
        a[5] *= 1.5           # one damaged row
        b[9] = 0              # a zero reference row
        a[9] = 0
        a[11] = 0             # an all-zero answer row
    af, bf = a.astype(np.float64), b.astype(np.float64)
    rtol, atol = (1e-3, 1e-5)
    np.save(os.path.join(out, f"{name}_a.npy"), a)
    np.save(os.path.join(out, f"{name}_b.npy"), b)
    for metric, values in metrics(af, bf, axes, rtol, atol).items():
        np.save(os.path.join(out, f"{name}_{metric}.npy"), np.asarray(values, dtype=np.float64))
    lines.append(f"{name} {name}_a.npy {name}_b.npy {rtol!r} {atol!r} {','.join(map(str, axes))}")
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
