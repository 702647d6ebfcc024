#!/usr/bin/python3
"""The review page of `rubric review OUT`, served by the real binary: HTTP-level tests (the token,
the Host header, concurrent reviewers, hostile submissions, a killed server, blind review) and a
real browser (headless Chromium through chromedriver and Selenium), skipped with the reason where
Chromium, chromedriver or Selenium is missing.

usage: test_review_page.py RUBRIC_BINARY [unittest args...]
"""
import http.client
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import unittest
import urllib.parse

import test_grading as tg
from test_review import reviews


class Server:
    """`rubric review OUT ...` running; its URL, port and token as printed."""

    def __init__(self, out, *args, cwd=None):
        self.proc = subprocess.Popen([tg.RUBRIC_EXE, "review", out] + list(args), cwd=cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=tg.env_without_ci())
        line = self.proc.stdout.readline()
        if not line.startswith("review page: "):
            self.proc.kill()
            raise AssertionError(f"no URL printed: {line!r} {self.proc.stderr.read()}")
        self.url = line.split(": ", 1)[1].strip()
        parsed = urllib.parse.urlparse(self.url)
        self.port = parsed.port
        self.token = urllib.parse.parse_qs(parsed.query)["token"][0]

    def request(self, method, path, body=None, token=True, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        if token:
            path += ("&" if "?" in path else "?") + "token=" + self.token
        hdrs = dict(headers or {})
        if body is not None:
            body = urllib.parse.urlencode(body)
            hdrs["Content-Type"] = "application/x-www-form-urlencoded"
        conn.request(method, path, body=body, headers=hdrs)
        res = conn.getresponse()
        data = res.read().decode("utf-8")
        conn.close()
        return res, data

    def post_review(self, index, criterion, verdict, why="", reviewer="ada"):
        return self.request("POST", "/review", {"s": index, "criterion": criterion, "verdict": verdict, "why": why,
                                                "reviewer": reviewer})

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        self.proc.stdout.close()
        self.proc.stderr.close()


class PageTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="rubric-review-page-")
        self.rubric = os.path.join(tg.CORPUS, "corpus.rubric")
        self.reference = os.path.join(tg.CORPUS, "reference")
        self.paths, _ = tg.make_corpus(os.path.join(self.tmp, "corpus"), 1)
        self.out = os.path.join(self.tmp, "out")
        self.servers = []

    def tearDown(self):
        for s in self.servers:
            s.stop()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def grade(self):
        tg.run(["grade", self.rubric] + self.paths + ["--reference", self.reference, "--out", self.out, "--quiet"])

    def serve(self, *args):
        server = Server(self.out, *args)
        self.servers.append(server)
        return server

    def index(self, path):
        """The page number of a submission: its place in path order."""
        return sorted(self.paths).index(path)


