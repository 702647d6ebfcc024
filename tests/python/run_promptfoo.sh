#!/usr/bin/env bash
# examples/promptfoo under promptfoo itself: its Python assertion grades the 3 × 3 outputs through
# the `rubric` module, and those verdicts must be the ones `rubric grade` gives the same answers.
# promptfoo (0.121.x) is installed from npm into the build folder once; where npm or a Node it
# supports cannot be had, the test is skipped (exit 77) and says why.
set -uo pipefail
rubric=$1 python=$2 pythonpath=$3 src=$4 tools=$5
work=$(mktemp -d "${TMPDIR:-/tmp}/rubric-promptfoo-XXXXXX")
trap 'rm -rf "$work"' EXIT
skip() { echo "SKIP: $*"; exit 77; }

command -v node >/dev/null && command -v npm >/dev/null || skip "node and npm are not installed (make deps installs them)"
node_version=$(node --version | tr -d v)
IFS=. read -r major minor _ <<<"$node_version"
supported=no
if [ "$major" -eq 20 ] && [ "$minor" -ge 20 ]; then supported=yes; fi
if [ "$major" -eq 22 ] && [ "$minor" -ge 22 ]; then supported=yes; fi
if [ "$major" -ge 23 ]; then supported=yes; fi
[ $supported = yes ] || skip "promptfoo 0.121 needs Node ^20.20 or >=22.22; this machine has $node_version"
promptfoo=$tools/node_modules/.bin/promptfoo
if [ ! -x "$promptfoo" ]; then
  mkdir -p "$tools"
  if ! timeout 600 npm install --prefix "$tools" "promptfoo@~0.121.0" --no-audit --no-fund --loglevel=error \
       >"$work/npm.log" 2>&1; then
    tail -5 "$work/npm.log"
    skip "promptfoo could not be installed from npm (no registry reachable?)"
  fi
fi

export PYTHONPATH=$pythonpath PROMPTFOO_PYTHON=$python
export PROMPTFOO_CONFIG_DIR=$work/config PROMPTFOO_DISABLE_TELEMETRY=1 PROMPTFOO_DISABLE_UPDATE=1
export PROMPTFOO_CACHE_ENABLED=false NO_COLOR=1
cp "$src"/examples/promptfoo/* "$work/"
(cd "$work" && "$promptfoo" eval -c promptfooconfig.yaml -o results.json --no-cache --no-progress-bar \
   >"$work/eval.log" 2>&1)
status=$?
# eval exits 100 when an assertion failed, which this configuration means to happen.
if [ $status -ne 0 ] && [ $status -ne 100 ]; then cat "$work/eval.log"; echo "FAIL: promptfoo eval exited $status"; exit 1; fi
exec "$python" "$src/tests/python/compare_promptfoo.py" "$rubric" "$work"
