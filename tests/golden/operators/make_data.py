#!/usr/bin/env python3
"""Writes the small tensor files of the operators golden cases (run with Debian's python3)."""
import json
import os
import struct

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(5)
ref = rng.standard_normal((4, 8)).astype(np.float32)
np.save(os.path.join(HERE, "ref", "y.npy"), ref)
close = ref + np.float32(1e-6)
np.save(os.path.join(HERE, "sub", "close.npy"), close)
off = ref.copy()
off[2, 5] += 0.25
np.save(os.path.join(HERE, "sub", "off.npy"), off)
nan = ref.copy()
nan[1, 3] = np.nan
np.save(os.path.join(HERE, "sub", "nan.npy"), nan)
np.save(os.path.join(HERE, "sub", "column.npy"), ref.reshape(32, 1))
np.save(os.path.join(HERE, "ref", "flat.npy"), ref.reshape(32))
np.save(os.path.join(HERE, "sub", "fortran.npy"), np.asfortranarray(close.astype(">f4")))
with open(os.path.join(HERE, "sub", "close.npy"), "rb") as f:
    data = f.read()
with open(os.path.join(HERE, "sub", "truncated.npy"), "wb") as f:
    f.write(data[: len(data) - 20])

# safetensors: 8-byte little-endian header length, JSON header, data.
w = ref[:2].astype(np.float16)
header = {"w": {"dtype": "F16", "shape": [2, 8], "data_offsets": [0, w.nbytes]}, "__metadata__": {"step": "10"}}
blob = json.dumps(header).encode()
with open(os.path.join(HERE, "sub", "model.safetensors"), "wb") as f:
    f.write(struct.pack("<Q", len(blob)) + blob + w.tobytes())

# Tokens (16, 8) with row magnitudes from 1 to 1e-3; the answer loses row 11 (one of the
# smallest) entirely, which the whole-tensor rel_l2 and cosine barely see.
tokens = (rng.standard_normal((16, 8)) * np.logspace(0, -3, 16)[:, None]).astype(np.float32)
np.save(os.path.join(HERE, "ref", "tokens.npy"), tokens)
damaged = tokens.copy()
damaged[11] = 0
np.save(os.path.join(HERE, "sub", "tokens.npy"), damaged)

# A softmax over rows of 4096: nearly every element is under 1e-3, so an all-zero output would
# match almost all of it to atol = 1e-3 (std.numerics.tolerance_not_vacuous must say so). Written
# without numpy (python's own random and struct), so it can be regenerated anywhere.
def write_softmax(path):
    import math
    import random
    import struct
    rng = random.Random(7)
    rows = []
    for _ in range(4):
        e = [math.exp(rng.gauss(0, 1)) for _ in range(4096)]
        total = sum(e)
        rows.append([x / total for x in e])
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (4, 4096), }"
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        for row in rows:
            f.write(struct.pack("<4096f", *row))


write_softmax(os.path.join(HERE, "ref", "softmax.npy"))
