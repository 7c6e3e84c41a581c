// Runs a program with arguments and captures its exit status, stdout and
// stderr separately, with a time limit (a hang is a failure, not a stuck test).
#pragma once

#include <string>
#include <vector>

namespace gshape::testing {

struct ProcessResult {
  int exit_code = -1;    // the exit status, or -1 when killed by a signal
  int signal = 0;        // the signal that ended it, or 0
  bool timed_out = false;
  std::string out;
  std::string err;
};

ProcessResult run_process(const std::string& program, const std::vector<std::string>& args,
                          const std::string& working_dir = {}, int timeout_seconds = 60);

}  // namespace gshape::testing
