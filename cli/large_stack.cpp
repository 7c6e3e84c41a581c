#include "cli/large_stack.h"

#include <pthread.h>

namespace gshape::cli {

namespace {

struct Job {
  const std::function<int()>* work;
  int result = 0;
};

void* run_job(void* arg) {
  auto* job = static_cast<Job*>(arg);
  job->result = (*job->work)();
  return nullptr;
}

}  // namespace

int run_with_large_stack(const std::function<int()>& work, std::size_t stack_bytes) {
  pthread_attr_t attr;
  if (pthread_attr_init(&attr) != 0) return work();
  Job job{&work};
  pthread_t thread;
  bool started = pthread_attr_setstacksize(&attr, stack_bytes) == 0 &&
                 pthread_create(&thread, &attr, run_job, &job) == 0;
  pthread_attr_destroy(&attr);
  if (!started) return work();  // e.g. a tight address-space limit: the default stack still works for most input
  pthread_join(thread, nullptr);
  return job.result;
}

}  // namespace gshape::cli
