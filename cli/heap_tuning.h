// How gshape's heap is set up for one run: one heap for every thread, grown
// in large steps, backed by transparent huge pages where the kernel allows it.
#pragma once

namespace gshape::cli {

// Called first thing in main. A run allocates tens of megabytes of small
// objects (IR, terms, obligations) and frees them only at exit; with glibc's
// defaults each 4 KB page of that costs a page fault (a third of a re-check's
// time with nothing changed) and each thread grows an arena of its own. So:
// every thread allocates from the main heap (M_ARENA_MAX 1: measured no
// slower with two analysis threads), which grows 256 MB of address space at
// a time (untouched pages cost nothing) and is never trimmed, with
// MADV_HUGEPAGE on that first stretch (the kernel's THP mode "madvise";
// ignored where THP is off). What glibc's tunables
// glibc.malloc.arena_max=1:glibc.malloc.top_pad=...:glibc.malloc.hugetlb=1
// do, without needing them in the environment. Never fails: a step that is
// refused (a tight address-space limit, no THP) leaves the default behaviour.
void tune_heap();

}  // namespace gshape::cli
