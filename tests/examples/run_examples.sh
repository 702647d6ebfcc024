#!/usr/bin/env bash
# Calibrates every example under examples/ with `rubric test`: each example's <name>.cases.json
# labels its submissions with the verdicts (and pinned criteria) they must get.
# Exit 3 (some case undecided on this machine) is accepted only where there is no NVIDIA device:
# a `needs gpu` criterion is then SKIPped, which is the machine's limit, not the rubric's.
# Usage: run_examples.sh RUBRIC_BINARY EXAMPLES_DIR
set -u
rubric=$1
examples=$2
gpu=0
{ [ -e /dev/nvidia0 ] || [ -e /dev/nvidiactl ]; } && gpu=1
pass=0
fail=0
for rubric_file in "$examples"/*/*.rubric; do
  dir=$(dirname "$rubric_file")
  name=$(basename "$dir")
  cases="$dir/$(basename "$rubric_file" .rubric).cases.json"
  [ -f "$cases" ] || continue  # a module or a rubric without labelled submissions (embedding/)
  out=$("$rubric" test "$rubric_file" --cases "$cases" --no-color 2>&1)
  got=$?
  if [ "$got" = 0 ] || { [ "$got" = 3 ] && [ "$gpu" = 0 ]; }; then
    pass=$((pass + 1))
    echo "ok   $name: exit $got"
    [ "$got" = 3 ] && echo "$out" | grep '^? ' | sed 's/^/     | /'
  else
    fail=$((fail + 1))
    echo "FAIL $name: exit $got"
    echo "$out" | sed 's/^/     | /'
  fi
done
[ $((pass + fail)) -gt 0 ] || { echo "no example has a cases file"; exit 1; }
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
