// Runs the command on a thread with a large stack, so that deeply nested
// input (recursive descent over a 500-level expression) cannot overflow the
// main thread's few megabytes.
#pragma once

#include <cstddef>
#include <functional>

namespace gshape::cli {

inline constexpr std::size_t kCommandStackBytes = std::size_t{512} * 1024 * 1024;

// Returns `work()`'s result. The stack is reserved address space, committed
// only as it is touched. If such a thread cannot be created, runs `work` here.
int run_with_large_stack(const std::function<int()>& work, std::size_t stack_bytes = kCommandStackBytes);

}  // namespace gshape::cli
