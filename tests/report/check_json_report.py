"""Parses a JSON report written by test_json_report and checks the documented schema (docs/report-json.md)."""
import json
import sys

with open(sys.argv[1], encoding="utf-8") as f:
    r = json.load(f)

def expect(cond, what):
    if not cond:
        print("schema check failed:", what)
        sys.exit(1)

for key in ["schema", "verdict", "score", "pass_mark", "confidence", "title", "version", "metadata",
            "criteria", "warnings", "provenance", "exit_code"]:
    expect(key in r, f"top-level key {key}")
expect(r["verdict"] == "ERROR" and r["exit_code"] == 2, "verdict/exit_code")
expect(abs(r["score"] - 3 / 7) < 1e-12, "score is the exact fraction")
expect(r["pass_mark"] == 0.7, "pass_mark")
expect(r["metadata"] == {"author": "grading team"}, "metadata")

ids = [c["id"] for c in r["criteria"]]
expect(ids == ["numerics", "throughput", "serving", "hardcoded"], f"criteria ids {ids}")
numerics, throughput, serving, cheat = r["criteria"]
for c in [numerics, throughput, cheat]:
    for key in ["id", "kind", "title", "location", "verdict", "score", "weight", "penalty", "required", "after",
                "needs", "reason", "notes", "checks", "seconds"]:
        expect(key in c, f"criterion key {key}")
    expect("criteria" not in c, "only groups have criteria")
expect(numerics["required"] is True and numerics["weight"] == 4 and numerics["penalty"] is None, "numerics fields")
expect(throughput["after"] == ["numerics"] and throughput["score"] == 0, "throughput fields")
expect(serving["kind"] == "group" and [c["id"] for c in serving["criteria"]] == ["speed", "tail"], "group")
speed, tail = serving["criteria"]
expect(speed["score"] is None and speed["verdict"] == "SKIP" and speed["needs"] == ["gpu"], "skip")
expect(speed["reason"] == "no usable CUDA device", "skip reason")
expect(tail["notes"] == ["baseline measured on an H100"], "notes")
expect(cheat["penalty"] == 1 and cheat["deducted"] is True, "penalty")
expect("deducted" not in numerics, "only penalty criteria say whether they were deducted")

check = throughput["checks"][0]
for key in ["source", "location", "label", "verdict", "blame", "evidence", "explanation", "message", "seconds"]:
    expect(key in check, f"check key {key}")
expect(check["location"] == {"file": "kv.rubric", "line": 19, "column": 10}, "location")
expect(check["blame"] == "submission" and check["verdict"] == "FAIL", "blame")
expect(check["evidence"] == ["11234.5 tok/s >= 11780 tok/s  (0.95 × 12400 tok/s)"], "evidence UTF-8")
expect(tail["checks"][0]["blame"] == "rubric", "error blame")

tricky = cheat["checks"][1]
# Strings hold the text as every report shows it: one line, control characters and invalid bytes
# visible as escapes, the source's line breaks joined.
expect(tricky["source"] == 'x == "a\\tb" and y', f"source escapes: {tricky['source']!r}")
expect(tricky["evidence"] == ["ctl \\x01\\x1f\\x7f end", "bad \\xff byte", "emoji \U0001F680 ok", "back\\slash \"q\""],
       f"evidence escapes: {tricky['evidence']!r}")

p = r["provenance"]
for key in ["tool_version", "rubric", "submission_dir", "reference_dir", "seed", "params", "files", "runs", "device",
            "cuda", "host", "compiler", "started_at", "seconds"]:
    expect(key in p, f"provenance key {key}")
expect(p["rubric"]["xxh3_128"] == "a" * 32, "rubric digest")
expect(p["files"] == [{"path": "bench_32768.json", "root": "submission", "xxh3_128": "b" * 32, "bytes": 1234}], "files")
expect(p["runs"][0]["exit_code"] == 0 and p["runs"][0]["seconds"] == 1.5, "runs")
expect(p["params"] == {"context": "32768"} and p["seed"] == 7, "params/seed")

w = r["warnings"]
expect(len(w) == 1 and w[0]["severity"] == "warning", "warnings")
expect(w[0]["location"] == {"file": "kv.rubric", "line": 2, "column": 5}, f"warning location {w[0]['location']}")
print("ok")
