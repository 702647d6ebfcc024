#!/usr/bin/env bash
# Every benchmark prints its ratio against a baseline measured in the same run.
set -u
BUILD=${1:-build}
# The cores are shared on the grading machines: every figure is read against the load at the time.
echo "make bench: $(nproc) cores, load average $(cut -d" " -f1-3 /proc/loadavg) (1, 5, 15 min)"

# process: isolated-run overhead versus a direct spawn (target < 5 ms per run)
"$BUILD/bench/process/bench_process_run_overhead" 100

# stats: deciding a comparison of two 10,000-sample sets (target < 50 ms)
"$BUILD/bench/stats/bench_stats_decision_time" 10000

# numerics: fused compare of two 1 GiB f32 tensors vs numpy.allclose vs a plain read (files under /tmp, removed after)
"$BUILD/bench/numerics/compare_bench" "${RUBRIC_BENCH_COMPARE_MIB:-1024}" /tmp

# cuda: module build cold vs cached, worker call round trip vs bare protocol, fused compare vs copy bandwidth
"$BUILD/bench/cuda/bench_cuda" "${RUBRIC_BENCH_CUDA_MIB:-256}"

# language: `rubric lint` and `rubric check` on a generated rubric of 2,000 criteria over JSON inputs (target < 0.1 s, < 100 MB)
/usr/bin/python3 "$(dirname "$0")/language/measure.py" "$BUILD/rubric" "${RUBRIC_BENCH_CRITERIA:-2000}"

# grading: `rubric grade --jobs 2` vs a shell loop of `rubric check` over 1,000 generated submissions (target >= 5x), cached re-run, peak memory at N/4 and N
/usr/bin/python3 "$(dirname "$0")/grading/measure.py" "$BUILD/rubric" "${RUBRIC_BENCH_GRADING_N:-1000}"

# grading at scale: `rubric grade --jobs 2` over 300, 3,000 and 30,000 generated answers beside promptfoo's `eval` on the
# same answers and checks (target >= 15x at 3,000; cost per submission and memory flat; promptfoo installed with npm
# into a scratch folder, skipped with a message where npm cannot reach its registry)
/usr/bin/python3 "$(dirname "$0")/grading/scale.py" "$BUILD/rubric" "${RUBRIC_BENCH_SCALE_SIZES:-300,3000,30000}"

# text: polarity precision/recall/F1 per class on the project corpus and, apart, on the held-out corpora of other fields,
# the two halves of the general-English and blind corpora, and the public corpora (*SEM 2012 and BioScope: development
# sets, then held-out ones; the SFU Review corpus, GPL-3.0 and not kept here, when RUBRIC_BENCH_SFU names a checkout of
# joey234/negation-focused-pretraining); polarity, concepts and claims over 1 MiB (target < 50 ms)
SFU=()
if [ -n "${RUBRIC_BENCH_SFU:-}" ]; then
  SFU_DIR=$(mktemp -d)
  /usr/bin/python3 "$(dirname "$0")/text/public/extract.py" "$RUBRIC_BENCH_SFU" "$SFU_DIR" sfu && SFU=("$SFU_DIR/sfu_reviews.tsv")
else
  echo "text: the SFU Review corpus is skipped (RUBRIC_BENCH_SFU names a checkout of joey234/negation-focused-pretraining)"
fi
"$BUILD/bench/text/bench_text" "$(dirname "$0")/../tests/text/corpus/polarity.tsv" \
  "$(dirname "$0")/../tests/text/corpus/heldout.tsv" "$(dirname "$0")/../tests/text/corpus/heldout_fresh.tsv" \
  "$(dirname "$0")/../tests/text/corpus/general_dev.tsv" "$(dirname "$0")/../tests/text/corpus/general_test.tsv" \
  "$(dirname "$0")/../tests/text/corpus/blind_dev.tsv" "$(dirname "$0")/../tests/text/corpus/blind_test.tsv" \
  "$(dirname "$0")/../tests/text/corpus/public/starsem_dev.tsv" "$(dirname "$0")/../tests/text/corpus/public/bioscope_abstracts.tsv" \
  "$(dirname "$0")/../tests/text/corpus/public/starsem_test.tsv" "$(dirname "$0")/../tests/text/corpus/public/bioscope_papers.tsv" \
  "${SFU[@]}" 1
[ -n "${SFU_DIR:-}" ] && rm -rf "$SFU_DIR"

# python: Rubric.check in this process (files; inputs in memory) vs `rubric check` as a process, on one small rubric
[ -d "$BUILD/python/rubric" ] && /usr/bin/python3 "$(dirname "$0")/python/measure.py" "$BUILD/rubric" "$BUILD/python" \
  "${RUBRIC_BENCH_PYTHON_CALLS:-200}"

# end to end: `rubric check` as a user runs it vs numpy.allclose / Python / cat on the same files, in the same run
/usr/bin/python3 "$(dirname "$0")/endtoend/measure.py" "$BUILD/rubric" "${RUBRIC_BENCH_E2E_MIB:-512}" /tmp
echo "make bench: load average $(cut -d" " -f1-3 /proc/loadavg) at the end"
