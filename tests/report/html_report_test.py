#!/usr/bin/python3
"""The HTML report (`rubric check --format html`) end to end, through the real binary.

1. A hostile submission (tests/report/hostile_reports.py's, in every field submission data can
   reach) becomes no markup: parsed with html.parser, the page holds only the tags and attributes
   the printer writes, no script, no event handler, no link or source to fetch, and the forged text
   shows up escaped.
2. Each example's reports (and the corpus page of `rubric grade --format html` over kv_cache) open in headless Chromium (Debian's `chromium`) without a console error
   (a blocked request or a CSP violation would be one), and their plots render: every <svg
   class="plot"> present with a non-zero size, measured in the page. A screenshot of each with plots is kept
   under ARTIFACT_DIR. Where Chromium is missing or cannot start, that part says so and is skipped.

usage: html_report_test.py RUBRIC_EXE EXAMPLES_DIR ARTIFACT_DIR
"""
import html.parser
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import hostile_reports  # noqa: E402  (the hostile submission and its rubric)

failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


# Everything the printer writes; anything else came from somewhere it should not have.
ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "h1", "h2", "section", "main", "p", "span", "div",
                "code", "pre", "details", "summary", "table", "tr", "th", "td", "svg", "circle", "line", "rect", "text"}
ALLOWED_ATTRS = {"lang", "charset", "http-equiv", "content", "name", "class", "id", "open", "data-verdict", "title",
                 "xmlns", "width", "height", "viewbox", "role", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r",
                 "text-anchor", "fill-opacity"}


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags = []
        self.bad = []
        self.text = []
        self.stack = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        if tag not in ALLOWED_TAGS:
            self.bad.append(f"tag <{tag}>")
        for name, value in attrs:
            if name not in ALLOWED_ATTRS:
                self.bad.append(f"attribute {name}= on <{tag}>")
            if value and re.search(r"(?i)javascript:|url\(|https?://(?!www\.w3\.org/2000/svg)", value):
                self.bad.append(f"a reference in {name}={value[:80]!r}")

    def handle_data(self, data):
        self.text.append(data)

    def handle_comment(self, data):
        self.bad.append(f"a comment {data[:80]!r}")

    def handle_decl(self, decl):
        if decl.lower() != "doctype html":
            self.bad.append(f"a declaration {decl[:80]!r}")

    def unknown_decl(self, data):
        self.bad.append(f"a CDATA or marked section {data[:80]!r}")


def check_hostile(exe):
    work = tempfile.mkdtemp(prefix="rubric-html-hostile-")
    try:
        sub = os.path.join(work, "sub")
        os.mkdir(sub)
        os.mkdir(os.path.join(work, "ref"))  # beside the submission: a run never starts inside the reference
        hostile_reports.make_submission(sub)
        with open(os.path.join(work, "hostile.rubric"), "w") as f:
            f.write(hostile_reports.RUBRIC)
        proc = subprocess.run([exe, "check", "hostile.rubric", "--submission", "sub", "--reference", "ref", "--format", "html"],
                              cwd=work,
                              stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
        expect(proc.returncode == 1, f"hostile: exit {proc.returncode}, expected 1")
        out = proc.stdout
        try:
            text = out.decode("utf-8")
        except UnicodeDecodeError as e:
            expect(False, f"hostile: not UTF-8: {e}")
            return
        expect(not re.search(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f\ufffe\uffff]", text),
               "hostile: a control character or noncharacter in the page")
        page = Page()
        page.feed(text)
        page.close()
        for b in page.bad[:10]:
            expect(False, f"hostile: {b}")
        expect("script" not in page.tags, "hostile: a <script>")
        shown = "".join(page.text)
        expect("]]><x/>" in shown, "hostile: the submission's markup-like text is not shown as text")
        expect(text.count("<title>") == 1 + text.count("<svg"), "hostile: a <title> that is not the page's or a plot's")
        expect("<x/>" not in text, "hostile: submission markup reached the page unescaped")
        # The provenance names the grading run's folders as given (as the JSON report does); nothing
        # above it may show an absolute path of the grading machine.
        expect(work not in text.split('<section class="provenance">')[0], "hostile: an absolute path of the grading machine")
        expect(text.count('<details class="criterion') == len(hostile_reports.CRITERIA),
               "hostile: one <details> per criterion")
    finally:
        shutil.rmtree(work, ignore_errors=True)


# Opens the report in a frame and writes what it measured into its own DOM for --dump-dom. The
# report's CSP forbids scripts in the report; this page is the harness, not the report.
HARNESS = """<!DOCTYPE html><html><body><iframe id="r" src="REPORT" width="1200" height="2000"></iframe>
<pre id="out">pending</pre><script>
document.getElementById('r').addEventListener('load', () => {
  const d = document.getElementById('r').contentDocument;
  const plots = [...d.querySelectorAll('svg.plot')].map(s => {
    const b = s.getBoundingClientRect();
    return {cls: s.getAttribute('class'), w: b.width, h: b.height, shapes: s.querySelectorAll('circle,rect,line').length};
  });
  const details = [...d.querySelectorAll('details.criterion')].map(e => ({v: e.dataset.verdict, open: e.open}));
  document.getElementById('out').textContent = 'RESULT' + JSON.stringify({plots, details,
    verdict: (d.getElementById('verdict') || d.getElementById('verdicts') || {}).textContent, scripts: d.scripts.length});
});
</script></body></html>
"""


def chromium():
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


def chromium_flags(profile):
    return ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-extensions",
            "--disable-sync", "--no-first-run", "--no-default-browser-check", "--disable-dev-shm-usage",
            "--mute-audio", f"--user-data-dir={profile}"]


