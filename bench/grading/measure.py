#!/usr/bin/python3
"""`rubric grade --jobs 2` against a shell loop of `rubric check` over the same generated corpus
of N submissions (text and JSON checks), in the same run, in wall time and in CPU time; then a cached re-run, and the peak
memory of grading N/4 and N submissions (it should stay flat: results are streamed).

usage: measure.py RUBRIC_BINARY [N]
"""
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
EXAMPLE = os.path.join(HERE, "..", "..", "examples", "kv_cache")


def make_corpus(root, n):
    subs = []
    for i in range(n):
        d = os.path.join(root, f"s{i:05d}")
        os.makedirs(d)
        src = os.path.join(EXAMPLE, "submissions", ["good", "regressed", "wrong_fix"][i % 3])
        shutil.copy(os.path.join(src, "bench_32768.json"), d)
        with open(os.path.join(src, "answer.md")) as f:
            answer = f.read()
        with open(os.path.join(d, "answer.md"), "w") as f:
            f.write(answer + f"\n<!-- sample {i} -->\n")
        with open(os.path.join(d, "result.json"), "w") as f:
            json.dump({"tokens": 32768, "layers": list(range(32 if i % 5 else 31))}, f)
        subs.append(d)
    return subs


CPU = [0.0]  # CPU seconds (user + system) of the last timed command and everything it started


def timed(cmd, **kw):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, **kw)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    CPU[0] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, proc


def peak_rss_mib(cmd):
    """Peak RSS of the batch process alone (its grading processes are forks of it)."""
    script = ("import resource, subprocess, sys; subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, "
              "stderr=subprocess.DEVNULL); print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)")
    out = subprocess.run([sys.executable, "-c", script] + cmd, capture_output=True, text=True).stdout
    return int(out.strip()) / 1024


def main():
    exe = os.path.abspath(sys.argv[1])
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    rubric = os.path.join(HERE, "grading.rubric")
    reference = os.path.join(EXAMPLE, "reference")
    tmp = tempfile.mkdtemp(prefix="rubric-bench-grading-")
    try:
        subs = make_corpus(os.path.join(tmp, "corpus"), n)
        listing = os.path.join(tmp, "list.txt")
        with open(listing, "w") as f:
            f.write("\n".join(subs) + "\n")
        loop = ('while read -r d; do "$0" check "$1" --submission "$d" --reference "$2" --format json '
                '> /dev/null; done < "$3"')
        t_loop, _ = timed(["bash", "-c", loop, exe, rubric, reference, listing])
        cpu_loop = CPU[0]
        out = os.path.join(tmp, "out")
        grade = [exe, "grade", rubric, "--submissions-from", listing, "--reference", reference, "--out", out,
                 "--jobs", "2", "--quiet"]
        t_grade, proc = timed(grade)
        cpu_grade = CPU[0]
        if proc.returncode not in (0, 2):
            sys.exit(f"rubric grade failed ({proc.returncode}): {proc.stderr}")
        with open(os.path.join(out, "results.jsonl")) as f:
            lines = [json.loads(line) for line in f]
        assert len(lines) == n, len(lines)
        checks = sum(line["seconds"] for line in lines)
        t_cached, _ = timed(grade)
        print(f"grading: {n} submissions, text and JSON checks")
        print(f"  shell loop of `rubric check`: {t_loop:.2f} s ({1000 * t_loop / n:.1f} ms each)")
        print(f"  rubric grade --jobs 2:        {t_grade:.2f} s ({1000 * t_grade / n:.1f} ms each)"
              f"  ratio {t_loop / t_grade:.1f}x (target >= 5x on 2 cores)")
        print(f"  CPU time (user + system):     loop {cpu_loop:.2f} s, grade {cpu_grade:.2f} s, ratio "
              f"{cpu_loop / cpu_grade:.1f}x (what a shared machine's load does not change)")
        print(f"  per submission: {1000 * checks / n:.2f} ms grading it (hash and checks, wall time in its process), "
              f"{1000 * cpu_grade / n:.2f} ms of CPU in all (worker, hash, checks, line)")
        print(f"  cached re-run (all reused):   {t_cached:.2f} s ({1000 * t_cached / n:.2f} ms each)")
        small = [exe, "grade", rubric, "--submissions-from", listing, "--reference", reference, "--jobs", "2",
                 "--quiet", "--regrade"]
        quarter = os.path.join(tmp, "quarter.txt")
        with open(quarter, "w") as f:
            f.write("\n".join(subs[: max(1, n // 4)]) + "\n")
        rss_small = peak_rss_mib(small[:3] + ["--submissions-from", quarter] + small[5:] + ["--out", os.path.join(tmp, "o1")])
        rss_full = peak_rss_mib(small + ["--out", os.path.join(tmp, "o2")])
        print(f"  peak memory: {rss_small:.1f} MiB for {max(1, n // 4)}, {rss_full:.1f} MiB for {n}"
              f" (ratio {rss_full / rss_small:.2f})")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
