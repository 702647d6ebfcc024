#!/usr/bin/python3
"""The grading machine's faults, simulated through the environment of the real `rubric check`
(TMPDIR missing or unwritable, a module cache it cannot create, RUBRIC_* variables set to junk, a
compiler or a tool that is not there, no judge endpoint, HOME unset), checked in the JSON report:
the check that met the fault is an ERROR blamed on `grader_environment` whose explanation names the
fault, never the submission's FAIL, and the other criterion of the rubric still passes.

usage: environment_faults.py PATH_TO_RUBRIC
"""
import json
import os
import subprocess
import sys
import tempfile

SIG = '"void(const float*, float*, int, cudaStream_t)"'
STANDIN = ('extern "C" void copy(const float* x, float* y, int n, cudaStream_t) '
           '{ for (int i = 0; i < n; ++i) y[i] = x[i]; }\n')
KERNEL = (f'cuda_fn(submission / "copy.cpp", "copy", {SIG})')
CALL = f'call({KERNEL}, random([8], f32, seed = 1), out(f32, [8]), 8)[0].shape == [8]'

# (name, condition of the probed check, environment changes, expected (verdict, blame), words the
# explanation must hold). None as a value unsets the variable.
CASES = [
    ("run without TMPDIR", 'run(["./ok.sh"]).exit == 0', {"TMPDIR": "{missing}"},
     ("ERROR", "grader_environment"), ["could not be set up on this machine"]),
    ("run with an unwritable TMPDIR", 'run(["./ok.sh"]).exit == 0', {"TMPDIR": "{readonly}"},
     ("ERROR", "grader_environment"), ["could not be set up on this machine"]),
    ("bench without TMPDIR", 'median(bench(["./ok.sh"], repeat = 2, warmup = 0)) > 0 s', {"TMPDIR": "{missing}"},
     ("ERROR", "grader_environment"), ["could not be set up on this machine"]),
    ("a tool the machine lacks", 'run(["no-such-tool-on-this-machine"]).exit == 0', {},
     ("ERROR", "grader_environment"), ["grading environment", "not found in PATH"]),
    ("bench of a tool the machine lacks", 'median(bench(["no-such-tool-on-this-machine"], repeat = 2, warmup = 0)) > 0 s', {},
     ("ERROR", "grader_environment"), ["grading environment", "not found in PATH"]),
    ("the stand-in's compiler missing", CALL, {"RUBRIC_CXX": "/nonexistent/c++"},
     ("ERROR", "grader_environment"), ["grading environment", "/nonexistent/c++"]),
    ("a module cache that cannot be made", CALL, {"RUBRIC_CACHE_DIR": "{readonly}/cache"},
     ("ERROR", "grader_environment"), ["grading environment", "module cache"]),
    # A fresh module cache: a module built by an earlier run needs no scratch folder to load.
    ("cuda_fn without TMPDIR", CALL, {"TMPDIR": "{missing}", "RUBRIC_CACHE_DIR": "{tmp}/fresh-cache"},
     ("ERROR", "grader_environment"), ["grading environment"]),
    ("RUBRIC_GPU_MEMORY_LIMIT set to junk", CALL, {"RUBRIC_GPU_MEMORY_LIMIT": "lots"},
     ("ERROR", "grader_environment"), ["grading environment", "RUBRIC_GPU_MEMORY_LIMIT"]),
    ("RUBRIC_GPU_WORKER set to junk", CALL, {"RUBRIC_GPU_WORKER": "/nonexistent/worker"},
     ("ERROR", "grader_environment"), ["grading environment", "/nonexistent/worker"]),
    ("no judge endpoint", 'judge(text(submission / "answer.md"), "Does it name the cause?")',
     {"RUBRIC_JUDGE_URL": None, "RUBRIC_JUDGE_MODEL": None, "RUBRIC_JUDGE_CACHE": "{tmp}/judge.jsonl"},
     ("ERROR", "grader_environment"), ["grading environment"]),
    # What the machine lacks but the check does not need changes nothing.
    ("the stand-in with HOME unset", CALL, {"HOME": None, "XDG_CACHE_HOME": None, "RUBRIC_CACHE_DIR": None},
     ("PASS", "none"), []),
    ("run with HOME unset", 'run(["./ok.sh"]).exit == 0', {"HOME": None}, ("PASS", "none"), []),
    ("run with PATH empty", 'run(["./ok.sh"]).exit == 0', {"PATH": ""}, ("PASS", "none"), []),
    ("a junk device-compare threshold", 'random([8], f32, seed = 1) matches random([8], f32, seed = 1)',
     {"RUBRIC_GPU_COMPARE_MIN_ELEMENTS": "junk", "TMPDIR": "{missing}"}, ("PASS", "none"), []),
    ("the device record without TMPDIR", 'device.available or not device.available', {"TMPDIR": "{missing}"},
     ("PASS", "none"), []),
]


