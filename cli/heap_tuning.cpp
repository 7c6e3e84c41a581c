#include "cli/heap_tuning.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace gshape::cli {

namespace {

constexpr std::size_t kTopPad = std::size_t{256} << 20;         // address space added per growth of the heap
constexpr std::size_t kHugePage = std::size_t{2} << 20;         // x86-64's transparent huge page
constexpr std::size_t kMmapThreshold = std::size_t{32} << 20;   // glibc's largest: bigger blocks are mmapped

}  // namespace

void tune_heap() {
  mallopt(M_ARENA_MAX, 1);
  mallopt(M_MMAP_THRESHOLD, static_cast<int>(kMmapThreshold));  // vectors of obligations stay in the heap
  mallopt(M_TRIM_THRESHOLD, INT32_MAX);                          // a short run: freed memory is kept for reuse
  mallopt(M_TOP_PAD, static_cast<int>(kTopPad));
  // One block larger than what is left at the top makes the heap grow now
  // (by the pad); freed, it goes back to the top, which then spans the new stretch.
  void* probe = std::malloc(kHugePage);
  if (probe == nullptr) return;
  auto begin = reinterpret_cast<std::uintptr_t>(probe);
  auto end = reinterpret_cast<std::uintptr_t>(sbrk(0));
  std::free(probe);
  if (end == static_cast<std::uintptr_t>(-1) || end <= begin) return;  // not the brk heap (e.g. an mmap fallback)
  std::uintptr_t first = (begin + kHugePage - 1) & ~(kHugePage - 1);
  std::uintptr_t last = end & ~(kHugePage - 1);
  if (last > first) static_cast<void>(madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE));
}

}  // namespace gshape::cli
