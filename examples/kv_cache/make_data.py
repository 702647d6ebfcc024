"""Regenerates the example data of the KV-cache eviction task (deterministic).

A vLLM `vllm bench serve` run at 32768-token prompts (200 requests, 256 output tokens each) on the
reference build, ten throughput runs of the reference, and four submissions: a good fix, a fix
that regressed throughput by 8%, one measured too noisily to decide, and one whose numbers are
good but whose written answer proposes the wrong fix. Run: /usr/bin/python3 make_data.py
"""
import json
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
PROMPTS, INPUT_LEN, OUTPUT_LEN = 200, 32768, 256


def bench_json(rng, output_throughput, ttft_ms, tpot_ms):
    total_in, total_out = PROMPTS * INPUT_LEN, PROMPTS * OUTPUT_LEN
    duration = total_out / output_throughput
    itl = rng.gamma(8.0, tpot_ms / 8.0, size=4000)
    ttft = rng.gamma(6.0, ttft_ms / 6.0, size=PROMPTS)
    tpot = rng.normal(tpot_ms, tpot_ms * 0.04, size=PROMPTS)
    result = {
        "date": "20250311-141522",
        "backend": "vllm",
        "model_id": "meta-llama/Llama-3.1-8B-Instruct",
        "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct",
        "num_prompts": PROMPTS,
        "request_rate": "inf",
        "max_concurrency": 16,
        "duration": round(duration, 3),
        "completed": PROMPTS,
        "failed": 0,
        "total_input_tokens": total_in,
        "total_output_tokens": total_out,
        "request_throughput": round(PROMPTS / duration, 4),
        "output_throughput": round(output_throughput, 3),
        "total_token_throughput": round((total_in + total_out) / duration, 3),
    }
    for name, xs in (("ttft", ttft), ("tpot", tpot), ("itl", itl)):
        result[f"mean_{name}_ms"] = round(float(np.mean(xs)), 3)
        result[f"median_{name}_ms"] = round(float(np.median(xs)), 3)
        result[f"std_{name}_ms"] = round(float(np.std(xs)), 3)
        result[f"p99_{name}_ms"] = round(float(np.percentile(xs, 99)), 3)
    return result


def runs(rng, center, rel_noise, n=10):
    return [round(float(x), 3) for x in rng.normal(center, center * rel_noise, size=n)]


def write(path, value):
    full = os.path.join(HERE, path)
    os.makedirs(os.path.dirname(full), exist_ok=True)
    with open(full, "w") as f:
        json.dump(value, f, indent=2)
        f.write("\n")


def main():
    rng = np.random.default_rng(20250311)
    base = 118.0  # tok/s output throughput of the reference at 32k context (prefill-bound)
    write("reference/bench_32768.json", bench_json(rng, base, 24500.0, 38.0))
    write("reference/baseline_runs.json", runs(rng, base, 0.01))
    subs = {
        # name: (single-run throughput, ttft, tpot, runs center, runs relative noise)
        "good": (base * 0.985, 24900.0, 38.6, base * 0.985, 0.01),
        "regressed": (base * 0.92, 26800.0, 41.2, base * 0.92, 0.01),
        "noisy": (base * 0.958, 25300.0, 39.5, base * 0.96, 0.08),
        "wrong_fix": (base * 0.99, 24600.0, 38.2, base * 0.99, 0.01),
    }
    for name, (tput, ttft, tpot, center, noise) in subs.items():
        write(f"submissions/{name}/bench_32768.json", bench_json(rng, tput, ttft, tpot))
        write(f"submissions/{name}/runs.json", runs(rng, center, noise))


if __name__ == "__main__":
    main()
