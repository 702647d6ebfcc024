#!/usr/bin/python3
"""Writes the fixtures of this folder the way the tools write them: SGLang's bench_serving
appends json.dumps(result) lines (Python's json writes Infinity and NaN); vLLM's /metrics is
prometheus_client's generate_latest(). Run once; the files are committed."""
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))


def sglang_run(rate, conc, dur, completed, seed):
    r = random.Random(seed)
    tin, tout = completed * 1024, completed * 1000
    m = lambda x: round(x * (1 + r.random() * 0.01), 6)
    return {"tag": None, "backend": "sglang", "dataset_name": "random", "request_rate": rate,
            "max_concurrency": conc, "sharegpt_output_len": None, "random_input_len": 1024,
            "random_output_len": 1024, "random_range_ratio": 0.0, "server_info": None, "duration": dur,
            "completed": completed, "total_input_tokens": tin, "total_input_text_tokens": tin,
            "total_input_vision_tokens": 0, "total_output_tokens": tout,
            "total_output_tokens_retokenized": tout - 17, "request_throughput": completed / dur,
            "input_throughput": tin / dur, "output_throughput": tout / dur, "total_throughput": (tin + tout) / dur,
            "mean_e2e_latency_ms": m(21034.5), "median_e2e_latency_ms": m(20877.1),
            "std_e2e_latency_ms": m(1532.2), "p99_e2e_latency_ms": m(24410.9), "mean_ttft_ms": m(412.3),
            "median_ttft_ms": m(380.2), "std_ttft_ms": m(150.7), "p99_ttft_ms": m(1130.4),
            "mean_tpot_ms": m(20.6), "median_tpot_ms": m(20.4), "std_tpot_ms": m(1.1), "p99_tpot_ms": m(23.9),
            "mean_itl_ms": m(20.6), "median_itl_ms": m(18.9), "std_itl_ms": m(9.3), "p95_itl_ms": m(31.7),
            "p99_itl_ms": m(55.2), "concurrency": m(61.8), "accept_length": None,
            "max_output_tokens_per_s": 3304.0, "max_concurrent_requests": conc}


def write_sglang():
    with open(os.path.join(HERE, "sub/sglang_bench.jsonl"), "w") as f:
        f.write(json.dumps(sglang_run(float("inf"), 64, 98.213, 300, 1)) + "\n")
        f.write(json.dumps(sglang_run(4.0, None, 77.045, 300, 2)) + "\n")
    with open(os.path.join(HERE, "sub/nonfinite.jsonl"), "w") as f:
        f.write(json.dumps({"name": "a", "x": float("nan"), "y": float("inf"), "z": float("-inf")}) + "\n")
    with open(os.path.join(HERE, "sub/broken.jsonl"), "w") as f:
        f.write(json.dumps({"ok": 1}) + "\n\n" + '{"ok": 2, "bad": Infinit}\n')


def write_vllm_metrics():
    from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
    reg = CollectorRegistry()
    lbl = ["model_name", "engine"]
    model = dict(model_name="meta-llama/Llama-3.1-8B-Instruct", engine="0")
    Gauge("vllm:num_requests_running", "Number of requests in model execution batches.", lbl, registry=reg).labels(**model).set(12)
    Gauge("vllm:num_requests_waiting", "Number of requests waiting to be processed.", lbl, registry=reg).labels(**model).set(0)
    Gauge("vllm:gpu_cache_usage_perc", "GPU KV-cache usage. 1 means 100 percent usage.", lbl, registry=reg).labels(**model).set(0.4218)
    Counter("vllm:num_preemptions", "Cumulative number of preemption from the engine.", lbl, registry=reg).labels(**model).inc(3)
    Counter("vllm:prompt_tokens", "Number of prefill tokens processed.", lbl, registry=reg).labels(**model).inc(307200)
    Counter("vllm:generation_tokens", "Number of generation tokens processed.", lbl, registry=reg).labels(**model).inc(300000)
    ok = Counter("vllm:request_success", "Count of successfully processed requests.", lbl + ["finished_reason"], registry=reg)
    ok.labels(finished_reason="length", **model).inc(296)
    ok.labels(finished_reason="stop", **model).inc(4)
    r = random.Random(7)
    ttft = Histogram("vllm:time_to_first_token_seconds", "Histogram of time to first token in seconds.", lbl, registry=reg,
                     buckets=[0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5,
                              10.0, 20.0, 40.0, 80.0, 160.0, 640.0, 2560.0]).labels(**model)
    e2e = Histogram("vllm:e2e_request_latency_seconds", "Histogram of e2e request latency in seconds.", lbl, registry=reg,
                    buckets=[0.3, 0.5, 0.8, 1.0, 1.5, 2.0, 2.5, 5.0, 10.0, 15.0, 20.0, 30.0, 40.0, 50.0, 60.0, 120.0,
                             240.0, 480.0, 960.0, 1920.0, 7680.0]).labels(**model)
    for _ in range(300):
        ttft.observe(r.lognormvariate(-0.9, 0.6))
        e2e.observe(r.gauss(21.0, 1.6))
    text = generate_latest(reg).decode()
    # Creation timestamps vary from run to run; fix them so the file is reproducible.
    import re
    text = re.sub(r"(_created\{[^}]*\}) \S+", r"\1 1.7645530124559e+09", text)
    with open(os.path.join(HERE, "sub/metrics.prom"), "w") as f:
        f.write(text)


if __name__ == "__main__":
    write_sglang()
    write_vllm_metrics()
