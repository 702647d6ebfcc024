#!/usr/bin/python3
"""Integration tests of `rubric grade` and `rubric merge`: real rubric processes over generated
submission corpora (every verdict, a killed run resumed, shards merged, Slurm through a fake
sbatch/scontrol on PATH).

usage: test_grading.py RUBRIC_BINARY [unittest args...]
"""
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
RUBRIC_EXE = None

GOOD_RUNS = [116.33, 117.632, 118.778, 118.032, 116.437, 119.103, 117.153, 119.643, 117.645, 119.146]
NOISY_RUNS = [130.64, 103.219, 110.198, 108.731, 108.597, 106.534, 104.889, 122.572, 132.436, 100.901]
KINDS = ("pass", "fail", "error", "incomplete")


def env_without_ci(**extra):
    env = {k: v for k, v in os.environ.items() if k not in ("CI", "NO_COLOR", "RUBRIC_PATH")}
    env["LC_ALL"] = "C.UTF-8"
    env.update(extra)
    return env


def run(args, cwd=None, env=None, timeout=300, check_exit=None):
    proc = subprocess.run([RUBRIC_EXE] + args, cwd=cwd, env=env or env_without_ci(), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=timeout)
    if check_exit is not None and proc.returncode != check_exit:
        raise AssertionError(f"rubric {' '.join(args)}: exit {proc.returncode}, expected {check_exit}\n"
                             f"stdout:\n{proc.stdout}\nstderr:\n{proc.stderr}")
    return proc


def write_submission(path, kind, salt=0):
    """A submission of `kind` for corpus.rubric; `salt` makes otherwise equal ones differ in content."""
    os.makedirs(path, exist_ok=True)
    answer = "It is slow." if kind == "fail" else "The attention sink blocks were evicted."
    with open(os.path.join(path, "answer.md"), "w") as f:
        f.write(f"{answer}\n<!-- {salt} -->\n")
    variant = "missing" if kind == "error" else ("a" if salt % 2 == 0 else "b")
    with open(os.path.join(path, "result.json"), "w") as f:
        json.dump({"tokens": 32768, "variant": variant}, f)
    with open(os.path.join(path, "runs.json"), "w") as f:
        json.dump(NOISY_RUNS if kind == "incomplete" else GOOD_RUNS, f)


def make_corpus(root, per_kind, kinds=KINDS):
    """per_kind submissions of each kind under root; returns (paths, expected verdict by path)."""
    expected = {}
    n = 0
    for kind in kinds:
        for i in range(per_kind):
            path = os.path.join(root, f"sub-{n:04d}-{kind}")
            write_submission(path, kind, salt=n)
            expected[path] = kind.upper()
            n += 1
    return sorted(expected), expected


def shard_of(path, count):
    """The shard `rubric grade --shard I/N` gives a submission (grading/shard.cpp), for choosing corpora."""
    digest = hashlib.sha256(os.path.normpath(path).encode()).hexdigest()
    return int(digest[:15], 16) % count + 1


def make_split_corpus(base, per_kind, count, kinds=KINDS):
    """make_corpus under the first of base0, base1, ... whose submissions fall into every one of count shards:
    shards hash the absolute path, so a small corpus in a random temporary folder may leave a shard empty."""
    for attempt in range(1000):
        root = f"{base}{attempt}"
        paths = [os.path.join(root, f"sub-{n:04d}-{kind}") for n, kind in enumerate(k for k in kinds for _ in range(per_kind))]
        if {shard_of(p, count) for p in paths} == set(range(1, count + 1)):
            return make_corpus(root, per_kind, kinds)
    raise AssertionError("no corpus root splits across the shards")


def read_lines(out_dir):
    with open(os.path.join(out_dir, "results.jsonl"), encoding="utf-8") as f:
        text = f.read()
    lines = [json.loads(line) for line in text.splitlines()]
    return lines, text


def read_summary(out_dir):
    with open(os.path.join(out_dir, "summary.json"), encoding="utf-8") as f:
        return json.load(f)


def without_timings(value):
    """A result with its timing and time-stamp fields dropped, for comparing two gradings."""
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items()
                if k not in ("seconds", "graded_at", "measurements", "waited_seconds")}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def by_submission(lines):
    return {line["submission"]: without_timings(line) for line in lines}


class GradingTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rubric-grade-test-")
        self.rubric = os.path.join(CORPUS, "corpus.rubric")
        self.reference = os.path.join(CORPUS, "reference")

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def grade(self, subs, out, *extra, check_exit=None, env=None, cwd=None):
        return run(["grade", self.rubric, *subs, "--reference", self.reference, "--out", out, *extra],
                   check_exit=check_exit, env=env, cwd=cwd)


