// Running a program as a child that inherits stdin, stdout, stderr and the
// working directory, and reporting its exit status the way a shell does.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gshape::codegen {

struct ChildResult {
  int exit_code = -1;   // the exit status; 128 + N when killed by signal N
  std::string error;    // the program could not be started
};

// Runs `argv[0]` (a path) with `argv` and the current environment changed by
// `environment` (a value of nullopt removes the variable). While the child
// runs, this process ignores SIGINT and SIGQUIT (as system() does), so ^C
// reaches the child and the child decides.
ChildResult run_child(const std::vector<std::string>& argv,
                      const std::map<std::string, std::optional<std::string>>& environment);

}  // namespace gshape::codegen
