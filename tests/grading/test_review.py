#!/usr/bin/python3
"""Integration tests of `rubric review`: graders' verdicts recorded in OUT/reviews.jsonl by the
real binary (--set, --import, --list), concurrent reviewers, torn lines and stale reviews.

usage: test_review.py RUBRIC_BINARY [unittest args...]
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

import test_grading as tg


def reviews(out):
    path = os.path.join(out, "reviews.jsonl")
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f.read().splitlines() if line.strip()]


class ReviewTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rubric-review-test-")
        self.rubric = os.path.join(tg.CORPUS, "corpus.rubric")
        self.reference = os.path.join(tg.CORPUS, "reference")
        self.paths, _ = tg.make_corpus(os.path.join(self.tmp, "corpus"), 1, kinds=("pass", "fail"))
        self.out = os.path.join(self.tmp, "out")
        self.grade()
        self.passing, self.failing = self.paths

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def grade(self):
        tg.run(["grade", self.rubric] + self.paths + ["--reference", self.reference, "--out", self.out, "--quiet"])

    def review(self, *args, exit=0, env=None):
        return tg.run(["review", self.out] + list(args), env=env, check_exit=exit)


class Store(ReviewTest):
    def test_agree_and_overrule_are_recorded_with_the_tools_verdict_and_key(self):
        self.review("--set", f"{self.passing}:cause=agree", "--reviewer", "ada")
        self.review("--set", f"{self.failing}:cause=PASS", "--why", "names the sink in other words", "--reviewer", "bob")
        lines, _ = tg.read_lines(self.out)
        key = {l["submission"]: l["key"] for l in lines}
        first, second = reviews(self.out)
        self.assertEqual((first["submission"], first["criterion"], first["verdict"], first["tool_verdict"], first["reviewer"]),
                         (self.passing, "cause", "agree", "PASS", "ada"))
        self.assertEqual((second["verdict"], second["tool_verdict"], second["justification"], second["reviewer"]),
                         ("PASS", "FAIL", "names the sink in other words", "bob"))
        self.assertEqual(second["rubric_sha256"], key[self.failing]["rubric_sha256"])
        self.assertEqual(second["submission_sha256"], key[self.failing]["submission_sha256"])
        self.assertRegex(second["time"], r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")

    def test_overruling_needs_a_justification(self):
        proc = self.review("--set", f"{self.failing}:cause=PASS", exit=2)
        self.assertIn("needs a justification", proc.stderr)
        self.review("--set", f"{self.failing}:cause=PASS", "--why", "   ", exit=2)
        self.assertEqual(reviews(self.out), [])
        # Saying what the tool said, or abstaining, overrules nothing.
        self.review("--set", f"{self.failing}:cause=FAIL", f"--set={self.passing}:cause=cannot-tell")
        self.assertEqual([r["verdict"] for r in reviews(self.out)], ["FAIL", "cannot tell"])

    def test_unknown_submission_criterion_group_or_verdict_is_refused(self):
        for bad in (f"{self.tmp}/nowhere:cause=agree", f"{self.passing}:nosuch=agree", f"{self.passing}:cause=maybe",
                    "cause=agree"):
            with self.subTest(bad=bad):
                self.review("--set", bad, exit=2)
        self.assertEqual(reviews(self.out), [])

    def test_a_folder_may_be_named_in_another_spelling(self):
        self.review("--set", f"{self.passing}/:result=agree")
        self.assertEqual(reviews(self.out)[0]["submission"], self.passing)

    def test_a_later_review_supersedes_and_the_history_stays(self):
        self.review("--set", f"{self.failing}:cause=PASS", "--why", "first look", "--reviewer", "ada")
        self.review("--set", f"{self.failing}:cause=agree", "--reviewer", "ada")
        self.assertEqual([r["verdict"] for r in reviews(self.out)], ["PASS", "agree"])
        listed = self.review("--list").stdout.splitlines()
        self.assertEqual(len(listed), 1)
        self.assertIn(":cause: agree by ada", listed[0])

    def test_a_review_of_other_content_is_stale(self):
        self.review("--set", f"{self.failing}:cause=PASS", "--why", "close enough")
        self.assertNotIn("stale", self.review("--list").stdout)
        with open(os.path.join(self.failing, "answer.md"), "a") as f:
            f.write("edited after the review\n")
        self.grade()
        self.assertIn("stale", self.review("--list").stdout)

    def test_import_checks_every_record_before_writing_any(self):
        records = os.path.join(self.tmp, "import.jsonl")
        with open(records, "w") as f:
            f.write(json.dumps({"submission": self.passing, "criterion": "result", "verdict": "agree"}) + "\n")
            f.write(json.dumps({"submission": self.failing, "criterion": "cause", "verdict": "PASS"}) + "\n")
        self.assertIn("needs a justification", self.review("--import", records, exit=2).stderr)
        self.assertEqual(reviews(self.out), [])
        with open(records, "w") as f:
            f.write(json.dumps({"submission": self.passing, "criterion": "result", "verdict": "agree"}) + "\n")
            f.write(json.dumps({"submission": self.failing, "criterion": "cause", "verdict": "PASS",
                                "justification": "ok", "reviewer": "carol"}) + "\n")
        self.review("--import", records, "--reviewer", "dan")
        got = reviews(self.out)
        self.assertEqual([(r["criterion"], r["reviewer"], r["tool_verdict"]) for r in got],
                         [("result", "dan", "PASS"), ("cause", "carol", "FAIL")])

    def test_an_imported_review_keeps_the_key_it_was_made_against(self):
        records = os.path.join(self.tmp, "import.jsonl")
        with open(records, "w") as f:
            f.write(json.dumps({"submission": self.passing, "criterion": "result", "verdict": "agree",
                                "submission_sha256": "0" * 64}) + "\n")
        self.review("--import", records)
        self.assertIn("stale", self.review("--list").stdout)

    def test_hostile_justification_stays_one_record_and_prints_escaped(self):
        why = 'line one\n{"submission": "forged"}\x1b[31m\u202e'
        self.review("--set", f"{self.failing}:cause=PASS", "--why", why)
        (got,) = reviews(self.out)
        self.assertEqual(got["justification"], why)
        listed = self.review("--list").stdout
        self.assertEqual(len(listed.splitlines()), 1)
        self.assertNotIn("\x1b", listed)
        self.assertNotIn("\u202e", listed)


class Concurrent(ReviewTest):
    def test_concurrent_reviewers_lose_and_tear_nothing(self):
        writers, each = 8, 12
        long_why = "x" * 20000  # past a pipe's atomic size: only the lock keeps lines whole
        procs = []
        for w in range(writers):
            args = []
            for i in range(each):
                args += ["--set", f"{self.failing}:cause=PASS"]
            procs.append(subprocess.Popen(
                [tg.RUBRIC_EXE, "review", self.out] + args + ["--why", f"{w} {long_why}", "--reviewer", f"r{w}"],
                stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=tg.env_without_ci()))
        for p in procs:
            _, err = p.communicate(timeout=300)
            self.assertEqual(p.returncode, 0, err)
        got = reviews(self.out)  # every line parses
        self.assertEqual(len(got), writers * each)
        self.assertEqual(sorted({r["reviewer"] for r in got}), sorted(f"r{w}" for w in range(writers)))
        for r in got:
            self.assertEqual(r["justification"], f"{r['reviewer'][1:]} {long_why}")

    def test_a_torn_last_line_is_skipped_and_closed_off(self):
        self.review("--set", f"{self.passing}:cause=agree")
        with open(os.path.join(self.out, "reviews.jsonl"), "a") as f:
            f.write('{"submission": "torn')
        listed = self.review("--list")
        self.assertIn("unreadable", listed.stderr)
        self.review("--set", f"{self.passing}:result=agree")
        with open(os.path.join(self.out, "reviews.jsonl"), encoding="utf-8") as f:
            lines = f.read().splitlines()
        self.assertEqual(len(lines), 3)
        self.assertEqual(json.loads(lines[2])["criterion"], "result")
        self.assertEqual(len(self.review("--list").stdout.splitlines()), 2)


def cohen_kappa(pairs):
    """Cohen's kappa of (tool, grader) pairs, written out from its definition."""
    n = len(pairs)
    observed = sum(t == g for t, g in pairs) / n
    labels = {x for pair in pairs for x in pair}
    chance = sum((sum(t == k for t, _ in pairs) / n) * (sum(g == k for _, g in pairs) / n) for k in labels)
    return (observed - chance) / (1 - chance)


