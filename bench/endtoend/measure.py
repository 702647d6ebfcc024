#!/usr/bin/env python3
"""`rubric check` measured as a whole process, as a user runs it, next to peers in the same run.

Usage: measure.py RUBRIC_BINARY [TENSOR_MIB = 512] [DIR = /tmp]. Prints, for each workload, the best
wall time of interleaved runs (rubric, the peer, a plain read of the same files) and their ratios.
RUBRIC_BENCH_WORKLOADS=prose,run (names below, comma-separated) runs only those; all by default:

  tensors  one criterion `load(a) matches load(b) to 1e-3` on two f32 .npy files (TENSOR_MIB each)
           vs numpy.allclose on the same files memory-mapped (np.load(mmap_mode="r")), vs `cat`
  json     20 criteria over a 30 MB JSON file of request records vs Python's json module doing the same
  text     20 criteria (phrases, regexes, counts) over a 30 MB answer vs Python's str and re doing the same
  mentions 20 `mentions any` criteria alone over that answer vs Python's re (escaped phrases, IGNORECASE)
  prose_large  affirms over 5 concepts of std.concepts, an affirms any and a denies over the 30 MB answer of
           `text` (no peer: the figure beside the check that only reads it)
  prose    affirms over the 13 concepts of std.concepts, a denies and claims() over a 1 MiB answer made of
           the labelled corpus's sentences, vs `rubric check` of the same answer that only reads it
           (the difference is what the text operators cost the user), vs `cat`
  run      one criterion running /bin/true in the sandbox vs the same check without the run vs
           /bin/true spawned directly (the difference is what isolation costs the user); the
           same run again with a TMPDIR holding 1,000 unrelated entries (the start-up sweep of
           killed graders' folders reads TMPDIR and /tmp)
  startup  `rubric check` on a small rubric vs `rubric --version` vs /bin/true

Peers run inside one Python process (their interpreter start-up is not counted; rubric's is). Files
are in the page cache (read once first). The CPU time (user + sys) of each rubric run is printed too:
on a shared machine the wall time also holds the waits for a core. The load average is printed
before and after.
"""
import json
import os
import random
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

REPEAT = int(os.environ.get("RUBRIC_BENCH_REPEAT", "5"))


def timed_process(cmd, env=None):
    """Wall and CPU seconds of one run of `cmd` (stdout discarded); exits on an unexpected status."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0,):
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def timed_call(fn):
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


def best_interleaved(contenders):
    """contenders: {name: callable returning (wall, cpu_or_None)}. Runs them in turn REPEAT times so a
    change of load hits all alike; returns {name: (best wall, cpu of that run)}."""
    best = {name: (float("inf"), None) for name in contenders}
    for _ in range(REPEAT):
        for name, run in contenders.items():
            wall, cpu = run()
            if wall < best[name][0]:
                best[name] = (wall, cpu)
    return best


def check_cmd(rubric, folder):
    return [rubric, "check", os.path.join(folder, "task.rubric"), "--submission", os.path.join(folder, "submission"),
            "--reference", os.path.join(folder, "reference"), "--format", "json", "--output", os.devnull]


def write_rubric(folder, body):
    for side in ("submission", "reference"):
        os.makedirs(os.path.join(folder, side), exist_ok=True)
    with open(os.path.join(folder, "task.rubric"), "w") as fh:
        fh.write(body)


def warm(paths):
    for p in paths:
        with open(p, "rb") as fh:
            while fh.read(1 << 24):
                pass


def print_rows(title, best):
    """The title, then each contender's best wall time (and CPU time where measured)."""
    print(title)
    for name, (wall, cpu) in best.items():
        cpu_text = f"   cpu {cpu * 1e3:7.1f} ms" if cpu is not None else ""
        print(f"  {name:<44} {wall * 1e3:9.1f} ms{cpu_text}")


