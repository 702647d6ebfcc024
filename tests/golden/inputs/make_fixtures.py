#!/usr/bin/python3
"""Writes the fixtures of this folder the way the tools write them: SGLang's bench_serving
appends json.dumps(result) lines (Python's json writes Infinity and NaN); vLLM's bench serve
json.dump()s its result with request_rate "inf"; vLLM's /metrics is prometheus_client's
generate_latest() (and its OpenMetrics exposition when asked for it); ncu --csv quotes every field
(Python's csv.QUOTE_ALL writes the same) after its ==PROF== lines; nsys stats --format csv prints
status lines, a heading per report and unquoted numbers. Run once; the files are committed."""
import csv
import io
import json
import os
import random
import re

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


def write_vllm_bench():
    """vllm bench serve --save-result: json.dump of the run's arguments merged with its result;
    no input_throughput, percentiles only for --metric-percentiles (default 99)."""
    v = {"date": "20251103-101112", "endpoint_type": "openai", "backend": "openai", "label": None,
         "model_id": "meta-llama/Llama-3.1-8B-Instruct", "tokenizer_id": "meta-llama/Llama-3.1-8B-Instruct",
         "num_prompts": 300, "request_rate": "inf", "burstiness": 1.0, "max_concurrency": 64, "duration": 98.21,
         "completed": 298, "failed": 2, "total_input_tokens": 305152, "total_output_tokens": 298000,
         "request_throughput": 3.034, "request_goodput": None, "output_throughput": 3034.3,
         "total_token_throughput": 6141.4, "max_output_tokens_per_s": 4200.0, "max_concurrent_requests": 64.0,
         "mean_ttft_ms": 412.3, "median_ttft_ms": 380.2, "std_ttft_ms": 150.7, "p99_ttft_ms": 1130.4,
         "mean_tpot_ms": 20.6, "median_tpot_ms": 20.4, "std_tpot_ms": 1.1, "p99_tpot_ms": 23.9,
         "mean_itl_ms": 20.6, "median_itl_ms": 18.9, "std_itl_ms": 9.3, "p99_itl_ms": 55.2}
    with open(os.path.join(HERE, "sub/vllm_bench.json"), "w") as f:
        json.dump(v, f)
    # SGLang with --output-details: the per-request lists, errors empty for the requests that succeeded.
    d = sglang_run(float("inf"), None, 98.2, 297, 3)
    d.update({"input_lens": [1024] * 300, "output_lens": [1000] * 297 + [0] * 3, "ttfts": [0.4] * 297 + [0.0] * 3,
              "itls": [[0.02]] * 300, "generated_texts": ["x"] * 300,
              "errors": [""] * 297 + ["Traceback (most recent call last):\nTimeoutError\n"] * 3})
    with open(os.path.join(HERE, "sub/sglang_details.jsonl"), "w") as f:
        f.write(json.dumps(d) + "\n")


def quoted_csv(rows):
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(rows)
    return out.getvalue()


NCU_KERNELS = ['void gemm_kernel<float, 128, "x">(const float *, float *, int, int)',
               "(anonymous namespace)::rmsnorm_kernel(const __half *, __half *, int)",
               "void cutlass::Kernel2<cutlass_80_tensorop_s1688gemm_64x64_32x6_nn_align4>(T1::Params)"]