class EveryVerdict(GradingTest):
    def test_corpus_with_every_verdict(self):
        subs, expected = make_corpus(os.path.join(self.tmp, "c"), 5)
        out = os.path.join(self.tmp, "out")
        proc = self.grade(subs, out, "--jobs", "2", check_exit=2)
        lines, _ = read_lines(out)
        self.assertEqual(len(lines), len(subs))
        self.assertEqual([l["submission"] for l in lines], sorted(subs), "one line per submission, in path order")
        exits = {"PASS": 0, "FAIL": 1, "ERROR": 2, "INCOMPLETE": 3}
        for line in lines:
            self.assertEqual(line["verdict"], expected[line["submission"]], line["submission"])
            self.assertEqual(line["exit"], exits[line["verdict"]])
            self.assertEqual(len(line["key"]["submission_sha256"]), 64)
            self.assertTrue(line["reason"])
        summary = read_summary(out)
        self.assertEqual(summary["submissions"], 20)
        self.assertEqual(summary["graded"], 20)
        self.assertEqual(summary["reused"], 0)
        self.assertEqual(summary["verdicts"], {"PASS": 5, "FAIL": 5, "INCOMPLETE": 5, "ERROR": 5})
        crit = {c["id"]: c for c in summary["criteria"]}
        self.assertEqual(crit["cause"]["counts"]["FAIL"], 5)
        self.assertEqual(crit["cause"]["counts"]["PASS"], 15)
        self.assertAlmostEqual(crit["cause"]["pass_rate"], 0.75)
        self.assertEqual(crit["variant"]["counts"]["ERROR"], 5)
        self.assertEqual(crit["speed"]["counts"]["INCONCLUSIVE"], 5)
        # An ERRORed submission's score is left out of the distribution.
        scores = sorted(l["score"] for l in lines if l["score"] is not None and l["verdict"] != "ERROR")
        self.assertEqual(summary["score"]["count"], len(scores))
        self.assertAlmostEqual(summary["score"]["mean"], sum(scores) / len(scores))
        self.assertAlmostEqual(summary["score"]["min"], scores[0])
        self.assertEqual(sum(b["count"] for b in summary["score"]["histogram"]), len(scores))
        self.assertEqual(len(summary["slowest"]), 10)
        self.assertEqual(sorted(e["submission"] for e in summary["errors"]),
                         sorted(s for s in subs if expected[s] == "ERROR"))
        self.assertEqual(summary["provenance"]["rubric"]["file"], self.rubric)
        self.assertEqual(len(summary["provenance"]["rubric"]["sha256"]), 64)
        # The table: verdict counts, pass rates, and the ERRORs with their reasons.
        self.assertIn("verdicts: 5 PASS · 5 FAIL · 5 INCOMPLETE · 5 ERROR", proc.stdout)
        self.assertIn("5 submissions ERRORED", proc.stdout)
        self.assertIn("criterion variant in ERROR", proc.stdout)
        self.assertRegex(proc.stdout, r"cause\s+15\s+5\s+0\s+0\s+0\s+75%")
        self.assertEqual(proc.stderr, "", "no progress when stderr is not a terminal")

    def test_the_table(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1)
        out = os.path.join(self.tmp, "out")
        proc = self.grade(subs, out, "--no-color", check_exit=2)
        lines = proc.stdout.splitlines()
        self.assertRegex(lines[0], r"^4 submissions: 4 graded, 0 reused from .*/out/results.jsonl · [0-9.]+ m?s$")
        pass_sub, fail_sub, error_sub, incomplete_sub = subs
        missing = f"reference/variants/missing.json: no such file ({self.rubric}:27:10)"
        error_reason = f"criterion variant in ERROR (the rubric or its reference files are at fault) · first ERROR: variant: {missing}"
        self.assertEqual(lines[1:17], [
            "verdicts: 1 PASS · 1 FAIL · 1 INCOMPLETE · 1 ERROR",
            "",
            "criterion    PASS   FAIL  ERROR   SKIP INCONC  pass rate",
            "cause           3      1      0      0      0        75%",
            "result          4      0      0      0      0       100%",
            "variant         3      0      1      0      0        75%",
            "speed           3      0      0      0      1        75%",
            "",
            "score (the 1 ERRORed left out): mean 86.7% · median 100% · quartiles 80% – 100% · min 60% · max 100%",
            "",
            "1 submission ERRORED — the rubric's or the grading machine's problem, not the submission's:",
            f"  ERROR 1 submission: {error_reason}",
            f"    {error_sub}",
            "",
            "submissions (verdict, score, what decided it):",
            f"  PASS        100%  {pass_sub}: every required criterion passed and the score 100% reaches the pass mark 60%",
        ])
        self.assertEqual(lines[17], f"  FAIL         60%  {fail_sub}: required criterion cause failed · first FAIL: cause: "
                                    "none of the phrases found in 23 characters of text")
        self.assertEqual(lines[18], f"  ERROR       100%  {error_sub}: {error_reason}")
        self.assertTrue(lines[19].startswith(f"  INCOMPLETE  100%  {incomplete_sub}: inconclusive: speed · first INCONCLUSIVE: "
                                             "speed: the 95% interval"), lines[19])
        self.assertEqual(len(lines), 20)

    def test_one_reason_for_every_fail_says_check_the_rubric(self):
        # A mistyped key FAILs every submission for one reason (whatever keys each file lists): the
        # table and summary.json say so; identical ERROR reasons are grouped; the list names each
        # submission with what decided it.
        rubric = os.path.join(self.tmp, "typo.rubric")
        with open(rubric, "w") as f:
            f.write('rubric "typo" { version: "1", pass: 50% }\nlet r = json(submission / "result.json")\n'
                    'criterion exact "32Ki tokens" weight 3 { expect r.tokens == 32Ki }\n'
                    'criterion typo "the variant" { expect r.varaint == "a" }\n'
                    'criterion ref "a reference" { expect json(reference / "absent.json").x == 1 }\n')
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 3, kinds=("pass",))
        out = os.path.join(self.tmp, "out")
        proc = run(["grade", rubric, *subs, "--out", out, "--no-color"], check_exit=2)
        self.assertIn("criterion typo FAILed all 3 submissions for the same reason — check the rubric:\n"
                      "  no key 'varaint' in submission/result.json (did you mean 'variant'?); keys: tokens, variant",
                      proc.stdout)
        self.assertIn("  ERROR 3 submissions: criterion ref in ERROR", proc.stdout)
        self.assertIn(f"    {subs[0]}, {subs[1]}, {subs[2]}\n", proc.stdout)
        summary = read_summary(out)
        crit = {c["id"]: c for c in summary["criteria"]}
        self.assertTrue(crit["typo"]["common_failure"].startswith("no key 'varaint' in submission/result.json"))
        self.assertIsNone(crit["exact"]["common_failure"])
        self.assertEqual([(r["submission"], r["verdict"]) for r in summary["submission_list"]], [(s, "ERROR") for s in subs])
        self.assertEqual(summary["score"]["count"], 0, "ERRORed submissions are left out of the score distribution")
        html = run(["grade", rubric, *subs, "--out", out, "--format", "html"], check_exit=2).stdout
        self.assertIn("FAILed every submission for the same reason", html)
        self.assertIn(f'<a href="{subs[0]}"><code>{subs[0]}</code></a>', html)
        # The page is written from the row spool: every ERROR grouped under its one reason.
        self.assertIn(f"</td><td>3 · <code>{subs[0]}</code>, <code>{subs[1]}</code>, <code>{subs[2]}</code></td></tr>", html)
        self.assertEqual(html.count('<tr><td><a href="'), 3)

    def test_groups_are_counted_and_indented(self):
        rubric = os.path.join(self.tmp, "groups.rubric")
        with open(rubric, "w") as f:
            f.write('rubric "g" { version: "1" }\nlet r = json(submission / "result.json")\n'
                    'group perf "performance" {\n  criterion fast "fast" { expect r.tokens > 1 }\n'
                    '  group inner "inner" { criterion exact "exact" { expect r.tokens == 32Ki } }\n}\n'
                    'criterion docs "docs" { expect r.variant == "a" }\n')
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 2, kinds=("pass",))  # variants a and b
        out = os.path.join(self.tmp, "out")
        proc = run(["grade", rubric, *subs, "--out", out, "--no-color"], check_exit=0)
        self.assertRegex(proc.stdout, r"\ngroup perf +2 +0 ")
        self.assertRegex(proc.stdout, r"\n  fast +2 +0 ")
        self.assertRegex(proc.stdout, r"\n  group inner +2 +0 ")
        self.assertRegex(proc.stdout, r"\n    exact +2 +0 ")
        self.assertRegex(proc.stdout, r"\ndocs +1 +1 .* 50%")
        ids = [(c["id"], c["kind"]) for c in read_summary(out)["criteria"]]
        self.assertEqual(ids, [("perf", "group"), ("fast", "criterion"), ("inner", "group"), ("exact", "criterion"),
                               ("docs", "criterion")])

    def test_errors_stand_out_on_a_terminal(self):
        import pty
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass", "error"))
        master, slave = pty.openpty()
        proc = subprocess.Popen([RUBRIC_EXE, "grade", self.rubric, *subs, "--reference", self.reference, "--out",
                                 os.path.join(self.tmp, "out")], env=env_without_ci(), stdin=subprocess.DEVNULL,
                                stdout=slave, stderr=subprocess.DEVNULL)
        os.close(slave)
        shown = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            shown += chunk
        os.close(master)
        self.assertEqual(proc.wait(timeout=120), 2)
        text = shown.decode("utf-8", errors="replace")
        self.assertIn("\x1b[35m1 submission ERRORED", text, "the ERROR section in magenta")
        self.assertIn("\x1b[35mERROR\x1b[0m", text)
        self.assertIn("\x1b[35m1 ERROR\x1b[0m", text)

    def test_criteria_are_those_of_check_json(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1)
        out = os.path.join(self.tmp, "out")
        self.grade(subs, out, check_exit=2)
        lines, _ = read_lines(out)
        for line in lines:
            check = run(["check", self.rubric, "--submission", line["submission"], "--reference", self.reference,
                         "--format", "json"])
            report = json.loads(check.stdout)
            self.assertEqual(without_timings(line["criteria"]), without_timings(report["criteria"]))
            self.assertEqual(line["verdict"], report["verdict"])
            self.assertEqual(line["score"], report["score"])
            self.assertEqual(line["exit"], check.returncode)

    def test_all_verdicts_given_exits_0(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 2, kinds=("pass", "fail", "incomplete"))
        proc = self.grade(subs, os.path.join(self.tmp, "out"), check_exit=0)
        self.assertIn("0 ERROR", proc.stdout)

    def test_missing_folder_is_an_error_line_not_a_crash(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass",))
        out = os.path.join(self.tmp, "out")
        self.grade(subs + [os.path.join(self.tmp, "nope")], out, check_exit=2)
        lines, _ = read_lines(out)
        self.assertEqual(len(lines), 2)
        nope = [l for l in lines if l["submission"].endswith("nope")][0]
        self.assertEqual(nope["verdict"], "ERROR")
        self.assertIn("does not exist", nope["reason"])

    def test_submissions_from_and_duplicates(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 2, kinds=("pass", "fail"))
        listing = os.path.join(self.tmp, "list.txt")
        with open(listing, "w") as f:
            f.write("\n".join(subs[:2]) + "\n\n" + subs[0] + "/\n")
        out = os.path.join(self.tmp, "out")
        run(["grade", self.rubric, subs[2], subs[3], "--submissions-from", listing, "--reference", self.reference,
             "--out", out], check_exit=0)
        lines, _ = read_lines(out)
        self.assertEqual(sorted(l["submission"] for l in lines), sorted(subs), "a folder given twice is graded once")

    def test_json_format_prints_the_summary(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass",))
        out = os.path.join(self.tmp, "out")
        proc = self.grade(subs, out, "--format", "json", check_exit=0)
        self.assertEqual(json.loads(proc.stdout), read_summary(out))

    def test_bad_rubric_grades_nothing(self):
        bad = os.path.join(self.tmp, "bad.rubric")
        with open(bad, "w") as f:
            f.write('rubric "x" { version: "1" }\ncriterion a "a" { expect nosuchname == 1 }\n')
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass",))
        out = os.path.join(self.tmp, "out")
        proc = run(["grade", bad, *subs, "--out", out])
        self.assertEqual(proc.returncode, 2)
        self.assertIn("does not load", proc.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "results.jsonl")))

    def test_usage_errors(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass",))
        for args, message in ((["--shard", "0/3"], "numbered 1..3"), (["--shard", "4/3"], "numbered 1..3"),
                              (["--shard", "x"], "I/N"), (["--jobs", "0"], "at least 1"),
                              (["--format", "xml"], "unknown --format"), (["--retry-errors", "--regrade"], "contradict")):
            proc = self.grade(subs, os.path.join(self.tmp, "out"), *args)
            self.assertEqual(proc.returncode, 2, args)
            self.assertIn(message, proc.stderr, args)
        proc = run(["grade", self.rubric])
        self.assertEqual(proc.returncode, 2)
        self.assertIn("no submission folders", proc.stderr)
        # A folder given to --submissions-from says how to give it; an abbreviated option is no option.
        folder = os.path.dirname(subs[0])
        proc = run(["grade", self.rubric, "--submissions-from", folder, "--out", os.path.join(self.tmp, "o2")])
        self.assertEqual(proc.returncode, 2)
        self.assertIn("is a folder; it takes a file listing submission folders", proc.stderr)
        proc = run(["grade", self.rubric, "--subm", folder, "--out", os.path.join(self.tmp, "o3")])
        self.assertEqual(proc.returncode, 2)
        self.assertIn("unrecognised option '--subm'", proc.stderr)


class Cache(GradingTest):
    def test_rerun_reuses_and_changes_regrade(self):
        subs, expected = make_corpus(os.path.join(self.tmp, "c"), 3)
        out = os.path.join(self.tmp, "out")
        self.grade(subs, out, check_exit=2)
        first, first_text = read_lines(out)

        proc = self.grade(subs, out, check_exit=2)
        summary = read_summary(out)
        self.assertEqual((summary["graded"], summary["reused"]), (0, 12))
        self.assertIn("0 graded, 12 reused", proc.stdout)
        self.assertEqual(read_lines(out)[1], first_text, "reused lines are kept byte for byte")

        # A changed submission is graded again; so is a new one.
        pass_sub = [s for s in subs if expected[s] == "PASS"][0]
        with open(os.path.join(pass_sub, "answer.md"), "w") as f:
            f.write("no idea\n")
        extra = os.path.join(self.tmp, "c", "zz-new")
        write_submission(extra, "pass", 99)
        self.grade(subs + [extra], out, check_exit=2)
        summary = read_summary(out)
        self.assertEqual((summary["graded"], summary["reused"]), (2, 11))
        lines = {l["submission"]: l for l in read_lines(out)[0]}
        self.assertEqual(lines[pass_sub]["verdict"], "FAIL")
        self.assertEqual(len(lines), 13)

        # A different parameter is a different key: everything again.
        self.grade(subs + [extra], out, "--set", "tokens=16Ki", check_exit=2)
        self.assertEqual(read_summary(out)["graded"], 13)

    def test_changed_reference_file_regrades_what_read_it(self):
        reference = os.path.join(self.tmp, "reference")
        shutil.copytree(self.reference, reference)
        self.reference = reference
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 4, kinds=("pass",))
        out = os.path.join(self.tmp, "out")
        self.grade(subs, out, check_exit=0)
        with open(os.path.join(reference, "variants", "b.json"), "w") as f:
            json.dump({"tokens": 1}, f)  # variant b's submissions now fail that criterion
        self.grade(subs, out, check_exit=0)
        summary = read_summary(out)
        self.assertEqual((summary["graded"], summary["reused"]), (2, 2), "only variant b's submissions read b.json")
        self.assertEqual(summary["criteria"][2]["id"], "variant")
        self.assertEqual(summary["criteria"][2]["counts"]["FAIL"], 2)

    def test_rubric_change_regrades_everything(self):
        rubric = os.path.join(self.tmp, "r.rubric")
        shutil.copy(self.rubric, rubric)
        self.rubric = rubric
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 2, kinds=("pass",))
        out = os.path.join(self.tmp, "out")
        self.grade(subs, out, check_exit=0)
        with open(rubric, "a") as f:
            f.write("\n# an edit\n")
        self.grade(subs, out, check_exit=0)
        self.assertEqual(read_summary(out)["graded"], 2)

    def test_retry_errors_regrades_only_errors(self):
        subs, expected = make_corpus(os.path.join(self.tmp, "c"), 2)
        out = os.path.join(self.tmp, "out")
        self.grade(subs, out, check_exit=2)
        before = by_submission(read_lines(out)[0])
        # The grading side is fixed: the missing variant's reference appears.
        reference = os.path.join(self.tmp, "reference")
        shutil.copytree(self.reference, reference)
        with open(os.path.join(reference, "variants", "missing.json"), "w") as f:
            json.dump({"tokens": 32768}, f)
        # Without --retry-errors the reference folder is a parameter: everything would be graded.
        proc = run(["grade", self.rubric, *subs, "--reference", self.reference, "--out", out, "--retry-errors"])
        summary = read_summary(out)
        self.assertEqual((summary["graded"], summary["reused"]), (2, 6))
        self.assertEqual(proc.returncode, 2, "the ERRORs stay: the reference folder was not switched")
        self.grade(subs, out, "--regrade", check_exit=2)
        self.assertEqual(read_summary(out)["graded"], 8)
        self.assertEqual(by_submission(read_lines(out)[0]).keys(), before.keys())

    def test_retry_errors_after_fixing_the_reference(self):
        reference = os.path.join(self.tmp, "reference")
        shutil.copytree(self.reference, reference)
        self.reference = reference
        subs, expected = make_corpus(os.path.join(self.tmp, "c"), 2)
        out = os.path.join(self.tmp, "out")
        self.grade(subs, out, check_exit=2)
        with open(os.path.join(reference, "variants", "missing.json"), "w") as f:
            json.dump({"tokens": 32768}, f)
        self.grade(subs, out, "--retry-errors", check_exit=0)
        summary = read_summary(out)
        self.assertEqual((summary["graded"], summary["reused"]), (2, 6))
        self.assertEqual(summary["verdicts"]["ERROR"], 0)


