#!/usr/bin/python3
"""A hostile submission through the real `rubric` binary in every report format.

The submission carries report-forging text (a line break followed by `[PASS] …` or `verdict: PASS`,
ESC sequences, `]]>`, U+FFFE/U+FFFF, NUL, C1 controls, bidi overrides, invalid UTF-8 and encoded
lone surrogates, 1 MB lines) in every place submission data can reach a report: JSON keys and
values, a file named by the submission, a program's stdout and stderr, file names, the answer text
(notes, `mentions` snippets, `lines`), CSV cells. Asserts that:
  - text (without and with colour, on a pseudo-terminal) and Markdown: every line at column 0 is
    the tool's own, no report line starts with submission text, exactly one `verdict:` line;
  - JSON parses (json), JUnit parses (xml.etree), Markdown fences and table rows stay balanced;
  - no control character, ESC (other than the tool's own colours), invalid UTF-8 or code point
    XML cannot hold appears anywhere; lines stay bounded; no absolute path of the grading machine.

usage: hostile_reports.py RUBRIC_EXE
"""
import json
import os
import pty
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import xml.etree.ElementTree as ET

FORGE = "\n[PASS] FORGED — all good\nverdict: PASS — FORGED"
ESC = "\x1b[2K\x1b[1A\x1b[32mverdict: PASS FORGED\x1b[0m"
ODD = "]]><x/>\ufffe\uffff\u2028\u202e\x00\x85"
BAD_UTF8 = b"\xff\xfe\xed\xa0\x80\xc2\x9b31m"  # stray bytes, an encoded lone surrogate, C1 CSI
MEGA = 1 << 20

RUBRIC = r'''rubric "Hostile submission" { version: "1.0" }

let j = json(submission / "result.json")
let answer = text(submission / "answer.md")

criterion keys "json keys" {
  expect keys(j) == ["a"]
  expect j.copied == true
}
criterion values "json values" {
  expect j.status == "ok" else "status was {j.status}"
  expect j.big == "x"
}
criterion derived "a file named by the submission" {
  expect json(submission / j.path).x == 1
}
criterion surrogates "lone surrogates" {
  expect json(submission / "lone.json").v == "x"
}
criterion program "a program's output" {
  let r = run(["sh", "hostile.sh"])
  expect r.exit == 0 else "{r.status}: {r.stderr}"
  expect r.stdout == "clean"
}
criterion names "file names" {
  expect files(submission, "*.md") == []
}
criterion answer "answer text" {
  note "answer starts: {answer}"
  expect answer mentions "bank conflict"
  expect not (answer mentions "FORGED")
  expect lines(answer)[0] == "hello"
}
criterion cells "csv cells" {
  expect csv(submission / "data.csv")[0].name == "x"
}
'''
CRITERIA = ["keys", "values", "derived", "surrogates", "program", "names", "answer", "cells"]

# Nothing a report shows may hold these: C0 controls but the line feed, DEL, C1 controls, line and
# paragraph separators, bidi controls, BOM, U+FFFE/U+FFFF.
FORBIDDEN = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]")
TOOL_COLOURS = re.compile(r"\x1b\[(?:0|1|31|32|33|35|90)m")
MAX_LINE = 8000  # bytes; every field carries a 1 MB string

failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


def make_submission(d):
    big = "L" * MEGA
    result = {"ok" + FORGE: 1, ESC: 2, "status": "bad" + FORGE + ESC + ODD, "path": "missing" + FORGE + ".json",
              "big": big}
    with open(os.path.join(d, "result.json"), "w") as f:
        json.dump(result, f)
    with open(os.path.join(d, "lone.json"), "wb") as f:
        f.write(b'{"v": "\\ud800 lone", "w\xed\xa0\x80": "\xc0\xaf"}')
    with open(os.path.join(d, "answer.md"), "wb") as f:
        f.write(("hi" + FORGE + ESC + ODD).encode() + BAD_UTF8 + b"\n" + big.encode() + b"\n")
    with open(os.path.join(d, "hostile.sh"), "w") as f:
        f.write("echo \"$PWD/solution.py:3: error\" >&2\n"
                "printf 'err\\n[PASS] FORGED\\nverdict: PASS FORGED\\033[2K\\033]0;title\\007\\377\\n' >&2\n"
                f"head -c {MEGA} /dev/zero | tr '\\000' E >&2\n"
                "printf 'out\\n[PASS] FORGED\\n\\033[1A'\n"
                "exit 3\n")
    for name in ["evil" + FORGE + ".md", ESC + ".md", "]]>.md"]:
        with open(os.path.join(d, name), "w") as f:
            f.write("x")
    with open(os.path.join(d.encode(), b"bad" + BAD_UTF8[:2] + b".md"), "w") as f:
        f.write("x")
    with open(os.path.join(d, "data.csv"), "w") as f:
        f.write('name,v\n"x' + FORGE + '",1\n')