class Http(PageTest):
    def setUp(self):
        super().setUp()
        self.grade()

    def test_the_token_is_required(self):
        server = self.serve()
        self.assertTrue(server.url.startswith("http://127.0.0.1:"))
        self.assertEqual(len(server.token), 32)
        for path in ("/", "/s/0", "/?token=", "/?token=" + "0" * 32, "/?token=" + server.token[:-1]):
            with self.subTest(path=path):
                res, _ = server.request("GET", path, token=False)
                self.assertEqual(res.status, 403)
        res, _ = server.request("POST", "/review", {"s": 0, "criterion": "cause", "verdict": "agree"}, token=False)
        self.assertEqual(res.status, 403)
        self.assertEqual(reviews(self.out), [])
        res, page = server.request("GET", "/")
        self.assertEqual(res.status, 200)
        self.assertIn("default-src 'none'", res.getheader("Content-Security-Policy"))

    def test_a_foreign_host_header_is_refused(self):
        server = self.serve()
        res, _ = server.request("GET", "/", headers={"Host": f"attacker.example:{server.port}"})
        self.assertEqual(res.status, 403)
        res, _ = server.request("GET", "/", headers={"Host": f"localhost:{server.port}"})
        self.assertEqual(res.status, 200)

    def test_only_loopback_is_bound(self):
        server = self.serve()
        with open("/proc/net/tcp") as f:
            listening = [l.split() for l in f.read().splitlines()[1:] if l.split()[3] == "0A"]
        ours = [l[1] for l in listening if int(l[1].split(":")[1], 16) == server.port]
        self.assertEqual(ours, ["0100007F:%04X" % server.port])

    def test_the_queue_counts_its_groups(self):
        _, page = self.serve("--sample", "1").request("GET", "/")
        for group, count in (("marked for review", 0), ("ERROR", 1), ("INCONCLUSIVE", 1), ("SKIP", 0), ("near the pass mark", 1), ("sample", 1)):
            self.assertIn(f"<h2>{group} ({count})</h2>", page)
        # The failing answer scores 60% against a 60% pass mark: near it.
        near = page.split("near the pass mark (1)")[1].split("<h2>")[0]
        self.assertIn("sub-0001-fail", near)

    def test_a_review_posted_is_recorded_and_shown(self):
        server = self.serve()
        failing = self.index(self.paths[1])
        res, page = server.post_review(failing, "cause", "PASS")
        self.assertEqual(res.status, 400)
        self.assertIn("needs a justification", page)
        res, _ = server.post_review(failing, "cause", "PASS", why="names the sink as 'the first tokens'")
        self.assertEqual(res.status, 303)
        self.assertEqual(res.getheader("Location"), f"/s/{failing}?token={server.token}")
        (r,) = reviews(self.out)
        self.assertEqual((r["submission"], r["criterion"], r["verdict"], r["tool_verdict"], r["reviewer"], r["blind"]),
                         (self.paths[1], "cause", "PASS", "FAIL", "ada", False))
        _, page = server.request("GET", f"/s/{failing}")
        self.assertIn("overruled: PASS by ada", page)
        for bad in ({"s": 99, "criterion": "cause", "verdict": "agree"},
                    {"s": failing, "criterion": "nosuch", "verdict": "agree"},
                    {"s": failing, "criterion": "cause", "verdict": "maybe"}):
            res, _ = server.request("POST", "/review", bad)
            self.assertEqual(res.status, 400)
        self.assertEqual(len(reviews(self.out)), 1)

    def test_concurrent_reviewers_lose_nothing(self):
        server = self.serve()
        errors = []

        def reviewer(n):
            try:
                for i in range(10):
                    res, _ = server.post_review(i % len(self.paths), "result", "agree", why=f"{n}-{i} " + "y" * 3000,
                                                reviewer=f"r{n}")
                    if res.status != 303:
                        errors.append(res.status)
            except Exception as e:  # noqa: BLE001 - reported below
                errors.append(repr(e))

        threads = [threading.Thread(target=reviewer, args=(n,)) for n in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        self.assertEqual(errors, [])
        got = reviews(self.out)
        self.assertEqual(len(got), 80)
        self.assertEqual(sorted(r["justification"].split(" ")[0] for r in got),
                         sorted(f"{n}-{i}" for n in range(8) for i in range(10)))

    def test_a_killed_server_keeps_every_review_it_answered(self):
        server = self.serve()
        server.post_review(0, "cause", "agree")
        server.proc.send_signal(signal.SIGKILL)
        server.proc.wait()
        again = self.serve()
        self.assertNotEqual(again.token, server.token)
        self.assertEqual(again.request("GET", "/", token=False, headers=None)[0].status, 403)
        _, page = again.request("GET", "/s/0")
        self.assertIn("reviewed: agree by ada", page)
        self.assertEqual(len(reviews(self.out)), 1)

    def test_blind_review_hides_the_tool_until_every_criterion_is_in(self):
        server = self.serve("--blind")
        failing = self.index(self.paths[1])
        _, page = server.request("GET", f"/s/{failing}")
        self.assertNotIn("the tool:", page)  # no verdict, score or reason
        self.assertNotIn("<b class=", page)
        self.assertNotIn("not found: ", page)  # the evidence
        self.assertNotIn('value="agree"', page)
        res, page = server.post_review(failing, "cause", "PASS")
        self.assertEqual(res.status, 400)
        self.assertIn("while the tool&#39;s verdict is hidden", page)
        self.assertNotIn("overrul", page)
        for criterion, verdict in (("cause", "FAIL"), ("result", "PASS"), ("variant", "PASS")):
            res, page = server.post_review(failing, criterion, verdict, why="read it")
            self.assertEqual(res.status, 303)
            _, page = server.request("GET", f"/s/{failing}")
            self.assertNotIn("not found: ", page)
            self.assertNotIn("the tool:", page)
        server.post_review(failing, "speed", "cannot tell")
        _, page = server.request("GET", f"/s/{failing}")
        self.assertIn("not found: ", page)  # every criterion in: the tool's evidence appears
        self.assertIn("the tool:", page)
        self.assertTrue(all(r["blind"] for r in reviews(self.out)))


class Hostile(PageTest):
    def test_hostile_submission_strings_stay_text(self):
        hostile = os.path.join(self.tmp, "corpus", "sub-<script>alert(1)</script>")
        tg.write_submission(hostile, "pass")
        with open(os.path.join(hostile, "answer.md"), "w") as f:
            f.write('The attention sink.\n<script>fetch("http://example.com/x")</script>\n"><img src=x onerror=alert(1)>\n'
                    "\x1b[31m\u202e\x00")
        with open(os.path.join(hostile, '"><b>name.md'), "w") as f:
            f.write("<iframe src=http://example.com>")
        os.symlink("/etc/passwd", os.path.join(hostile, "passwd.md"))
        os.mkfifo(os.path.join(hostile, "fifo.md"))
        self.paths.append(hostile)
        self.grade()
        server = self.serve()
        index = self.index(hostile)
        for path in ("/", f"/s/{index}"):
            res, page = server.request("GET", path)
            self.assertEqual(res.status, 200)
            lower = page.lower()
            for tag in ("<script", "<img", "<iframe", "<b>name"):
                self.assertNotIn(tag, lower)
            self.assertNotIn("\x1b", page)
            self.assertNotIn("\u202e", page)
            self.assertNotIn("root:", page)
        self.assertIn("&lt;script&gt;", page)
        self.assertIn("(binary: not shown)", page)  # the NUL makes answer.md binary
        self.assertIn("&lt;iframe", page)
        self.assertNotIn("passwd.md", page)  # a link is not a file of the submission
        self.assertNotIn("fifo.md", page)


def browser_missing():
    """Why no browser test can run here, or None."""
    for path in ("/usr/bin/chromium", "/usr/bin/chromedriver"):
        if not os.access(path, os.X_OK):
            return f"{path} is not installed (apt-get install chromium chromium-driver python3-selenium)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "python3-selenium is not installed"
    return None


@unittest.skipIf(browser_missing(), browser_missing() or "")
class Browser(PageTest):
    def setUp(self):
        super().setUp()
        self.grade()
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        options = webdriver.ChromeOptions()
        options.binary_location = "/usr/bin/chromium"
        for arg in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                    f"--user-data-dir={self.tmp}/chromium-profile"):
            options.add_argument(arg)
        try:
            self.driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
        except Exception as e:  # noqa: BLE001 - a machine where Chromium cannot start
            self.skipTest(f"Chromium does not start here: {e}")
        self.driver.set_page_load_timeout(120)

    def tearDown(self):
        self.driver.quit()
        super().tearDown()

    def review(self, criterion, verdict, why=""):
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support import expected_conditions as EC
        from selenium.webdriver.support.ui import WebDriverWait
        wait = WebDriverWait(self.driver, 60)
        form = wait.until(EC.presence_of_element_located((By.CSS_SELECTOR, f"#c-{criterion} form")))
        form.find_element(By.CSS_SELECTOR, f'input[value="{verdict}"]').click()
        if why:
            form.find_element(By.NAME, "why").send_keys(why)
        form.find_element(By.TAG_NAME, "button").click()
        # The form posts and the server answers with the page again: wait until the old page is
        # gone and the new one has loaded, so the next lookup cannot find the old page's form.
        # (Chromium reports a node of a page being replaced either as stale or as "not in the document".)
        from selenium.common.exceptions import WebDriverException

        def old_page_gone(_):
            try:
                form.is_enabled()
                return False
            except WebDriverException:
                return True
        wait.until(old_page_gone)
        wait.until(lambda d: d.execute_script("return document.readyState") == "complete")

    def test_review_in_the_browser_and_reload(self):
        from selenium.webdriver.common.by import By
        server = self.serve()
        self.driver.get(server.url)
        self.assertIn("Review queue", self.driver.find_element(By.TAG_NAME, "h1").text)
        self.driver.find_element(By.PARTIAL_LINK_TEXT, "sub-0001-fail").click()
        self.review("result", "agree")
        self.review("cause", "PASS", why="names the sink as 'the first tokens'")
        self.driver.refresh()
        text = self.driver.find_element(By.TAG_NAME, "body").text
        self.assertIn("reviewed: agree by", text)
        self.assertIn("overruled: PASS by", text)
        self.assertIn("names the sink as 'the first tokens'", text)

        blind = self.serve("--blind")
        self.driver.get(blind.url)
        self.driver.find_element(By.PARTIAL_LINK_TEXT, "sub-0000-pass").click()
        self.assertNotIn("agree", [e.get_attribute("value") for e in self.driver.find_elements(By.CSS_SELECTOR, "input")])
        self.review("speed", "PASS", why="the runs are within the baseline's noise")
        self.driver.refresh()
        self.assertIn("reviewed: PASS by", self.driver.find_element(By.ID, "c-speed").text)
        got = {(r["submission"], r["criterion"]): r for r in reviews(self.out)}
        self.assertEqual(got[(self.paths[1], "cause")]["verdict"], "PASS")
        self.assertEqual(got[(self.paths[1], "result")]["verdict"], "agree")
        self.assertTrue(got[(self.paths[0], "speed")]["blind"])
        records = os.path.join(self.tmp, "records")
        tg.run(["review", self.out, "--export", records], check_exit=0)
        with open(os.path.join(records, "0001-sub-0001-fail.md"), encoding="utf-8") as f:
            self.assertIn("names the sink as 'the first tokens'", f.read())


if __name__ == "__main__":
    tg.RUBRIC_EXE = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
