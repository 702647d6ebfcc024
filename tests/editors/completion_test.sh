#!/usr/bin/env bash
# The bash completion offers the tool's verbs, each verb's options, --format values, modules and
# rubric files, as read from the built binary's own help.
set -u
rubric_bin=$1 src=$2
export PATH=$(dirname "$rubric_bin"):$PATH
source "$src/editors/bash/rubric"
cd "$src" || exit 1
fails=0
expect() {  # expect "WANTED WORDS" WORDS...: every wanted word is offered
  local wanted=$1; shift
  COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); COMP_LINE="$*"; COMPREPLY=()
  _rubric
  for w in $wanted; do
    [[ " ${COMPREPLY[*]} " == *" $w "* ]] || { echo "FAIL: '$*' offers '${COMPREPLY[*]}', not '$w'"; fails=1; }
  done
}
expect "check lint doc test"          rubric ""
expect "check"                        rubric ch
expect "--submission --reference --format --set --only" rubric check x.rubric --
expect "json junit markdown text"     rubric check x.rubric --format ""
expect "examples/kv_cache/kv_cache.rubric" rubric check examples/kv_cache/kv
expect "examples/kv_cache/submissions" rubric check x.rubric --submission examples/kv_cache/sub
expect "std.numerics std.serving std.text" rubric doc std.
COMP_WORDS=(rubric check examples/kv_cache/kv); COMP_CWORD=2; _rubric
[[ " ${COMPREPLY[*]} " != *"make_data.py"* ]] || { echo "FAIL: offers non-rubric files"; fails=1; }
[ $fails = 0 ] && echo "bash completion: verbs, options, formats, modules and files offered"
exit $fails