# A submission of slow.rubric that waits this long stays unfinished for as long as any test here
# runs: a test that stops a batch mid-run waits for the quick submissions' lines, and the rest can
# never finish first, however loaded the machine (with 0.3 s each they could, before the signal).
NEVER = "600"


class Interrupted(GradingTest):
    def slow_corpus(self, n, seconds="0.3", name="slow"):
        subs = []
        for i in range(n):
            path = os.path.join(self.tmp, name, f"s{i:03d}")
            os.makedirs(path)
            subs.append(path)
        self.set_wait(subs, seconds)
        return subs

    def set_wait(self, subs, seconds):
        for path in subs:
            with open(os.path.join(path, "wait.sh"), "w") as f:
                f.write(f"sleep {seconds}\n")

    def start(self, subs, out, *extra):
        return subprocess.Popen([RUBRIC_EXE, "grade", os.path.join(CORPUS, "slow.rubric"), *subs, "--out", out, *extra],
                                env=env_without_ci(), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)

    def wait_for_lines(self, out, count, limit=60):
        path = os.path.join(out, "results.jsonl")
        deadline = time.time() + limit
        while time.time() < deadline:
            if os.path.exists(path):
                with open(path) as f:
                    if f.read().count("\n") >= count:
                        return
            time.sleep(0.02)
        self.fail(f"{count} lines never appeared in {path}")

    def test_sigkill_mid_run_then_resume(self):
        subs = self.slow_corpus(16, seconds="0")
        self.set_wait(subs[4:], NEVER)
        out = os.path.join(self.tmp, "out")
        proc = self.start(subs, out, "--jobs", "2")
        self.wait_for_lines(out, 4)
        proc.kill()
        proc.communicate()
        with open(os.path.join(out, "results.jsonl")) as f:
            text = f.read()
        complete = text[:text.rfind("\n") + 1]
        finished = [json.loads(l) for l in complete.splitlines()]  # every finished line parses
        self.assertEqual(sorted(l["submission"] for l in finished), subs[:4])
        # The killed run's grading processes are gone with it; a torn line (power loss mid-write) is
        # simulated too. The unfinished submissions now finish at once.
        with open(os.path.join(out, "results.jsonl"), "a") as f:
            f.write('{"submission": "torn')
        self.set_wait(subs[4:], "0")
        res = run(["grade", os.path.join(CORPUS, "slow.rubric"), *subs, "--out", out, "--jobs", "2"], check_exit=0)
        self.assertIn("torn or unreadable line", res.stderr)
        summary = read_summary(out)
        self.assertEqual(summary["submissions"], 16)
        self.assertEqual(summary["reused"], len({l["submission"] for l in finished}))
        self.assertEqual(summary["graded"] + summary["reused"], 16)
        lines, _ = read_lines(out)
        self.assertEqual(sorted(l["submission"] for l in lines), sorted(subs))
        for old in finished:
            self.assertIn(without_timings(old), [without_timings(l) for l in lines], "finished lines are kept")

    def test_sigint_stops_cleanly(self):
        subs = self.slow_corpus(12, seconds="0")
        self.set_wait(subs[2:], NEVER)
        out = os.path.join(self.tmp, "out")
        proc = self.start(subs, out, "--jobs", "2")
        self.wait_for_lines(out, 2)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
        self.assertEqual(proc.returncode, 130)
        self.assertIn("interrupted", err)
        self.assertIn("Run the same command again", err)
        lines, _ = read_lines(out)  # parses whole
        self.assertEqual(sorted(l["submission"] for l in lines), subs[:2])
        self.set_wait(subs[2:], "0")
        res = run(["grade", os.path.join(CORPUS, "slow.rubric"), *subs, "--out", out, "--jobs", "2"], check_exit=0)
        self.assertEqual(read_summary(out)["reused"], len(lines))

    def test_timeout_is_an_error_of_that_submission_only(self):
        subs = self.slow_corpus(3, seconds="0")
        self.set_wait(subs[1:2], NEVER)
        out = os.path.join(self.tmp, "out")
        started = time.time()
        res = run(["grade", os.path.join(CORPUS, "slow.rubric"), *subs, "--out", out, "--timeout", "2"], check_exit=2)
        # Killed at the 2 s limit, not when its program would end (600 s); the rest of the bound is
        # for starting the batch on a loaded machine.
        self.assertLess(time.time() - started, 60)
        lines = {l["submission"]: l for l in read_lines(out)[0]}
        self.assertEqual(lines[subs[0]]["verdict"], "PASS")
        self.assertEqual(lines[subs[2]]["verdict"], "PASS")
        self.assertEqual(lines[subs[1]]["verdict"], "ERROR")
        self.assertIn("time limit of 2 s", lines[subs[1]]["reason"])
        self.assertIn("time limit", res.stdout)

    def test_a_crashing_grading_process_takes_down_only_its_submission(self):
        # One grading process at a time, every program waiting: the victim is the one grading process,
        # caught once its program runs (it has a child), so it cannot have finished before the signal.
        # The rest are made quick before it dies (its program already runs from its own copy).
        subs = self.slow_corpus(6, seconds=NEVER)
        out = os.path.join(self.tmp, "out")
        proc = self.start(subs, out, "--jobs", "1")
        deadline = time.time() + 60
        victims, running = [], []
        while time.time() < deadline and not running and proc.poll() is None:
            victims = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
            if len(victims) == 1:
                running = subprocess.run(["pgrep", "-P", victims[0]], capture_output=True, text=True).stdout.split()
            time.sleep(0.05)
        self.assertTrue(running, "no grading process ran its program")
        self.set_wait(subs, "0")
        os.kill(int(victims[0]), signal.SIGSEGV)
        out_text, err = proc.communicate(timeout=60)
        self.assertEqual(proc.returncode, 2, err)
        lines, _ = read_lines(out)
        self.assertEqual(len(lines), 6)
        crashed = [l for l in lines if l["verdict"] == "ERROR"]
        self.assertEqual(len(crashed), 1)
        self.assertIn("killed by signal 11", crashed[0]["reason"])
        self.assertEqual(crashed[0]["key"]["submission_sha256"], "", "a crash is never reused")
        self.assertEqual(sum(l["verdict"] == "PASS" for l in lines), 5)
        self.assertIn("killed by signal 11", out_text)
        # The next run grades the crashed one again and reuses the rest.
        run(["grade", os.path.join(CORPUS, "slow.rubric"), *subs, "--out", out], check_exit=0)
        self.assertEqual((read_summary(out)["graded"], read_summary(out)["reused"]), (1, 5))

    def test_jobs_grade_in_parallel(self):
        # Four submissions that never finish: with --jobs 4 their four grading processes (children of
        # the batch) are alive at once; one at a time, never more than one is. Counted, not timed.
        subs = self.slow_corpus(4, seconds=NEVER)
        proc = self.start(subs, os.path.join(self.tmp, "out"), "--jobs", "4")
        most = 0
        deadline = time.time() + 120
        while most < 4 and time.time() < deadline and proc.poll() is None:
            children = subprocess.run(["pgrep", "-P", str(proc.pid)], capture_output=True, text=True).stdout.split()
            most = max(most, len(children))
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
        self.assertEqual(most, 4, "four grading processes at once")
        quick = self.slow_corpus(4, seconds="0", name="quick")
        out = os.path.join(self.tmp, "out-quick")
        run(["grade", os.path.join(CORPUS, "slow.rubric"), *quick, "--out", out, "--jobs", "4"], check_exit=0)
        self.assertEqual(read_summary(out)["provenance"]["jobs"], 4)

    def test_second_grade_into_the_same_folder_is_refused(self):
        subs = self.slow_corpus(6, seconds="0")
        self.set_wait(subs[1:], NEVER)  # the first batch is still writing whatever the machine's load
        out = os.path.join(self.tmp, "out")
        proc = self.start(subs, out, "--jobs", "1")
        self.wait_for_lines(out, 1)
        second = run(["grade", os.path.join(CORPUS, "slow.rubric"), *subs, "--out", out])
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=60)
        self.assertEqual(second.returncode, 2)
        self.assertIn("another `rubric grade` is writing", second.stderr)


