#pragma once
// Huge pages for the heap. A check that reads large JSON builds millions of small values; with
// 4 KiB pages a third of its time went to page faults (158,000 for two 31 MB files). glibc backs
// its heap with transparent huge pages only when told at start-up (the `glibc.malloc.hugetlb`
// tunable), so the process starts itself again once with it set, where the kernel gives huge
// pages on request (transparent_hugepage "madvise"). The environment seen by anything it runs
// is the one it was given.
namespace rubric::cli {

// Returns only in the process that is to go on: this one when the heap is already set (or cannot
// be), else it is replaced by the same command with the tunable set.
void use_huge_pages_for_the_heap(char** argv);

}  // namespace rubric::cli
