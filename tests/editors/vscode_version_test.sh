#!/bin/bash
# The VS Code extension carries the project's one version: the one `rubric --version` reports
# (CMakeLists.txt's project VERSION). usage: vscode_version_test.sh RUBRIC_BINARY SOURCE_DIR
set -euo pipefail
want=$("$1" --version | awk '{print $2}')
got=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["version"])' "$2/editors/vscode/package.json")
if [ "$want" != "$got" ]; then
  echo "editors/vscode/package.json has version $got; rubric --version reports $want"
  exit 1
fi
echo "editors/vscode/package.json version $got = rubric --version"
