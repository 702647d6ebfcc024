#!/usr/bin/env python3
"""Writes .npy files (by numpy itself) and .safetensors files (by a small writer) into OUTDIR,
with the expected values of each as float64 C-order raw files, and a manifest:
    file  dtype  expected.f64  dim0 dim1 ...      (tensor name appended as name=... for safetensors)
Run with Debian's /usr/bin/python3 (numpy)."""
import json
import os
import struct
import sys

import numpy as np

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
manifest = []
rng = np.random.default_rng(1234)


def expect(path, values, dtype, shape, name=None):
    exp = os.path.basename(path) + (("." + name) if name else "") + ".expected"
    np.ascontiguousarray(values, dtype=np.float64).tofile(os.path.join(out, exp))
    line = [os.path.basename(path), dtype, exp] + [str(d) for d in shape]
    if name:
        line.insert(1, "name=" + name)
    manifest.append(" ".join(line))


def sample(np_dtype, shape):
    n = int(np.prod(shape))
    if np_dtype == np.bool_:
        return (rng.integers(0, 2, n) == 1).reshape(shape)
    if np.issubdtype(np_dtype, np.integer):
        info = np.iinfo(np_dtype)
        lo, hi = max(info.min, -(2**40)), min(info.max, 2**40)
        return rng.integers(lo, hi, n, dtype=np.int64).astype(np_dtype).reshape(shape)
    v = (rng.standard_normal(n) * 100).astype(np_dtype)
    if n > 4:
        v[1], v[2], v[3] = np.inf, -np.inf, np.nan
    return v.reshape(shape)


names = {"f8": "f64", "f4": "f32", "f2": "f16", "i8": "i64", "i4": "i32", "i2": "i16", "i1": "i8", "u1": "u8", "b1": "bool",
         "u8": "u64"}
for code, ours in names.items():
    base = np.dtype(code)
    shape = (3, 5, 7)
    a = sample(base.type, shape)
    orders = ["<", ">"] if base.itemsize > 1 else ["|"]
    for order in orders:
        dt = base.newbyteorder(order) if order != "|" else base
        for fortran in (False, True):
            arr = np.asfortranarray(a.astype(dt)) if fortran else np.ascontiguousarray(a.astype(dt))
            for version in ((1, 0), (2, 0)):
                tag = {"<": "le", ">": "be", "|": "na"}[order]
                fn = os.path.join(out, f"{ours}_{tag}_{'F' if fortran else 'C'}_v{version[0]}.npy")
                with open(fn, "wb") as f:
                    np.lib.format.write_array(f, arr, version=version)
                assert np.load(fn).dtype == arr.dtype
                expect(fn, a.astype(np.float64), ours, shape)

# 0-d arrays and an empty array.
for value, dt, ours in ((3.5, "<f8", "f64"), (-7, ">i4", "i32"), (True, "|b1", "bool")):
    fn = os.path.join(out, f"scalar_{ours}.npy")
    np.save(fn, np.array(value, dtype=dt))
    expect(fn, np.array([value], dtype=np.float64), ours, ())
fn = os.path.join(out, "empty_f32.npy")
np.save(fn, np.zeros((0, 4), dtype="<f4"))
expect(fn, np.zeros(0), "f32", (0, 4))

# Version 3.0: numpy only writes it for non-latin1 headers, so write the UTF-8 header by hand.
arr = np.arange(12, dtype="<f4").reshape(3, 4) / 8
header = "{'descr': '<f4', 'fortran_order': False, 'shape': (3, 4), }"
total = 12 + len(header.encode()) + 1
header += " " * ((64 - total % 64) % 64) + "\n"
fn = os.path.join(out, "f32_v3.npy")
with open(fn, "wb") as f:
    f.write(b"\x93NUMPY\x03\x00" + struct.pack("<I", len(header.encode())) + header.encode() + arr.tobytes())
assert np.array_equal(np.load(fn), arr)
expect(fn, arr.astype(np.float64), "f32", (3, 4))

# uint64 past 2^63 and past 2^53 (neighbours one double apart), both byte orders: the test reads
# them back as exact integers from the .exact text file (float64 would merge them).
wide = [2**64 - 1, 2**64 - 2, 2**63, 2**53 + 1, 2**53, 0]
for order, tag in (("<", "le"), (">", "be")):
    fn = os.path.join(out, f"u64_wide_{tag}.npy")
    np.save(fn, np.array(wide, dtype=order + "u8"))
    assert [int(v) for v in np.load(fn)] == wide
    expect(fn, np.array(wide, dtype=np.uint64).astype(np.float64), "u64", (len(wide),))
