#include "frontend/parallel_for.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

namespace gshape {

namespace {

struct Shared {
  const std::function<void(std::size_t)>* work;
  std::size_t count;
  std::atomic<std::size_t> next{0};
};

void drain(Shared& s) {
  for (std::size_t i = s.next++; i < s.count; i = s.next++) (*s.work)(i);
}

void* worker(void* arg) {
  drain(*static_cast<Shared*>(arg));
  return nullptr;
}

}  // namespace

unsigned default_thread_count() {
  if (const char* env = std::getenv("GSHAPE_THREADS")) {
    char* end = nullptr;
    long n = std::strtol(env, &end, 10);
    if (end != env && *end == '\0' && n >= 1) return static_cast<unsigned>(std::min(n, 64L));
  }
  unsigned cores = std::thread::hardware_concurrency();
  return std::clamp(cores, 1u, 8u);
}

void parallel_for(std::size_t count, const std::function<void(std::size_t)>& work, unsigned threads,
                  std::size_t stack_bytes) {
  Shared shared{&work, count};
  std::size_t extra = std::min<std::size_t>(threads > 0 ? threads - 1 : 0, count > 0 ? count - 1 : 0);
  std::vector<pthread_t> started;
  for (std::size_t t = 0; t < extra; ++t) {
    pthread_attr_t attr;
    if (pthread_attr_init(&attr) != 0) break;
    pthread_t thread;
    bool ok = pthread_attr_setstacksize(&attr, stack_bytes) == 0 &&
              pthread_create(&thread, &attr, worker, &shared) == 0;
    pthread_attr_destroy(&attr);
    if (!ok) break;  // e.g. a tight address-space limit: fewer threads do it all
    started.push_back(thread);
  }
  drain(shared);
  for (pthread_t t : started) pthread_join(t, nullptr);
}

}  // namespace gshape