class Progress(GradingTest):
    def test_ci_gets_progress_lines_and_quiet_gets_nothing(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass",))
        out = os.path.join(self.tmp, "out")
        proc = self.grade(subs, out, env=env_without_ci(CI="true"), check_exit=0)
        self.assertIn("1/1 graded", proc.stderr)
        proc = self.grade(subs, out, "--quiet", "--regrade", env=env_without_ci(CI="true"), check_exit=0)
        self.assertEqual((proc.stdout, proc.stderr), ("", ""))


    def test_terminal_gets_a_live_line(self):
        import pty
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 2, kinds=("pass", "fail"))
        master, slave = pty.openpty()
        proc = subprocess.Popen([RUBRIC_EXE, "grade", self.rubric, *subs, "--reference", self.reference, "--out",
                                 os.path.join(self.tmp, "out")], env=env_without_ci(), stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=slave)
        os.close(slave)
        out, _ = proc.communicate(timeout=120)
        drawn = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:
                break
            if not chunk:
                break
            drawn += chunk
        os.close(master)
        self.assertEqual(proc.returncode, 0)
        text = drawn.decode("utf-8", errors="replace")
        self.assertIn("\r\x1b[K", text, "redrawn in place")
        self.assertIn("4/4 graded", text)
        self.assertIn("2 PASS", text)
        self.assertIn("2 FAIL", text)
        self.assertTrue(text.endswith("\r\x1b[K"), "erased before the table is printed")
        self.assertIn(b"verdicts: 2 PASS", out)