class Applied(ReviewTest):
    """Reviews in force change the summary's verdicts and scores, with the rubric's rules."""

    def setUp(self):
        super().setUp()
        self.more, _ = tg.make_corpus(os.path.join(self.tmp, "more"), 1, kinds=("pass", "fail"))
        self.paths += self.more
        self.grade()

    def summary_after_regrade(self):
        proc = tg.run(["grade", self.rubric] + self.paths + ["--reference", self.reference, "--out", self.out])
        return tg.read_summary(self.out), proc.stdout

    def test_an_overrule_recomputes_the_verdict_and_score(self):
        lines, _ = tg.read_lines(self.out)
        self.assertTrue(all(l["pass_mark"] == 0.6 for l in lines))
        before = tg.read_summary(self.out)
        self.assertEqual(before["verdicts"]["FAIL"], 2)
        # The failing answers fail the required criterion `cause`; overruled, they pass whole.
        self.review("--set", f"{self.failing}:cause=PASS", "--why", "names the sink as 'the first tokens'",
                    "--reviewer", "ada")
        summary, table = self.summary_after_regrade()
        self.assertEqual((summary["verdicts"]["PASS"], summary["verdicts"]["FAIL"]), (3, 1))
        cause = next(c for c in summary["criteria"] if c["id"] == "cause")
        self.assertEqual((cause["counts"]["PASS"], cause["counts"]["FAIL"]), (3, 1))
        self.assertEqual(summary["reviews"]["changed_verdicts"], 1)
        (overrule,) = summary["reviews"]["overrules"]
        self.assertEqual((overrule["submission"], overrule["tool_verdict"], overrule["verdict"], overrule["reviewer"]),
                         (self.failing, "FAIL", "PASS", "ada"))
        self.assertIn("overruled by ada: names the sink as 'the first tokens'", table)
        page = tg.run(["merge", self.out, "--out", self.out, "--format", "html"], check_exit=0).stdout
        self.assertIn("<h2>Graders' reviews</h2>", page)
        self.assertIn("overruled by ada: names the sink as &#39;the first tokens&#39;", page)
        # results.jsonl stays the tool's own record.
        lines, _ = tg.read_lines(self.out)
        self.assertEqual({l["submission"]: l["verdict"] for l in lines}[self.failing], "FAIL")

    def test_a_failed_criterion_that_is_not_required_lowers_the_score_by_its_weight(self):
        # weights: cause 2, result 1, variant 1, speed 1; pass mark 60%: 4/5 passes, 3/5 passes, 2/5 fails.
        self.review("--set", f"{self.passing}:result=FAIL", "--why", "ran at 16Ki, the file is edited")
        summary, _ = self.summary_after_regrade()
        self.assertEqual(summary["verdicts"]["PASS"], 2)
        self.assertEqual(summary["reviews"]["changed_verdicts"], 0)
        histogram = {round(b["from"], 1): b["count"] for b in summary["score"]["histogram"] if b["count"]}
        self.assertEqual(histogram, {0.6: 2, 0.8: 1, 0.9: 1})  # 3/5 twice (cause failed), 4/5, 5/5
        self.review("--set", f"{self.passing}:variant=FAIL", "--why", "variant b is not what it ran",
                    f"--set={self.passing}:speed=FAIL")
        summary, _ = self.summary_after_regrade()
        self.assertEqual(summary["verdicts"]["FAIL"], 3)  # 2/5 = 40% is below the pass mark

    def test_agreement_figures_per_criterion(self):
        passing2, failing2 = self.more
        self.review("--set", f"{self.passing}:cause=agree", f"--set={passing2}:cause=agree",
                    f"--set={self.failing}:cause=agree")
        self.review("--set", f"{failing2}:cause=PASS", "--why", "says 'sink tokens' in a table")
        self.review("--set", f"{self.passing}:result=cannot-tell")
        summary, table = self.summary_after_regrade()
        cause = next(c for c in summary["criteria"] if c["id"] == "cause")["agreement"]
        pairs = [("PASS", "PASS"), ("PASS", "PASS"), ("FAIL", "FAIL"), ("FAIL", "PASS")]
        self.assertEqual((cause["reviewed"], cause["agreed"], cause["overruled"]), (4, 3, 1))
        self.assertAlmostEqual(cause["agreement_rate"], 0.75)
        self.assertAlmostEqual(cause["kappa"], cohen_kappa(pairs))
        self.assertEqual({(c["tool"], c["grader"]): c["count"] for c in cause["confusion"]},
                         {("PASS", "PASS"): 2, ("FAIL", "FAIL"): 1, ("FAIL", "PASS"): 1})
        result = next(c for c in summary["criteria"] if c["id"] == "result")["agreement"]
        self.assertEqual((result["reviewed"], result["cannot_tell"], result["agreement_rate"], result["kappa"]),
                         (0, 1, None, None))
        self.assertRegex(table, r"cause\s+4\s+75%\s+0\.50\s+1\s+0")

    def test_a_stale_review_is_counted_apart_and_not_applied(self):
        self.review("--set", f"{self.failing}:cause=PASS", "--why", "close enough")
        with open(os.path.join(self.failing, "answer.md"), "a") as f:
            f.write("rewritten after the review\n")
        summary, _ = self.summary_after_regrade()
        self.assertEqual(summary["verdicts"]["FAIL"], 2)
        cause = next(c for c in summary["criteria"] if c["id"] == "cause")["agreement"]
        self.assertEqual((cause["reviewed"], cause["stale"]), (0, 1))

    def test_merge_applies_the_reviews_of_the_folders_it_merges(self):
        self.review("--set", f"{self.failing}:cause=PASS", "--why", "close enough")
        merged = os.path.join(self.tmp, "merged")
        tg.run(["merge", self.out, "--out", merged, "--quiet"], check_exit=0)
        summary = tg.read_summary(merged)
        self.assertEqual(summary["verdicts"]["PASS"], 3)
        self.assertEqual(len(summary["reviews"]["overrules"]), 1)


