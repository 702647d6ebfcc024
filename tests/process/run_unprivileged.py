#!/usr/bin/env python3
"""The process suite as a grading service that is not root would run it.

usage: run_unprivileged.py userns|refused PROCESS_TESTS SCRATCH [RUBRIC]

  userns   as an unprivileged uid with no capabilities: namespaces come from an unprivileged user
           namespace where the kernel allows one (the whitelist then holds), else the fallback.
  refused  the same, and every new namespace refused by a system call filter (as in a Docker
           container's default profile): the fallback must run everything, blame nothing on the
           candidate, and say in its report which isolation held.

The uid is one no other process has (2000000000 + this script's pid), not 65534: RLIMIT_NPROC
counts every process of a uid on the machine, and the sandboxed programs of every test running
beside this one run as 65534; sharing it, the suite's process-count test could find its limit
used up by them.

The helper (programs/as_unprivileged.c) is compiled into SCRATCH, a folder that uid may write and
that the sandbox leaves in place: not under /tmp, /var/tmp or /dev/shm, which every run gets empty
and private (the files the suite shares with its programs would vanish from their view).
With RUBRIC, `rubric check` of a rubric that runs a program is run the same way: it must PASS and
its JSON report must carry the isolation that held. Exit 77 (a skip for ctest) with the reason
when this machine cannot run the suite this way.
"""
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP = 77
UID = 2000000000 + os.getpid()


def skip(why):
    print(f"skipped: {why}")
    sys.exit(SKIP)


def main():
    mode, tests, scratch = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    rubric = os.path.abspath(sys.argv[4]) if len(sys.argv) > 4 else None
    if mode not in ("userns", "refused"):
        sys.exit(f"unknown mode {mode}")
    root = os.geteuid() == 0
    if mode == "userns" and not root:
        skip("not root: process_tests itself already runs unprivileged here")
    if not shutil.which("cc"):
        skip("no C compiler to build the helper")
    if any(scratch == p or scratch.startswith(p + "/") for p in ("/tmp", "/var/tmp", "/dev/shm")):
        sys.exit(f"{scratch}: the sandbox replaces this folder in every run; give a scratch folder outside it")
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    helper = os.path.join(scratch, "as_unprivileged")
    built = subprocess.run(["cc", "-O1", "-o", helper, os.path.join(HERE, "programs", "as_unprivileged.c"), "-lseccomp"],
                           capture_output=True, text=True)
    if built.returncode != 0:
        skip(f"cannot build the helper (libseccomp-dev?): {built.stderr.strip()[:300]}")
    if root:
        os.chown(scratch, UID, UID)
    os.chmod(scratch, 0o777)
    flags = ["--uid", str(UID)] + (["--no-namespaces"] if mode == "refused" else [])
    # The build tree must be reachable by that uid (a build under a private home is not).
    reach = subprocess.run([helper] + flags + ["test", "-x", tests])
    if reach.returncode != 0:
        skip(f"uid {UID} cannot reach {tests}")
    # A TMPDIR of the run's own, inside its scratch (removed with it at the next run): nothing in /tmp.
    tmpdir = os.path.join(scratch, "tmp")
    os.makedirs(tmpdir)
    if root:
        os.chown(tmpdir, UID, UID)
    os.chmod(tmpdir, 0o777)
    env = dict(os.environ, RUBRIC_PROCESS_TEST_SCRATCH=scratch, HOME=scratch, TMPDIR=tmpdir)
    if mode == "refused":
        env["RUBRIC_PROCESS_TEST_EXPECT"] = "refused"
    suite = subprocess.run([helper] + flags + [tests, "--no-intro"], cwd=HERE, env=env)
    if suite.returncode != 0:
        sys.exit(f"process_tests failed as uid {UID} ({mode})")
    if rubric:
        check_rubric(rubric, helper, flags, scratch, env, mode)
    print(f"ok: process_tests as uid {UID} ({mode})")


def check_rubric(rubric, helper, flags, scratch, env, mode):
    base = os.path.join(scratch, "rubric-check")
    os.makedirs(os.path.join(base, "sub"))
    os.makedirs(os.path.join(base, "ref"))
    with open(os.path.join(base, "sub", "answer.md"), "w") as f:
        f.write("mine\n")
    with open(os.path.join(base, "task.rubric"), "w") as f:
        f.write('rubric "unprivileged" { version: "1.0" }\n'
                'criterion runs "a program runs" {\n'
                '  let r = run(["sh", "-c", "cat answer.md"])\n'
                '  expect r.exit == 0\n'
                '  expect r.stdout == "mine\\n"\n'
                '}\n')
    for root, dirs, files in os.walk(base):
        for name in dirs + files:
            os.chmod(os.path.join(root, name), 0o777 if name in dirs else 0o666)
    os.chmod(base, 0o777)
    proc = subprocess.run([helper] + flags + [rubric, "check", os.path.join(base, "task.rubric"), "--submission",
                                              os.path.join(base, "sub"), "--reference", os.path.join(base, "ref"),
                                              "--format", "json"], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"rubric check as uid {UID} ({mode}) exited {proc.returncode}\n{proc.stdout[-3000:]}\n{proc.stderr}")
    report = json.loads(proc.stdout)
    runs = report["provenance"]["runs"]
    held = runs[0]["isolation"] if runs else ""
    if not held:
        sys.exit(f"rubric check as uid {UID} ({mode}): the report does not say which isolation held")
    if mode == "refused" and "not available: namespaces" not in held:
        sys.exit(f"rubric check ({mode}): the report hides the refused namespaces: {held}")
    print(f"rubric check as uid {UID} ({mode}): PASS; isolation: {held}")


if __name__ == "__main__":
    main()
