#include "cli/options.h"

namespace gshape::cli {

namespace {

const OptionSpec* find_long(const std::vector<OptionSpec>& specs, const std::string& name) {
  for (const OptionSpec& s : specs) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

const OptionSpec* find_short(const std::vector<OptionSpec>& specs, char c) {
  for (const OptionSpec& s : specs) {
    if (s.short_name == c) return &s;
  }
  return nullptr;
}

}  // namespace

std::optional<std::string> parse_args(const std::vector<std::string>& args, const std::vector<OptionSpec>& specs,
                                      bool keep_after_double_dash, ParsedArgs& out) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {
      out.double_dash = true;
      for (++i; i < args.size(); ++i) {
        (keep_after_double_dash ? out.after_double_dash : out.positional).push_back(args[i]);
      }
      break;
    }
    if (arg == "-h" || arg == "--help") {
      out.help = true;
      continue;
    }
    if (arg.size() < 2 || arg[0] != '-') {  // "-" alone is a positional, as is anything not starting with '-'
      out.positional.push_back(arg);
      continue;
    }

    const OptionSpec* spec = nullptr;
    std::optional<std::string> inline_value;
    std::string shown;  // the option as the user wrote it, for messages
    if (arg.rfind("--", 0) == 0) {
      std::size_t eq = arg.find('=');
      std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
      if (eq != std::string::npos) inline_value = arg.substr(eq + 1);
      shown = "--" + name;
      spec = find_long(specs, name);
    } else {
      shown = arg.substr(0, 2);
      spec = find_short(specs, arg[1]);
      if (arg.size() > 2) inline_value = arg.substr(arg[2] == '=' ? 3 : 2);  // -oOUT or -o=OUT
    }
    if (spec == nullptr) return "unknown option '" + shown + "'";
    if (!spec->takes_value) {
      if (inline_value) return "option '" + shown + "' takes no value";
      out.values[spec->name] = "";
      continue;
    }
    if (!inline_value) {
      if (i + 1 >= args.size()) return "option '" + shown + "' needs a value";
      inline_value = args[++i];
    }
    out.values[spec->name] = *inline_value;
    out.all_values[spec->name].push_back(*inline_value);
  }
  return std::nullopt;
}

}  // namespace gshape::cli