with open(os.path.join(out, "u64_wide.exact"), "w") as f:
    f.write(" ".join(str(v) for v in wide) + "\n")


# safetensors: bf16 and fp8 bytes with values decoded here independently.
def bf16_bytes(x32):
    bits = x32.astype("<f4").view("<u4").astype(np.uint64)
    rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16  # round to nearest even
    b = rounded.astype("<u2")
    return b, (b.astype(np.uint32) << 16).view("<f4").astype(np.float64)


def fp8_values(bits, exp_bits, man_bits, bias, has_inf):
    out_v = []
    for b in bits:
        s = -1.0 if b & 0x80 else 1.0
        e = (b >> man_bits) & ((1 << exp_bits) - 1)
        m = b & ((1 << man_bits) - 1)
        if has_inf and e == (1 << exp_bits) - 1:
            v = np.inf if m == 0 else np.nan
        elif not has_inf and e == 15 and m == 7:
            v = np.nan
        elif e == 0:
            v = m / (1 << man_bits) * 2.0 ** (1 - bias)
        else:
            v = (1 + m / (1 << man_bits)) * 2.0 ** (e - bias)
        out_v.append(s * v)
    return np.array(out_v, dtype=np.float64)


def write_safetensors(path, tensors, metadata=None, pad=True):
    header, blobs, offset = {}, [], 0
    if metadata is not None:
        header["__metadata__"] = metadata
    for name, (code, shape, data) in tensors.items():
        header[name] = {"dtype": code, "shape": list(shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode()
    if pad:
        text += b" " * ((8 - len(text) % 8) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


x32 = (rng.standard_normal(24) * 3).astype("<f4")
bf_bits, bf_vals = bf16_bytes(x32)
all_bytes = np.arange(256, dtype=np.uint8)
tensors = {
    "w_f32": ("F32", (4, 6), x32.tobytes()),
    "w_f16": ("F16", (2, 12), x32.astype("<f2").tobytes()),
    "w_bf16": ("BF16", (4, 6), bf_bits.tobytes()),
    "w_e4m3": ("F8_E4M3", (16, 16), all_bytes.tobytes()),
    "w_e5m2": ("F8_E5M2", (256,), all_bytes.tobytes()),
    "w_i64": ("I64", (3,), np.array([-5, 0, 2**40], dtype="<i8").tobytes()),
    "w_bool": ("BOOL", (2, 2), np.array([1, 0, 0, 1], dtype=np.uint8).tobytes()),
    "w_u8": ("U8", (2,), bytes([0, 255])),
    "w_u64": ("U64", (3,), struct.pack("<3Q", 2**64 - 1, 2**53 + 1, 7)),
    "empty": ("F32", (0,), b""),
}
fn = os.path.join(out, "model.safetensors")
write_safetensors(fn, tensors, {"format": "pt", "note": "made by gen_tensor_files.py"})
expect(fn, x32.astype(np.float64), "f32", (4, 6), "w_f32")
expect(fn, x32.astype("<f2").astype(np.float64), "f16", (2, 12), "w_f16")
expect(fn, bf_vals, "bf16", (4, 6), "w_bf16")
expect(fn, fp8_values(all_bytes, 4, 3, 7, False), "f8e4m3", (16, 16), "w_e4m3")
expect(fn, fp8_values(all_bytes, 5, 2, 15, True), "f8e5m2", (256,), "w_e5m2")
expect(fn, np.array([-5, 0, 2**40], dtype=np.float64), "i64", (3,), "w_i64")
expect(fn, np.array([1, 0, 0, 1], dtype=np.float64), "bool", (2, 2), "w_bool")
expect(fn, np.array([0, 255], dtype=np.float64), "u8", (2,), "w_u8")
expect(fn, np.array([2**64 - 1, 2**53 + 1, 7], dtype=np.uint64).astype(np.float64), "u64", (3,), "w_u64")
expect(fn, np.zeros(0), "f32", (0,), "empty")

with open(os.path.join(out, "manifest.txt"), "w") as f:
    f.write("\n".join(manifest) + "\n")
