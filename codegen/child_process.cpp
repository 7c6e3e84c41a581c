#include "codegen/child_process.h"

#include <malloc.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace gshape::codegen {

namespace {

// Restores the two signal dispositions when the wait is over.
class IgnoreInterrupts {
 public:
  IgnoreInterrupts() {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGINT, &ignore, &saved_int_);
    sigaction(SIGQUIT, &ignore, &saved_quit_);
  }
  ~IgnoreInterrupts() {
    sigaction(SIGINT, &saved_int_, nullptr);
    sigaction(SIGQUIT, &saved_quit_, nullptr);
  }
  IgnoreInterrupts(const IgnoreInterrupts&) = delete;
  IgnoreInterrupts& operator=(const IgnoreInterrupts&) = delete;

 private:
  struct sigaction saved_int_ {};
  struct sigaction saved_quit_ {};
};

}  // namespace

ChildResult run_child(const std::vector<std::string>& argv,
                      const std::map<std::string, std::optional<std::string>>& environment) {
  ChildResult result;
  if (argv.empty()) {
    result.error = "no program to run";
    return result;
  }
  std::vector<std::string> env_strings;
  for (char** e = environ; e && *e; ++e) {
    std::string entry = *e;
    std::string name = entry.substr(0, entry.find('='));
    if (environment.count(name) == 0) env_strings.push_back(std::move(entry));
  }
  for (const auto& [name, value] : environment) {
    if (value) env_strings.push_back(name + "=" + *value);
  }
  std::vector<char*> env_ptrs;
  for (std::string& s : env_strings) env_ptrs.push_back(s.data());
  env_ptrs.push_back(nullptr);
  std::vector<std::string> args = argv;
  std::vector<char*> arg_ptrs;
  for (std::string& s : args) arg_ptrs.push_back(s.data());
  arg_ptrs.push_back(nullptr);

  // gshape keeps freed memory for reuse (cli/main.cpp); the child may run
  // for hours while gshape waits, so give it back to the system first
  malloc_trim(0);
  IgnoreInterrupts ignore;
  posix_spawnattr_t attributes;
  posix_spawnattr_init(&attributes);
  sigset_t defaults;
  sigemptyset(&defaults);
  sigaddset(&defaults, SIGINT);
  sigaddset(&defaults, SIGQUIT);
  posix_spawnattr_setsigdefault(&attributes, &defaults);
  posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGDEF);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, args[0].c_str(), nullptr, &attributes, arg_ptrs.data(), env_ptrs.data());
  posix_spawnattr_destroy(&attributes);
  if (rc != 0) {
    result.error = "cannot run " + args[0] + ": " + std::strerror(rc);
    return result;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.error = std::string("cannot wait for ") + args[0] + ": " + std::strerror(errno);
      return result;
    }
  }
  if (WIFEXITED(status)) {
    result.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    result.exit_code = 128 + WTERMSIG(status);
  }
  return result;
}

}  // namespace gshape::codegen
