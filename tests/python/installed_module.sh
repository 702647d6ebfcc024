#!/usr/bin/env bash
# `cmake --install` puts the `rubric` package in the prefix's site-packages: a Python with only that
# folder on its path imports it, from there, finds the installed rubric-run-init for its sandboxed
# runs, and grades examples/kv_cache as the installed `rubric check` does.
set -euo pipefail
build=$1 python=$2 src=$3 site=$4
work=$(mktemp -d "${TMPDIR:-/tmp}/rubric-python-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"
fail() { echo "FAIL: $*"; exit 1; }
[ -f "$prefix/$site/rubric/__init__.py" ] || fail "no $site/rubric/__init__.py under the prefix"
ls "$prefix/$site"/rubric/_engine*.so >/dev/null || fail "no extension module under $prefix/$site/rubric"
[ -f "$prefix/$site/rubric/py.typed" ] && [ -f "$prefix/$site/rubric/__init__.pyi" ] || fail "no type stubs installed"

cd "$work"
unset RUBRIC_RUN_INIT RUBRIC_GPU_WORKER
PYTHONPATH="$prefix/$site" "$python" - "$prefix" "$src" <<'PY'
import json, os, pathlib, subprocess, sys
prefix, src = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
import rubric
assert pathlib.Path(rubric.__file__).is_relative_to(prefix), rubric.__file__
assert os.environ.get("RUBRIC_RUN_INIT") == str(prefix / "bin" / "rubric-run-init"), os.environ.get("RUBRIC_RUN_INIT")
kv = src / "examples" / "kv_cache"
report = rubric.load(kv / "kv_cache.rubric").check(kv / "submissions" / "good", kv / "reference")
cli = subprocess.run([str(prefix / "bin" / "rubric"), "check", str(kv / "kv_cache.rubric"), "--submission",
                      str(kv / "submissions" / "good"), "--reference", str(kv / "reference"), "--format", "json"],
                     capture_output=True, text=True)
assert report.verdict == json.loads(cli.stdout)["verdict"] == "PASS", (report.verdict, cli.stdout[:300])
# A sandboxed run from the installed package: its init is the installed rubric-run-init.
work = pathlib.Path.cwd()
(work / "sub").mkdir()
(work / "ref").mkdir()
(work / "sub" / "hello.sh").write_text("echo hello\n")
(work / "run.rubric").write_text('rubric "Run" { version: "1.0" }\n'
                                 'criterion runs "the program runs" {\n'
                                 '  let r = run(["sh", "hello.sh"])\n'
                                 '  expect r.exit == 0\n'
                                 '  expect r.stdout mentions "hello"\n'
                                 '}\n')
ran = rubric.load(work / "run.rubric").check(work / "sub", work / "ref")
assert ran.verdict == "PASS", ran.text()
isolation = ran.provenance["runs"][0]["isolation"]
assert "not found" not in isolation, isolation
print(f"installed package {rubric.__file__}: {report.verdict}, as the installed rubric check; "
      f"a sandboxed run PASSes ({isolation})")
PY
