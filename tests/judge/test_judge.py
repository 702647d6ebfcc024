#!/usr/bin/python3
"""Integration tests of `judge(text, question)` through the real rubric binary, against a local
server that speaks the chat completions protocol (fake_judge_server.py, started here on loopback):
answers, votes, the cache (offline re-grading, corrupt lines), timeouts, malformed replies, HTTP
errors, rate limiting, the key's confinement, `rubric grade` and `rubric lint`.

usage: test_judge.py RUBRIC_BINARY [unittest args...]
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RUBRIC_EXE = None
KEY = "sk-test-0123456789abcdef-SECRET"
ANSWER = ("The kernel is slow because the 32 threads of a warp hit the same shared-memory bank.\n"
          "Padding the tile to 33 columns removes the conflict; the kernel is 2.9x faster.\n")


def clean_env(**extra):
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("RUBRIC_JUDGE_") and k not in ("CI", "NO_COLOR", "RUBRIC_PATH")}
    env["LC_ALL"] = "C.UTF-8"
    env.update(extra)
    return env


class FakeJudge:
    """The fake endpoint as a process; stop() makes it unreachable."""

    def __init__(self, folder, tls=None):
        self.closed = None
        self.port_file = os.path.join(folder, "port")
        self.log = os.path.join(folder, "requests.jsonl")
        self.proc = subprocess.Popen(["/usr/bin/python3", os.path.join(HERE, "fake_judge_server.py"),
                                      "--port-file", self.port_file, "--log", self.log] + (["--tls", *tls] if tls else []),
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.time() + 20
        while not os.path.exists(self.port_file):
            if time.time() > deadline or self.proc.poll() is not None:
                raise RuntimeError("the fake judge server did not start")
            time.sleep(0.05)
        with open(self.port_file) as f:
            self.port = int(f.read())
        self.url = f"{'https' if tls else 'http'}://127.0.0.1:{self.port}/v1"

    def requests(self):
        if not os.path.exists(self.log):
            return []
        with open(self.log, encoding="utf-8") as f:
            return [json.loads(line) for line in f]

    def stop(self):
        """Ends the server; from then on `url` refuses every connection. It names a port bound here and
        never listened on, not the server's old port: a server of a test running beside this one may
        be given that port, and the 'unreachable' endpoint would answer."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            self.proc.wait(timeout=10)
        if self.closed is None:
            self.closed = socket.socket()
            self.closed.bind(("127.0.0.1", 0))
            self.url = f"{self.url.split(':')[0]}://127.0.0.1:{self.closed.getsockname()[1]}/v1"

    def close(self):
        self.stop()
        self.closed.close()


class JudgeCase(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="rubric-judge-")
        self.server = FakeJudge(self.dir)
        self.sub = os.path.join(self.dir, "sub")
        os.makedirs(self.sub)
        with open(os.path.join(self.sub, "answer.md"), "w") as f:
            f.write(ANSWER)
        self.cache = os.path.join(self.dir, "cache.jsonl")

    def tearDown(self):
        self.server.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def rubric(self, body, name="task.rubric"):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write('rubric "judge test" { version: "1" }\n'
                    'let answer = text(submission / "answer.md")\n' + body)
        return path

    def check(self, rubric, *extra, url=True, model="test-model", key=KEY, timeout=120, env_extra=None):
        args = [RUBRIC_EXE, "check", rubric, "--submission", self.sub, "--no-color", "--judge-cache", self.cache]
        if url:
            args += ["--judge-url", self.server.url if url is True else url]
        if model:
            args += ["--judge-model", model]
        args += list(extra)
        env = clean_env(**({"RUBRIC_JUDGE_API_KEY": key} if key else {}), **(env_extra or {}))
        start = time.time()
        proc = subprocess.run(args, cwd=self.dir, env=env, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=timeout)
        proc.elapsed = time.time() - start
        return proc

    def check_json(self, rubric, *extra, **kw):
        report = os.path.join(self.dir, "report.json")
        proc = self.check(rubric, "--format", "json", "--output", report, *extra, **kw)
        with open(report, encoding="utf-8") as f:
            proc.report = json.load(f)
        proc.checks = {c["id"]: c["checks"][0] for c in proc.report["criteria"]}
        return proc

    def cache_lines(self):
        with open(self.cache, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]