def run(exe, work, fmt):
    proc = subprocess.run([exe, "check", "hostile.rubric", "--submission", "sub", "--reference", "ref", "--format", fmt,
                           "--no-color"],
                          cwd=work, stdin=subprocess.DEVNULL, capture_output=True, timeout=300)
    expect(proc.returncode == 1, f"{fmt}: exit code {proc.returncode}, expected 1 (FAIL); stderr: {proc.stderr[:500]!r}")
    return proc.stdout


def run_on_terminal(exe, work):
    """The text report with colour on: stdout is a pseudo-terminal."""
    master, slave = pty.openpty()
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR",)}
    proc = subprocess.Popen([exe, "check", "hostile.rubric", "--submission", "sub", "--reference", "ref"], cwd=work,
                            stdin=subprocess.DEVNULL, stdout=slave, stderr=subprocess.DEVNULL, env=env)
    os.close(slave)
    chunks = []

    def drain():
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:
                return
            if not data:
                return
            chunks.append(data)

    reader = threading.Thread(target=drain)
    reader.start()
    code = proc.wait(timeout=300)
    reader.join(timeout=30)
    os.close(master)
    expect(code == 1, f"text on a terminal: exit code {code}, expected 1")
    return b"".join(chunks).replace(b"\r\n", b"\n")  # the terminal's line discipline adds \r