def beside_reading(rubric, tmp, name, head, folder, path, label):
    """The check in `folder` timed beside a check of the same answer that only reads it, and `cat` of the
    answer: the text operators' cost is the difference. Returns the best times and the two checks' pairs."""
    reading = os.path.join(tmp, name)
    write_rubric(reading, head + 'criterion read "read" {\n  expect len(answer) > 0\n}\n')
    shutil.copyfile(path, os.path.join(reading, "submission", "answer.md"))
    warm([path])
    best = best_interleaved({
        label: lambda: timed_process(check_cmd(rubric, folder)),
        "rubric check (reads the answer only)": lambda: timed_process(check_cmd(rubric, reading)),
        "cat (the file)": lambda: timed_process(["cat", path]),
    })
    return best, best[label], best["rubric check (reads the answer only)"]


def report(title, best, rubric_name, peer_name, read_name, notes):
    r, peer = best[rubric_name][0], best[peer_name][0]
    print_rows(title, best)
    print(f"  {peer_name} / rubric check: {peer / r:5.1f}x" + notes.get("peer", ""))
    if read_name:
        print(f"  fraction of the read bound ({read_name} / rubric check): {best[read_name][0] / r:5.0%}"
              + notes.get("read", ""))


def tensors(rubric, tmp, mib):
    import numpy as np

    folder = os.path.join(tmp, "tensors")
    write_rubric(folder, 'rubric "two tensors" { version: "1.0" }\n'
                         'criterion y "y matches the reference to 1e-3" {\n'
                         '  expect load(submission / "y.npy") matches load(reference / "y.npy") to 1e-3\n}\n')
    n = mib * (1 << 20) // 4
    rng = np.random.default_rng(7)
    ref = rng.standard_normal(n, dtype=np.float32)
    np.save(os.path.join(folder, "reference", "y.npy"), ref)
    ref += np.float32(1e-5) * rng.standard_normal(n, dtype=np.float32)
    np.save(os.path.join(folder, "submission", "y.npy"), ref)
    del ref
    paths = [os.path.join(folder, side, "y.npy") for side in ("submission", "reference")]
    warm(paths)

    def numpy_allclose():
        wall, ok = timed_call(lambda: bool(np.allclose(np.load(paths[0], mmap_mode="r"), np.load(paths[1], mmap_mode="r"),
                                                       rtol=1e-3, atol=1e-3)))
        if not ok:
            sys.exit("numpy.allclose says the tensors differ: the benchmark's data is wrong")
        return wall, None

    best = best_interleaved({
        "rubric check": lambda: timed_process(check_cmd(rubric, folder)),
        "numpy.allclose (mmap)": numpy_allclose,
        "cat (both files)": lambda: timed_process(["cat"] + paths),
    })
    report(f"tensors: `rubric check`, one criterion, two f32 .npy files of {mib} MiB (best of {REPEAT})", best,
           "rubric check", "numpy.allclose (mmap)", "cat (both files)",
           {"peer": "   target >= 5x", "read": "   target >= 100%"})


