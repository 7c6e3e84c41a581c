// A small command-line parser: each subcommand declares its options, and
// anything else that starts with '-' is a usage error naming the option.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace gshape::cli {

struct OptionSpec {
  std::string name;        // long form without dashes: "format"
  char short_name = '\0';  // 'o' for -o, or '\0'
  bool takes_value = false;
};

struct ParsedArgs {
  std::vector<std::string> positional;
  std::map<std::string, std::string> values;  // option name → value ("" for flags); the last one given
  std::map<std::string, std::vector<std::string>> all_values;  // option name → every value given, in order
  std::vector<std::string> after_double_dash;  // with keep_after_double_dash: what follows "--"
  bool double_dash = false;                    // "--" was given
  bool help = false;                           // -h / --help

  bool has(const std::string& name) const { return values.count(name) != 0; }
  std::string get(const std::string& name, const std::string& fallback = {}) const {
    auto it = values.find(name);
    return it == values.end() ? fallback : it->second;
  }
  // Every value of a repeatable option (--exclude A --exclude B), in order.
  std::vector<std::string> get_all(const std::string& name) const {
    auto it = all_values.find(name);
    return it == all_values.end() ? std::vector<std::string>{} : it->second;
  }
};

// Parses `args` (the words after the subcommand). Options may appear before,
// between or after positional arguments; "--" ends options. With
// `keep_after_double_dash` the words after "--" go to after_double_dash
// (the script's own arguments for `run`), otherwise they are positional.
// Returns an error message (without the "gshape: error: " prefix) on failure.
std::optional<std::string> parse_args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs,
                                      bool keep_after_double_dash, ParsedArgs& out);

}  // namespace gshape::cli