def check_in_chromium(exe, examples, artifacts):
    browser = chromium()
    if browser is None:
        print("skip: Chromium is not installed (apt-get install chromium); the browser checks did not run")
        return
    # Every submission of every example with a cases file, and the corpus page of one; the plots
    # each must show where its data calls for one.
    must_show = {("kv_cache", "regressed"): {"samples"}, ("kv_cache", "noisy"): {"samples"},
                 ("kv_cache", "skips_recompute"): {"mismatch-map"},
                 ("tp_sharding", "off_by_a_little"): {"mismatch-map"}, ("kv_cache", "*"): {"histogram", "pass-rates"}}
    cases = []
    for example in sorted(os.listdir(examples)):
        if os.path.exists(os.path.join(examples, example, example + ".cases.json")):
            for submission in sorted(os.listdir(os.path.join(examples, example, "submissions"))):
                cases.append((example, submission, must_show.get((example, submission), set())))
    cases.append(("kv_cache", "*", must_show[("kv_cache", "*")]))
    os.makedirs(artifacts, exist_ok=True)
    work = tempfile.mkdtemp(prefix="rubric-html-chromium-")
    started = False
    try:
        # The control: a page that requests an image despite its CSP must show a console error here,
        # or this test could not see one in a report either.
        control = os.path.join(work, "control.html")
        with open(control, "w") as f:
            f.write('<!DOCTYPE html><html><head><meta http-equiv="Content-Security-Policy" content="default-src '
                    "'none'\"></head><body><img src=\"http://example.invalid/x.png\"></body></html>")
        try:
            proc = subprocess.run([browser] + chromium_flags(os.path.join(work, "profile")) + [
                "--virtual-time-budget=3000", "--enable-logging=stderr", "--v=0", "--dump-dom", "file://" + control],
                capture_output=True, timeout=120)
        except (OSError, subprocess.TimeoutExpired) as e:
            print(f"skip: Chromium cannot run here ({e}); the browser checks did not run")
            return
        if b"<body>" not in proc.stdout:
            print(f"skip: Chromium did not render (exit {proc.returncode}): {proc.stderr.decode('utf-8', 'replace')[-400:]}")
            return
        expect(b"CONSOLE" in proc.stderr, "control: Chromium showed no console error for a blocked request; "
                                          "the console check would miss a report's")
        for example, submission, kinds in cases:
            d = os.path.join(examples, example)
            report = os.path.join(artifacts, f"{example}-{submission}.html")
            if submission == "*":  # the corpus page of `rubric grade --format html`
                report = os.path.join(artifacts, f"{example}-corpus.html")
                subs = sorted(os.path.join(d, "submissions", n) for n in os.listdir(os.path.join(d, "submissions")))
                with open(report, "wb") as f:
                    subprocess.run([exe, "grade", os.path.join(d, example + ".rubric")] + subs +
                                   ["--reference", os.path.join(d, "reference"), "--out", os.path.join(work, "graded"),
                                    "--format", "html"], stdin=subprocess.DEVNULL, stdout=f, stderr=subprocess.DEVNULL,
                                   timeout=600)
            else:
                reference = ["--reference", os.path.join(d, "reference")] if os.path.isdir(os.path.join(d, "reference")) else []
                subprocess.run([exe, "check", os.path.join(d, example + ".rubric"), "--submission",
                                os.path.join(d, "submissions", submission)] + reference +
                               ["--format", "html", "--output", report], stdin=subprocess.DEVNULL, capture_output=True,
                               timeout=300)
            if not os.path.exists(report):
                expect(False, f"{example}/{submission}: no report written")
                continue
            harness = os.path.join(work, "harness.html")
            with open(harness, "w") as f:
                f.write(HARNESS.replace("REPORT", "file://" + report))
            profile = os.path.join(work, "profile")
            try:
                proc = subprocess.run([browser] + chromium_flags(profile) + [
                    "--allow-file-access-from-files", "--virtual-time-budget=5000", "--enable-logging=stderr",
                    "--v=0", "--dump-dom", "file://" + harness], capture_output=True, timeout=120)
            except (OSError, subprocess.TimeoutExpired) as e:
                if not started:
                    print(f"skip: Chromium cannot run here ({e}); the browser checks did not run")
                    return
                raise
            dom = proc.stdout.decode("utf-8", "replace")
            m = re.search(r"RESULT(\{.*?\})</pre>", dom)
            if not m:
                if not started:
                    print(f"skip: Chromium did not render (exit {proc.returncode}): "
                          f"{proc.stderr.decode('utf-8', 'replace')[-400:]}")
                    return
                expect(False, f"{example}/{submission}: the page did not load in Chromium")
                continue
            started = True
            result = json.loads(m.group(1).replace("&quot;", '"').replace("&amp;", "&"))
            name = f"{example}/{submission}" if submission != "*" else f"{example}/corpus"
            # Console errors of the report (a CSP violation, a failed load); not Chromium's own noise.
            for line in proc.stderr.decode("utf-8", "replace").splitlines():
                if "CONSOLE" in line and "harness.html" not in line:
                    expect(False, f"{name}: console: {line[-300:]}")
            expect(result["scripts"] == 0, f"{name}: the report has a script")
            expect(submission == "*" or result["verdict"] in ("PASS", "FAIL", "ERROR", "INCOMPLETE"),
                   f"{name}: no verdict at the top")
            expect(submission != "*" or "PASS 1" in (result["verdict"] or ""), f"{name}: no verdict counts at the top")
            for det in result["details"]:
                expect(det["open"] == (det["v"] != "PASS"), f"{name}: a {det['v']} criterion open={det['open']}")
            drawn = {p["cls"].split()[-1] for p in result["plots"]}
            expect(kinds <= drawn, f"{name}: expected plots {sorted(kinds)}, found {sorted(drawn)}")
            for p in result["plots"]:
                expect(p["w"] > 0 and p["h"] > 0 and p["shapes"] > 0, f"{name}: a plot with no size or marks: {p}")
            if not kinds:  # a screenshot of each report with plots (the rest cost time, show no plot)
                print(f"ok   {name}: no plot expected, {len(result['plots'])} drawn")
                continue
            shot = report[:-len(".html")] + ".png"
            subprocess.run([browser] + chromium_flags(profile) + ["--window-size=1200,1600", f"--screenshot={shot}",
                                                                  "file://" + report],
                           capture_output=True, timeout=120)
            expect(os.path.exists(shot) and os.path.getsize(shot) > 0, f"{name}: no screenshot")
            print(f"ok   {name}: {len(result['plots'])} plot(s) {sorted(drawn)}, screenshot {shot}")
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main():
    exe, examples, artifacts = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    check_hostile(exe)
    check_in_chromium(exe, examples, artifacts)
    if failures:
        print(f"{len(failures)} failures:")
        for f in failures[:40]:
            print("  " + f)
        return 1
    print("ok: the hostile submission stays text; the reports render in Chromium")
    return 0


if __name__ == "__main__":
    sys.exit(main())
