// `gshape`: dispatches to a subcommand, on a thread with a large stack.
#include <malloc.h>

#include <algorithm>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "cli/large_stack.h"
#include "gshape_version.h"

namespace gshape::cli {

namespace {

void print_general_help(std::ostream& out) {
  out << "usage: gshape SUBCOMMAND [options] [arguments]\n"
         "       gshape SUBCOMMAND --help\n"
         "       gshape --version\n\n"
         "gshape " GSHAPE_VERSION " - a gradual shape checker for PyTorch programs.\n\n"
         "subcommands:\n";
  for (const Command* c : all_commands()) {
    out << "  " << c->name << std::string(15 - std::min<std::size_t>(c->name.size(), 14), ' ') << c->summary << "\n";
  }
  out << "  help           show this help, or a subcommand's (gshape help check)\n\n"
         "options:\n"
         "  -h, --help     show this help\n"
         "  --version      print the version\n\n"
         "exit status: 0 no errors, 1 errors found in the input, 2 usage or I/O error\n\n"
         "environment:\n"
         "  GSHAPE_THREADS   threads that parse the project's files (default: the cores,\n"
         "                   at most 8; 1 parses on one thread)\n"
         "  GSHAPE_CHECKS=0  (instrumented programs) turn every run-time check off\n"
         "  GSHAPE_STATS     (instrumented programs) write each check's counts to this\n"
         "                   JSON file at exit (gshape report --stats)\n\n"
         "examples:\n"
         "  gshape check src/\n"
         "  gshape instrument src/ -o build/instrumented\n"
         "  gshape run train.py -- --epochs 1\n"
         "  gshape report --summary src/\n"
         "  gshape dump-ir model.py\n"
         "  gshape dump-imports src/\n";
}

// Levenshtein distance, to suggest a subcommand for a typo.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

const Command* find_command(const std::string& name) {
  for (const Command* c : all_commands()) {
    if (c->name == name) return c;
  }
  return nullptr;
}

int unknown_command(const std::string& name) {
  std::string message = "unknown subcommand '" + name + "'";
  for (const Command* c : all_commands()) {
    if (edit_distance(name, c->name) <= 2) {
      message += " (did you mean '" + c->name + "'?)";
      break;
    }
  }
  return usage_error("", message);
}

int dispatch(const std::vector<std::string>& argv) {
  if (argv.empty()) {
    print_general_help(std::cerr);
    return kExitUsage;
  }
  const std::string& first = argv.front();
  if (first == "--version") {
    std::cout << "gshape " << GSHAPE_VERSION << "\n";
    return kExitOk;
  }
  if (first == "--help" || first == "-h") {
    print_general_help(std::cout);
    return kExitOk;
  }
  if (first == "help") {
    if (argv.size() == 1) {
      print_general_help(std::cout);
      return kExitOk;
    }
    const Command* c = find_command(argv[1]);
    if (c == nullptr) return unknown_command(argv[1]);
    std::cout << c->help;
    return kExitOk;
  }
  if (first.size() > 1 && first[0] == '-') return usage_error("", "unknown option '" + first + "'");

  const Command* command = find_command(first);
  if (command == nullptr) return unknown_command(first);
  ParsedArgs args;
  std::vector<std::string> rest(argv.begin() + 1, argv.end());
  if (std::optional<std::string> error = parse_args(rest, command->options, command->keep_after_double_dash, args)) {
    return usage_error(command->name, *error);
  }
  if (args.help) {
    std::cout << command->help;
    return kExitOk;
  }
  return command->run(args);
}

}  // namespace

}  // namespace gshape::cli

int main(int argc, char** argv) {
  // Freed memory stays in the process for reuse instead of going back to
  // the system at once. Each analysis unit creates a Z3 context of its own,
  // which allocates about 20 MB, two blocks of 8 MB among it: with glibc's
  // defaults the first ones are mmapped and unmapped per context, and pages
  // faulted in afresh are expensive here (a context alone: ~60 ms fresh,
  // ~6 ms on reused pages; on vit-pytorch's 64 units a quarter fewer page
  // faults in all, as glibc's own threshold adapts after the first blocks).
  // Memory goes back before `gshape run` starts the program
  // (codegen/child_process.cpp).
  mallopt(M_MMAP_THRESHOLD, 32 << 20);  // glibc's maximum: blocks below come from the heap
  mallopt(M_TRIM_THRESHOLD, 1 << 30);
  std::vector<std::string> args(argv + 1, argv + argc);
  int exit_code = gshape::cli::run_with_large_stack([&args]() {
    try {
      return gshape::cli::dispatch(args);
    } catch (const std::exception& e) {
      std::cerr << "gshape: internal error: " << e.what() << "\n";
      return gshape::cli::kExitUsage;
    }
  });
  std::cout.flush();
  return exit_code;
}
