#!/usr/bin/env python3
"""Random subscripts with numpy's answers. Writes source arrays (C order, a big-endian
Fortran-order one, integers) into OUTDIR, the result of each subscript as its own .npy, and
cases.txt, one line per case: source result spec, where spec is components joined by '|':
'i:N' an index, 'r:START,STOP,STEP' a slice ('_' for a part left out), 'e' an ellipsis; result
is 'IndexError' when numpy raises it. Run with /usr/bin/python3."""
import os
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
rng = np.random.default_rng(7)
sources = {
    "c3.npy": np.arange(5 * 6 * 7, dtype=np.float32).reshape(5, 6, 7) * 0.5 - 40,
    "fbe.npy": np.asfortranarray(np.arange(4 * 9, dtype=">f8").reshape(4, 9) / 3),
    "i16.npy": np.arange(2 * 3 * 4 * 5, dtype=np.int16).reshape(2, 3, 4, 5) - 60,
    "vec.npy": np.arange(11, dtype=np.float64),
}
for name, arr in sources.items():
    np.save(os.path.join(out, name), arr)


def bound(n):
    return None if rng.random() < 0.3 else int(rng.integers(-n - 3, n + 4))


def component(n):
    r = rng.random()
    if r < 0.35:
        return ("i", int(rng.integers(-n - 1, n + 1)))
    step = None if rng.random() < 0.4 else int(rng.choice([-3, -2, -1, 1, 2, 3]))
    return ("r", bound(n), bound(n), step)


def to_python(c):
    if c[0] == "i":
        return c[1]
    if c[0] == "e":
        return Ellipsis
    return slice(c[1], c[2], c[3])


def spec(c):
    if c[0] == "i":
        return f"i:{c[1]}"
    if c[0] == "e":
        return "e"
    return "r:" + ",".join("_" if v is None else str(v) for v in c[1:])


lines = []
k = 0
for name, arr in sources.items():
    for _ in range(60):
        count = int(rng.integers(1, arr.ndim + 2))  # sometimes one too many
        comps = [component(arr.shape[min(i, arr.ndim - 1)]) for i in range(count)]
        if rng.random() < 0.25 and count <= arr.ndim:
            comps.insert(int(rng.integers(0, len(comps) + 1)), ("e",))
        key = tuple(to_python(c) for c in comps)
        try:
            res = arr[key]
        except IndexError:
            lines.append(f"{name} IndexError {'|'.join(spec(c) for c in comps)}")
            continue
        rname = f"r{k}.npy"
        k += 1
        np.save(os.path.join(out, rname), np.array(res, dtype=np.float64, order="C"))
        lines.append(f"{name} {rname} {'|'.join(spec(c) for c in comps)}")
with open(os.path.join(out, "cases.txt"), "w") as f:
    f.write("\n".join(lines) + "\n")