class Measurements(GradingTest):
    def test_measurements_hold_the_lock(self):
        subs = []
        for i in range(4):
            path = os.path.join(self.tmp, "m", f"m{i}")
            os.makedirs(path)
            with open(os.path.join(path, "bench.sh"), "w") as f:
                f.write("echo '{\"throughput\": 100}'\n")
            subs.append(path)
        out = os.path.join(self.tmp, "out")
        # A lock folder of this test's own: the default one is the machine's, and any other grading
        # that measures on it (a test suite running beside this one) would make the waits below its.
        env = env_without_ci(RUBRIC_LOCK_DIR=os.path.join(self.tmp, "locks"))
        run(["grade", os.path.join(CORPUS, "measured.rubric"), *subs, "--out", out, "--jobs", "2"], env=env,
            check_exit=0)
        for line in read_lines(out)[0]:
            self.assertEqual(line["verdict"], "PASS")
            self.assertGreaterEqual(line["measurements"]["count"], 1)
            self.assertTrue(line["measurements"]["alone"])
            self.assertRegex(line["measurements"]["lock"], r"^measure-(cpu|gpu[0-9]+)\.lock$")
            self.assertTrue(os.path.exists(os.path.join(self.tmp, "locks", line["measurements"]["lock"])))
        # Two submissions whose benches take 1.2 s each, graded two at a time: one waits for the other.
        slow = []
        for i in range(2):
            path = os.path.join(self.tmp, "slow", f"m{i}")
            os.makedirs(path)
            with open(os.path.join(path, "bench.sh"), "w") as f:
                f.write("sleep 0.4\necho '{\"throughput\": 100}'\n")
            slow.append(path)
        out3 = os.path.join(self.tmp, "out3")
        run(["grade", os.path.join(CORPUS, "measured.rubric"), *slow, "--out", out3, "--jobs", "2"], env=env,
            check_exit=0)
        waits = sorted(l["measurements"]["waited_seconds"] for l in read_lines(out3)[0])
        self.assertLess(waits[0], 0.3)
        self.assertGreater(waits[1], 0.3, "the second bench waited for the first")
        subs2, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass",))
        self.grade(subs2, os.path.join(self.tmp, "out2"), check_exit=0)
        self.assertEqual(read_lines(os.path.join(self.tmp, "out2"))[0][0]["measurements"]["count"], 0)


