// gshape's configuration: `gshape.toml` (keys at the top level) or the
// `[tool.gshape]` table of `pyproject.toml`, found in the folder of the first
// PATH (the script for `run`; the working directory without one) or the
// nearest folder above it; `--config FILE` names one. Read with toml++
// (Debian's libtomlplusplus-dev).
//
//   include = ["src", "train.py"]   # globs (cli/path_glob.h): only matching files are loaded
//   exclude = ["tests/**", "legacy"] # globs: matching files are not loaded
//   python = "/opt/venv/bin/python"  # the interpreter of `gshape run`
//   warn-unused-ignores = true       # as --warn-unused-ignores
//   max-file-size = "5MB"            # as --max-file-size: larger files are skipped (default 2MB)
//   [severity]                       # ([tool.gshape.severity] in pyproject.toml)
//   linear_c1 = "warning"            # error | warning | note | ignore, per tag
//
// Globs are relative to the config file's folder; --exclude GLOB on the
// command line (repeatable, comma-separated) is relative to the working
// directory. A malformed file is an error naming file:line:col.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.h"
#include "cli/path_glob.h"
#include "frontend/diagnostics.h"
#include "frontend/project.h"

namespace gshape::cli {

enum class SeverityOverride { Error, Warning, Note, Ignore };

struct Settings {
  std::string config_path;  // the file read ("" when none)
  std::string config_dir;   // its folder
  PathPatterns include;
  PathPatterns exclude;
  std::string python;  // "" unless configured
  bool warn_unused_ignores = false;
  std::size_t max_file_bytes = kDefaultMaxSourceFileBytes;  // larger files are skipped with a warning
  std::map<std::string, SeverityOverride> severity;  // by tag

  // The filter load_project applies to walked files; empty when nothing is
  // included or excluded.
  FileFilter file_filter() const;
  // The severity a diagnostic of `tag` gets (nullopt: dropped); `given` without an override.
  std::optional<Severity> severity_of(const std::string& tag, Severity given) const;
};

// The config file that applies to `start` (a file or folder): the first
// gshape.toml, or pyproject.toml with a [tool.gshape] table, in start's
// folder or above; "" when none.
std::string find_config_file(const std::string& start);

// What is wrong with a config file: where ("path:line:col") and what.
struct ConfigError {
  std::string where;
  std::string message;
  bool empty() const { return message.empty(); }
};

// Reads one config file into `out`; an empty ConfigError when it is fine.
ConfigError read_config_file(const std::string& path, Settings& out);

// A size as --max-file-size and max-file-size take it: bytes, or a number
// with K, KB, M, MB, G or GB (1024-based; case ignored), more than 0.
std::optional<std::size_t> parse_file_size(const std::string& text);

// The settings of a command: the config file (--config FILE, or found from
// the first of `paths`, or the working directory), then --exclude,
// --max-file-size and --warn-unused-ignores from the command line. nullopt after printing the
// error (a malformed file, a missing --config): exit status 2.
std::optional<Settings> load_settings(const ParsedArgs& args, const std::vector<std::string>& paths);

// The option specs of the configuration: --config FILE, --exclude GLOB, --max-file-size SIZE.
std::vector<OptionSpec> config_options();

}  // namespace gshape::cli
