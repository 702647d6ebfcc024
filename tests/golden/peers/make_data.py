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
