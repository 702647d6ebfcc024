#!/usr/bin/env bash
# Builds rubric's CUDA backend and runs every GPU test (ctest label `gpu`), then prints a summary
# table. Needs a CUDA device, nvcc, and python3 with torch + triton (override: RUBRIC_PYTHON).
#   tests/gpu/run.sh [BUILD_DIR]          (default: build-gpu)
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
BUILD="${1:-$ROOT/build-gpu}"
JOBS="$(nproc)"
TABLE="$(mktemp /tmp/rubric-gpu-table-XXXXXX)"
export RUBRIC_GPU_TABLE="$TABLE"
export RUBRIC_CACHE_DIR="${RUBRIC_CACHE_DIR:-$BUILD/module-cache}"
export RUBRIC_PYTHON="${RUBRIC_PYTHON:-python3}"
start=$(date +%s)

echo "== configure and build ($BUILD)"
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DRUBRIC_CUDA=ON >"$BUILD.configure.log" 2>&1 \
  || { tail -30 "$BUILD.configure.log"; echo "configure failed"; exit 2; }
targets="rubric-gpu-worker gpu_backend_test"
[ "${RUBRIC_GPU_RUN_CPU_TESTS:-0}" = 1 ] && targets="$targets cuda_signature_test cuda_module_compiler_test \
  cuda_worker_cpu_test cuda_compare_test cuda_device_test cuda_examples_build_test"
cmake --build "$BUILD" -j "$JOBS" --target $targets >"$BUILD.build.log" 2>&1 || { grep -E "error" "$BUILD.build.log" | head -30; echo "build failed"; exit 2; }
echo "   built in $(( $(date +%s) - start )) s"

echo "== tools"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null || echo "nvidia-smi unavailable"
"$RUBRIC_PYTHON" -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)" 2>&1 | tail -1

echo "== GPU tests"
(cd "$BUILD" && ctest -L gpu --output-on-failure --timeout 280)
gpu_rc=$?
cpu_rc=0
if [ "${RUBRIC_GPU_RUN_CPU_TESTS:-0}" = 1 ]; then  # the CPU-side tests also run in every normal build
  echo "== CPU-side CUDA backend tests"
  (cd "$BUILD" && ctest -R '^cuda_' --output-on-failure --timeout 200) >"$BUILD.cpu-tests.log" 2>&1
  cpu_rc=$?
  printf 'cuda_* CPU tests\t%s\t%s\n' "$([ $cpu_rc = 0 ] && echo PASS || echo FAIL)" \
    "$(grep -E 'tests passed' "$BUILD.cpu-tests.log" | tail -1)" >>"$TABLE"
fi

echo
echo "== summary ($(( $(date +%s) - start )) s)"
if [ -s "$TABLE" ]; then
  column -t -s $'\t' "$TABLE" 2>/dev/null || cat "$TABLE"
else
  echo "no GPU test recorded a result"
fi
rm -f "$TABLE"
[ $gpu_rc = 0 ] && [ $cpu_rc = 0 ]
