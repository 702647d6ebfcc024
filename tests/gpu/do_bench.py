"""Times a rubric module's rubric_call with triton.testing.do_bench; prints milliseconds.

usage: do_bench.py MODULE.so N
The module's signature must be void(const float*, float*, int64_t, cudaStream_t).
"""
import ctypes
import sys

import torch
import triton.testing

so, n = sys.argv[1], int(sys.argv[2])
lib = ctypes.CDLL(so)
lib.rubric_call.argtypes = [ctypes.c_void_p]
lib.rubric_call.restype = None
x = torch.rand(n, device="cuda", dtype=torch.float32)
y = torch.empty_like(x)
values = [ctypes.c_void_p(x.data_ptr()), ctypes.c_void_p(y.data_ptr()), ctypes.c_int64(n),
          ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)]
argv = (ctypes.c_void_p * len(values))(*(ctypes.addressof(v) for v in values))


def fn():
    lib.rubric_call(argv)


try:
    ms = triton.testing.do_bench(fn, return_mode="median")
except TypeError:  # older triton: no return_mode, returns the median by default
    ms = triton.testing.do_bench(fn)
    if isinstance(ms, (tuple, list)):
        ms = ms[0]
print(f"{float(ms):.9f}")
