#!/usr/bin/python3
"""The provenance every report carries, through the real `rubric` binary: one tool version (the
CMake project version) in `--version`, the JSON report, the JUnit properties and the verbose text
report; the host and the compiler; CUDA versions only with the device record they came from.

usage: provenance_report.py RUBRIC_EXE PROJECT_VERSION
"""
import json
import os
import platform
import shutil
import socket
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

RUBRIC = 'rubric "Provenance" { version: "1.0" }\n\ncriterion ok "one passing check" {\n  expect 1 + 1 == 2\n}\n'

failures = []


def expect(ok, what):
    if not ok:
        failures.append(what)


def main():
    exe, version = os.path.abspath(sys.argv[1]), sys.argv[2]
    work = tempfile.mkdtemp(prefix="rubric-provenance-")
    try:
        os.mkdir(os.path.join(work, "sub"))
        with open(os.path.join(work, "p.rubric"), "w") as f:
            f.write(RUBRIC)

        def check(*args):
            return subprocess.run([exe, "check", "p.rubric", "--submission", "sub", "--no-color", *args], cwd=work,
                                  capture_output=True, text=True, timeout=120)

        shown = subprocess.run([exe, "--version"], capture_output=True, text=True).stdout
        expect(shown == f"rubric {version}\n", f"--version prints {shown!r}, the project version is {version}")

        p = json.loads(check("--format", "json").stdout)["provenance"]
        expect(p["tool_version"] == version, f"JSON tool_version {p['tool_version']!r}, expected {version!r}")
        host = p["host"]
        expect(host.get("name") == socket.gethostname(), f"host name {host.get('name')!r}")
        expect(host.get("arch") == platform.machine(), f"host arch {host.get('arch')!r}")
        expect(host.get("kernel") == f"{platform.system()} {platform.release()}", f"host kernel {host.get('kernel')!r}")
        expect(host.get("cpus", "").isdigit(), f"host cpus {host.get('cpus')!r}")
        expect(p["compiler"].split(" ")[0] in ("GCC", "Clang") and any(c.isdigit() for c in p["compiler"]),
               f"compiler {p['compiler']!r}")
        # Nothing asked for the device: no device record and no CUDA versions.
        expect(p["device"] == {} and p["cuda"] == {}, f"device {p['device']!r}, cuda {p['cuda']!r} without a query")

        props = {e.get("name"): e.get("value") for e in ET.fromstring(check("--format", "junit").stdout).iter("property")}
        expect(props.get("tool_version") == version, f"JUnit tool_version {props.get('tool_version')!r}")
        expect(props.get("compiler") == p["compiler"] and props.get("host.name") == host.get("name"),
               "JUnit compiler and host properties")

        verbose = check("--verbose").stdout
        expect(f"rubric {version} ({p['compiler']}) on {host.get('name')}" in verbose,
               f"the verbose text report does not name the tool, compiler and host: {verbose[-400:]!r}")
        expect(f"rubric {version}" not in check().stdout, "the plain text report names the tool version")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        print("\n".join(failures))
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