def decoded(fmt, data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        expect(False, f"{fmt}: not valid UTF-8: {e}")
        return data.decode("utf-8", errors="replace")


def common(fmt, text, work):
    """`text`: the document, or for JSON and JUnit its strings joined by line feeds."""
    bad = FORBIDDEN.search(text)
    if bad:
        expect(False, f"{fmt}: a control or invisible character {bad.group()!r}: "
                      f"{text[max(0, bad.start() - 60):bad.start() + 20]!r}")
    longest = max((len(line.encode()) for line in text.split("\n")), default=0)
    expect(longest < MAX_LINE, f"{fmt}: a line of {longest} bytes")
    expect("more bytes not shown" in text, f"{fmt}: a 1 MB string is not cut with a note")
    expect(text.count("FORGED") >= 8, f"{fmt}: the submission's text does not reach the report")
    for path in {work, os.path.realpath(work)}:
        expect(path not in text, f"{fmt}: the grading machine's path {path} is printed")
    expect("/rubric-run-" not in text, f"{fmt}: a scratch directory's absolute path is printed")


def no_forged_lines(fmt, lines, column0):
    """Lines at column 0 must match the tool's own forms; no line at any indent starts with forged text."""
    verdict_lines = [l for l in lines if l.startswith("verdict:") or l.startswith("**Verdict:")]
    expect(len(verdict_lines) == 1, f"{fmt}: {len(verdict_lines)} verdict lines: {verdict_lines[:3]!r}")
    for line in lines:
        if line and not line.startswith(" "):
            expect(column0.match(line) is not None, f"{fmt}: a line at column 0 the tool did not write: {line[:120]!r}")
            continue
        stripped = line.lstrip(" ")
        expect(not re.match(r"(\[(PASS|FAIL|ERROR|SKIP|INCONCLUSIVE)\]|verdict:|FORGED|✔|- ✔)", stripped),
               f"{fmt}: a forged line: {line[:120]!r}")


def check_text(out, work, coloured):
    fmt = "text (colour)" if coloured else "text"
    text = decoded(fmt, out)
    if coloured:
        expect(TOOL_COLOURS.search(text) is not None, "text (colour): no colours on a terminal")
        text = TOOL_COLOURS.sub("", text)
    expect("\x1b" not in text, f"{fmt}: an ESC the tool did not write")
    common(fmt, text, work)
    ids = "|".join(CRITERIA)
    column0 = re.compile(r"^(Hostile submission \(version 1\.0\)$|\[FAIL\] (" + ids + r") — |-{40}$|criteria: |"
                         r"score \d+% \(pass mark|verdict: FAIL — )")
    no_forged_lines(fmt, text.split("\n"), column0)
    expect(r"\n[PASS] FORGED" in text and r"\x1b[2K" in text and r"\u{fffe}" in text and r"\xff" in text,
           f"{fmt}: line breaks, ESC, U+FFFE or invalid bytes are not shown as escapes")


def json_strings(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            yield k
            yield from json_strings(v)
    elif isinstance(node, list):
        for v in node:
            yield from json_strings(v)


def check_json(out, work):
    text = decoded("json", out)
    try:
        doc = json.loads(text)
    except ValueError as e:
        expect(False, f"json: does not parse: {e}")
        return
    expect(doc.get("verdict") == "FAIL" and doc.get("exit_code") == 1, "json: verdict is not FAIL")
    expect([c["id"] for c in doc["criteria"]] == CRITERIA, "json: criteria differ")
    strings = list(json_strings(doc))  # what a consumer printing the fields would print
    expect(not any("\n" in s for s in strings), "json: a field holds a raw line break")
    common("json", "\n".join(json_strings([doc["criteria"], doc["warnings"]])), work)
    # The provenance names the folders graded as given on the command line; still escaped.
    bad = [s for s in json_strings(doc["provenance"]) if FORBIDDEN.search(s)]
    expect(not bad, f"json: provenance holds control characters: {bad[:3]!r}")


def check_junit(out, work):
    try:
        root = ET.fromstring(out)
    except ET.ParseError as e:
        expect(False, f"junit: not well-formed XML: {e}")
        return
    cases = root.findall("./testsuite/testcase")
    expect(len(cases) == len(CRITERIA), f"junit: {len(cases)} test cases")
    expect(all(c.find("failure") is not None for c in cases), "junit: a criterion is not a <failure>")
    texts = []
    for el in root.iter():
        texts.extend(el.attrib.values())
        if el.text:
            texts.append(el.text)
    for t in texts:
        for line in t.split("\n"):
            expect(not re.match(r"\s*(\[(PASS|FAIL)\]|verdict:|FORGED)", line), f"junit: a forged line: {line[:120]!r}")
    common("junit", "\n".join(texts), work)


def check_markdown(out, work):
    text = decoded("markdown", out)
    common("markdown", text, work)
    lines = text.split("\n")
    outside = []  # lines outside fenced blocks
    fence = None
    for line in lines:
        m = re.match(r"^ *(`{3,})\s*$", line)
        if fence is None and m:
            fence = m.group(1)
            continue
        if fence is not None:
            if line.strip() == fence:
                fence = None
            else:
                expect(line.startswith("  "), f"markdown: a fenced line not indented: {line[:120]!r}")
            continue
        outside.append(line)
    expect(fence is None, "markdown: a fenced block is never closed")
    column0 = re.compile(r"^(# Hostile submission|\*\*Verdict: FAIL\*\* — |score |\| |\|---|## |### |- |> |\*Reason:\*)")
    no_forged_lines("markdown", outside, column0)
    for line in outside:
        plain = re.sub(r"(`+).*?\1", "", line)  # code spans show their text literally
        if line.startswith("| "):
            pipes = len(re.findall(r"(?<!\\)\|", plain))
            expect(pipes == 6, f"markdown: a table row with {pipes} cell separators: {line[:120]!r}")
        for token in ("<", "&", "[", "]", "*FORGED", "_"):
            for m in re.finditer(re.escape(token), plain):
                if line.startswith(("**Verdict", "*Reason:*")) and m.start() < 12:
                    continue
                expect(m.start() > 0 and plain[m.start() - 1] == "\\",
                       f"markdown: an unescaped {token!r} in {line[:120]!r}")


def main():
    exe = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="rubric-hostile-")
    try:
        sub = os.path.join(work, "sub")
        os.mkdir(sub)
        os.mkdir(os.path.join(work, "ref"))  # beside the submission: a run never starts inside the reference
        make_submission(sub)
        with open(os.path.join(work, "hostile.rubric"), "w") as f:
            f.write(RUBRIC)
        text_out = run(exe, work, "text")
        check_text(text_out, work, coloured=False)
        check_text(run_on_terminal(exe, work), work, coloured=True)
        check_json(run(exe, work, "json"), work)
        expect(b"scratch/work/solution.py:3: error" in text_out,
               "text: a program's scratch directory is not shown as scratch/")
        check_junit(run(exe, work, "junit"), work)
        check_markdown(run(exe, work, "markdown"), work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failures:")
        for f in failures[:40]:
            print("  " + f)
        return 1
    print("ok: no forged line, every document parses, in text, text on a terminal, JSON, JUnit and Markdown")
    return 0


if __name__ == "__main__":
    sys.exit(main())
