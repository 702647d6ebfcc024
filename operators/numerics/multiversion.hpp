#pragma once
// Hot loops are compiled for AVX-512, AVX2 and the baseline ISA; the loader picks one at run
// time, so one binary runs everywhere and still uses wide vectors where the CPU has them.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define RUBRIC_MULTIVERSION __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define RUBRIC_MULTIVERSION
#endif
