#!/usr/bin/env bash
# Tokenizes every .rubric file of the repository with the TextMate grammar through vscode-textmate
# and vscode-oniguruma, the libraries VS Code itself uses. Installs them from npm into the build
# folder once; exits 77 (ctest: skipped) when Node.js or the npm registry is not available.
set -uo pipefail
src=$(realpath "$1") work=$(realpath -m "$2")
command -v node >/dev/null && command -v npm >/dev/null || { echo "skipped: node and npm are not installed"; exit 77; }
mods=$work/node_modules
if [ ! -f "$mods/vscode-textmate/package.json" ] || [ ! -f "$mods/vscode-oniguruma/release/onig.wasm" ]; then
  mkdir -p "$work"
  if ! timeout 300 npm install --no-audit --no-fund --loglevel=error --prefix "$work" \
      vscode-textmate@9 vscode-oniguruma@2 >"$work/npm-install.log" 2>&1; then
    echo "skipped: npm could not install vscode-textmate and vscode-oniguruma:"; tail -5 "$work/npm-install.log"
    exit 77
  fi
fi
cd "$src" || exit 1
mapfile -t files < <(find . -name '*.rubric' -not -path './build*' -not -path '*/node_modules/*' -not -path './.git/*' | sort)
exec node tests/editors/tokenize_rubrics.js "$mods" editors/vscode/syntaxes/rubric.tmLanguage.json "${files[@]}"
