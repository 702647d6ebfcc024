#!/usr/bin/env python3
"""Random comparison cases with numpy's answers. Writes a.npy/b.npy pairs into OUTDIR and
cases.txt, one line per case: name a b rtol atol ulp key=value ...
numpy.isclose runs on float64-widened arrays (rubric widens to f64 before comparing; numpy on
float32 arrays would compute in float32). Run with /usr/bin/python3."""
import os
import sys

import numpy as np
from numpy.testing._private.utils import integer_repr
from scipy.special import log_softmax

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(20240611)
np.seterr(all="ignore")
lines = []


def sprinkle(x, frac):
    """NaN, +inf and -inf at random positions (floats only)."""
    if not np.issubdtype(x.dtype, np.floating) or frac == 0:
        return x
    flat = x.reshape(-1)
    n = max(1, int(flat.size * frac))
    for v in (np.nan, np.inf, -np.inf):
        flat[rng.integers(0, flat.size, n)] = v
    return x


def near_boundary(b, rtol, atol, dtype):
    """a = b ± (atol + rtol|b|)·u with u around 1, so many pairs sit near the edge."""
    b64 = b.astype(np.float64)
    u = rng.uniform(0.5, 1.5, b.shape)
    sign = rng.choice([-1.0, 1.0], b.shape)
    a = b64 + sign * u * (atol + rtol * np.abs(b64))
    return a.astype(dtype)


def case(name, a, b, rtol, atol, ulp=0, fortran_a=False, big_endian_a=False):
    fa, fb = f"{name}_a.npy", f"{name}_b.npy"
    a_saved = a.astype(a.dtype.newbyteorder(">")) if big_endian_a else a
    np.save(os.path.join(out, fa), np.asfortranarray(a_saved) if fortran_a else a_saved)
    np.save(os.path.join(out, fb), b)
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    finite = np.isfinite(a64) & np.isfinite(b64)
    d = np.abs(a64 - b64)
    with np.errstate(divide="ignore", invalid="ignore"):
        rel = np.where(b64 != 0, d / np.abs(b64), np.where(d == 0, 0.0, np.inf))
    kv = {}
    if np.issubdtype(a.dtype, np.floating):
        bb = b.astype(a.dtype)
        ok = finite & np.isfinite(bb.astype(np.float64))
        # numpy's nulp_diff ordering (integer_repr), kept exact: nulp_diff itself returns the
        # distance rounded to the float dtype (e.g. float16), which loses large distances.
        nulp = np.abs(integer_repr(a[ok]).astype(np.int64) - integer_repr(bb[ok]).astype(np.int64))
        nulp_full = np.zeros(a.shape, dtype=np.float64)
        nulp_full[ok] = nulp
    else:
        nulp_full = np.where(finite, d, 0)
    kv["max_ulp"] = float(nulp_full[finite].max()) if finite.any() else 0.0
    if ulp > 0:
        close = (finite & (nulp_full <= ulp)) | (a64 == b64)
    else:
        close = np.isclose(a64, b64, rtol=rtol, atol=atol, equal_nan=False)
        kv["allclose"] = int(np.allclose(a64, b64, rtol=rtol, atol=atol, equal_nan=False))
    kv["mismatches"] = int((~close).sum())
    kv["count"] = a.size
    kv["max_abs"] = float(d[finite].max()) if finite.any() else 0.0
    kv["max_abs_index"] = int(np.argmax(np.where(finite, d, -1).reshape(-1))) if finite.any() else -1
    kv["max_rel"] = float(rel[finite].max()) if finite.any() else 0.0
    kv["max_rel_index"] = int(np.argmax(np.where(finite, rel, -1).reshape(-1))) if finite.any() else -1
    kv["first_mismatch_index"] = int(np.argmax(~close.reshape(-1))) if (~close).any() else -1
    kv["sum_sq_diff"] = float(np.sum(np.where(finite, a64 - b64, 0) ** 2))
    kv["sum_sq_a"] = float(np.sum(np.where(finite, a64, 0) ** 2))
    kv["sum_sq_b"] = float(np.sum(np.where(finite, b64, 0) ** 2))
    kv["dot_ab"] = float(np.sum(np.where(finite, a64 * b64, 0)))
    kv["nan_a"], kv["nan_b"] = int(np.isnan(a64).sum()), int(np.isnan(b64).sum())
    kv["inf_a"], kv["inf_b"] = int(np.isinf(a64).sum()), int(np.isinf(b64).sum())
    kv["max_abs_b"] = float(np.abs(b64[np.isfinite(b64)]).max()) if np.isfinite(b64).any() else 0.0
    if finite.all() and np.linalg.norm(a64) > 0 and np.linalg.norm(b64) > 0:
        kv["rel_l2"] = float(np.linalg.norm(a64 - b64) / np.linalg.norm(b64))
        kv["cosine"] = float(np.dot(a64.ravel(), b64.ravel()) / (np.linalg.norm(a64) * np.linalg.norm(b64)))
    kv["a_min"], kv["a_max"] = float(np.min(a64)), float(np.max(a64))
    kv["a_mean"], kv["a_std"] = float(np.mean(a64)), float(np.std(a64))
    kv["a_nan"], kv["a_inf"] = kv["nan_a"], kv["inf_a"]
    lines.append(" ".join([name, fa, fb, repr(rtol), repr(atol), str(ulp)] + [f"{k}={v!r}" for k, v in kv.items()]))


