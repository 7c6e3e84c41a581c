#include "cli/config.h"

#include <cctype>
#include <filesystem>
#include <iostream>
#include <sstream>

#include <toml++/toml.h>

#include "codegen/atomic_file.h"

namespace gshape::cli {

namespace fs = std::filesystem;

FileFilter Settings::file_filter() const {
  if (include.empty() && exclude.empty()) return {};
  return [include = include, exclude = exclude](const std::string& path) {
    if (!include.empty() && !include.matches(path)) return false;
    return !exclude.matches(path);
  };
}

std::optional<Severity> Settings::severity_of(const std::string& tag, Severity given) const {
  auto it = tag.empty() ? severity.end() : severity.find(tag);
  if (it == severity.end()) return given;
  switch (it->second) {
    case SeverityOverride::Error: return Severity::Error;
    case SeverityOverride::Warning: return Severity::Warning;
    case SeverityOverride::Note: return Severity::Note;
    case SeverityOverride::Ignore: return std::nullopt;
  }
  return given;
}

namespace {

bool has_gshape_table(const std::string& pyproject) {
  std::optional<std::string> text = codegen::read_file(pyproject);
  if (!text) return false;
  try {
    toml::table doc = toml::parse(*text, pyproject);
    return doc["tool"]["gshape"].node() != nullptr;  // a [tool.gshape] that is no table is reported when read
  } catch (const toml::parse_error&) {
    // a malformed pyproject.toml that mentions gshape is ours to report
    return text->find("tool.gshape") != std::string::npos;
  }
}

std::string where(const std::string& path, const toml::source_region& at) {
  if (at.begin.line == 0) return path;
  return path + ":" + std::to_string(at.begin.line) + ":" + std::to_string(at.begin.column);
}

ConfigError at_(const std::string& path, const toml::source_region& at, std::string message) {
  return {where(path, at), std::move(message)};
}

// The strings of an array of strings, or the error.
ConfigError read_strings(const std::string& path, const std::string& key, const toml::node& node,
                         std::vector<std::string>& out) {
  const toml::array* array = node.as_array();
  if (array == nullptr) return at_(path, node.source(), "'" + key + "' must be an array of strings");
  for (const toml::node& item : *array) {
    if (!item.is_string()) return at_(path, item.source(), "'" + key + "' must hold strings only");
    out.push_back(*item.value<std::string>());
  }
  return {};
}

ConfigError read_table(const std::string& path, const toml::table& table, const std::string& table_name, Settings& out) {
  const std::string base = fs::path(path).parent_path().string();
  for (const auto& [key, node] : table) {
    const std::string k(key.str());
    if (k == "include" || k == "exclude") {
      std::vector<std::string> globs;
      if (ConfigError e = read_strings(path, k, node, globs); !e.empty()) return e;
      for (const std::string& g : globs) (k == "include" ? out.include : out.exclude).add(g, base);
    } else if (k == "python") {
      if (!node.is_string()) return at_(path, node.source(), "'python' must be a string (a path to an interpreter)");
      out.python = *node.value<std::string>();
      if (out.python.empty()) return at_(path, node.source(), "'python' must not be empty");
    } else if (k == "warn-unused-ignores" || k == "warn_unused_ignores") {
      if (!node.is_boolean()) return at_(path, node.source(), "'" + k + "' must be true or false");
      out.warn_unused_ignores = *node.value<bool>();
    } else if (k == "max-file-size" || k == "max_file_size") {
      std::optional<std::size_t> size;
      if (node.is_integer() && *node.value<int64_t>() > 0) size = static_cast<std::size_t>(*node.value<int64_t>());
      if (node.is_string()) size = parse_file_size(*node.value<std::string>());
      if (!size) return at_(path, node.source(), "'" + k + "' must be a size such as \"5MB\", \"512KB\" or a number of bytes");
      out.max_file_bytes = *size;
    } else if (k == "severity") {
      const toml::table* tags = node.as_table();
      if (tags == nullptr) {
        return at_(path, node.source(), "'severity' must be a table of tag = \"error|warning|note|ignore\"");
      }
      for (const auto& [tag, level] : *tags) {
        std::optional<std::string> s;
        if (level.is_string()) s = level.value<std::string>();
        SeverityOverride o;
        if (s == "error") o = SeverityOverride::Error;
        else if (s == "warning") o = SeverityOverride::Warning;
        else if (s == "note") o = SeverityOverride::Note;
        else if (s == "ignore") o = SeverityOverride::Ignore;
        else {
          return at_(path, level.source(), "the severity of '" + std::string(tag.str()) +
                                               "' must be \"error\", \"warning\", \"note\" or \"ignore\"");
        }
        out.severity[std::string(tag.str())] = o;
      }
    } else {
      const toml::source_region& at = key.source().begin.line > 0 ? key.source() : node.source();
      return at_(path, at, "unknown key '" + k + "' in " + table_name +
                               " (expected include, exclude, python, severity, warn-unused-ignores, max-file-size)");
    }
  }
  return {};
}

}  // namespace

std::string find_config_file(const std::string& start) {
  std::error_code ec;
  fs::path dir = fs::absolute(start.empty() ? fs::path(".") : fs::path(start), ec).lexically_normal();
  if (!fs::is_directory(dir, ec)) dir = dir.parent_path();
  for (;;) {
    if (fs::is_regular_file(dir / "gshape.toml", ec)) return (dir / "gshape.toml").string();
    fs::path pyproject = dir / "pyproject.toml";
    if (fs::is_regular_file(pyproject, ec) && has_gshape_table(pyproject.string())) return pyproject.string();
    if (dir == dir.parent_path() || dir.empty()) return {};
    dir = dir.parent_path();
  }
}

ConfigError read_config_file(const std::string& path, Settings& out) {
  std::optional<std::string> text = codegen::read_file(path);
  if (!text) return {path, "cannot read the configuration file"};
  out.config_path = path;
  out.config_dir = fs::path(path).parent_path().string();
  toml::table doc;
  try {
    doc = toml::parse(*text, path);
  } catch (const toml::parse_error& e) {
    return at_(path, e.source(), "malformed TOML: " + std::string(e.description()));
  }
  if (fs::path(path).filename() == "pyproject.toml") {
    toml::node* tool = doc.get("tool");
    if (tool == nullptr || !tool->is_table()) return {};
    toml::node* gshape = tool->as_table()->get("gshape");
    if (gshape == nullptr) return {};
    if (!gshape->is_table()) return at_(path, gshape->source(), "'tool.gshape' must be a table");
    return read_table(path, *gshape->as_table(), "[tool.gshape]", out);
  }
  return read_table(path, doc, "gshape.toml", out);
}

std::vector<OptionSpec> config_options() {
  return {{"config", '\0', true}, {"exclude", '\0', true}, {"max-file-size", '\0', true}};
}

std::optional<std::size_t> parse_file_size(const std::string& text) {
  std::size_t i = 0;
  unsigned long long value = 0;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
    if (value > (1ULL << 40)) return std::nullopt;
    value = value * 10 + static_cast<unsigned>(text[i] - '0');
    ++i;
  }
  if (i == 0) return std::nullopt;
  std::string unit;
  for (; i < text.size(); ++i) unit += static_cast<char>(std::toupper(static_cast<unsigned char>(text[i])));
  unsigned long long scale = 1;
  if (unit == "K" || unit == "KB") scale = 1024;
  else if (unit == "M" || unit == "MB") scale = 1024 * 1024;
  else if (unit == "G" || unit == "GB") scale = 1024 * 1024 * 1024;
  else if (!unit.empty() && unit != "B") return std::nullopt;
  if (value == 0) return std::nullopt;
  return static_cast<std::size_t>(value * scale);
}

