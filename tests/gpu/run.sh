#!/usr/bin/env bash
# The one prepared GPU check: builds rubric's CUDA backend for this machine's device, runs every
# GPU test (ctest label `gpu`) and prints a summary table last. What it lacks it says in one line
# and skips the rows that need it (python3, torch, triton, Python.h for triton's do_bench helper);
# it never fails a row for the machine's missing tools.
#   tests/gpu/run.sh [--build-only | --no-build] [BUILD_DIR]     (default: build-gpu)
#     --build-only   configure and build, run nothing (build where CPUs are cheap, carry BUILD_DIR)
#     --no-build     use BUILD_DIR as it is (built elsewhere; no cmake needed here)
#   RUBRIC_PYTHON=python3.12 ...          another interpreter for the do_bench rows
#   RUBRIC_GPU_RUN_CPU_TESTS=1 ...        also the CPU-side cuda_* tests
#   RUBRIC_GPU_ARCH="90-real" ...         CUDA architectures of the build (default: native on a
#                                         machine with a GPU, else the worker's usual list)
#   RUBRIC_GPU_CMAKE_FLAGS=... RUBRIC_GPU_TIMEOUT=540 ...   extra cmake flags; the tests' time limit
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
MODE=all
case "${1:-}" in --build-only) MODE=build; shift ;; --no-build) MODE=run; shift ;; esac
BUILD="${1:-$ROOT/build-gpu}"
JOBS="$(nproc)"
TABLE="$(mktemp /tmp/rubric-gpu-table-XXXXXX)"
export RUBRIC_GPU_TABLE="$TABLE"
export RUBRIC_CACHE_DIR="${RUBRIC_CACHE_DIR:-$BUILD/module-cache}"
export RUBRIC_PYTHON="${RUBRIC_PYTHON:-python3}"
start=$(date +%s)
row() { printf '%s\t%s\t%s\n' "$1" "$2" "$3" >>"$TABLE"; }
finish() {
  echo
  echo "== summary ($(( $(date +%s) - start )) s)"
  if [ -s "$TABLE" ]; then column -t -s $'\t' "$TABLE" 2>/dev/null || cat "$TABLE"; else echo "no GPU test recorded a result"; fi
  rm -f "$TABLE"
}
trap finish EXIT

echo "== tools"
NVCC="${RUBRIC_NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}"
if [ ! -x "$NVCC" ]; then echo "missing: nvcc (set RUBRIC_NVCC): nothing can be built or compiled"; row "nvcc" "SKIP" "no nvcc"; exit 2; fi
export RUBRIC_NVCC="$NVCC"
HAVE_GPU=0
if nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv,noheader 2>/dev/null; then
  HAVE_GPU=1
else
  echo "nvidia-smi unavailable"
fi
if [ "$MODE" != run ]; then
  for tool in cmake g++; do
    if ! command -v "$tool" >/dev/null; then
      echo "missing: $tool; installing the build dependencies (make deps)"
      make -C "$ROOT" deps >/dev/null 2>&1 || { echo "cannot install $tool: nothing can be built (build elsewhere, then --no-build)"; row "build" "SKIP" "no $tool"; exit 2; }
    fi
  done
fi
# triton.testing.do_bench needs python3, torch and triton; newer triton compiles a C helper at
# import time and needs Python.h (python3-dev).
export RUBRIC_GPU_TRITON=1 RUBRIC_GPU_TRITON_WHY=""
skip_triton() { RUBRIC_GPU_TRITON=0; RUBRIC_GPU_TRITON_WHY="$1"; echo "skip: the do_bench rows ($1)"; }
if ! command -v "$RUBRIC_PYTHON" >/dev/null; then
  skip_triton "no $RUBRIC_PYTHON"
elif ! "$RUBRIC_PYTHON" -c "import sysconfig, os, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" 2>/dev/null \
     && ! { [ "$(id -u)" = 0 ] && timeout 120 apt-get install -y -qq python3-dev >/dev/null 2>&1; }; then
  skip_triton "no Python.h for triton's helper; apt-get install python3-dev"
