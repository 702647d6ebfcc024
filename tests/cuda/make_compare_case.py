"""Writes a.bin, b.bin and expected.txt for one comparison case, computed with numpy.

usage: make_compare_case.py OUTDIR DTYPE_A DTYPE_B N SEED RTOL ATOL
expected.txt holds "key value" lines with CompareStats fields under the rule
|a - b| <= atol + rtol*|b|, NaN never close, inf close only to the same inf.
"""
import sys

import numpy as np

out, da, db, n, seed, rtol, atol = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]), float(sys.argv[6]), float(sys.argv[7])
rng = np.random.default_rng(seed)
names = {"f16": np.float16, "f32": np.float32, "f64": np.float64, "i32": np.int32, "i8": np.int8, "u8": np.uint8}
b = rng.standard_normal(n)
a = b + rng.standard_normal(n) * 1e-3
if names[da] in (np.int32, np.int8, np.uint8):
    a = np.round(a * 10) % 100
    b = np.round(b * 10) % 100
    a[::7] += 1
a = a.astype(names[da])
b = b.astype(names[db])
if np.issubdtype(a.dtype, np.floating):
    a[3::97] = np.nan
    a[5::101] = np.inf
    b[5::202] = np.inf
    b[11::89] = -np.inf
a.tofile(f"{out}/a.bin")
b.tofile(f"{out}/b.bin")

A = a.astype(np.float64)
B = b.astype(np.float64)
finite = np.isfinite(A) & np.isfinite(B)
with np.errstate(invalid="ignore"):
    diff = np.abs(A - B)
with np.errstate(invalid="ignore"):
    close = np.where(np.isnan(A) | np.isnan(B), False,
                     np.where(np.isinf(A) | np.isinf(B), A == B, diff <= atol + rtol * np.abs(B)))
fd = np.where(finite, diff, -1.0)
with np.errstate(divide="ignore", invalid="ignore"):
    rel = np.where(np.abs(B) > 0, diff / np.abs(B), np.where(diff == 0, 0.0, np.inf))
fr = np.where(finite, rel, -1.0)
mism = np.flatnonzero(~close)
stats = {
    "count": n,
    "mismatches": int((~close).sum()),
    "first_mismatch_index": int(mism[0]) if len(mism) else -1,
    "max_abs": float(fd.max()),
    "max_abs_index": int(np.argmax(fd)),
    "max_rel": float(fr.max()),
    "max_rel_index": int(np.argmax(fr)),
    "nan_a": int(np.isnan(A).sum()),
    "nan_b": int(np.isnan(B).sum()),
    "inf_a": int(np.isinf(A).sum()),
    "inf_b": int(np.isinf(B).sum()),
    "sum_sq_diff": float((diff[finite] ** 2).sum()),
    "sum_sq_a": float((A[finite] ** 2).sum()),
    "sum_sq_b": float((B[finite] ** 2).sum()),
    "dot_ab": float((A[finite] * B[finite]).sum()),
    "max_abs_b": float(np.abs(B[finite]).max()),
}
if da == db and np.issubdtype(a.dtype, np.floating):
    w = {2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]
    def ordered(x):
        i = x.view(w).astype(np.int64)
        mask = np.int64((1 << (8 * x.dtype.itemsize - 1)) - 1)
        return np.where(i < 0, -(i & mask), i)
    u = np.abs(ordered(a) - ordered(b))
    stats["max_ulp"] = int(u[finite].max())
with open(f"{out}/expected.txt", "w") as f:
    for k, v in stats.items():
        f.write(f"{k} {v!r}\n")