def json_heavy(rubric, tmp):
    folder = os.path.join(tmp, "json")
    rng = random.Random(7)
    requests = [{"id": i, "prompt_tokens": rng.randint(16, 4096), "output_tokens": rng.randint(1, 1024),
                 "ttft_ms": rng.uniform(20, 400), "latency_ms": rng.uniform(100, 9000), "ok": rng.random() > 0.01,
                 "model": rng.choice(["llama-8b", "llama-70b", "mixtral"])} for i in range(200_000)]
    for side in ("submission", "reference"):
        os.makedirs(os.path.join(folder, side), exist_ok=True)
        with open(os.path.join(folder, side, "requests.json"), "w") as fh:
            json.dump({"requests": requests}, fh)
    criteria = []
    for i in range(20):
        kind = i % 4
        if kind == 0:
            body = "expect len(cand.requests) == len(base.requests)"
        elif kind == 1:
            body = "expect sum(map(cand.requests, r => r.output_tokens)) >= 0.95 * sum(map(base.requests, r => r.output_tokens))"
        elif kind == 2:
            body = "expect count(cand.requests, r => r.ok) >= 0.98 * len(cand.requests)"
        else:
            body = f"expect len(filter(cand.requests, r => r.ttft_ms < {100 + i * 10})) > 0"
        criteria.append(f'criterion c{i} "criterion {i}" {{\n  {body}\n}}\n')
    write_rubric(folder, 'rubric "request logs" { version: "1.0" }\n'
                 'let cand = json(submission / "requests.json")\nlet base = json(reference / "requests.json")\n'
                 + "".join(criteria))
    paths = [os.path.join(folder, side, "requests.json") for side in ("submission", "reference")]
    warm(paths)

    def python_json():
        def work():
            with open(paths[0]) as a, open(paths[1]) as b:
                cand, base = json.load(a)["requests"], json.load(b)["requests"]
            results = []
            for i in range(20):
                kind = i % 4
                if kind == 0:
                    results.append(len(cand) == len(base))
                elif kind == 1:
                    results.append(sum(r["output_tokens"] for r in cand) >= 0.95 * sum(r["output_tokens"] for r in base))
                elif kind == 2:
                    results.append(sum(1 for r in cand if r["ok"]) >= 0.98 * len(cand))
                else:
                    results.append(len([r for r in cand if r["ttft_ms"] < 100 + i * 10]) > 0)
            return all(results)
        return timed_call(work)[0], None

    best = best_interleaved({
        "rubric check": lambda: timed_process(check_cmd(rubric, folder)),
        "python json + the same checks": python_json,
        "cat (both files)": lambda: timed_process(["cat"] + paths),
    })
    mb = os.path.getsize(paths[0]) / 1e6
    report(f"json: 20 criteria over two {mb:.0f} MB JSON files of 200,000 records (best of {REPEAT})", best,
           "rubric check", "python json + the same checks", "cat (both files)", {})


