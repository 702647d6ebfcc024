#!/usr/bin/env python3
"""`import rubric` from the build tree: every function of the package against the command line it
mirrors, errors included; Ctrl-C during check and during grade; in-memory inputs without a copy;
checks from several threads at once.

usage: test_module.py RUBRIC_EXECUTABLE SOURCE_DIR   (with the build's python/ on PYTHONPATH)
"""
import concurrent.futures
import json
import os
import pathlib
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
import unittest

import numpy as np

import rubric

RUBRIC = os.path.abspath(sys.argv[1])
SOURCE = pathlib.Path(sys.argv[2]).resolve()
EXAMPLES = SOURCE / "examples"

# Fields that differ between two runs of the same check: timings and the start time.
VOLATILE = {"seconds", "started_at"}


def without_timings(value):
    if isinstance(value, dict):
        return {k: without_timings(v) for k, v in value.items() if k not in VOLATILE}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def cli_json(*args):
    out = subprocess.run([RUBRIC, "check", *args, "--format", "json"], capture_output=True, text=True)
    return json.loads(out.stdout), out.returncode


def write(path, text):
    path = pathlib.Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text).lstrip())
    return path


def processes_with(marker):
    """Pids whose command line holds `marker` (a candidate's `sleep 4711.25`)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            cmdline = pathlib.Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline and "python" not in cmdline:
            found.append(int(entry))
    return found


def wait_for(predicate, seconds, step=0.05):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(step)
    return predicate()


class Fixture:
    """Rubrics and submissions made for these tests in a folder of their own."""

    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.ref = self.root / "ref"  # beside the submissions: a program never runs inside the reference
        self.ref.mkdir()
        self.params = write(self.root / "params.rubric", """
            rubric "Params" { version: "1.0" }
            param n = 3
            param latency = 5 ms
            param name = "plain"
            criterion n_is_five "n is 5" {
              expect n == 5
            }
            criterion fast "latency under 10 ms" {
              expect latency < 10 ms
            }
            criterion named "the name" {
              expect name == "a \\"quoted\\" \\{brace\\}"
            }
        """)
        self.broken = write(self.root / "broken.rubric", """
            rubric "Broken" { version: "1.0" }
            criterion a "uses an unknown name" {
              expect undefined_thing == 1
            }
            criterion b "calls with a wrong arity" {
              expect len() == 1
            }
        """)
        self.memory = write(self.root / "memory.rubric", """
            rubric "In memory" { version: "1.0" }
            criterion numerics "the candidate matches the reference to 1e-3" weight 2 {
              expect candidate.shape == expected.shape
              expect candidate matches expected to 1e-3
            }
            criterion metrics "throughput at least 100 tok/s" {
              expect metrics.throughput >= 100
              expect metrics.runs[0].ok == true
            }
        """)
        self.slow = write(self.root / "slow.rubric", """
            rubric "Slow" { version: "1.0" }
            criterion slow "a program that takes its time" {
              let r = run(["sh", "slow.sh"], timeout = 60 s)
              expect r.exit == 0
            }
            criterion after_it "a check after the slow one" {
              expect 1 == 1
            }
        """)
        self.slow_subs = []
        for i in range(3):
            sub = self.root / f"slow_sub{i}"
            write(sub / "slow.sh", "exec sleep 4711.25\n")
            self.slow_subs.append(sub)
        self.empty_sub = self.root / "empty_sub"
        self.empty_sub.mkdir()


class ModuleTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="rubric-python-")
        cls.fx = Fixture(cls.tmp)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp, ignore_errors=True)

    # -- the package itself ---------------------------------------------------------------------

    def test_imported_from_the_build_tree_with_docstrings(self):
        self.assertEqual(rubric.__version__, subprocess.run([RUBRIC, "--version"], capture_output=True,
                                                            text=True).stdout.split()[1])
        import pydoc
        shown = pydoc.render_doc(rubric.load, renderer=pydoc.plaintext)
        self.assertIn("Raises RubricError", shown)
        self.assertIn("numpy array", shown)
        self.assertIn("KeyboardInterrupt", pydoc.render_doc(rubric.Rubric.check, renderer=pydoc.plaintext))
        self.assertTrue((pathlib.Path(rubric.__file__).parent / "py.typed").is_file())
        self.assertTrue((pathlib.Path(rubric.__file__).parent / "__init__.pyi").is_file())

    # -- load -----------------------------------------------------------------------------------

    def test_load_error_carries_every_diagnostic(self):
        with self.assertRaises(rubric.RubricError) as caught:
            rubric.load(self.fx.broken)
        errors = caught.exception.errors
        self.assertGreaterEqual(len(errors), 2, caught.exception.diagnostics)
        by_line = {d.line: d for d in errors}
        self.assertIn(3, by_line)
        self.assertIn(6, by_line)
        self.assertEqual(by_line[3].file, str(self.fx.broken))
        self.assertEqual(by_line[3].column, 10)
        self.assertIn("undefined_thing", by_line[3].message)
        self.assertIn(f"{self.fx.broken}:3:10", str(caught.exception))
        # The same diagnostics as the command line's lint.
        cli = subprocess.run([RUBRIC, "lint", str(self.fx.broken)], capture_output=True, text=True)
        for d in errors:
            self.assertIn(f"{d.file}:{d.line}:{d.column}: error: {d.message}", cli.stderr)

    def test_load_of_a_missing_file(self):
        with self.assertRaisesRegex(ValueError, "does not exist"):
            rubric.load(self.fx.root / "nope.rubric")

    def test_params_at_load_and_at_check(self):
        quoted = 'a "quoted" {brace}'
        r = rubric.load(self.fx.params, params={"n": 5, "name": quoted})
        report = r.check(self.fx.empty_sub)
        self.assertEqual(report.verdict, "PASS", report.text())
        self.assertEqual(report.criterion("fast").verdict, "PASS")
        # A check's params override the load's; a unit is a rubric literal.
        report = r.check(self.fx.empty_sub, params={"n": 4, "latency": rubric.literal("20 ms")})
        self.assertEqual(report.criterion("n_is_five").verdict, "FAIL")
        self.assertEqual(report.criterion("fast").verdict, "FAIL")
        self.assertIn("20 ms", " ".join(report.criterion("fast").checks[0].evidence))
        self.assertEqual(report.exit_code, 1)
        # The load's own params are back for the next check.
        self.assertEqual(r.check(self.fx.empty_sub).verdict, "PASS")
        # The CLI's --set gives the same report.
        cli, code = cli_json(str(self.fx.params), "--submission", str(self.fx.empty_sub), "--set", "n=4",
                             "--set", "latency=20 ms", "--set", f'name="a \\"quoted\\" \\{{brace\\}}"')
        self.assertEqual(code, 1)
        self.assertEqual(without_timings(cli), without_timings(report.to_dict()))
        with self.assertRaisesRegex(rubric.RubricError, "no param 'm'"):
            r.check(self.fx.empty_sub, params={"m": 1})
        with self.assertRaisesRegex(TypeError, "inputs="):
            r.check(self.fx.empty_sub, params={"n": np.zeros(3)})
        with self.assertRaisesRegex(rubric.RubricError, "rubric literal"):
            rubric.load(self.fx.params, params={"n": rubric.literal("5 +")})

    # -- check: the JSON of every example equals the command line's ------------------------------

    def test_every_example_equals_the_cli(self):
        compared = 0
        for rubric_file in sorted(EXAMPLES.glob("*/*.rubric")):
            folder = rubric_file.parent
            subs = sorted(p for p in (folder / "submissions").glob("*") if p.is_dir()) or \
                [p for p in [folder / "submission"] if p.is_dir()]
            reference = folder / "reference"
            try:
                loaded = rubric.load(rubric_file)
            except rubric.RubricError:
                continue  # a rubric of a C++ host's own operators (examples/embedding)
            for sub in subs:
                args = [str(rubric_file), "--submission", str(sub)]
                if reference.is_dir():
                    args += ["--reference", str(reference)]
                cli, code = cli_json(*args)
                report = loaded.check(sub, reference if reference.is_dir() else None)
                with self.subTest(example=f"{folder.name}/{sub.name}"):
                    self.assertEqual(without_timings(report.to_dict()), without_timings(cli))
                    self.assertEqual(report.exit_code, code)
                    self.assertEqual(report.verdict, cli["verdict"])
                    self.assertEqual(report.score, cli["score"])
                compared += 1
        self.assertGreaterEqual(compared, 15)

    def test_report_fields_and_formats(self):
        folder = EXAMPLES / "kv_cache"
        report = rubric.load(folder / "kv_cache.rubric").check(folder / "submissions/regressed", folder / "reference")
        self.assertEqual(report.verdict, "FAIL")
        self.assertEqual(report.exit_code, 1)
        throughput = report.criterion("throughput")
        self.assertEqual((throughput.verdict, throughput.weight, throughput.score), ("FAIL", 3, 0))
        self.assertTrue(throughput.title.startswith("output throughput at 32768 context"))
        check = throughput.checks[0]
        self.assertEqual(check.source, "cand.output_throughput >= 0.95 * base.output_throughput")
        self.assertRegex(check.location, r"kv_cache\.rubric:\d+:\d+$")
        self.assertTrue(any("tok/s" in line for line in check.evidence), check.evidence)
        self.assertEqual(report.provenance["submission_dir"], str(folder / "submissions/regressed"))
        self.assertTrue(any(f["path"] == "logits.npy" for f in report.provenance["files"]))
        text = report.text()
        self.assertIn("[FAIL] throughput", text)
        self.assertNotIn("\x1b[", text)
        self.assertIn("\x1b[", report.text(colour=True))
        self.assertIn("throughput", report.markdown())
        self.assertTrue(report.html().lstrip().lower().startswith("<!doctype html"))
        self.assertIn("<testsuite", report.junit())
        self.assertEqual(json.loads(report.to_json()), report.to_dict())
        cli = subprocess.run([RUBRIC, "check", str(folder / "kv_cache.rubric"), "--submission",
                              str(folder / "submissions/regressed"), "--reference", str(folder / "reference"),
                              "--no-color"], capture_output=True, text=True)
        self.assertEqual(report.text(), cli.stdout)

    def test_check_of_a_missing_folder(self):
        r = rubric.load(self.fx.params)
        with self.assertRaisesRegex(ValueError, "submission folder .* does not exist"):
            r.check(self.fx.root / "no_such_folder")
        with self.assertRaisesRegex(ValueError, "reference .* is not a folder"):
            r.check(self.fx.empty_sub, self.fx.params)

    # -- values from memory ----------------------------------------------------------------------

    def memory_rubric(self, **inputs):
        defaults = {"candidate": np.zeros(4, np.float32), "expected": np.zeros(4, np.float32),
                    "metrics": {"throughput": 0, "runs": [{"ok": False}]}}
        defaults.update(inputs)
        return rubric.load(self.fx.memory, inputs=defaults)

    def test_numpy_arrays_and_dicts_as_inputs(self):
        rng = np.random.default_rng(7)
        ref = rng.standard_normal((64, 48)).astype(np.float32)
        close = ref + np.float32(1e-5)
        far = ref.copy()
        far[3, 5] += 0.5
        metrics = {"throughput": 123.5, "runs": [{"ok": True}]}
        r = self.memory_rubric()
        good = r.check(self.fx.empty_sub, inputs={"candidate": close, "expected": ref, "metrics": metrics})
        self.assertEqual(good.verdict, "PASS", good.text())
        np.testing.assert_allclose(close, ref, rtol=1e-3, atol=1e-3)  # the same verdict from numpy
        bad = r.check(self.fx.empty_sub, inputs={"candidate": far, "expected": ref, "metrics": metrics})
        self.assertEqual(bad.criterion("numerics").verdict, "FAIL")
        self.assertIn("(3, 5)", " ".join(bad.criterion("numerics").checks[1].evidence))
        with self.assertRaises(AssertionError):
            np.testing.assert_allclose(far, ref, rtol=1e-3, atol=1e-3)
        # Strided and big-endian views are read in place.
        wide = np.zeros((64, 96), np.float32)
        wide[:, ::2] = ref
        self.assertEqual(r.check(self.fx.empty_sub, inputs={"candidate": wide[:, ::2], "expected": ref,
                                                            "metrics": metrics}).criterion("numerics").verdict, "PASS")
        self.assertEqual(r.check(self.fx.empty_sub, inputs={"candidate": ref.T.copy().T, "expected": ref.astype(">f4"),
                                                            "metrics": metrics}).criterion("numerics").verdict, "PASS")
        slow = dict(metrics, throughput=99)
        self.assertEqual(r.check(self.fx.empty_sub, inputs={"candidate": ref, "expected": ref,
                                                            "metrics": slow}).criterion("metrics").verdict, "FAIL")
        # The load's values are the defaults.
        self.assertEqual(r.check(self.fx.empty_sub).criterion("metrics").verdict, "FAIL")
        self.assertEqual(r.input_names, ["candidate", "expected", "metrics"])

    def test_uint64_arrays_are_read_as_unsigned(self):
        # 2^64 - 1 as uint64 is not the int64 -1 of the same bits; equal uint64 arrays pass.
        r = self.memory_rubric()
        top = np.array([2**64 - 1, 7], np.uint64)
        same = r.check(self.fx.empty_sub, inputs={"candidate": top, "expected": top.copy()})
        self.assertEqual(same.criterion("numerics").verdict, "PASS", same.text())
        bad = r.check(self.fx.empty_sub, inputs={"candidate": top, "expected": np.array([-1, 7], np.int64)})
        self.assertEqual(bad.criterion("numerics").verdict, "FAIL", bad.text())
        self.assertIn("18446744073709551616", " ".join(bad.criterion("numerics").checks[1].evidence))

    def test_input_errors(self):
        r = self.memory_rubric()
        with self.assertRaisesRegex(ValueError, "input 'other' was not named"):
            r.check(self.fx.empty_sub, inputs={"other": 1})
        with self.assertRaisesRegex(TypeError, "format 'H'"):
            r.check(self.fx.empty_sub, inputs={"candidate": np.zeros(4, np.uint16)})
        with self.assertRaisesRegex(TypeError, "a set has no rubric value"):
            r.check(self.fx.empty_sub, inputs={"metrics": {1, 2}})
        with self.assertRaises(rubric.RubricError):
            rubric.load(self.fx.memory)  # the names the rubric reads are not bound
        for name in ["reference", "submission", "len"]:
            with self.assertRaisesRegex(ValueError, f"input '{name}' would hide"):
                rubric.load(self.fx.memory, inputs={name: 1})

    def test_arrays_are_not_copied(self):
        n = 64 * 1024 * 1024  # two arrays of 256 MiB
        ref = np.ones(n, np.float32)
        cand = np.ones(n, np.float32)
        r = self.memory_rubric()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB
        report = r.check(self.fx.empty_sub, inputs={"candidate": cand, "expected": ref,
                                                    "metrics": {"throughput": 1000, "runs": [{"ok": True}]}})
        grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
        self.assertEqual(report.verdict, "PASS", report.text())
        self.assertLess(grown, 64 * 1024, f"peak memory grew by {grown} KiB over 512 MiB of inputs")

    # -- threads ---------------------------------------------------------------------------------

    def test_checks_from_several_threads(self):
        r = self.memory_rubric()
        ref = np.linspace(0, 1, 100_000, dtype=np.float32)
        metrics = {"throughput": 200, "runs": [{"ok": True}]}

        def one(i):
            cand = ref + np.float32(0.5 if i % 3 == 0 else 0.0)
            report = r.check(self.fx.empty_sub, inputs={"candidate": cand, "expected": ref, "metrics": metrics},
                             params=None)
            return i, report.criterion("numerics").verdict

        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            results = list(pool.map(one, range(48)))
        for i, verdict in results:
            self.assertEqual(verdict, "FAIL" if i % 3 == 0 else "PASS", i)

    # -- stopping --------------------------------------------------------------------------------

    def test_timeout_is_an_error_and_kills_the_program(self):
        r = rubric.load(self.fx.slow)
        start = time.monotonic()
        report = r.check(self.fx.slow_subs[0], self.fx.ref, timeout=1.0)
        elapsed = time.monotonic() - start
        self.assertLess(elapsed, 15)
        self.assertTrue(report.timed_out)
        self.assertEqual(report.verdict, "ERROR")
        self.assertEqual(report.exit_code, 2)
        self.assertEqual(report.criterion("after_it").verdict, "ERROR")
        for id in ["slow", "after_it"]:
            c = report.criterion(id)
            self.assertIn("timeout of 1", c.reason + " ".join(k.explanation for k in c.checks), c)
        self.assertTrue(any("timeout" in w["message"] for w in report.warnings))
        self.assertTrue(wait_for(lambda: not processes_with("sleep 4711.25"), 5), "the candidate outlived the timeout")
        # The rubric checks again afterwards.
        with self.assertRaisesRegex(ValueError, "timeout must be"):
            r.check(self.fx.slow_subs[0], self.fx.ref, timeout=0)

    def interrupt(self, script, marker="sleep 4711.25"):
        """Runs `script` in a python of its own, sends it SIGINT once the candidate runs, and
        returns its output; the candidate must be gone soon after."""
        scratch = pathlib.Path(tempfile.mkdtemp(dir=self.tmp, prefix="child-tmp-"))  # the child's TMPDIR
        env = dict(os.environ, PYTHONPATH=str(pathlib.Path(rubric.__file__).resolve().parent.parent), TMPDIR=str(scratch))
        child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], env=env, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True, cwd=self.tmp)
        try:
            if not wait_for(lambda: processes_with(marker) or child.poll() is not None, 30) or child.poll() is not None:
                child.kill()
                self.fail(f"the candidate never started: {child.communicate()[0]}")
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
            out, _ = child.communicate(timeout=30)
            took = time.monotonic() - sent
        finally:
            if child.poll() is None:
                child.kill()
        self.assertTrue(wait_for(lambda: not processes_with(marker), 5), "the candidate outlived Ctrl-C")
        self.assertLess(took, 10, out)
        self.assertEqual(list(scratch.iterdir()), [], "scratch folders left behind")
        return child.returncode, out

    def test_ctrl_c_stops_a_check(self):
        code, out = self.interrupt(f"""
            import rubric, time
            r = rubric.load({str(self.fx.slow)!r})
            start = time.monotonic()
            try:
                r.check({str(self.fx.slow_subs[0])!r}, {str(self.fx.ref)!r})
                print("finished")
            except KeyboardInterrupt:
                print("KeyboardInterrupt after", round(time.monotonic() - start, 1))
            # the rubric checks again after an interrupted check
            print("again:", r.check({str(self.fx.empty_sub)!r}, {str(self.fx.ref)!r}, timeout=30).verdict)
        """)
        self.assertEqual(code, 0, out)
        self.assertIn("KeyboardInterrupt after", out)
        self.assertNotIn("finished", out)
        self.assertIn("again: FAIL", out)  # no slow.sh in the empty folder: the run FAILs

    def test_ctrl_c_stops_a_grade(self):
        out_dir = pathlib.Path(self.tmp) / "interrupted-grade"
        code, out = self.interrupt(f"""
            import rubric
            try:
                rubric.grade({str(self.fx.slow)!r}, {[str(s) for s in self.fx.slow_subs]!r}, {str(out_dir)!r}, jobs=1,
                             reference={str(self.fx.ref)!r})
                print("finished")
            except KeyboardInterrupt as e:
                print("KeyboardInterrupt:", e)
        """)
        self.assertEqual(code, 0, out)
        self.assertIn("KeyboardInterrupt: rubric grade was interrupted", out)
        self.assertNotIn("finished", out)
        self.assertFalse((out_dir / "summary.json").exists())

    # -- the other verbs -------------------------------------------------------------------------

    def test_lint(self):
        diagnostics = rubric.lint(self.fx.broken)
        cli = subprocess.run([RUBRIC, "lint", "--no-color", str(self.fx.broken)], capture_output=True, text=True)
        self.assertEqual(cli.returncode, 2)
        self.assertEqual("".join(d.text for d in diagnostics), cli.stderr)
        self.assertTrue(any(d.severity == "error" for d in diagnostics))
        clean = rubric.lint(EXAMPLES / "kv_cache/kv_cache.rubric")
        self.assertFalse([d for d in clean if d.severity == "error"])
        with self.assertRaisesRegex(ValueError, "does not exist"):
            rubric.lint(self.fx.root / "nope.rubric")

    def test_doc(self):
        for module in ["", "std.perf", "samples"]:
            args = [RUBRIC, "doc"] + ([module] if module else [])
            self.assertEqual(rubric.doc(module), subprocess.run(args, capture_output=True, text=True).stdout)
        with self.assertRaisesRegex(LookupError, "no_such_module"):
            rubric.doc("no_such_module")

    def test_test(self):
        folder = EXAMPLES / "kv_cache"
        result = rubric.test(folder / "kv_cache.rubric")
        cli = subprocess.run([RUBRIC, "test", str(folder / "kv_cache.rubric"), "--format", "json"], capture_output=True,
                             text=True)
        self.assertEqual(result.exit_code, cli.returncode)
        self.assertEqual(without_timings(result.result), without_timings(json.loads(cli.stdout)))
        self.assertTrue(result.agrees)
        self.assertIn("agree", result.text)
        broken = write(self.fx.root / "broken.cases.json", '{"cases": [{"name": "x"}]}')
        with self.assertRaises(ValueError):
            rubric.test(folder / "kv_cache.rubric", broken)
        with self.assertRaisesRegex(ValueError, "no cases given"):
            rubric.test(self.fx.params)
        with self.assertRaises(rubric.RubricError):
            rubric.test(self.fx.broken, folder / "kv_cache.cases.json")

    def test_grade(self):
        folder = EXAMPLES / "kv_cache"
        subs = sorted(str(p) for p in (folder / "submissions").iterdir())
        py_out = pathlib.Path(self.tmp) / "py-grade"
        cli_out = pathlib.Path(self.tmp) / "cli-grade"
        summary = rubric.grade(folder / "kv_cache.rubric", subs, py_out, reference=folder / "reference", jobs=2)
        cli = subprocess.run([RUBRIC, "grade", str(folder / "kv_cache.rubric"), *subs, "--reference",
                              str(folder / "reference"), "--out", str(cli_out), "--jobs", "2", "--quiet"])
        self.assertEqual(cli.returncode, 0)
        cli_summary = json.loads((cli_out / "summary.json").read_text())
        self.assertEqual(summary, json.loads((py_out / "summary.json").read_text()))
        for key in ["verdicts", "submissions"]:
            self.assertEqual(summary[key], cli_summary[key], key)
        py_lines = [json.loads(l) for l in (py_out / "results.jsonl").read_text().splitlines()]
        cli_lines = [json.loads(l) for l in (cli_out / "results.jsonl").read_text().splitlines()]
        self.assertEqual([(l["submission"], l["verdict"]) for l in py_lines],
                         [(l["submission"], l["verdict"]) for l in cli_lines])
        # Resumable: nothing new, nothing graded.
        again = rubric.grade(folder / "kv_cache.rubric", subs, py_out, reference=folder / "reference")
        self.assertEqual(again["verdicts"], summary["verdicts"])
        with self.assertRaises(rubric.RubricError):
            rubric.grade(self.fx.broken, subs, pathlib.Path(self.tmp) / "broken-grade")
        with self.assertRaisesRegex(ValueError, "jobs=0"):
            rubric.grade(folder / "kv_cache.rubric", subs, py_out, jobs=0)


if __name__ == "__main__":
    unittest.main(argv=[sys.argv[0], "-v"] + sys.argv[3:])