for i in range(6):
    shape = tuple(int(s) for s in rng.integers(1, 40, rng.integers(1, 4)))
    b = rng.standard_normal(shape).astype(np.float32)
    a = near_boundary(b, 1.3e-6, 1e-5, np.float32)
    case(f"f32_{i}", sprinkle(a, 0.01 * (i % 2)), sprinkle(b, 0.01 * (i % 3 == 1)), 1.3e-6, 1e-5)
for i in range(4):
    b = (rng.standard_normal((17, 33)) * 10).astype(np.float64)
    a = near_boundary(b, 1e-7, 1e-7, np.float64)
    a[0, 0], b[0, 0] = np.nan, np.nan  # NaN is never close, even to NaN
    a[0, 1], b[0, 1] = np.inf, np.inf  # the same infinity is close
    a[0, 2], b[0, 2] = np.inf, -np.inf
    case(f"f64_{i}", a, b, 1e-7, 1e-7)
for i in range(3):
    b = rng.standard_normal((64, 50)).astype(np.float16)
    a = near_boundary(b, 1e-3, 1e-5, np.float16)
    case(f"f16_{i}", sprinkle(a, 0.005 * i), b, 1e-3, 1e-5)
b = rng.standard_normal((40, 40)).astype(np.float32)
case("f16_vs_f32", near_boundary(b, 1e-3, 1e-5, np.float16), b, 1e-3, 1e-5)
b = rng.integers(-1000, 1000, (30, 30)).astype(np.int32)
a = b.copy()
a[rng.integers(0, 30, 20), rng.integers(0, 30, 20)] += 1
case("i32_exact", a, b, 0.0, 0.0)
case("i8_vs_f64", rng.integers(-5, 5, (100,)).astype(np.int8), rng.integers(-5, 5, (100,)).astype(np.float64), 0.1, 0.5)
b = rng.standard_normal((8, 16, 32)).astype(np.float32)
case("f32_fortran_bigendian", near_boundary(b, 1e-4, 1e-4, np.float32), b, 1e-4, 1e-4, fortran_a=True, big_endian_a=True)
b = rng.standard_normal((500,)).astype(np.float32)
a = (b.view(np.int32) + rng.integers(-4, 5, b.shape).astype(np.int32)).view(np.float32)
case("f32_ulp", a, b, 0.0, 0.0, ulp=2)
b = rng.standard_normal((300,)).astype(np.float64)
case("f64_ulp", (b.view(np.int64) + rng.integers(-3, 4, b.shape)).view(np.float64), b, 0.0, 0.0, ulp=1)
b = np.zeros((10,), dtype=np.float32)
b[3] = 1e-4
case("tiny_ref", np.zeros((10,), dtype=np.float32), b, 1e-3, 1e-3)
case("large_offset", (1e6 + rng.standard_normal((4096,))).astype(np.float64), (1e6 + rng.standard_normal((4096,))), 1e-7, 1e-7)

# Logits: top-k agreement and KL divergence along the last axis.
p = rng.standard_normal((64, 100)).astype(np.float32) * 3
q = (p + rng.standard_normal(p.shape).astype(np.float32) * 0.3).astype(np.float32)
np.save(os.path.join(out, "logits_p.npy"), p)
np.save(os.path.join(out, "logits_q.npy"), q)
p64, q64 = p.astype(np.float64), q.astype(np.float64)
lp, lq = log_softmax(p64, axis=-1), log_softmax(q64, axis=-1)
kl = float(np.mean(np.sum(np.exp(lp) * (lp - lq), axis=-1)))
topk = {}
for k in (1, 5):
    ta = np.sort(np.argsort(-p64, axis=-1, kind="stable")[:, :k], axis=-1)
    tb = np.sort(np.argsort(-q64, axis=-1, kind="stable")[:, :k], axis=-1)
    topk[k] = float(np.mean(np.all(ta == tb, axis=-1)))
lines.append(f"logits logits_p.npy logits_q.npy 0 0 0 kl={kl!r} top1={topk[1]!r} top5={topk[5]!r}")

with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