def write_ncu():
    """ncu 2024/2025 --csv (details page): short units (us, ns, ms, Ghz, Tbyte/s), rule rows with no
    metric, several kernels and launches, a ==WARNING== line and the program's output first; the
    raw page with --print-units base; a run that profiled nothing."""
    header = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
              "Grid Size", "Device", "CC", "Section Name", "Metric Name", "Metric Unit", "Metric Value", "Rule Name",
              "Rule Type", "Rule Description", "Estimated Speedup Type", "Estimated Speedup"]
    sol, mwa, ls = "GPU Speed Of Light Throughput", "Memory Workload Analysis", "Launch Statistics"

    def launch(lid, kernel, grid, dur_unit, dur, dram):
        ident = [str(lid), "52117", "python3.12", "127.0.0.1", kernel, "1", "7", "(128, 1, 1)", grid, "0", "9.0"]
        metrics = [(sol, "DRAM Frequency", "Ghz", "2.62"), (sol, "SM Frequency", "Ghz", "1.75"),
                   (sol, "Elapsed Cycles", "cycle", "1,190,245"), (sol, "Memory Throughput", "%", "91.37"),
                   (sol, "DRAM Throughput", "%", dram), (sol, "Duration", dur_unit, dur),
                   (sol, "Compute (SM) Throughput", "%", "38.44"), (mwa, "Memory Throughput", "Tbyte/s", "3.14"),
                   (mwa, "L2 Persisting Size", "Mbyte", "11.80"), (mwa, "L2 Compression Ratio", "", "0"),
                   (ls, "Registers Per Thread", "register/thread", "32"),
                   (ls, "Shared Memory Configuration Size", "Kbyte", "65.54"), (ls, "Waves Per SM", "", "n/a")]
        rows = [ident + [sec, name, unit, val, "", "", "", "", ""] for sec, name, unit, val in metrics]
        rows.append(ident + [sol, "", "", "", "SOLBottleneck", "OPT", "Memory is more heavily utilized than Compute: "
                             "Look at the Memory Workload Analysis section.", "global", "12.5"])
        return rows

    preamble = ("==PROF== Connected to process 52117 (/usr/bin/python3.12)\n"
                "==WARNING== Found outstanding GPU clock reset, trying to revert...Success.\n"
                '==PROF== Profiling "gemm_kernel" - 0: 0%....50%....100% - 9 passes\n'
                '==PROF== Profiling "rmsnorm_kernel" - 1: 0%....50%....100% - 9 passes\n'
                '==PROF== Profiling "gemm_kernel" - 2: 0%....50%....100% - 9 passes\n'
                '==PROF== Profiling "Kernel2" - 3: 0%....50%....100% - 9 passes\n'
                "loss=1.2345, step 10, lr=3e-4\n"
                "==PROF== Disconnected from process 52117\n")
    text = preamble + quoted_csv([header] + launch(0, NCU_KERNELS[0], "(64, 64, 1)", "us", "456.10", "88.10")
                                 + launch(1, NCU_KERNELS[1], "(4096, 1, 1)", "ns", "812.00", "12.30")
                                 + launch(2, NCU_KERNELS[0], "(64, 64, 1)", "ms", "1.06", "90.50")
                                 + launch(3, NCU_KERNELS[2], "(132, 1, 1)", "us", "1,234.56", "40.00"))
    with open(os.path.join(HERE, "sub/ncu_multi.csv"), "w") as f:
        f.write(text)
    # The same profile as a Windows tool saves it: a byte-order mark and CRLF line ends.
    with open(os.path.join(HERE, "sub/ncu_multi_bom_crlf.csv"), "w", newline="") as f:
        f.write("\ufeff" + text.replace("\n", "\r\n"))
    raw_header = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Context", "Stream", "Block Size",
                  "Grid Size", "Device", "CC", "device__attribute_display_name", "gpu__time_duration.sum",
                  "dram__bytes_read.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
                  "launch__registers_per_thread", "sm__cycles_elapsed.avg.per_second", "dram__bytes_read.sum.per_second",
                  "smsp__sass_inst_executed_op_shared_ld.sum"]
    units = [""] * 12 + ["nsecond", "byte", "%", "register/thread", "hz", "byte/second", "inst"]
    ident = ["52117", "python3.12", "127.0.0.1"]
    r0 = ["0"] + ident + [NCU_KERNELS[0], "1", "7", "(128, 1, 1)", "(64, 64, 1)", "0", "9.0", "NVIDIA H100 80GB HBM3",
                          "456,100", "134,217,728", "88.10", "32", "1,755,000,000", "1,400,000,000,000", "n/a"]
    r1 = ["1"] + ident + [NCU_KERNELS[1], "1", "7", "(128, 1, 1)", "(4096, 1, 1)", "0", "9.0", "NVIDIA H100 80GB HBM3",
                          "812", "4,096", "12.30", "24", "1,755,000,000", "5,044,334,975", "0"]
    with open(os.path.join(HERE, "sub/ncu_raw_base.csv"), "w") as f:
        f.write("==PROF== Connected to process 52117 (/usr/bin/python3.12)\n"
                "==PROF== Disconnected from process 52117\n" + quoted_csv([raw_header, units, r0, r1]))
    # ncu 2022 with --metrics and --print-kernel-base mangled: a "Kernel Time" column, no launch
    # geometry, the section "Command line profiler metrics".
    old_header = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name", "Kernel Time", "Context", "Stream",
                  "Section Name", "Metric Name", "Metric Unit", "Metric Value"]
    old_rows = [["0", "4711", "python3", "host", "_Z14softmax_kernelIfLi256EEvPKfPfii", "2022-08-19 09:14:03", "1", "7",
                 "Command line profiler metrics", "gpu__time_duration.sum", "usecond", "41.28"],
                ["0", "4711", "python3", "host", "_Z14softmax_kernelIfLi256EEvPKfPfii", "2022-08-19 09:14:03", "1", "7",
                 "Command line profiler metrics", "dram__bytes_read.sum", "Mbyte", "2.50"]]
    with open(os.path.join(HERE, "sub/ncu_2022_mangled.csv"), "w") as f:
        f.write('==PROF== Profiling "_Z14softmax_kernelIfLi256EEvPKfPfii" - 0: 0%....50%....100% - 1 pass\n'
                + quoted_csv([old_header] + old_rows))
    with open(os.path.join(HERE, "sub/ncu_none.csv"), "w") as f:
        f.write("==PROF== Connected to process 52117 (/usr/bin/python3.12)\nrows=0\n"
                "==PROF== Disconnected from process 52117\n==WARNING== No kernels were profiled.\n")


