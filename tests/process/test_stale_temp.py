#!/usr/bin/env python3
"""What a SIGKILLed grader leaves under TMPDIR is removed by the next `rubric check`, never a
live grader's folder, and never anything a planted link points at.

A grader whose rubric runs `sleep` is killed with SIGKILL while the program runs: its
rubric-run-* folder stays. The next `rubric check` (same TMPDIR) removes it, while a second
grader, still running its own `sleep`, keeps its folder. A stale folder planted with links to a
folder and a file outside, a read-only folder and (as root) files of uid 65534 is removed; the
link targets are untouched. A rubric-* folder without an `.owner` (nothing proves it stale) stays.
A grader stopped by SIGTERM or SIGINT removes its own folder and dies of the signal.

usage: test_stale_temp.py RUBRIC_BINARY
"""
import fcntl
import os
import shutil
import signal
import stat
import subprocess
import sys
import tempfile
import time

SLEEPER = """rubric "sleeper" { version: "1.0" }
criterion runs "a program runs" {
  expect run(["sleep", "60"], timeout = 120 s).exit == 0
}
"""
QUICK = """rubric "quick" { version: "1.0" }
criterion runs "a program runs" {
  expect run(["true"]).exit == 0
}
"""
WAIT_S = 60  # an upper bound only: every wait ends as soon as its condition holds


def fail(why):
    sys.exit(f"FAIL: {why}")


def wait_for(what, cond):
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        got = cond()
        if got:
            return got
        time.sleep(0.05)
    fail(f"timed out waiting for {what}")


def scratch_folders(tmpdir):
    return {n for n in os.listdir(tmpdir) if n.startswith("rubric-run-") and os.path.exists(f"{tmpdir}/{n}/.owner")}


def lock_free(path):
    """Whether nothing holds the lock of `path` (the owner and every process that shared its lock are gone)."""
    with open(path) as f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        fcntl.flock(f, fcntl.LOCK_UN)
        return True


def main():
    binary = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="rubric-stale-test-")
    tmpdir = os.path.join(work, "tmp")
    os.mkdir(tmpdir)
    os.chmod(work, 0o711)
    os.chmod(tmpdir, 0o711)
    env = dict(os.environ, TMPDIR=tmpdir)
    os.mkdir(f"{work}/sub")
    os.mkdir(f"{work}/ref")
    for name, text in (("sleeper.rubric", SLEEPER), ("quick.rubric", QUICK)):
        with open(f"{work}/{name}", "w") as f:
            f.write(text)
    procs = []

    def command(rubric):
        return [binary, "check", f"{work}/{rubric}", "--submission", f"{work}/sub", "--reference", f"{work}/ref"]

    def start(rubric):
        p = subprocess.Popen(command(rubric), env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        procs.append(p)
        return p

    def quick_check():
        r = subprocess.run(command("quick.rubric"), env=env,
                           capture_output=True, text=True, timeout=120)
        if r.returncode != 0:
            fail(f"the quick check exited {r.returncode}: {r.stdout[-2000:]} {r.stderr[-2000:]}")

    try:
        # 1. A grader killed with SIGKILL leaves its folder.
        killed = start("sleeper.rubric")
        victim = wait_for("the killed grader's scratch folder", lambda: scratch_folders(tmpdir))
        (victim,) = victim
        killed.send_signal(signal.SIGKILL)
        killed.wait()
        if not os.path.isdir(f"{tmpdir}/{victim}"):
            fail("a SIGKILLed grader's folder vanished by itself: nothing left to test")
        # Its sandbox's processes exec'd and share no lock, or end with it: the lock is free once they are gone.
        wait_for("the killed grader's lock to be released", lambda: lock_free(f"{tmpdir}/{victim}/.owner"))

        # 2. A live grader beside it.
        live = start("sleeper.rubric")
        live_dir = wait_for("the live grader's scratch folder", lambda: scratch_folders(tmpdir) - {victim})
        (live_dir,) = live_dir

        # 3. A planted stale folder: links outside, a read-only folder, files of uid 65534.
        outside = os.path.join(work, "outside")
        os.mkdir(outside)
        with open(f"{outside}/precious", "w") as f:
            f.write("p")
        planted = f"{tmpdir}/rubric-run-planted"
        os.mkdir(planted)
        open(f"{planted}/.owner", "w").close()
        os.symlink(outside, f"{planted}/dir_link")
        os.symlink(f"{outside}/precious", f"{planted}/file_link")
        os.makedirs(f"{planted}/ro/inner")
        with open(f"{planted}/ro/inner/x", "w") as f:
            f.write("x")
        os.chmod(f"{planted}/ro/inner", 0o500)
        os.chmod(f"{planted}/ro", 0o500)
        if os.geteuid() == 0:
            os.mkdir(f"{planted}/nobody")
            with open(f"{planted}/nobody/y", "w") as f:
                f.write("y")
            os.lchown(f"{planted}/nobody/y", 65534, 65534)
            os.lchown(f"{planted}/nobody", 65534, 65534)
            os.chmod(f"{planted}/nobody", 0o500)
        legacy = f"{tmpdir}/rubric-run-legacy"
        os.mkdir(legacy)
        os.symlink(outside, f"{tmpdir}/rubric-run-toplink")

        quick_check()

        if os.path.exists(f"{tmpdir}/{victim}"):
            fail(f"the SIGKILLed grader's folder {victim} was not removed by the next rubric check")
        if not os.path.exists(f"{tmpdir}/{live_dir}/.owner"):
            fail(f"the live grader's folder {live_dir} was removed")
        if live.poll() is not None:
            fail("the live grader ended before the sweep could be tested against it")
        if os.path.exists(planted):
            fail("the planted stale folder was not removed")
        if not os.path.isdir(legacy):
            fail("a folder without .owner (not provably stale) was removed")
        if not os.path.islink(f"{tmpdir}/rubric-run-toplink"):
            fail("a link named like a grader folder was removed or followed")
        with open(f"{outside}/precious") as f:
            if f.read() != "p":
                fail("a link's target outside the folder was changed")
        if stat.S_IMODE(os.stat(outside).st_mode) == 0o700 or not os.path.exists(f"{outside}/precious"):
            fail("the sweep followed a link out of the stale folder")
        # 4. A grader stopped by SIGTERM (or SIGINT, SIGHUP) removes its own folder before it dies,
        #    and leaves the live grader's alone.
        for sig in (signal.SIGTERM, signal.SIGINT):
            stopped = start("sleeper.rubric")
            mine = wait_for("the stopped grader's scratch folder", lambda: scratch_folders(tmpdir) - {live_dir})
            (mine,) = mine
            stopped.send_signal(sig)
            code = stopped.wait(timeout=WAIT_S)
            if code != -sig:
                fail(f"a grader stopped by {sig.name} exited {code}, not by the signal")
            if os.path.exists(f"{tmpdir}/{mine}"):
                fail(f"a grader stopped by {sig.name} left its folder {mine}")
            if not os.path.exists(f"{tmpdir}/{live_dir}/.owner"):
                fail(f"a grader stopped by {sig.name} removed the live grader's folder")
        # The live grader's own run is untouched: it ends well once let finish (killed here to save time).
        print("ok: killed grader's folder removed, live grader's kept, links not followed, a stopped grader cleans up")
    finally:
        for p in procs:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        # What the killed graders' programs may still hold ends with them; then remove everything.
        for root, dirs, _ in os.walk(work):
            for d in dirs:
                path = os.path.join(root, d)
                if not os.path.islink(path):
                    os.chmod(path, 0o700)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
