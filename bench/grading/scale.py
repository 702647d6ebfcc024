#!/usr/bin/python3
"""`rubric grade` over generated corpora of 300, 3,000 and 30,000 written answers beside promptfoo's
`eval` (npm promptfoo, the echo provider) grading the same answers with the same three checks, in
the same run: wall and CPU time, cost per submission, peak memory, and whether the verdicts agree.

usage: scale.py RUBRIC_BINARY [SIZES = 300,3000,30000]

promptfoo is installed once into a scratch folder outside the repository
($RUBRIC_BENCH_PROMPTFOO_DIR, default ~/.cache/rubric-bench/promptfoo-VERSION) with npm; where npm
or its registry cannot be reached the peer is skipped with a message. It runs up to
$RUBRIC_BENCH_SCALE_PEER_MAX submissions (default 3,000: at 30,000 it takes minutes).
"""
import json
import os
import random
import resource
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
PROMPTFOO_VERSION = "0.121.20"

# The answer's parts: whether it names the sink, the recency policy, and proposes the wrong fix.
SINK = ["the attention sink blocks are evicted first", "the sink tokens every query attends to are dropped",
        "it evicts the sink blocks at the start of each sequence"]
RECENCY = ["the policy ranks blocks by recency alone", "eviction is plain LRU over block access time"]
WRONG_FIX = ["we should increase the batch size to win the throughput back"]
FILLER = ("Throughput at long context dropped after the change to the cache. The p99 time to first token "
          "grew as well, and the decode steps show partial re-prefills. With the first four blocks pinned "
          "the output throughput at 32k is within 1.5% of the baseline again.").split(". ")


def answer_text(i, rng):
    sink, recency, wrong = i % 2 == 0, (i // 2) % 2 == 0, (i // 4) % 3 == 0
    parts = [rng.choice(FILLER) for _ in range(rng.randint(3, 8))]
    if sink:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(SINK))
    if recency:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(RECENCY))
    if wrong:
        parts.insert(rng.randrange(len(parts) + 1), rng.choice(WRONG_FIX))
    return "# Long-context throughput regression\n\n" + ". ".join(p[0].upper() + p[1:] for p in parts) + f".\n\n<!-- {i} -->\n"


def make_corpus(root, n):
    rng = random.Random(25)
    names = []
    for i in range(n):
        name = f"s{i:05d}"
        os.makedirs(os.path.join(root, name))
        with open(os.path.join(root, name, "answer.md"), "w") as f:
            f.write(answer_text(i, rng))
        names.append(name)
    return names


def promptfoo_config(root, names):
    """The same checks as scale.rubric, as promptfoo assertions with the same weights and pass mark."""
    lines = ["description: rubric scale benchmark peer", "prompts:", "  - '{{answer}}'", "providers:", "  - echo",
             "defaultTest:", "  threshold: 0.7", "  assert:",
             "    - {type: icontains-any, value: ['attention sink', 'sink tokens', 'sink blocks'], weight: 2}",
             "    - {type: icontains-any, value: ['recency', 'LRU'], weight: 1}",
             "    - {type: not-icontains, value: 'increase the batch size', weight: 1}",
             "tests:"]
    for name in names:
        lines.append(f"  - vars: {{id: {name}, answer: 'file://{name}/answer.md'}}")
    path = os.path.join(root, "promptfooconfig.yaml")
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    return path


