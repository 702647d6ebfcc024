#!/usr/bin/env python3
"""Runs one test command with a TMPDIR of its own and removes that folder afterwards, whatever the
test left there (the scratch folders of graders it SIGKILLed, read-only folders, files of uid 65534),
so `make test` leaves nothing in /tmp. Exit status: the command's.

usage: with_tmpdir.py COMMAND [ARG...]
"""
import os
import shutil
import stat
import subprocess
import sys
import tempfile


def make_writable_and_retry(func, path, _exc):
    """rmtree's error hook: a read-only folder a candidate left is made writable, never followed."""
    parent = os.path.dirname(path)
    if not os.path.islink(parent):
        os.chmod(parent, stat.S_IRWXU)
    if not os.path.islink(path) and os.path.isdir(path):
        os.chmod(path, stat.S_IRWXU)
    func(path)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    base = tempfile.mkdtemp(prefix="rubric-test-tmpdir-", dir="/tmp")
    # Runs as uid 65534 must pass through it to their scratch folder (scratch_dir.cpp would otherwise
    # fall back to /tmp), but need not list it.
    os.chmod(base, 0o711)
    try:
        code = subprocess.call(sys.argv[1:], env=dict(os.environ, TMPDIR=base))
    finally:
        shutil.rmtree(base, onerror=make_writable_and_retry)  # rmtree never follows links
    sys.exit(code if code >= 0 else 128 - code)


if __name__ == "__main__":
    main()