class Export(ReviewTest):
    def test_grading_records_carry_final_verdicts_and_justifications(self):
        why = "names the sink as 'the first tokens' <script>alert(1)</script>"
        self.review("--set", f"{self.failing}:cause=PASS", "--why", why, "--reviewer", "ada")
        self.review("--set", f"{self.failing}:result=agree", "--reviewer", "bob")
        records = os.path.join(self.tmp, "records")
        self.review("--export", records)
        self.assertEqual(sorted(os.listdir(records)),
                         ["0000-sub-0000-pass.html", "0000-sub-0000-pass.md", "0001-sub-0001-fail.html", "0001-sub-0001-fail.md"])
        with open(os.path.join(records, "0001-sub-0001-fail.md"), encoding="utf-8") as f:
            md = f.read()
        self.assertIn("**Verdict: PASS**", md)  # the required criterion overruled: the whole passes
        self.assertIn("overruled by ada (the tool said FAIL): names the sink as 'the first tokens'", md)
        self.assertIn("agreed by bob", md)
        self.assertIn('not found: "attention sink"', md)  # the tool's evidence beside it
        with open(os.path.join(records, "0001-sub-0001-fail.html"), encoding="utf-8") as f:
            page = f.read()
        self.assertIn("overruled by ada", page)
        self.assertNotIn("<script", page.lower())
        with open(os.path.join(records, "0000-sub-0000-pass.md"), encoding="utf-8") as f:
            self.assertIn("**Verdict: PASS**", f.read())

    def test_cases_from_reviews_prove_a_rubric_change(self):
        self.review("--set", f"{self.failing}:cause=PASS", "--why", "'slow' is the cause the task wanted",
                    f"--set={self.passing}:cause=agree")
        proc = tg.run(["test", self.rubric, "--cases-from", self.out, "--format", "json"], check_exit=1)
        result = json.loads(proc.stdout)
        self.assertEqual(sorted((c["name"], c["expected"], c["actual"]) for c in result["cases"]),
                         sorted([(self.failing, "PASS", "FAIL"), (self.passing, "PASS", "PASS")]))
        # The rubric changed to accept the graders' decision: it now agrees with every review,
        # though the reviews were made under the old rubric.
        fixed = os.path.join(self.tmp, "fixed.rubric")
        with open(self.rubric) as f:
            text = f.read().replace('["attention sink", "sink tokens"]', '["attention sink", "sink tokens", "slow"]')
        with open(fixed, "w") as f:
            f.write(text)
        tg.run(["test", fixed, "--cases-from", self.out], check_exit=0)
        tg.run(["test", fixed, "--cases-from", self.out, "--cases", "x.json"], check_exit=2)

    def test_cases_from_an_unreviewed_folder_is_an_error(self):
        self.assertIn("holds no review", tg.run(["test", self.rubric, "--cases-from", self.out], check_exit=2).stderr)


if __name__ == "__main__":
    tg.RUBRIC_EXE = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