def write_nsys():
    """nsys stats --format csv (2025.3) to stdout: every default report in one stream, reports nsys
    SKIPPED for lack of data, and a single report SKIPPED; `-o prefix` writes a bare table."""
    reports = "/opt/nvidia/nsight-systems/2025.3.2/host-linux-x64/reports"
    processing = lambda r: f"Processing [/home/user/task/report1.sqlite] with [{reports}/{r}.py]... \n"
    heading = lambda title, r: f"\n ** {title} ({r}):\n\n"
    kern = ('"Time (%)","Total Time (ns)","Instances","Avg (ns)","Med (ns)","Min (ns)","Max (ns)","StdDev (ns)","Name"\n'
            '91.6,40302784,420,95959.0,95936.0,95199,97119,312.3,"void gemm_kernel<float, 128, ""x"">(const float *, float *, int, int)"\n'
            '6.0,2640000,420,6285.7,6272.0,6176,6560,61.8,"(anonymous namespace)::rmsnorm_kernel(const __half *, __half *, int)"\n'
            '2.4,1056221,420,2514.8,2496.0,2432,2720,40.1,"void at::native::vectorized_elementwise_kernel<4, '
            'at::native::FillFunctor<float>, at::detail::Array<char *, 1>>(int, T2, T3)"\n')
    api = ('"Time (%)","Total Time (ns)","Num Calls","Avg (ns)","Med (ns)","Min (ns)","Max (ns)","StdDev (ns)","Name"\n'
           '96.9,6504565162,1048576,6203.2,5159.0,2928,37814020,99097.6,"cudaLaunchKernel"\n'
           '3.0,203141797,3,67713932.3,103908.0,73162,202964727,117130625.1,"cudaMalloc"\n'
           '0.1,4017591,4,1004397.8,1012632.0,941545,1050782,45652.8,"cudaMemcpy"\n')
    osrt = ('"Time (%)","Total Time (ns)","Num Calls","Avg (ns)","Med (ns)","Min (ns)","Max (ns)","StdDev (ns)","Name"\n'
            '56.2,7592724284,84,90389574.8,100130776.0,2330,370626986,45049255.4,"poll"\n'
            '42.4,5736493727,26,220634374.1,189702756.5,41077614,752975386,124762585.8,"sem_wait"\n')
    mtime = ('"Time (%)","Total Time (ns)","Count","Avg (ns)","Med (ns)","Min (ns)","Max (ns)","StdDev (ns)","Operation"\n'
             '71.2,27064391,2,13532195.5,13532195.5,13497412,13566979,49191.3,"[CUDA memcpy Host-to-Device]"\n'
             '28.8,10947522,1,10947522.0,10947522.0,10947522,10947522,0.0,"[CUDA memcpy Device-to-Host]"\n')
    msize = ('"Total (MB)","Count","Avg (MB)","Med (MB)","Min (MB)","Max (MB)","StdDev (MB)","Operation"\n'
             '268.435,2,134.218,134.218,134.218,134.218,0.000,"[CUDA memcpy Host-to-Device]"\n'
             '134.218,1,134.218,134.218,134.218,134.218,0.000,"[CUDA memcpy Device-to-Host]"\n')
    generating = "Generating SQLite file /home/user/task/report1.sqlite from /home/user/task/report1.nsys-rep\n"
    text = (generating + processing("nvtx_sum")
            + "SKIPPED: /home/user/task/report1.sqlite does not contain NV Tools Extension (NVTX) data.\n\n"
            + processing("osrt_sum") + heading("OS Runtime Summary", "osrt_sum") + osrt + "\n"
            + processing("cuda_api_sum") + heading("CUDA API Summary", "cuda_api_sum") + api + "\n"
            + processing("cuda_gpu_kern_sum") + heading("CUDA GPU Kernel Summary", "cuda_gpu_kern_sum") + kern + "\n"
            + processing("cuda_gpu_mem_time_sum") + heading("CUDA GPU MemOps Summary (by Time)", "cuda_gpu_mem_time_sum")
            + mtime + "\n"
            + processing("cuda_gpu_mem_size_sum") + heading("CUDA GPU MemOps Summary (by Size)", "cuda_gpu_mem_size_sum")
            + msize + "\n"
            + processing("openmp_sum") + "SKIPPED: /home/user/task/report1.sqlite does not contain OpenMP event data.\n\n")
    with open(os.path.join(HERE, "sub/nsys_stats_all.csv"), "w") as f:
        f.write(text)
    with open(os.path.join(HERE, "sub/nsys_kern_skipped.csv"), "w") as f:
        f.write(generating + processing("cuda_gpu_kern_sum")
                + "SKIPPED: /home/user/task/report1.sqlite does not contain CUDA kernel data.\n")
    with open(os.path.join(HERE, "sub/report1_cuda_gpu_kern_sum.csv"), "w") as f:
        f.write(kern)
    # nsys 2022.x named its reports gpukernsum, cudaapisum, ... with the same columns.
    with open(os.path.join(HERE, "sub/nsys_2022_gpukernsum.csv"), "w") as f:
        f.write(generating + f"Processing [/home/user/task/report1.sqlite] with [/opt/nvidia/nsight-systems/2022.4.2/"
                f"host-linux-x64/reports/gpukernsum.py]... \n" + heading("CUDA GPU Kernel Summary", "gpukernsum") + kern)
    # --timeunit usec: every time column in microseconds, named so.
    usec = ('"Time (%)","Total Time (us)","Instances","Avg (us)","Med (us)","Min (us)","Max (us)","StdDev (us)","Name"\n'
            '91.6,40302.784,420,95.959,95.936,95.199,97.119,0.312,"void gemm_kernel<float, 128, ""x"">(const float *, float *, int, int)"\n')
    with open(os.path.join(HERE, "sub/nsys_kern_sum_usec.csv"), "w") as f:
        f.write(processing("cuda_gpu_kern_sum") + heading("CUDA GPU Kernel Summary", "cuda_gpu_kern_sum") + usec)


