#!/usr/bin/env python3
"""Writes the tensor files of the peer-suite cases (run with Debian's python3-numpy): int64
tensors past 2^53, where a comparison through double loses the difference torch.testing sees."""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
big = 2**53
np.save(os.path.join(HERE, "ref", "ids.npy"), np.array([big, 5, -2**63], dtype=np.int64))
np.save(os.path.join(HERE, "sub", "ids_same.npy"), np.array([big, 5, -2**63], dtype=np.int64))
np.save(os.path.join(HERE, "sub", "ids_off_by_one.npy"), np.array([big + 1, 5, -2**63], dtype=np.int64))
np.save(os.path.join(HERE, "sub", "ids_far.npy"), np.array([big, 5, 2**63 - 1], dtype=np.int64))
np.save(os.path.join(HERE, "sub", "ids_i32.npy"), np.array([7, 5, 0], dtype=np.int32))
# (3, 3) tokens: row 0 off by one past 2^53 (numpy.isclose calls it close), row 1 off by
# 2^63 + 1 (which a double rounds), row 2 equal.
tokens = np.array([[big, 1, 2], [-2**63, 0, 2**63 - 1], [3, 4, 5]], dtype=np.int64)
np.save(os.path.join(HERE, "ref", "tokens.npy"), tokens)
off = tokens.copy()
off[0, 0] += 1
off[1, 2] = -2
np.save(os.path.join(HERE, "sub", "tokens_off.npy"), off)
# uint64 (numpy '<u8'): neighbours past 2^53 and 2^63 that one double holds, and a uint64 answer
# against the int64 ids, whose last pair differs by 2^64 - 1 + 2^63 (past 64 bits).
counts = np.array([2**64 - 2, big, 7], dtype=np.uint64)
np.save(os.path.join(HERE, "ref", "counts_u64.npy"), counts)
np.save(os.path.join(HERE, "sub", "counts_u64_same.npy"), counts.copy())
np.save(os.path.join(HERE, "sub", "counts_u64_top.npy"), np.array([2**64 - 1, big, 7], dtype=np.uint64))
np.save(os.path.join(HERE, "sub", "ids_u64.npy"), np.array([big + 1, 5, 2**64 - 1], dtype=np.uint64))
# Row 0 differs by 3, which float64 sees as 0 (2^64 - 4 and 2^64 - 1 round alike); row 1 by 2.
grid = np.array([[2**64 - 4, 1], [big, 0]], dtype=np.uint64)
np.save(os.path.join(HERE, "ref", "grid_u64.npy"), grid)
np.save(os.path.join(HERE, "sub", "grid_u64_off.npy"), np.array([[2**64 - 1, 1], [big + 2, 0]], dtype=np.uint64))
