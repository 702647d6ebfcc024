#pragma once
// Huge pages for the heap. A check that reads large JSON builds millions of small values; with
// 4 KiB pages a third of its time went to page faults (158,000 for two 31 MB files). glibc backs
// its heap with transparent huge pages only when told at start-up (the `glibc.malloc.hugetlb`
// tunable), so the process starts itself again once with it set, where the kernel gives huge
// pages on request (transparent_hugepage "madvise"). Starting again costs a few milliseconds, so
// it is done only for a check whose folders hold at least 16 MiB. The environment seen by
// anything it runs is the one it was given.
namespace rubric::cli {

// `check` arguments: when the --submission and --reference folders hold at least 16 MiB of files
// other than tensor files (the first 4,096 entries of each counted), the process is replaced by the same command with
// the tunable set; it returns in the process that is to go on.
void use_huge_pages_for_large_inputs(int argc, char** argv);

}  // namespace rubric::cli
