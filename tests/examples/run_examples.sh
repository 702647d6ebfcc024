#!/usr/bin/env bash
# Grades every submission of every example under examples/ and compares the exit code with the
# example's expected.txt (the example's reference/ folder, when it has one, is the reference root): "name code" or "name code-with-gpu code-without-gpu".
# Usage: run_examples.sh RUBRIC_BINARY EXAMPLES_DIR [GPU=0|1]
set -u
rubric=$1
examples=$2
gpu=${3:-0}
pass=0
fail=0
for expected in "$examples"/*/expected.txt; do
  dir=$(dirname "$expected")
  name=$(basename "$dir")
  rubric_file=$(ls "$dir"/*.rubric 2>/dev/null | head -n 1)
  [ -n "$rubric_file" ] || { echo "FAIL $name: no .rubric file"; fail=$((fail + 1)); continue; }
  while read -r sub code code_nogpu; do
    [ -n "$sub" ] || continue
    case "$sub" in \#*) continue ;; esac
    want=$code
    if [ "$gpu" = 0 ] && [ -n "${code_nogpu:-}" ]; then want=$code_nogpu; fi
    ref=()
    [ -d "$dir/reference" ] && ref=(--reference "$dir/reference")
    out=$("$rubric" check "$rubric_file" --submission "$dir/submissions/$sub" "${ref[@]}" --no-color 2>&1)
    got=$?
    if [ "$got" = "$want" ]; then
      pass=$((pass + 1))
      echo "ok   $name/$sub: exit $got"
    else
      fail=$((fail + 1))
      echo "FAIL $name/$sub: exit $got, expected $want"
      echo "$out" | sed 's/^/     | /'
    fi
  done < "$expected"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
