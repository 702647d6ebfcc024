#!/usr/bin/env python3
"""Writes the logits files of the KV-cache example: an fp32 reference and each submission's output.

Every submission's eviction change must leave the model's numerics alone: its logits differ from
the reference only by accumulation-order noise (~1e-5). Run with Debian's python3 (numpy).
"""
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
rng = np.random.default_rng(32768)
ref = rng.standard_normal((32, 512), dtype=np.float32) * 4
np.save(os.path.join(HERE, "reference", "logits_fp32.npy"), ref)
for name in ("good", "regressed", "noisy", "wrong_fix"):
    noise = rng.standard_normal(ref.shape, dtype=np.float32) * 1e-5
    np.save(os.path.join(HERE, "submissions", name, "logits.npy"), (ref + noise).astype(np.float32))

# Dropping evicted blocks from attention instead of recomputing them is fast and wrong: the
# logits move by far more than accumulation noise.
wrong = ref + rng.standard_normal(ref.shape, dtype=np.float32) * 5e-2
np.save(os.path.join(HERE, "submissions", "skips_recompute", "logits.npy"), wrong.astype(np.float32))