elif ! out=$("$RUBRIC_PYTHON" -c "import torch, triton; assert torch.cuda.is_available(), 'torch sees no GPU'; print('torch', torch.__version__, 'triton', triton.__version__)" 2>&1); then
  skip_triton "torch/triton not usable: $(echo "$out" | tail -1)"
else
  echo "$out"
fi
export RUBRIC_GPU_TRITON RUBRIC_GPU_TRITON_WHY

if [ "$MODE" != run ]; then
  echo "== configure and build ($BUILD)"
  default_arch="80-real;86-real;89-real;90-real;100-real;100-virtual"
  [ $HAVE_GPU = 1 ] && default_arch=native
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DRUBRIC_CUDA=ON -DCMAKE_CUDA_COMPILER="$NVCC" \
    -DCMAKE_CUDA_ARCHITECTURES="${RUBRIC_GPU_ARCH:-$default_arch}" ${RUBRIC_GPU_CMAKE_FLAGS:-} >"$BUILD.configure.log" 2>&1 \
    || { tail -30 "$BUILD.configure.log"; echo "configure failed"; row "build" "FAIL" "configure (see $BUILD.configure.log)"; exit 2; }
  targets="rubric-gpu-worker gpu_backend_test"
  [ "${RUBRIC_GPU_RUN_CPU_TESTS:-0}" = 1 ] && targets="$targets cuda_signature_test cuda_module_compiler_test \
    cuda_worker_cpu_test cuda_compare_test cuda_device_test cuda_examples_build_test cuda_timing_logic_test"
  if ! cmake --build "$BUILD" -j "$JOBS" --target $targets >"$BUILD.build.log" 2>&1; then
    grep -E "error" "$BUILD.build.log" | head -30; echo "build failed"; row "build" "FAIL" "see $BUILD.build.log"; exit 2
  fi
  echo "   built in $(( $(date +%s) - start )) s"
  if [ "$MODE" = build ]; then row "build" "PASS" "$BUILD (run the tests with --no-build)"; exit 0; fi
fi

# Paths baked into a build made elsewhere do not hold here: name them.
export RUBRIC_GPU_WORKER="$BUILD/rubric-gpu-worker" RUBRIC_GPU_TEST_DIR="$ROOT/tests/gpu"
TEST_BIN="$BUILD/tests/gpu/gpu_backend_test"
if [ ! -x "$TEST_BIN" ] || [ ! -x "$RUBRIC_GPU_WORKER" ]; then
  echo "missing: $TEST_BIN or $RUBRIC_GPU_WORKER (build first)"; row "build" "FAIL" "no test binary in $BUILD"; exit 2
fi
if [ $HAVE_GPU = 0 ]; then echo "note: nvidia-smi found no GPU; the rows will say what the device query says"; fi

echo "== GPU tests"
# Straight from the binary (ctest is not needed where the build was carried in).
(cd "$ROOT/tests/gpu" && timeout "${RUBRIC_GPU_TIMEOUT:-540}" "$TEST_BIN")
gpu_rc=$?
cpu_rc=0
if [ "${RUBRIC_GPU_RUN_CPU_TESTS:-0}" = 1 ]; then  # the CPU-side tests also run in every normal build
  echo "== CPU-side CUDA backend tests"
  (cd "$BUILD" && ctest -R '^cuda_' --output-on-failure --timeout 200) >"$BUILD.cpu-tests.log" 2>&1
  cpu_rc=$?
  row "cuda_* CPU tests" "$([ $cpu_rc = 0 ] && echo PASS || echo FAIL)" "$(grep -E 'tests passed' "$BUILD.cpu-tests.log" | tail -1)"
fi
[ $gpu_rc = 0 ] && [ $cpu_rc = 0 ]
