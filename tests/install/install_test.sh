#!/usr/bin/env bash
# `cmake --install` gives a tree a host can build against: find_package(rubric) and rubric::engine
# build examples/embedding, which then grades its own rubric; the tool, worker, stdlib and the
# X3-free headers are where the docs say.
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
prefix=$work/prefix
cmake --install "$build" --prefix "$prefix" >"$work/install.log"

fail() { echo "FAIL: $*"; exit 1; }
[ -x "$prefix/bin/rubric" ] || fail "no bin/rubric"
"$prefix/bin/rubric" --version | grep -q "^rubric " || fail "installed rubric --version"
[ -f "$prefix/include/rubric/interpreter/engine.hpp" ] || fail "no include/rubric/interpreter/engine.hpp"
if grep -rl "boost/spirit" "$prefix/include/rubric" >/dev/null; then fail "an installed header includes Spirit X3"; fi
ls "$prefix"/share/rubric/std/*.rubric >/dev/null || fail "no standard library under share/rubric/std"
[ -f "$prefix/share/bash-completion/completions/rubric" ] || fail "no bash completion"

compiler=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
cmake -S "$src/examples/embedding" -B "$work/host" -DCMAKE_PREFIX_PATH="$prefix" \
      -DCMAKE_CXX_COMPILER="$compiler" -DCMAKE_BUILD_TYPE=Release >"$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "find_package(rubric) did not configure"; }
cmake --build "$work/host" -j 2 >"$work/build.log" 2>&1 || { tail -30 "$work/build.log"; fail "the host did not build"; }
out=$("$work/host/word_count_host" "$src/examples/embedding/answer_length.rubric" "$src/examples/embedding/submission")
echo "$out" | grep -q "verdict: PASS  score: 100%" || { echo "$out"; fail "the installed engine did not grade"; }
echo "installed tree: rubric, stdlib, headers, rubric::engine built examples/embedding and it graded PASS"
