// Path globs for include/exclude (gshape.toml, [tool.gshape], --exclude,
// report --file), in the way .gitignore and ruff read them:
//   *   any characters but '/'        ?   one character but '/'
//   **  any number of whole folders   [abc], [a-z], [!a]  one of (not) these
// A pattern matches a path relative to its base folder when it matches the
// whole path or a leading run of its folders ("legacy" and "legacy/" hold
// every file under legacy/); a pattern without '/' (other than a trailing
// one) matches at any depth ("test_*.py", "__init__.py").
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace gshape::cli {

// Whether `pattern` matches the '/'-separated relative path `path` (whole
// path, or a leading run of its folders; at any depth without a '/').
bool path_glob_matches(std::string_view pattern, std::string_view path);

// The plain fnmatch part: whether `pattern` matches all of `text` ('*' and
// '?' stop at '/', "**" does not).
bool glob_match(std::string_view pattern, std::string_view text);

// A list of patterns, each relative to a base folder (the config file's, or
// the working directory for the command line).
struct PathPatterns {
  struct Pattern {
    std::string glob;
    std::string base;  // absolute, normalised
  };
  std::vector<Pattern> patterns;
  bool empty() const { return patterns.empty(); }
  void add(const std::string& glob, const std::string& base_dir);
  // Whether any pattern matches `path` (made absolute against the working
  // directory, then taken relative to each pattern's base; a path outside a
  // base is matched by that pattern's depth-free form only).
  bool matches(const std::string& path) const;
};

}  // namespace gshape::cli
