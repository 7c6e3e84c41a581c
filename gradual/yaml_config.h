// YAML config files a launch names (`yaml.safe_load(open(path))`), read with
// yaml-cpp and typed as PyYAML's SafeLoader would type them (YAML 1.1
// implicit resolution: `yes`/`on` are bools, `1e3` is a string, `1.0e+3` a
// float, `~` is None). What the analysis cannot type exactly — octal, hex and
// sexagesimal numbers, timestamps, inf/nan, merge keys, tags other than the
// standard str/int/float/bool/null/seq/map, several documents — is Unknown:
// never a wrong value.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gshape::gradual {

struct YamlValue {
  enum class Kind { Unknown, Null, Bool, Int, Float, String, List, Map };
  Kind kind = Kind::Unknown;
  bool boolean = false;
  int64_t integer = 0;
  double number = 0;
  std::string string;
  std::vector<YamlValue> items;  // List
  // Map: keys as the analysis' dicts spell them ("s:width", "i:3"), in order;
  // a later duplicate replaces the earlier value, as PyYAML does.
  std::vector<std::pair<std::string, YamlValue>> entries;
  bool complete = true;  // Map: false when some key could not be typed (then left out)
};

// The document `text` holds, as PyYAML's safe_load would build it; nullopt
// with `error` set when yaml-cpp cannot parse it (the caller then leaves the
// value unknown: PyYAML and yaml-cpp disagree on a few corner cases).
std::optional<YamlValue> read_yaml_config(const std::string& text, std::string& error);

// PyYAML's implicit typing of one plain (unquoted) scalar.
YamlValue resolve_plain_scalar(const std::string& text);

}  // namespace gshape::gradual
