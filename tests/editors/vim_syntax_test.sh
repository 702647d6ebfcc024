#!/usr/bin/env bash
# The Vim syntax file loads without an error on every .rubric file and gives keywords, strings,
# interpolation, units and comments their groups.
set -u
src=$1
command -v vim >/dev/null || { echo "skipped: vim is not installed"; exit 77; }
cd "$src" || exit 1
out=$(mktemp) || exit 1
probe=$(mktemp --suffix=.rubric) || exit 1
trap 'rm -f "$out" "$probe"' EXIT
cat >"$probe" <<'RUBRIC'
criterion numerics "x {n}" weight 3 {
  expect y >= 12 tok/s # c
}
RUBRIC
# group at (line, col) as Vim resolves it. Vim's ** follows symbolic links, so the golden case's
# link loop (tests/golden/paths/sub/up -> ..) yields paths 40 links deep that the kernel refuses
# (ELOOP): paths more than 12 folders deep are not files of the tree, and are skipped.
vim -u NONE -N -es -i NONE --cmd "set rtp^=$src/editors/vim" --cmd 'filetype plugin on' --cmd 'syntax on' \
  -c 'redir! > '"$out" \
  -c 'for f in split(glob("**/*.rubric"), "\n") | if f !~# "^build" && len(split(f, "/")) <= 12 | silent! execute "edit " . fnameescape(f) | if &filetype !=# "rubric" | echo "FAIL: no filetype for " . f | endif | endif | endfor' \
  -c "edit $probe" \
  -c 'for [l, c, g] in [[1,1,"rubricDeclaration"],[1,11,"rubricCriterionId"],[1,20,"rubricString"],[1,24,"rubricInterpolation"],[1,28,"rubricModifier"],[2,3,"rubricStatement"],[2,15,"rubricNumber"],[2,18,"rubricUnit"],[2,24,"rubricComment"]] | let got = synIDattr(synID(l, c, 1), "name") | if got !=# g | echo "FAIL: " . l . ":" . c . " is " . got . ", wanted " . g | endif | endfor' \
  -c 'redir END' -c 'qa!' </dev/null >/dev/null 2>&1
if grep -qE 'FAIL|E[0-9]+:' "$out"; then grep -E 'FAIL|E[0-9]+:' "$out"; exit 1; fi
echo "vim syntax: filetype detected and groups as expected"