def write_prometheus_edges():
    """Exposition corners: escaped label values, NaN and ±Inf values, a summary without quantiles
    (prometheus_client) and one with them (Go's client), info and enum families, a timestamp; the
    same registry in OpenMetrics (# EOF, counters named without _total, # TYPE info/stateset)."""
    from prometheus_client import CollectorRegistry, Counter, Enum, Gauge, Histogram, Info, Summary, generate_latest
    from prometheus_client.core import GaugeMetricFamily
    from prometheus_client.openmetrics.exposition import generate_latest as openmetrics_latest
    reg = CollectorRegistry()
    g = Gauge("weird_label", "Label values with escapes.", ["path"], registry=reg)
    g.labels(path='C:\\dir\\"quoted"\nnext').set(1)
    g.labels(path="plain, with comma } brace").set(2)
    Gauge("nan_gauge", "A NaN.", registry=reg).set(float("nan"))
    Gauge("inf_gauge", "An inf.", registry=reg).set(float("inf"))
    Gauge("ninf_gauge", "A -inf.", registry=reg).set(float("-inf"))
    s = Summary("req_latency_seconds", "Request latency.", ["route"], registry=reg)
    s.labels(route="/v1").observe(0.5)
    s.labels(route="/v1").observe(1.5)
    Counter("vllm:num_preemptions", "Cumulative number of preemption from the engine.", ["model_name"],
            registry=reg).labels(model_name="m").inc(0)
    Info("build", "Build info.", registry=reg).info({"version": "0.8.1", "commit": "abc"})
    Enum("state", "State.", states=["running", "stopped"], registry=reg).state("running")
    h = Histogram("lat_seconds", "Latency.", ["engine"], buckets=[0.1, 0.5, 1.0], registry=reg)
    for v in [0.05, 0.2, 0.3, 0.7, 2.0]:
        h.labels(engine="0").observe(v)

    class Stamped:
        def collect(self):
            f = GaugeMetricFamily("ts_gauge", "With a timestamp.", labels=["a"])
            f.add_metric(["x"], 3.5, timestamp=1700000000.123)
            yield f
    reg.register(Stamped())
    fix = lambda t: re.sub(r"^(\S+_created(\{[^}]*\})?) \S+$", r"\1 1.7645530124559e+09", t, flags=re.M)
    with open(os.path.join(HERE, "sub/exposition_edges.prom"), "w") as f:
        f.write(fix(generate_latest(reg).decode()))
    with open(os.path.join(HERE, "sub/openmetrics.prom"), "w") as f:
        f.write(fix(openmetrics_latest(reg).decode()))
    with open(os.path.join(HERE, "sub/go_summary.prom"), "w") as f:
        f.write("# HELP rpc_durations_seconds RPC latency distributions.\n"
                "# TYPE rpc_durations_seconds summary\n"
                'rpc_durations_seconds{service="exponential",quantile="0.5"} 7.689368882420941e-07\n'
                'rpc_durations_seconds{service="exponential",quantile="0.9"} 2.3078815672061764e-06\n'
                'rpc_durations_seconds{service="exponential",quantile="0.99"} 4.6117367205829045e-06\n'
                'rpc_durations_seconds_sum{service="exponential"} 0.0007769519005954818\n'
                'rpc_durations_seconds_count{service="exponential"} 779\n')