def write_long_answer(path):
    """About 30 MB of sentences over the field's words, one of them naming the real cause."""
    rng = random.Random(7)
    words = ("the kernel eviction policy cache block attention sink tokens recency throughput latency warp shared "
             "memory bank conflict padding swizzle occupancy register spill tensor core pipeline stage").split()
    lines = []
    size = 0
    while size < 30_000_000:
        line = " ".join(rng.choice(words) for _ in range(12)) + f" measured {rng.uniform(1, 20):.2f}x speedup.\n"
        lines.append(line)
        size += len(line)
    lines.insert(len(lines) // 2, "The root cause is recency-only eviction dropping the attention-sink blocks.\n")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as fh:
        fh.writelines(lines)


def text_heavy(rubric, tmp):
    folder = os.path.join(tmp, "text")
    write_long_answer(os.path.join(folder, "submission", "answer.md"))
    phrases = ["attention-sink blocks", "recency-only eviction", "increase the batch size", "bank conflict",
               "Root Cause", "speedup"]
    criteria = []
    for i in range(20):
        kind = i % 4
        if kind == 0:
            body = f'expect answer mentions any {json.dumps(phrases[i % len(phrases):] + phrases[:1])}'
        elif kind == 1:
            body = 'expect not (answer mentions "increase the batch size")'
        elif kind == 2:
            body = f'expect len(find(answer, r"([0-9]+\\.[0-9]+)x speedup")) > {i}'
        else:
            body = 'expect len(lines(answer)) > 1000'
        criteria.append(f'criterion c{i} "criterion {i}" {{\n  {body}\n}}\n')
    write_rubric(folder, 'rubric "a long answer" { version: "1.0" }\n'
                 'let answer = text(submission / "answer.md", limit = 64 MiB)  # past the 16 MiB default cap\n' + "".join(criteria))
    path = os.path.join(folder, "submission", "answer.md")
    warm([path])

    def python_text():
        def work():
            with open(path, encoding="utf-8") as fh:
                answer = fh.read()
            folded = answer.lower()
            results = []
            for i in range(20):
                kind = i % 4
                if kind == 0:
                    results.append(any(p.lower() in folded for p in phrases[i % len(phrases):] + phrases[:1]))
                elif kind == 1:
                    results.append("increase the batch size" not in folded)
                elif kind == 2:
                    results.append(len(re.findall(r"([0-9]+\.[0-9]+)x speedup", answer)) > i)
                else:
                    results.append(len(answer.splitlines()) > 1000)
            return results
        return timed_call(work)[0], None

    best = best_interleaved({
        "rubric check": lambda: timed_process(check_cmd(rubric, folder)),
        "python str/re + the same checks": python_text,
        "cat (the file)": lambda: timed_process(["cat", path]),
    })
    mb = os.path.getsize(path) / 1e6
    report(f"text: 20 criteria (phrases, regexes, lines) over a {mb:.0f} MB answer (best of {REPEAT})", best,
           "rubric check", "python str/re + the same checks", "cat (the file)", {})


def mentions_only(rubric, tmp):
    """20 `mentions` criteria alone over the 30 MB answer of `text` vs Python's re doing the same searches
    (case-insensitive, literal phrases: re.escape, re.IGNORECASE), the file read in both."""
    folder = os.path.join(tmp, "mentions")
    path = os.path.join(folder, "submission", "answer.md")
    write_long_answer(path)
    present = ["attention-sink blocks", "Recency-only eviction", "bank conflict", "Root Cause", "speedup"]
    absent = ["increase the batch size", "paged attention", "flash decoding", "Speculative decoding"]
    searches = []
    for i in range(20):
        if i % 2 == 0:
            searches.append(absent[i % len(absent):] + [present[i % len(present)]])
        else:
            searches.append([absent[i % len(absent)]])
    criteria = []
    for i, phrases in enumerate(searches):
        criteria.append(f'criterion c{i} "criterion {i}" {{\n  expect (answer mentions any {json.dumps(phrases)}) or true\n}}\n')
    write_rubric(folder, 'rubric "mentions over a long answer" { version: "1.0" }\n'
                 'let answer = text(submission / "answer.md", limit = 64 MiB)\n' + "".join(criteria))
    warm([path])

    def python_re():
        def work():
            with open(path, encoding="utf-8") as fh:
                answer = fh.read()
            return [re.search("|".join(re.escape(p) for p in phrases), answer, re.IGNORECASE) is not None
                    for phrases in searches]
        return timed_call(work)[0], None

    def python_str():
        def work():
            with open(path, encoding="utf-8") as fh:
                folded = fh.read().lower()
            return [any(p.lower() in folded for p in phrases) for phrases in searches]
        return timed_call(work)[0], None

    best = best_interleaved({
        "rubric check": lambda: timed_process(check_cmd(rubric, folder)),
        "python re (IGNORECASE) + the same searches": python_re,
        "python str.lower() and `in`": python_str,
        "cat (the file)": lambda: timed_process(["cat", path]),
    })
    mb = os.path.getsize(path) / 1e6
    report(f"mentions: 20 criteria of `mentions any` (10 phrases found, 10 absent: whole scans) over a {mb:.0f} MB "
           f"answer (best of {REPEAT})", best, "rubric check", "python re (IGNORECASE) + the same searches",
           "cat (the file)", {"peer": "   target >= 3x"})
    print(f"  python str.lower() and `in` / rubric check: {best['python str.lower() and `in`'][0] / best['rubric check'][0]:5.1f}x"
          "   (a plain-string peer: it folds case only, `mentions` also white space, hyphens and quotes)")


def startup(rubric, tmp):
    folder = os.path.join(tmp, "small")
    write_rubric(folder, 'rubric "small" { version: "1.0" }\n'
                 'let r = json(submission / "result.json")\n'
                 'criterion fast "fast enough" {\n  expect r.seconds < 2\n}\n'
                 'criterion named "names the cause" {\n  expect text(submission / "answer.md") mentions "bank conflict"\n}\n')
    with open(os.path.join(folder, "submission", "result.json"), "w") as fh:
        json.dump({"seconds": 1.5}, fh)
    with open(os.path.join(folder, "submission", "answer.md"), "w") as fh:
        fh.write("A shared-memory bank conflict serialises the loads.\n")
    global REPEAT
    saved, REPEAT = REPEAT, max(REPEAT, 20)
    best = best_interleaved({
        "rubric check (2 criteria, 2 small files)": lambda: timed_process(check_cmd(rubric, folder)),
        "rubric --version": lambda: timed_process([rubric, "--version"]),
        "/bin/true": lambda: timed_process(["/bin/true"]),
    })
    REPEAT = saved
    print_rows(f"startup: `rubric check` on a small rubric (best of {max(REPEAT, 20)})", best)
    print(f"  rubric check: {best['rubric check (2 criteria, 2 small files)'][0] * 1e3:.1f} ms   target <= 10 ms")


def prose(rubric, tmp):
    folder = os.path.join(tmp, "prose")
    corpus = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "text", "corpus",
                          "polarity.tsv")
    with open(corpus, encoding="utf-8") as fh:
        sentences = [line.rstrip("\n").split("\t")[2] for line in fh
                     if not line.startswith("#") and line.count("\t") >= 2]
    rng = random.Random(11)
    parts, size = [], 0
    while size < 1 << 20:
        paragraph = " ".join(rng.choice(sentences) for _ in range(6)) + "\n\n"
        parts.append(paragraph)
        size += len(paragraph.encode())
    write_rubric(folder, "")
    path = os.path.join(folder, "submission", "answer.md")
    with open(path, "w", encoding="utf-8") as fh:
        fh.writelines(parts)
    concepts = ["bank_conflict", "coalescing", "occupancy", "register_spill", "kv_cache_eviction", "prefix_caching",
                "attention_sink", "recomputation", "preemption", "reduction_order", "accumulation_precision",
                "all_reduce", "sharding"]
    head = ('rubric "a long written answer" { version: "1.0" }\nuse std.concepts\n'
            'let answer = text(submission / "answer.md")\n')
    # `or true`: the operator runs to its verdict, and the process exits 0 whatever the answer says.
    body = "".join(f'criterion {c} "{c}" {{\n  expect (answer affirms {c}) or true\n}}\n' for c in concepts)
    body += 'criterion denial "denies" {\n  expect (answer denies "increase the batch size") or true\n}\n'
    body += 'criterion quantities "claims" {\n  expect len(claims(answer)) >= 0\n}\n'
    with open(os.path.join(folder, "task.rubric"), "w") as fh:
        fh.write(head + body)
    best, full, read = beside_reading(rubric, tmp, "prose_read", head, folder, path,
                                      "rubric check (13 concepts, denies, claims)")
    print_rows(f"prose: std.concepts, denies and claims over a {size / 2**20:.1f} MiB answer (best of {REPEAT})", best)
    print(f"  the text operators: {(full[0] - read[0]) * 1e3:.1f} ms wall, {(full[1] - read[1]) * 1e3:.1f} ms cpu "
          f"({full[0] / read[0]:.1f}x the process that only reads the answer)")