std::optional<Settings> load_settings(const ParsedArgs& args, const std::vector<std::string>& paths) {
  Settings settings;
  std::string file;
  if (args.has("config")) {
    file = args.get("config");
    std::error_code ec;
    if (file.empty() || !fs::is_regular_file(file, ec)) {
      std::cerr << (file.empty() ? std::string("gshape") : file) << ": error: "
                << (file.empty() ? "'--config' needs a file" : "no such configuration file") << "\n";
      return std::nullopt;
    }
  } else {
    file = find_config_file(paths.empty() ? std::string(".") : paths.front());
  }
  if (!file.empty()) {
    ConfigError error = read_config_file(file, settings);
    if (!error.empty()) {
      std::cerr << error.where << ": error: " << error.message << "\n";
      return std::nullopt;
    }
  }
  for (const std::string& value : args.get_all("exclude")) {
    std::stringstream list(value);
    std::string glob;
    while (std::getline(list, glob, ',')) {
      if (!glob.empty()) settings.exclude.add(glob, ".");
    }
  }
  if (args.has("warn-unused-ignores")) settings.warn_unused_ignores = true;
  if (args.has("max-file-size")) {
    std::optional<std::size_t> size = parse_file_size(args.get("max-file-size"));
    if (!size) {
      std::cerr << "gshape: error: --max-file-size '" << args.get("max-file-size")
                << "' is not a size (expected bytes, or a number with KB, MB or GB: 5MB)\n";
      return std::nullopt;
    }
    settings.max_file_bytes = *size;
  }
  return settings;
}

}  // namespace gshape::cli
