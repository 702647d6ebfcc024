#!/usr/bin/env bash
BUILD=${1:-build}

# process: isolated-run overhead versus a direct spawn (target < 5 ms per run)
"$BUILD/bench/process/bench_process_run_overhead" 100

# stats: deciding a comparison of two 10,000-sample sets (target < 50 ms)
"$BUILD/bench/stats/bench_stats_decision_time" 10000
