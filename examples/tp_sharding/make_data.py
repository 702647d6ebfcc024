#!/usr/bin/env python3
"""Writes the tensors of the tensor-parallel sharding example (fixed seed, so reruns are identical).

The layer is a per-token value head, v = h · w with h of shape (4096, 1024). The reference is
computed in float64 and stored as float32 of shape (4096,). A correct 4-way tensor-parallel
version splits the 1024-long dot products into four float32 partial sums and all-reduces them:
only accumulation-order noise (~1e-7 relative) separates it from the reference. The wrong ones:
  off_by_a_little  a rank reads a stale shard for a few tokens: 6 values off by ~1e-2
  nan              an uninitialised reduce buffer: one NaN
  shape            the head's (4096, 1) output is saved unsqueezed; numpy would broadcast it
Run with Debian's python3 (numpy): /usr/bin/python3 make_data.py
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
TOKENS, HIDDEN, RANKS = 4096, 1024, 4
rng = np.random.default_rng(4096)
h = rng.standard_normal((TOKENS, HIDDEN)).astype(np.float32)
w = (rng.standard_normal(HIDDEN) / np.sqrt(HIDDEN)).astype(np.float32)

reference = (h.astype(np.float64) @ w.astype(np.float64)).astype(np.float32)

shard = HIDDEN // RANKS
partials = [h[:, r * shard:(r + 1) * shard] @ w[r * shard:(r + 1) * shard] for r in range(RANKS)]
sharded = np.zeros(TOKENS, dtype=np.float32)
for p in partials:  # the all-reduce, in float32
    sharded = (sharded + p.astype(np.float32)).astype(np.float32)
assert np.allclose(sharded, reference, rtol=1e-3, atol=1e-3)

off = sharded.copy()
stale = rng.choice(TOKENS, 6, replace=False)
off[stale] += np.float32(1.5e-2) * np.sign(rng.standard_normal(6)).astype(np.float32)
with_nan = sharded.copy()
with_nan[1777] = np.nan


def save(path, array):
    np.save(os.path.join(HERE, path), array)


save("reference/values.npy", reference)
save("submissions/good/values.npy", sharded)
save("submissions/off_by_a_little/values.npy", off)
save("submissions/nan/values.npy", with_nan)
save("submissions/shape/values.npy", sharded.reshape(TOKENS, 1))