def main():
    rubric_exe = sys.argv[1]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        sub = os.path.join(tmp, "sub")
        ref = os.path.join(tmp, "ref")
        readonly = os.path.join(tmp, "readonly")
        for d in (sub, ref, readonly):
            os.makedirs(d)
        with open(os.path.join(sub, "ok.sh"), "w") as f:
            f.write("#!/bin/sh\necho '{\"v\": 1}'\n")
        os.chmod(os.path.join(sub, "ok.sh"), 0o755)
        with open(os.path.join(sub, "copy.cpp"), "w") as f:
            f.write(STANDIN)
        with open(os.path.join(sub, "answer.md"), "w") as f:
            f.write("The cause is a bank conflict.\n")
        # Read-only for everyone but root: root writes anywhere, so a file stands where a folder is needed.
        readonly_path = readonly if os.geteuid() != 0 else os.path.join(tmp, "a-file")
        if os.geteuid() == 0:
            open(readonly_path, "w").close()
        else:
            os.chmod(readonly, 0o555)
        fill = {"missing": os.path.join(tmp, "no", "such", "folder"), "readonly": readonly_path, "tmp": tmp}
        for name, condition, changes, (verdict, blame), words in CASES:
            path = os.path.join(tmp, "probe.rubric")
            with open(path, "w") as f:
                f.write('rubric "environment fault" { version: "1" }\n'
                        f'criterion probed "the probed check" {{\n  expect {condition}\n}}\n'
                        'criterion other "a check that needs nothing" {\n  expect 1 + 1 == 2\n}\n')
            env = {k: v for k, v in os.environ.items() if not k.startswith("RUBRIC_")}
            env["LC_ALL"] = "C.UTF-8"
            for k, v in changes.items():
                if v is None:
                    env.pop(k, None)
                else:
                    env[k] = v.format(**fill)
            proc = subprocess.run([rubric_exe, "check", path, "--submission", sub, "--reference", ref, "--format", "json"],
                                  env=env, capture_output=True, stdin=subprocess.DEVNULL, timeout=300)
            try:
                report = json.loads(proc.stdout)
            except ValueError:
                failures.append(f"{name}: no JSON report (exit {proc.returncode}): {proc.stderr.decode(errors='replace')[:400]}")
                continue
            criteria = {c["id"]: c for c in report["criteria"]}
            check = criteria["probed"]["checks"][0] if criteria["probed"]["checks"] else None
            got = (check["verdict"], check["blame"]) if check else (criteria["probed"]["verdict"], "-")
            expl = check["explanation"] if check else criteria["probed"]["reason"]
            if got != (verdict, blame):
                failures.append(f"{name}: expected {verdict}/{blame}, got {got[0]}/{got[1]}: {expl}")
            missing = [w for w in words if w not in expl]
            if missing:
                failures.append(f"{name}: the explanation lacks {missing}: {expl}")
            if criteria["other"]["verdict"] != "PASS":
                failures.append(f"{name}: the other criterion was {criteria['other']['verdict']}, not PASS")
            want_exit = 2 if verdict == "ERROR" else 0
            if proc.returncode != want_exit:
                failures.append(f"{name}: exit {proc.returncode}, expected {want_exit}")
            print(f"{'ok ' if not failures or not failures[-1].startswith(name) else 'BAD'} {name}: {got[0]}/{got[1]}")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