def prose_large(rubric, tmp):
    """affirms, denies and std.concepts over the 30 MB answer of `text`: no peer does this; the figure is
    stated beside the check that only reads the answer, and `cat`."""
    folder = os.path.join(tmp, "prose_large")
    path = os.path.join(folder, "submission", "answer.md")
    write_long_answer(path)
    head = ('rubric "a very long written answer" { version: "1.0" }\nuse std.concepts\n'
            'let answer = text(submission / "answer.md", limit = 64 MiB)\n')
    concepts = ["attention_sink", "kv_cache_eviction", "bank_conflict", "register_spill", "occupancy"]
    body = "".join(f'criterion {c} "{c}" {{\n  expect (answer affirms {c}) or true\n}}\n' for c in concepts)
    body += 'criterion cause "affirms the cause" {\n  expect (answer affirms any ["recency-only eviction", "attention sink"]) or true\n}\n'
    body += 'criterion denial "denies" {\n  expect (answer denies "increase the batch size") or true\n}\n'
    write_rubric(folder, head + body)
    best, full, read = beside_reading(rubric, tmp, "prose_large_read", head, folder, path,
                                      "rubric check (5 concepts, affirms, denies)")
    mb = os.path.getsize(path) / 1e6
    print_rows(f"prose, large: 5 std.concepts, affirms any and denies over a {mb:.0f} MB answer (best of {REPEAT}; no peer)",
               best)
    print(f"  the text operators: {(full[0] - read[0]) * 1e3:.0f} ms wall ({mb / full[0]:.0f} MB/s for the whole check)")