def write_encodings():
    """Files as Windows tools save them (a UTF-8 byte-order mark, CRLF), and empty ones."""
    with open(os.path.join(HERE, "sub/bom_crlf.csv"), "w", newline="") as f:
        f.write('\ufeffname,value\r\n"void foo<float, 128>(float *, int)",1\r\n"a ""quoted"" name",2\r\n')
    with open(os.path.join(HERE, "sub/bom.json"), "w", newline="") as f:
        f.write('\ufeff{"output_throughput": 3034.3}\r\n')
    with open(os.path.join(HERE, "sub/bom.jsonl"), "w", newline="") as f:
        f.write('\ufeff{"a": 1}\r\n{"a": NaN}\r\n')
    with open(os.path.join(HERE, "sub/bom.prom"), "w", newline="") as f:
        f.write("\ufeff# HELP x A gauge.\r\n# TYPE x gauge\r\nx 1.0\r\n")
    for name in ["empty.csv", "empty.jsonl", "empty.prom"]:
        open(os.path.join(HERE, "sub", name), "w").close()
    with open(os.path.join(HERE, "sub/header_only.csv"), "w") as f:
        f.write('"a","b"\n')


if __name__ == "__main__":
    write_sglang()
    write_vllm_metrics()
    write_vllm_bench()
    write_ncu()
    write_nsys()
    write_prometheus_edges()
    write_encodings()