class Answers(JudgeCase):
    def test_yes_and_no(self):
        r = self.rubric('criterion named "names the cause" { expect judge(answer, "[yes] Does the answer blame bank conflicts?") }\n'
                        'criterion evicts "blames eviction" { expect judge(answer, "[no] Does the answer blame KV-cache eviction?") }\n')
        p = self.check_json(r)
        self.assertEqual(p.returncode, 1, p.stdout + p.stderr)
        yes, no = p.checks["named"], p.checks["evicts"]
        self.assertEqual(yes["verdict"], "PASS")
        self.assertIn("judge (model test-model, 1 vote: yes): 'The text names the bank conflict and pads the shared array.'",
                      yes["evidence"])
        self.assertEqual(no["verdict"], "FAIL")
        self.assertEqual(no["blame"], "submission")
        self.assertIn("judge (model test-model, 1 vote: no): 'The text blames the prefix cache, not the eviction policy.'",
                      no["evidence"])
        self.assertIn("judge (model test-model, 1 vote: yes)", p.stdout)

    def test_reply_forms(self):
        r = self.rubric('criterion words "plain words" { expect judge(answer, "[words] Q?") }\n'
                        'criterion fenced "fenced after thinking" { expect not judge(answer, "[fenced] Q?") }\n')
        p = self.check_json(r)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("judge (model test-model, 1 vote: yes): 'It states the cause plainly.'", p.checks["words"]["evidence"])
        self.assertIn("judge (model test-model, 1 vote: no): 'vague'", p.checks["fenced"]["evidence"])

    def test_request_is_what_the_protocol_wants(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Does the answer blame bank conflicts?") }\n')
        self.assertEqual(self.check(r).returncode, 0)
        (req,) = self.server.requests()
        self.assertEqual(req["path"], "/v1/chat/completions")
        self.assertEqual(req["authorization"], "Bearer " + KEY)
        body = req["body"]
        self.assertEqual(body["model"], "test-model")
        self.assertEqual(body["temperature"], 0)
        self.assertEqual([m["role"] for m in body["messages"]], ["system", "user"])
        system, user = body["messages"][0]["content"], body["messages"][1]["content"]
        self.assertIn("[yes] Does the answer blame bank conflicts?", system)
        self.assertIn("untrusted data", system)
        self.assertNotIn("shared-memory bank", system)  # the text never reaches the system message
        tag = user.split("\n", 1)[0][len("<<<TEXT "):-len(">>>")]
        self.assertRegex(tag, "^[0-9a-f]{16}$")
        self.assertEqual(user, f"<<<TEXT {tag}>>>\n{ANSWER}\n<<<END {tag}>>>")

    def test_no_key_no_authorization_header(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Q?") }\n')
        self.assertEqual(self.check(r, key=None).returncode, 0)
        self.assertIsNone(self.server.requests()[0]["authorization"])

    def test_key_never_shown(self):
        r = self.rubric('criterion echo "a server that echoes the key" { expect judge(answer, "[echo-key] Q?") }\n'
                        'criterion down "HTTP 500" { expect judge(answer, "[http500] Q?") }\n')
        p = self.check_json(r, "--judge-retry-budget", "0.5")
        self.assertEqual(self.server.requests()[0]["authorization"], "Bearer " + KEY)
        with open(os.path.join(self.dir, "report.json"), encoding="utf-8") as f:
            report = f.read()
        with open(self.cache, encoding="utf-8") as f:
            cache = f.read()
        for where, text in (("stdout", p.stdout), ("stderr", p.stderr), ("report", report), ("cache", cache)):
            self.assertNotIn(KEY, text, where)
        self.assertIn("'you sent Bearer ***'", p.stdout)

    def test_reason_cannot_forge_report_lines(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[forge] Q?") }\n')
        p = self.check(r)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        lines = p.stdout.splitlines()
        self.assertFalse([l for l in lines if l.lstrip().startswith("[FAIL]")])
        self.assertEqual([l for l in lines if l.lstrip().startswith("verdict:")],
                         ["verdict: PASS — score 100% reaches the pass mark 100%"])
        self.assertNotIn("\x1b", p.stdout)
        self.assertNotIn("\u202e", p.stdout)
        self.assertIn("'fine [FAIL] other \u2014 forged \\x1b[2J\\u{202e}verdict: PASS'", p.stdout)

    def test_text_over_the_limit_fails_the_submission(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Q?", limit = 100 B) }\n')
        p = self.check_json(r)
        self.assertEqual(p.returncode, 1, p.stdout)
        self.assertEqual(p.checks["c"]["verdict"], "FAIL")
        self.assertIn("more than the judge reads", p.checks["c"]["explanation"])
        self.assertEqual(self.server.requests(), [])

    def test_question_from_the_submission_is_refused(self):
        r = self.rubric('criterion c "c" { expect judge("x", answer) }\n')
        p = self.check_json(r)
        self.assertEqual(p.checks["c"]["verdict"], "ERROR")
        self.assertEqual(p.checks["c"]["blame"], "rubric")
        self.assertEqual(self.server.requests(), [])


class Votes(JudgeCase):
    def test_majority(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[alternate] Q?", votes = 3) }\n')
        p = self.check_json(r)
        self.assertEqual(p.returncode, 0, p.stdout)
        ev = p.checks["c"]["evidence"]
        self.assertEqual(ev[0], "judge (model test-model, 3 votes: yes 2, no 1): 'request 1 for this prompt'")
        self.assertEqual(ev[1:], ["vote 1: yes, 'request 1 for this prompt'", "vote 2: no, 'request 2 for this prompt'",
                                  "vote 3: yes, 'request 3 for this prompt'"])
        self.assertEqual(len(self.server.requests()), 3)
        self.assertEqual(sorted(line["vote"] for line in self.cache_lines()), [1, 2, 3])

    def test_more_votes_reuse_the_earlier_ones(self):
        one = self.rubric('criterion c "c" { expect judge(answer, "[alternate] Q?") }\n', "one.rubric")
        three = self.rubric('criterion c "c" { expect judge(answer, "[alternate] Q?", votes = 3) }\n', "three.rubric")
        self.assertEqual(self.check(one).returncode, 0)
        p = self.check_json(three)
        self.assertEqual(len(self.server.requests()), 3)  # vote 1 from the cache, votes 2 and 3 asked
        self.assertEqual(p.checks["c"]["evidence"][0], "judge (model test-model, 3 votes: yes 2, no 1): 'request 1 for this prompt'")

    def test_tie_is_inconclusive(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[alternate] Q?", votes = 2) }\n')
        p = self.check_json(r)
        self.assertEqual(p.returncode, 3, p.stdout)
        c = p.checks["c"]
        self.assertEqual(c["verdict"], "INCONCLUSIVE")
        self.assertIn("tied (yes 1, no 1)", c["explanation"])
        self.assertEqual(c["evidence"][0], "judge (model test-model, 2 votes: yes 1, no 1): tied")

    def test_default_votes_from_the_command_line(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[alternate] Q?") }\n')
        p = self.check_json(r, "--judge-votes", "2")
        self.assertEqual(p.checks["c"]["verdict"], "INCONCLUSIVE")
        r2 = self.rubric('criterion c "c" { expect judge(answer, "[alternate] Q?", votes = 1) }\n', "one.rubric")
        self.assertEqual(self.check_json(r2, "--judge-votes", "2").checks["c"]["verdict"], "PASS")  # the rubric's votes win

    def test_bad_votes_are_the_rubrics_error(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Q?", votes = 0) }\n')
        p = self.check_json(r)
        self.assertEqual(p.checks["c"]["verdict"], "ERROR")
        self.assertEqual(p.checks["c"]["blame"], "rubric")


class Cache(JudgeCase):
    BODY = ('criterion named "names the cause" { expect judge(answer, "[yes] Does the answer blame bank conflicts?") }\n'
            'criterion majority "majority" { expect judge(answer, "[alternate] Majority?", votes = 3) }\n'
            'criterion no "no" { expect judge(answer, "[no] Does it blame eviction?") }\n')

    def test_offline_regrade_is_identical(self):
        r = self.rubric(self.BODY)
        first = self.check(r)
        self.assertEqual(first.returncode, 1, first.stdout + first.stderr)
        asked = len(self.server.requests())
        self.assertEqual(asked, 5)
        self.server.stop()
        # The endpoint is gone: with its URL still given, and with nothing configured at all.
        again = self.check(r)
        offline = self.check(r, url=False, model=None, key=None)
        for p in (again, offline):
            self.assertEqual(p.returncode, first.returncode, p.stdout + p.stderr)
            self.assertEqual(p.stdout, first.stdout)
        self.assertEqual(len(self.cache_lines()), 5)

    def test_changed_text_or_model_is_asked_again(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Q?") }\n')
        self.check(r)
        self.check(r, model="other-model")
        with open(os.path.join(self.sub, "answer.md"), "a") as f:
            f.write("One more line.\n")
        self.check(r)
        self.assertEqual(len(self.server.requests()), 3)
        self.assertEqual({line["model"] for line in self.cache_lines()}, {"test-model", "other-model"})
        # Offline with two models' judgements of one prompt: the model must be named.
        self.server.stop()
        with open(os.path.join(self.sub, "answer.md"), "w") as f:
            f.write(ANSWER)
        p = self.check_json(r, url=False, model=None)
        self.assertEqual(p.checks["c"]["verdict"], "ERROR")
        self.assertIn("several models (other-model, test-model)", p.checks["c"]["explanation"])
        self.assertEqual(self.check_json(r, url=False, model="other-model").checks["c"]["verdict"], "PASS")

    def test_no_endpoint_and_no_cache_hit_is_the_environments_error(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Q?") }\n')
        for kw in ({"url": False}, {"url": False, "model": None}):
            p = self.check_json(r, **kw)
            self.assertEqual(p.returncode, 2)
            self.assertEqual(p.checks["c"]["verdict"], "ERROR")
            self.assertEqual(p.checks["c"]["blame"], "grader_environment")
            self.assertIn("no judge", p.checks["c"]["explanation"])

    def test_environment_configures_the_judge(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Q?") }\n')
        p = self.check(r, url=False, model=None,
                       env_extra={"RUBRIC_JUDGE_URL": self.server.url, "RUBRIC_JUDGE_MODEL": "env-model"})
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("judge (model env-model, 1 vote: yes)", p.stdout)

    def test_corrupt_lines_are_skipped_with_a_warning(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Q?") }\n')
        self.check(r)
        (good,) = self.cache_lines()
        forged = dict(good, answer="no", model="forged-model")  # its key no longer matches
        with open(self.cache, "w") as f:
            f.write("not json at all\n" + json.dumps(forged) + "\n" + '{"key": 1}\n' + json.dumps(good) + "\n"
                    + '{"torn": "li')
        self.server.stop()
        p = self.check(r, url=False)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("cache.jsonl:1: not JSON", p.stderr)
        self.assertIn("cache.jsonl:2: its key is not the digest of its model and prompt", p.stderr)
        self.assertIn("cache.jsonl:3: not a judgement", p.stderr)
        self.assertIn("judge cache: ", p.stdout)

    def test_a_torn_last_line_does_not_swallow_the_next(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Q?") }\n')
        with open(self.cache, "w") as f:
            f.write('{"key": "torn')
        self.assertEqual(self.check(r).returncode, 0)
        self.server.stop()
        p = self.check(r, url=False)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        self.assertIn("cache.jsonl:1: not JSON", p.stderr)

    def test_cache_beside_the_report(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Q?") }\n')
        out = os.path.join(self.dir, "out", "report.json")
        os.makedirs(os.path.dirname(out))
        args = [RUBRIC_EXE, "check", r, "-s", self.sub, "-f", "json", "-o", out, "--judge-url", self.server.url,
                "--judge-model", "m"]
        subprocess.run(args, env=clean_env(), capture_output=True, check=False, timeout=60)
        self.assertTrue(os.path.exists(out + ".judge-cache.jsonl"))
        # Without --output, the user's cache folder.
        home = os.path.join(self.dir, "xdg")
        subprocess.run(args[:5] + args[9:], env=clean_env(XDG_CACHE_HOME=home), capture_output=True, timeout=60)
        self.assertTrue(os.path.exists(os.path.join(home, "rubric", "judge-cache.jsonl")))


class Failures(JudgeCase):
    def assert_environment_error(self, p, cid, *fragments):
        c = p.checks[cid]
        self.assertEqual(c["verdict"], "ERROR", c)
        self.assertEqual(c["blame"], "grader_environment", c)
        for fragment in fragments:
            self.assertIn(fragment, c["explanation"])

    def test_timeout(self):
        # The reply would come after 30 s; the 1 s timeout ends the wait long before (the bound leaves
        # 14 s for starting the grader on a loaded machine, and is still far from the reply).
        r = self.rubric('criterion slow "slow" { expect judge(answer, "[sleep=30] Q?") }\n')
        p = self.check_json(r, "--judge-timeout", "1")
        self.assert_environment_error(p, "slow", "within 1 s (timeout)")
        self.assertLess(p.elapsed, 15)
        self.assertFalse(os.path.exists(self.cache) and self.cache_lines())

    def test_connect_timeout(self):
        # A listener whose accept queue is full: the kernel drops further SYNs, so connecting hangs.
        import socket
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        fillers = []
        for _ in range(3):
            c = socket.socket()
            c.setblocking(False)
            try:
                c.connect(("127.0.0.1", port))
            except BlockingIOError:
                pass
            fillers.append(c)
        try:
            r = self.rubric('criterion c "x" { expect judge(answer, "[yes] Q?") }\n')
            p = self.check_json(r, "--judge-timeout", "1", url=f"http://127.0.0.1:{port}/v1")
            # Where the kernel resets instead of dropping (tcp_abort_on_overflow), it is a refusal.
            self.assert_environment_error(p, "c", "cannot connect to http://127.0.0.1:")
            self.assertRegex(p.checks["c"]["explanation"], r"within 1 s \(timeout\)|refused|reset")
            self.assertLess(p.elapsed, 15)  # the kernel alone would retry the SYN for about two minutes
        finally:
            for c in fillers + [listener]:
                c.close()

    def test_malformed_replies(self):
        r = self.rubric('criterion nonjson "x" { expect judge(answer, "[nonjson] Q?") }\n'
                        'criterion nochoices "x" { expect judge(answer, "[nochoices] Q?") }\n'
                        'criterion maybe "x" { expect not judge(answer, "[maybe] Q?") }\n')
        p = self.check_json(r)
        self.assertEqual(p.returncode, 2)
        self.assert_environment_error(p, "nonjson", "malformed reply", "not JSON")
        self.assert_environment_error(p, "nochoices", "malformed reply", "no choices")
        self.assert_environment_error(p, "maybe", "malformed reply", "'maybe', neither yes nor no")
        self.assertFalse(os.path.exists(self.cache) and self.cache_lines())  # nothing malformed is kept

    def test_a_text_too_long_for_the_models_context_is_its_writers(self):
        # The submission's long answer (4-byte characters fill a context before the byte limit does)
        # is the submission's FAIL; a short text in the same prompt is judged.
        with open(os.path.join(self.sub, "long.md"), "w", encoding="utf-8") as f:
            f.write("\U0001F600" * 3000)
        r = self.rubric('criterion long "x" { expect judge(text(submission / "long.md"), "[context=2000] Q?") }\n'
                        'criterion short "x" { expect judge(answer, "[context=2000] Q?") }\n')
        p = self.check_json(r)
        self.assertEqual(p.checks["long"]["verdict"], "FAIL", p.checks["long"])
        self.assertEqual(p.checks["long"]["blame"], "submission")
        self.assertIn("does not fit the judge's context", p.checks["long"]["explanation"])
        self.assertIn("maximum context length", p.checks["long"]["explanation"])
        self.assertEqual(p.checks["short"]["verdict"], "PASS", p.checks["short"])

    def test_http_500_is_retried_then_an_error(self):
        r = self.rubric('criterion c "x" { expect judge(answer, "[http500] Q?") }\n')
        p = self.check_json(r, "--judge-retry-budget", "2")
        self.assert_environment_error(p, "c", "HTTP 500", "gave up after")
        self.assertGreater(len(self.server.requests()), 1)
        self.assertLess(p.elapsed, 10)

    def test_rate_limited_then_answered(self):
        r = self.rubric('criterion c "x" { expect judge(answer, "[ratelimit-once] Q?") }\n')
        p = self.check_json(r)
        self.assertEqual(p.checks["c"]["verdict"], "PASS", p.checks["c"])
        self.assertEqual(len(self.server.requests()), 2)
        self.assertGreaterEqual(p.elapsed, 1.0)  # Retry-After: 1 was honoured

    def test_rate_limited_past_the_budget(self):
        r = self.rubric('criterion c "x" { expect judge(answer, "[ratelimit-forever] Q?") }\n')
        p = self.check_json(r, "--judge-retry-budget", "2")
        self.assert_environment_error(p, "c", "rate-limited (HTTP 429)", "past the retry budget")
        self.assertEqual(len(self.server.requests()), 3)  # waits of 1 s and 1 s, then the budget is spent
        self.assertLess(p.elapsed, 10)

    def test_unreachable_endpoint(self):
        self.server.stop()
        r = self.rubric('criterion c "x" { expect judge(answer, "[yes] Q?") }\n')
        p = self.check_json(r)
        self.assert_environment_error(p, "c", "cannot connect to http://127.0.0.1:")

    @unittest.skipUnless(shutil.which("openssl"), "no openssl command to make a certificate")
    def test_an_unverifiable_certificate_is_refused(self):
        self.server.close()
        cert, key = os.path.join(self.dir, "cert.pem"), os.path.join(self.dir, "key.pem")
        subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert,
                        "-days", "1", "-subj", "/CN=127.0.0.1"], check=True, capture_output=True, timeout=60)
        os.remove(self.server.port_file)
        self.server = FakeJudge(self.dir, tls=(cert, key))
        r = self.rubric('criterion c "x" { expect judge(answer, "[yes] Q?") }\n')
        p = self.check_json(r)
        self.assert_environment_error(p, "c", "https://127.0.0.1:")
        self.assertRegex(p.checks["c"]["explanation"], "(?i)certificate")
        self.assertEqual(self.server.requests(), [])  # nothing, the key least of all, went over it

    def test_failure_in_a_later_vote_keeps_the_earlier_ones(self):
        r = self.rubric('criterion c "x" { expect judge(answer, "[yes] Q?", votes = 3) }\n')
        self.assertEqual(self.check(r).returncode, 0)
        r2 = self.rubric('criterion c "x" { expect judge(answer, "[yes] Q?", votes = 5) }\n', "five.rubric")
        self.server.stop()
        p = self.check_json(r2)
        self.assert_environment_error(p, "c", "(vote 4 of 5)")

    def test_usage_errors(self):
        r = self.rubric('criterion c "x" { expect judge(answer, "[yes] Q?") }\n')
        for bad in (["--judge-url", "ftp://x"], ["--judge-votes", "0"], ["--judge-timeout", "0"]):
            p = self.check(r, *bad, url=False)
            self.assertEqual(p.returncode, 2, bad)
            self.assertIn("rubric check: --judge-", p.stderr)


class Grade(JudgeCase):
    def test_grade_keeps_the_cache_in_the_out_folder(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[yes] Does the answer blame bank conflicts?") }\n')
        subs = []
        for i in range(4):
            s = os.path.join(self.dir, f"s{i}")
            os.makedirs(s)
            with open(os.path.join(s, "answer.md"), "w") as f:
                f.write(ANSWER + f"variant {i % 2}\n")
            subs.append(s)
        out = os.path.join(self.dir, "results")
        args = [RUBRIC_EXE, "grade", r, *subs, "--out", out, "--jobs", "2", "--quiet", "--judge-model", "m"]
        p = subprocess.run(args + ["--judge-url", self.server.url], env=clean_env(RUBRIC_JUDGE_API_KEY=KEY),
                           capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(os.path.join(out, "judge-cache.jsonl")) as f:
            lines = [json.loads(x) for x in f]
        self.assertEqual(len({x["prompt"] for x in lines}), 2)
        self.server.stop()
        p = subprocess.run(args + ["--regrade"], env=clean_env(), capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(os.path.join(out, "results.jsonl")) as f:
            self.assertEqual([json.loads(x)["verdict"] for x in f], ["PASS"] * 4)

    def test_parallel_graders_append_whole_lines(self):
        r = self.rubric('criterion c "c" { expect judge(answer, "[alternate] Q?", votes = 3) }\n')
        subs = []
        for i in range(12):
            s = os.path.join(self.dir, f"p{i}")
            os.makedirs(s)
            with open(os.path.join(s, "answer.md"), "w") as f:
                f.write(ANSWER + f"variant {i}\n" + "x" * (i * 5000))
            subs.append(s)
        out = os.path.join(self.dir, "results")
        p = subprocess.run([RUBRIC_EXE, "grade", r, *subs, "--out", out, "--jobs", "6", "--quiet", "--judge-model", "m",
                            "--judge-url", self.server.url], env=clean_env(), capture_output=True, text=True, timeout=120)
        self.assertEqual(p.returncode, 0, p.stdout + p.stderr)
        with open(os.path.join(out, "judge-cache.jsonl")) as f:
            lines = [json.loads(x) for x in f.read().splitlines()]  # every line whole JSON
        self.assertEqual(len(lines), 36)
        self.assertEqual(len({(x["prompt"], x["vote"]) for x in lines}), 36)

    def test_lint_says_the_rubric_needs_a_judge(self):
        r = self.rubric('def explains(t) = judge(t, "Does it explain?")\n'
                        'criterion c "c" { expect explains(answer) }\n'
                        'criterion d "d" { expect answer mentions "bank" }\n')
        p = subprocess.run([RUBRIC_EXE, "lint", r], env=clean_env(), capture_output=True, text=True, timeout=60)
        self.assertEqual(p.returncode, 0)
        self.assertIn("note: criterion 'c' asks a judge", p.stderr)
        self.assertNotIn("criterion 'd'", p.stderr)


if __name__ == "__main__":
    RUBRIC_EXE = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
