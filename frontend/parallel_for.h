// Runs independent jobs on a few threads, each with a large stack: the
// front end parses files in parallel, and building the IR of deeply nested
// source recurses deeply (see cli/large_stack.h for the command thread).
#pragma once

#include <cstddef>
#include <functional>

namespace gshape {

inline constexpr std::size_t kWorkerStackBytes = std::size_t{512} * 1024 * 1024;

// The number of worker threads to use by default: GSHAPE_THREADS when set
// (1 turns parallelism off), else the machine's cores, at most 8.
unsigned default_thread_count();

// Calls work(i) once for every i in [0, count), on the calling thread and up
// to `threads - 1` more, in no particular order. Jobs must not share
// mutable state. If a thread cannot be started, the others do its share.
void parallel_for(std::size_t count, const std::function<void(std::size_t)>& work, unsigned threads,
                  std::size_t stack_bytes = kWorkerStackBytes);

}  // namespace gshape
