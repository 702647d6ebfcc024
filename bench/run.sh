#!/usr/bin/env bash
BUILD=${1:-build}

# process: isolated-run overhead versus a direct spawn (target < 5 ms per run)
"$BUILD/bench/process/bench_process_run_overhead" 100

# stats: deciding a comparison of two 10,000-sample sets (target < 50 ms)
"$BUILD/bench/stats/bench_stats_decision_time" 10000

# numerics: fused compare of two 1 GiB f32 tensors vs numpy.allclose vs a plain read (files under /tmp, removed after)
"$BUILD/bench/numerics/compare_bench" "${RUBRIC_BENCH_COMPARE_MIB:-1024}" /tmp

# cuda: module build cold vs cached, worker call round trip vs bare protocol, fused compare vs copy bandwidth
"$BUILD/bench/cuda/bench_cuda" "${RUBRIC_BENCH_CUDA_MIB:-256}"