class Shards(GradingTest):
    def test_shards_and_merge_equal_a_single_run(self):
        subs, _ = make_split_corpus(os.path.join(self.tmp, "c"), 6, 3)
        single = os.path.join(self.tmp, "single")
        self.grade(subs, single, check_exit=2)
        dirs = []
        for i in range(1, 4):
            d = os.path.join(self.tmp, f"shard{i}")
            order = list(reversed(subs)) if i == 2 else subs  # stable under reordering
            self.grade(order, d, "--shard", f"{i}/3")
            dirs.append(d)
        seen = []
        for d in dirs:
            seen += [l["submission"] for l in read_lines(d)[0]]
            self.assertEqual(read_summary(d)["provenance"]["shard"], f"{dirs.index(d) + 1}/3")
        self.assertEqual(sorted(seen), sorted(subs), "the shards are disjoint and cover the corpus")
        self.assertTrue(all(read_lines(d)[0] for d in dirs), "24 submissions fill every one of 3 shards")

        merged = os.path.join(self.tmp, "merged")
        listing = os.path.join(self.tmp, "all.txt")
        with open(listing, "w") as f:
            f.write("\n".join(subs) + "\n")
        proc = run(["merge", *dirs, "--out", merged, "--submissions-from", listing])
        self.assertEqual(proc.returncode, 2, "the corpus has ERRORs")
        self.assertEqual(by_submission(read_lines(merged)[0]), by_submission(read_lines(single)[0]))
        ms, ss = read_summary(merged), read_summary(single)
        for field in ("submissions", "verdicts", "criteria", "errors"):
            self.assertEqual(ms[field], ss[field], field)
        self.assertEqual(ms["score"]["mean"], ss["score"]["mean"])
        self.assertEqual(ms["graded"], 24)

        # Idempotent: merging again (also with the merged folder among the inputs) changes nothing.
        text = read_lines(merged)[1]
        proc = run(["merge", merged, *dirs, "--out", merged, "--submissions-from", listing])
        self.assertEqual(read_lines(merged)[1], text)
        self.assertIn("appeared in more than one folder", proc.stderr)

        # A missing shard: its submissions are reported.
        proc = run(["merge", dirs[0], dirs[2], "--out", os.path.join(self.tmp, "partial"),
                    "--submissions-from", listing])
        self.assertEqual(proc.returncode, 2)
        self.assertIn("shard 2/3 is missing", proc.stderr)
        self.assertIn("have no result", proc.stderr)
        for sub in read_lines(dirs[1])[0]:
            self.assertIn(sub["submission"], proc.stderr)

    def test_merge_of_clean_shards_exits_0(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 3, kinds=("pass", "fail"))
        dirs = [os.path.join(self.tmp, f"s{i}") for i in (1, 2)]
        for i, d in enumerate(dirs, 1):
            self.grade(subs, d, "--shard", f"{i}/2", check_exit=0)
        run(["merge", *dirs, "--out", os.path.join(self.tmp, "m")], check_exit=0)

    def test_merge_refuses_mixed_rubrics(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 2, kinds=("pass",))
        a, b = os.path.join(self.tmp, "a"), os.path.join(self.tmp, "b")
        self.grade(subs[:1], a, check_exit=0)
        self.grade(subs[1:], b, check_exit=0)
        run(["merge", a, b, "--out", os.path.join(self.tmp, "m")], check_exit=0)
        self.grade(subs[1:], b, "--set", "tokens=16Ki")
        proc = run(["merge", a, b, "--out", os.path.join(self.tmp, "m")])
        self.assertEqual(proc.returncode, 2)
        self.assertIn("different rubrics, parameters or tool versions", proc.stderr)


FAKE_SBATCH = r'''#!/bin/sh
# A stand-in for sbatch: runs each array task of the script at once, in the background, and keeps
# its state where the fake scontrol finds it. FAKE_SLURM_NODE_FAIL=I makes task I's first run end
# NODE_FAIL without running; FAKE_SLURM_EXIT=I makes task I fail with exit code 7 every time.
state="$FAKE_SLURM_STATE"
echo "$*" >> "$state/sbatch.calls"
array=""
script=""
for a in "$@"; do
  case "$a" in
    --array=*) array="${a#--array=}" ;;
    --parsable) ;;
    -*) ;;
    *) script="$a" ;;
  esac
done
[ -n "$array" ] || array=$(sed -n 's/^#SBATCH --array=//p' "$script")
job=$(( $(cat "$state/next" 2>/dev/null || echo 100) + 1 ))
echo "$job" > "$state/next"
mkdir -p "$state/$job"
tasks=$(echo "$array" | awk -F- '{ if (NF == 2) for (i = $1; i <= $2; i++) print i; else print $1 }' | tr ',' '\n')
for t in $tasks; do
  if [ "${FAKE_SLURM_EXIT:-}" = "$t" ]; then
    echo "FAILED 7:0" > "$state/$job/$t"
    continue
  fi
  if [ "${FAKE_SLURM_NODE_FAIL:-}" = "$t" ] && [ ! -e "$state/failed-$t" ]; then
    touch "$state/failed-$t"
    echo "NODE_FAIL 0:0" > "$state/$job/$t"
    continue
  fi
  echo "RUNNING 0:0" > "$state/$job/$t"
  ( SLURM_ARRAY_TASK_ID=$t SLURM_ARRAY_JOB_ID=$job sh "$script" > "$state/$job/$t.log" 2>&1
    code=$?
    if [ $code = 0 ]; then s=COMPLETED; else s=FAILED; fi
    echo "$s $code:0" > "$state/$job/$t" ) &
done
echo "$job"
'''

FAKE_SCONTROL = r'''#!/bin/sh
# A stand-in for `scontrol -o show job ID`: one line per task from the fake sbatch's state.
state="$FAKE_SLURM_STATE"
job="$4"
[ -d "$state/$job" ] || { echo "slurm_load_jobs error: Invalid job id specified" >&2; exit 1; }
for f in "$state/$job"/*; do
  case "$f" in *.log) continue ;; esac
  t=$(basename "$f")
  read s code < "$f"
  echo "JobId=$job$t ArrayJobId=$job ArrayTaskId=$t JobName=rubric-grade JobState=$s Reason=None ExitCode=$code"
done
'''