def isolated_run(rubric, tmp):
    folder = os.path.join(tmp, "run")
    write_rubric(folder, 'rubric "one run" { version: "1.0" }\n'
                 'criterion runs "runs" {\n  expect run(["/bin/true"]).exit == 0\n}\n')
    without = os.path.join(tmp, "norun")
    write_rubric(without, 'rubric "no run" { version: "1.0" }\ncriterion runs "runs" {\n  expect 0 == 0\n}\n')
    crowded = os.path.join(tmp, "crowded-tmpdir")
    os.makedirs(crowded, exist_ok=True)
    os.chmod(crowded, 0o711)
    for i in range(500):
        os.makedirs(os.path.join(crowded, f"unrelated-dir-{i}"), exist_ok=True)
        open(os.path.join(crowded, f"unrelated-file-{i}"), "w").close()
    crowded_env = dict(os.environ, TMPDIR=crowded)
    global REPEAT
    saved, REPEAT = REPEAT, max(REPEAT, 20)
    best = best_interleaved({
        "rubric check (one isolated run of /bin/true)": lambda: timed_process(check_cmd(rubric, folder)),
        "the same, TMPDIR with 1,000 entries": lambda: timed_process(check_cmd(rubric, folder), crowded_env),
        "rubric check (the same without the run)": lambda: timed_process(check_cmd(rubric, without)),
        "/bin/true": lambda: timed_process(["/bin/true"]),
    })
    REPEAT = saved
    with_run, plain = best["rubric check (one isolated run of /bin/true)"], best["rubric check (the same without the run)"]
    print_rows(f"run: one sandboxed run as the user waits for it (best of {max(REPEAT, 20)})", best)
    print(f"  the isolated run adds {(with_run[0] - plain[0]) * 1e3:.1f} ms wall, {(with_run[1] - plain[1]) * 1e3:.1f} ms "
          f"cpu to the process (/bin/true alone: {best['/bin/true'][0] * 1e3:.1f} ms)")
    crowd = best["the same, TMPDIR with 1,000 entries"]
    print(f"  a TMPDIR of 1,000 entries adds {(crowd[0] - with_run[0]) * 1e3:.1f} ms wall, "
          f"{(crowd[1] - with_run[1]) * 1e3:.1f} ms cpu")


def main():
    rubric = os.path.abspath(sys.argv[1])
    mib = int(sys.argv[2]) if len(sys.argv) > 2 else 512
    where = sys.argv[3] if len(sys.argv) > 3 else "/tmp"
    print(f"end to end: {os.cpu_count()} cores, load average {os.getloadavg()[0]:.2f} at the start "
          "(other processes share the cores; compare ratios, not seconds)")
    workloads = {"startup": lambda t: startup(rubric, t), "json": lambda t: json_heavy(rubric, t),
                 "text": lambda t: text_heavy(rubric, t), "mentions": lambda t: mentions_only(rubric, t),
                 "prose": lambda t: prose(rubric, t),
                 "prose_large": lambda t: prose_large(rubric, t),
                 "run": lambda t: isolated_run(rubric, t), "tensors": lambda t: tensors(rubric, t, mib)}
    chosen = [w for w in os.environ.get("RUBRIC_BENCH_WORKLOADS", ",".join(workloads)).split(",") if w]
    unknown = [w for w in chosen if w not in workloads]
    if unknown:
        sys.exit(f"unknown workload(s) {', '.join(unknown)}: choose from {', '.join(workloads)}")
    tmp = tempfile.mkdtemp(prefix="rubric_e2e_", dir=where)
    try:
        for name in chosen:
            workloads[name](tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"end to end: load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
