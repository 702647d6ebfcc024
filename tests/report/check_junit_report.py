"""Parses a JUnit report written by test_junit_report with xml.etree and checks its structure."""
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()

def expect(cond, what):
    if not cond:
        print("junit check failed:", what)
        sys.exit(1)

expect(root.tag == "testsuites", "root is testsuites")
suites = root.findall("testsuite")
expect(len(suites) == 1, "one testsuite")
suite = suites[0]
expect(suite.get("name") == "KV-cache eviction: long-context throughput regression", "suite name")
expect(suite.get("tests") == "5" and suite.get("failures") == "2" and suite.get("errors") == "1"
       and suite.get("skipped") == "1", f"suite counts {suite.attrib}")
props = {p.get("name"): p.get("value") for p in suite.find("properties")}
expect(props["verdict"] == "ERROR" and props["score"] == "42.9%", f"properties {props}")
cases = suite.findall("testcase")
expect([c.get("classname") for c in cases] == ["rubric", "rubric", "rubric.serving", "rubric.serving", "rubric"],
       "classnames")
expect(cases[0].get("name") == "numerics: logits match the fp32 reference to 1e-3", "case name")
expect(cases[0].find("failure") is None and cases[0].find("system-out") is not None, "pass case")
failure = cases[1].find("failure")
expect(failure is not None and failure.get("message") == "4.6% short", "failure message")
expect("11234.5 tok/s >= 11780 tok/s" in failure.text, "failure holds the evidence")
skipped = cases[2].find("skipped")
expect(skipped is not None and skipped.get("message") == "SKIP: no usable CUDA device", "skipped")
error = cases[3].find("error")
expect(error is not None and "no key 'p99_ttft'" in error.get("message"), "error")
cheat = cases[4].find("failure")
expect(cheat.get("message") == "proposes the plausible but wrong fix", "else message")
expect('"increase the batch size"' in cheat.text and "<&>" in cheat.text, "escaped text round-trips")
print("ok")