def install_promptfoo():
    folder = os.environ.get("RUBRIC_BENCH_PROMPTFOO_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "rubric-bench", f"promptfoo-{PROMPTFOO_VERSION}")
    exe = os.path.join(folder, "node_modules", ".bin", "promptfoo")
    if os.path.exists(exe):
        return exe, None
    if shutil.which("npm") is None:
        return None, "npm is not installed"
    os.makedirs(folder, exist_ok=True)
    try:
        proc = subprocess.run(["npm", "install", "--prefix", folder, "--no-audit", "--no-fund", "--loglevel", "error",
                               f"promptfoo@{PROMPTFOO_VERSION}"], capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:
        return None, "npm install took more than 10 minutes"
    if proc.returncode != 0 or not os.path.exists(exe):
        return None, f"npm install promptfoo@{PROMPTFOO_VERSION} failed: {proc.stderr.strip()[-300:]}"
    return exe, None


def run_measured(cmd, cwd=None, env=None):
    """Wall seconds, CPU seconds (user + system, every process it started) and the peak RSS in MiB of
    its largest process, measured from a fresh Python child so that earlier runs do not count."""
    script = ("import resource, subprocess, sys, time, json\n"
              "t = time.perf_counter()\n"
              "p = subprocess.run(sys.argv[1:], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)\n"
              "wall = time.perf_counter() - t\n"
              "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
              "print(json.dumps([p.returncode, wall, r.ru_utime + r.ru_stime, r.ru_maxrss / 1024, p.stderr.decode()[-2000:]]))\n")
    out = subprocess.run([sys.executable, "-c", script] + cmd, cwd=cwd, env=env, capture_output=True, text=True).stdout
    rc, wall, cpu, rss, err = json.loads(out)
    return rc, wall, cpu, rss, err


def rubric_verdicts(out_dir):
    verdicts = {}
    with open(os.path.join(out_dir, "results.jsonl")) as f:
        for line in f:
            r = json.loads(line)
            verdicts[os.path.basename(r["submission"].rstrip("/"))] = r["verdict"]
    return verdicts


def promptfoo_verdicts(path):
    with open(path) as f:
        doc = json.load(f)
    results = doc.get("results", {})
    rows = results.get("results", []) if isinstance(results, dict) else results
    return {row["vars"]["id"]: "PASS" if row.get("success") else "FAIL" for row in rows}


def main():
    exe = os.path.abspath(sys.argv[1])
    sizes = [int(s) for s in (sys.argv[2] if len(sys.argv) > 2 else "300,3000,30000").split(",")]
    peer_max = int(os.environ.get("RUBRIC_BENCH_SCALE_PEER_MAX", "3000"))
    rubric = os.path.join(HERE, "scale.rubric")
    print(f"grading at scale: load average {' '.join(open('/proc/loadavg').read().split()[:3])}")
    promptfoo, why_not = install_promptfoo()
    if promptfoo is None:
        print(f"  promptfoo skipped: {why_not}")
    tmp = tempfile.mkdtemp(prefix="rubric-bench-scale-")
    env = dict(os.environ, PROMPTFOO_DISABLE_TELEMETRY="1", PROMPTFOO_DISABLE_UPDATE="1",
               PROMPTFOO_CONFIG_DIR=os.path.join(tmp, "promptfoo-home"), PROMPTFOO_DISABLE_SHARING="1")
    rows = []
    try:
        for n in sizes:
            root = os.path.join(tmp, f"corpus{n}")
            names = make_corpus(root, n)
            listing = os.path.join(root, "list.txt")
            with open(listing, "w") as f:
                f.write("\n".join(os.path.join(root, name) for name in names) + "\n")
            out = os.path.join(tmp, f"out{n}")
            cmd = [exe, "grade", rubric, "--submissions-from", listing, "--out", out, "--jobs", "2", "--quiet"]
            rc, wall, cpu, rss, err = run_measured(cmd)
            if rc not in (0, 2):
                sys.exit(f"rubric grade failed ({rc}): {err}")
            ours = rubric_verdicts(out)
            assert len(ours) == n, (len(ours), n)
            row = {"n": n, "wall": wall, "cpu": cpu, "rss": rss, "peer": None}
            if promptfoo and n <= peer_max:
                config = promptfoo_config(root, names)
                result = os.path.join(tmp, f"promptfoo{n}.json")
                pcmd = [promptfoo, "eval", "-c", config, "-o", result, "--no-cache", "--no-table", "--no-write",
                        "--no-progress-bar", "-j", "2"]
                prc, pwall, pcpu, prss, perr = run_measured(pcmd, cwd=root, env=env)
                if prc not in (0, 100) or not os.path.exists(result):
                    print(f"  promptfoo eval failed at {n} ({prc}): {perr.strip()[-500:]}")
                else:
                    theirs = promptfoo_verdicts(result)
                    agree = sum(1 for k, v in ours.items() if theirs.get(k) == v)
                    row["peer"] = (pwall, pcpu, prss, agree)
            rows.append(row)
            shutil.rmtree(root, ignore_errors=True)
            shutil.rmtree(out, ignore_errors=True)

        print(f"  rubric grade --jobs 2 over N answers (3 criteria); promptfoo {PROMPTFOO_VERSION} eval -j 2, echo provider,"
              " the same checks (--no-write --no-cache)")
        for r in rows:
            n = r["n"]
            line = (f"  N={n:>6}: rubric {r['wall']:7.2f} s ({1000 * r['wall'] / n:5.2f} ms each, cpu {r['cpu']:6.2f} s,"
                    f" peak RSS {r['rss']:5.1f} MiB)")
            if r["peer"]:
                pwall, pcpu, prss, agree = r["peer"]
                line += (f"  promptfoo {pwall:7.2f} s (cpu {pcpu:6.2f} s, peak RSS {prss:6.1f} MiB)  ratio {pwall / r['wall']:5.1f}x"
                         f"  verdicts agree {agree}/{n}")
            elif promptfoo:
                line += f"  promptfoo not run (above RUBRIC_BENCH_SCALE_PEER_MAX={peer_max})"
            print(line)
        if len(rows) > 1:
            first, last = rows[0], rows[-1]
            print(f"  cost per submission {1000 * first['wall'] / first['n']:.2f} -> {1000 * last['wall'] / last['n']:.2f} ms"
                  f" from {first['n']} to {last['n']}; peak RSS {first['rss']:.1f} -> {last['rss']:.1f} MiB"
                  " (target: at least 15x promptfoo at 3,000, cost and memory flat)")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print(f"  load average at the end {' '.join(open('/proc/loadavg').read().split()[:3])}")


if __name__ == "__main__":
    main()