class HostileCorpus(GradingTest):
    """Corpus entries a hostile submitter controls: names, modes, links to the reference."""

    def test_names_differing_only_in_bytes_that_are_not_utf8_stay_distinct(self):
        root = os.path.join(self.tmp, "c")
        # os.fsdecode keeps the raw bytes (surrogateescape): the folders are b"x\xff" and b"x\xfe".
        good, bad = os.path.join(root, os.fsdecode(b"x\xff")), os.path.join(root, os.fsdecode(b"x\xfe"))
        write_submission(good, "pass", 1)
        write_submission(bad, "fail", 2)
        out = os.path.join(self.tmp, "out")
        self.grade([good, bad], out, "--timeout", "60", check_exit=0)
        lines, text = read_lines(out)
        self.assertIn("\\udcff", text, "a byte that is not UTF-8 is written as Python's surrogateescape writes it")
        self.assertEqual({l["submission"]: l["verdict"] for l in lines}, {good: "PASS", bad: "FAIL"})
        summary = read_summary(out)
        self.assertEqual(summary["verdicts"]["PASS"], 1)
        self.assertEqual(len(summary["slowest"]), 2)
        merged = os.path.join(self.tmp, "merged")
        run(["merge", out, "--out", merged, "--quiet"], check_exit=0)
        self.assertEqual({l["submission"]: l["verdict"] for l in read_lines(merged)[0]}, {good: "PASS", bad: "FAIL"})

    def test_a_changed_file_mode_is_a_changed_submission(self):
        rubric = os.path.join(self.tmp, "modes.rubric")
        with open(rubric, "w") as f:
            f.write('rubric "modes" { version: "1.0" }\ncriterion runs "run.sh runs" { expect run(["./run.sh"]).exit == 0 }\n')
        sub = os.path.join(self.tmp, "c", "s")
        os.makedirs(sub)
        with open(os.path.join(sub, "run.sh"), "w") as f:
            f.write("#!/bin/sh\nexit 0\n")
        os.chmod(os.path.join(sub, "run.sh"), 0o644)
        out = os.path.join(self.tmp, "out")
        self.rubric = rubric
        self.grade([sub], out, check_exit=0)
        self.assertEqual(read_lines(out)[0][0]["verdict"], "FAIL")
        os.chmod(os.path.join(sub, "run.sh"), 0o755)
        self.grade([sub], out, check_exit=0)
        self.assertEqual(read_lines(out)[0][0]["verdict"], "PASS")
        self.assertEqual(read_summary(out)["graded"], 1, "the chmod made it a new submission, graded again")

    def test_a_link_to_the_reference_folder_is_no_submission(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass",))
        link = os.path.join(self.tmp, "c", "zz-looks-like-a-submission")
        os.symlink(self.reference, link)
        out = os.path.join(self.tmp, "out")
        self.grade(subs + [link], out, check_exit=2)
        lines = {l["submission"]: l for l in read_lines(out)[0]}
        self.assertEqual(lines[link]["verdict"], "ERROR")
        self.assertIn("is the reference folder", lines[link]["reason"])
        self.assertEqual(lines[subs[0]]["verdict"], "PASS")


class FakeSlurm(GradingTest):
    def setUp(self):
        super().setUp()
        self.bin = os.path.join(self.tmp, "bin")
        self.state = os.path.join(self.tmp, "slurm-state")
        os.makedirs(self.bin)
        os.makedirs(self.state)
        for name, text in (("sbatch", FAKE_SBATCH), ("scontrol", FAKE_SCONTROL)):
            path = os.path.join(self.bin, name)
            with open(path, "w") as f:
                f.write(text)
            os.chmod(path, 0o755)

    def env(self, **extra):
        return env_without_ci(PATH=self.bin + os.pathsep + os.environ["PATH"], FAKE_SLURM_STATE=self.state, **extra)

    def test_slurm_array_equals_a_local_grade(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 4)
        local = os.path.join(self.tmp, "local")
        self.grade(subs, local, check_exit=2)
        out = os.path.join(self.tmp, "cluster")
        proc = self.grade(subs, out, "--slurm", "--tasks", "3", "--slurm-args", "--time=10 --comment='a b'",
                          env=self.env(FAKE_SLURM_NODE_FAIL="2"))
        self.assertEqual(proc.returncode, 2, proc.stderr)
        self.assertEqual(by_submission(read_lines(out)[0]), by_submission(read_lines(local)[0]))
        self.assertEqual(read_summary(out)["verdicts"], read_summary(local)["verdicts"])
        with open(os.path.join(self.state, "sbatch.calls")) as f:
            calls = f.read().splitlines()
        self.assertEqual(len(calls), 2, "task 2 lost to a node failure is submitted once more")
        self.assertIn("--time=10 --comment=a b", calls[0])
        self.assertIn("--array=2", calls[1])
        with open(os.path.join(out, "slurm", "grade.sbatch")) as f:
            script = f.read()
        self.assertIn("#SBATCH --array=1-3", script)
        self.assertIn('--shard "$SLURM_ARRAY_TASK_ID"/3', script)
        self.assertEqual(sorted(os.listdir(os.path.join(out, "shards"))), ["1", "2", "3"])

    def test_folder_names_with_line_breaks_reach_their_task_whole(self):
        root = os.path.join(self.tmp, "c")
        odd = os.path.join(root, "a\nb")
        write_submission(odd, "pass", 1)
        out = os.path.join(self.tmp, "cluster\nx")
        proc = self.grade([odd], out, "--slurm", "--tasks", "1", env=self.env(), check_exit=0)
        with open(os.path.join(out, "slurm", "submissions.txt"), "rb") as f:
            self.assertEqual(f.read(), odd.encode() + b"\0", "NUL-separated when a path holds a line break")
        with open(os.path.join(out, "slurm", "grade.sbatch")) as f:
            self.assertNotIn("#SBATCH --output", f.read(), "the output path travels on sbatch's command line")
        self.assertEqual([l["submission"] for l in read_lines(out)[0]], [odd], proc.stderr)

    def test_judge_options_reach_the_tasks_and_the_key_stays_in_the_environment(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass",))
        out = os.path.join(self.tmp, "cluster")
        self.grade(subs, out, "--slurm", "--tasks", "1", "--judge-url", "http://127.0.0.1:9/v1", "--judge-model", "m x",
                   "--judge-votes", "3", "--judge-timeout", "5",
                   env=self.env(RUBRIC_JUDGE_API_KEY="sk-never-in-a-script"), check_exit=0)
        with open(os.path.join(out, "slurm", "grade.sbatch")) as f:
            script = f.read()
        self.assertIn("--judge-url 'http://127.0.0.1:9/v1' --judge-model 'm x' --judge-votes 3 --judge-timeout 5", script)
        self.assertNotIn("--judge-cache", script)  # each task keeps its cache in its shard folder
        self.assertNotIn("sk-never-in-a-script", script)

    def test_slurm_clean_corpus_exits_0_and_resumes(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 2, kinds=("pass", "fail"))
        out = os.path.join(self.tmp, "cluster")
        self.grade(subs, out, "--slurm", "--tasks", "2", env=self.env(), check_exit=0)
        self.grade(subs, out, "--slurm", "--tasks", "2", env=self.env(), check_exit=0)
        self.assertEqual(read_summary(out)["reused"], 4, "each shard reuses its own results")

    def test_a_task_failing_for_its_own_reasons_is_reported_not_resubmitted(self):
        subs, _ = make_split_corpus(os.path.join(self.tmp, "c"), 3, 2, kinds=("pass", "fail"))
        out = os.path.join(self.tmp, "cluster")
        proc = self.grade(subs, out, "--slurm", "--tasks", "2", env=self.env(FAKE_SLURM_EXIT="1"))
        self.assertEqual(proc.returncode, 2)
        self.assertIn("task 1 (job 101) ended FAILED with exit code 7:0", proc.stderr)
        self.assertIn("task-1.out", proc.stderr)
        self.assertIn("have no result", proc.stderr)
        with open(os.path.join(self.state, "sbatch.calls")) as f:
            self.assertEqual(len(f.read().splitlines()), 1, "not the cluster's fault: not submitted again")
        graded = {l["submission"] for l in read_lines(out)[0]}
        self.assertEqual(graded, {p for p in subs if shard_of(p, 2) == 2}, "the other shard's results are merged")

    def test_sbatch_failure_is_reported(self):
        path = os.path.join(self.bin, "sbatch")
        with open(path, "w") as f:
            f.write("#!/bin/sh\necho 'sbatch: error: invalid partition specified: gpu' >&2\nexit 1\n")
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 1, kinds=("pass",))
        proc = self.grade(subs, os.path.join(self.tmp, "o"), "--slurm", env=self.env())
        self.assertEqual(proc.returncode, 2)
        self.assertIn("invalid partition specified", proc.stderr)


SLURM_CONF = """ClusterName=local
SlurmctldHost={node}
AuthType=auth/munge
StateSaveLocation={s}/state
SlurmdSpoolDir={s}/spool
SlurmctldPidFile={s}/slurmctld.pid
SlurmdPidFile={s}/slurmd.pid
SlurmctldLogFile={s}/slurmctld.log
SlurmdLogFile={s}/slurmd.log
SlurmctldPort={ctld_port}
SlurmdPort={slurmd_port}
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
MailProg=/bin/true
ReturnToService=2
SchedulerParameters=batch_sched_delay=0
SlurmdParameters=config_overrides
NodeName={node} CPUs=8 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RealSlurm(GradingTest):
    """A single-node Slurm cluster (munged, slurmctld, slurmd) started as this test's own processes
    in a temporary state folder (shared/design/scale-out.md), graded through, and stopped."""

    def setUp(self):
        super().setUp()
        self.started = []  # (name, Popen), stopped in reverse order
        if os.geteuid() != 0:
            self.skipTest("Slurm needs root to start its daemons here; not root")
        if not shutil.which("slurmctld") or not shutil.which("munged"):
            if not shutil.which("apt-get"):
                self.skipTest("slurm-wlm and munge are not installed and there is no apt-get")
            install = ["apt-get", "install", "-y", "-qq", "--no-install-recommends", "slurm-wlm", "munge"]
            apt_env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
            proc = subprocess.run(install, env=apt_env, capture_output=True, text=True, timeout=600)
            if proc.returncode != 0:  # package lists missing or stale: once more after an update
                subprocess.run(["apt-get", "update", "-qq"], env=apt_env, capture_output=True, timeout=600)
                proc = subprocess.run(install, env=apt_env, capture_output=True, text=True, timeout=600)
            if proc.returncode != 0 or not shutil.which("slurmctld"):
                self.skipTest(f"cannot install slurm-wlm and munge: {proc.stderr.strip()[-300:]}")
        node = subprocess.run(["hostname", "-s"], capture_output=True, text=True).stdout.strip()
        import socket
        try:
            socket.gethostbyname(node)
        except OSError:
            self.skipTest(f"the host name '{node}' does not resolve; slurmd could not register")
        self.node = node
        self.s = os.path.join(self.tmp, "slurm")
        for d in ("state", "spool"):
            os.makedirs(os.path.join(self.s, d))
        self.conf = os.path.join(self.s, "slurm.conf")
        with open(self.conf, "w") as f:
            f.write(SLURM_CONF.format(node=node, s=self.s, ctld_port=free_port(), slurmd_port=free_port()))
        self.env = env_without_ci(SLURM_CONF=self.conf)
        try:
            self.start_cluster()
        except Exception as e:
            self.stop_cluster()
            self.skipTest(f"Slurm could not be started: {e}")

    def munge_works(self):
        return subprocess.run("munge -n | unmunge", shell=True, capture_output=True).returncode == 0

    def start_cluster(self):
        if not self.munge_works():
            if not os.path.exists("/etc/munge/munge.key"):
                raise RuntimeError("no /etc/munge/munge.key")
            subprocess.run(["install", "-d", "-o", "munge", "-g", "munge", "-m", "755", "/run/munge"], check=True)
            munged = subprocess.Popen(["setpriv", "--reuid=munge", "--regid=munge", "--init-groups",
                                       "/usr/sbin/munged", "-F"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            self.started.append(("munged", munged))
            self.wait_until(self.munge_works, 10, "munged did not start")
        for name in ("slurmctld", "slurmd"):
            log = open(os.path.join(self.s, name + ".out"), "w")
            self.started.append((name, subprocess.Popen([name, "-D"], env=self.env, stdout=log, stderr=log)))
            log.close()

        def idle():
            out = subprocess.run(["sinfo", "-h", "-n", self.node, "-o", "%T"], env=self.env, capture_output=True,
                                 text=True).stdout.strip()
            return out == "idle"
        self.wait_until(idle, 30, "the node never became idle")

    def wait_until(self, condition, seconds, what):
        deadline = time.time() + seconds
        while time.time() < deadline:
            for name, proc in self.started:
                if proc.poll() is not None:
                    raise RuntimeError(f"{name} exited with {proc.returncode}: {self.log_tail(name)}")
            if condition():
                return
            time.sleep(0.1)
        raise RuntimeError(f"{what}: {self.log_tail('slurmctld')} {self.log_tail('slurmd')}")

    def log_tail(self, name):
        for suffix in (".log", ".out"):
            path = os.path.join(getattr(self, "s", ""), name + suffix)
            if os.path.exists(path):
                with open(path, errors="replace") as f:
                    return f.read()[-400:]
        return ""

    def stop_cluster(self):
        deadline = time.time() + 15
        while time.time() < deadline and subprocess.run(["pgrep", "-x", "slurmstepd"], capture_output=True).returncode == 0:
            time.sleep(0.1)
        for name, proc in reversed(self.started):
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=20)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
        self.started = []

    def tearDown(self):
        self.stop_cluster()
        super().tearDown()

    def test_slurm_grade_equals_a_local_grade(self):
        subs, _ = make_corpus(os.path.join(self.tmp, "c"), 3)
        local = os.path.join(self.tmp, "local")
        self.grade(subs, local, check_exit=2)
        out = os.path.join(self.tmp, "cluster")
        proc = self.grade(subs, out, "--slurm", "--tasks", "4", "--slurm-args", "--time=10", env=self.env)
        self.assertEqual(proc.returncode, 2, proc.stderr + self.log_tail("slurmctld"))
        self.assertEqual(by_submission(read_lines(out)[0]), by_submission(read_lines(local)[0]))
        self.assertEqual(read_summary(out)["verdicts"], read_summary(local)["verdicts"])
        self.assertEqual(sorted(os.listdir(os.path.join(out, "shards"))), ["1", "2", "3", "4"])


if __name__ == "__main__":
    RUBRIC_EXE = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
