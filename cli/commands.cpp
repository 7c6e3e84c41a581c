#include "cli/commands.h"

#include <iostream>

namespace gshape::cli {

std::vector<const Command*> all_commands() {
  return {&check_command(),   &instrument_command(), &run_command(),          &report_command(),
          &annotate_command(), &dump_ir_command(),    &dump_imports_command(), &cache_command()};
}

int usage_error(const std::string& command, const std::string& message) {
  std::cerr << "gshape: error: " << message << "\n";
  std::cerr << "(see 'gshape " << (command.empty() ? "" : command + " ") << "--help')\n";
  return kExitUsage;
}

int fatal_error(const std::string& message) {
  std::cerr << "gshape: error: " << message << "\n";
  return kExitUsage;
}

OptionSpec color_option() { return {"color", '\0', true}; }
OptionSpec format_option() { return {"format", '\0', true}; }

std::optional<OutputOptions> read_output_options(const std::string& command, const ParsedArgs& args) {
  OutputOptions out;
  if (args.has("format")) {
    std::optional<OutputFormat> f = parse_format(args.get("format"));
    if (!f) {
      usage_error(command, "unknown --format '" + args.get("format") + "' (expected text, json, sarif or github)");
      return std::nullopt;
    }
    out.format = *f;
  }
  std::optional<ColorMode> c = parse_color(args.get("color", "auto"));
  if (!c) {
    usage_error(command, "unknown --color '" + args.get("color") + "' (expected auto, always or never)");
    return std::nullopt;
  }
  out.color = use_color(*c);
  return out;
}

}  // namespace gshape::cli
