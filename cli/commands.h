// The subcommands of `gshape`: each lives in its own cmd_*.cpp and is
// described by a Command (its options, its help text, its entry point).
#pragma once

#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/report.h"

namespace gshape::cli {

// Exit codes: 0 no errors, 1 errors found in the input, 2 usage or I/O error.
inline constexpr int kExitOk = 0;
inline constexpr int kExitErrorsFound = 1;
inline constexpr int kExitUsage = 2;

struct Command {
  std::string name;
  std::string summary;  // one line for `gshape --help`
  std::string help;     // the full `gshape NAME --help` text: usage, description, options, example
  std::vector<OptionSpec> options;
  bool keep_after_double_dash = false;  // `run`: words after "--" belong to the script
  int (*run)(const ParsedArgs& args) = nullptr;
};

const Command& check_command();
const Command& instrument_command();
const Command& run_command();
const Command& report_command();
const Command& dump_ir_command();
const Command& dump_imports_command();
const Command& annotate_command();
const Command& cache_command();

// Every subcommand, in the order `gshape --help` lists them.
std::vector<const Command*> all_commands();

// Prints `gshape: error: MESSAGE` and a pointer to the command's --help on
// stderr; returns kExitUsage.
int usage_error(const std::string& command, const std::string& message);

// Prints `gshape: error: MESSAGE` on stderr (an I/O or not-implemented error); returns kExitUsage.
int fatal_error(const std::string& message);

// --format and --color as given (defaults: text, auto); nullopt after a usage error was printed.
struct OutputOptions {
  OutputFormat format = OutputFormat::Text;
  bool color = false;
};
std::optional<OutputOptions> read_output_options(const std::string& command, const ParsedArgs& args);

// The option specs every command that prints diagnostics accepts.
OptionSpec color_option();
OptionSpec format_option();

}  // namespace gshape::cli
