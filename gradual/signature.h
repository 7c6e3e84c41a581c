// Python-style parameter lists for rules, e.g. "input, dim=None, keepdim=False"
// or "input, *shape" or "*size, **options", and binding a call's arguments to them.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gradual/call.h"

namespace gshape::gradual {

struct Param {
  enum class Kind : uint8_t { Regular, VarArgs, KeywordOnly, VarKeywords };
  std::string name;
  Kind kind = Kind::Regular;
  bool has_default = false;
  Value default_value;  // None, True/False, ints, floats, 'strings'
};

class Signature {
 public:
  // Throws std::invalid_argument on a malformed signature (a bug in a rule table).
  static Signature parse(std::string_view text);
  const std::vector<Param>& params() const { return params_; }
  std::string str() const { return text_; }

 private:
  std::vector<Param> params_;
  std::string text_;
};

// A parameter's bound operand. A `*name` parameter binds a synthetic tuple
// operand whose `elements` are the operands it collected (so each keeps its
// slot); `name=` given as a keyword for it binds a one-element tuple.
struct BoundParam {
  Operand operand;
  bool provided = false;  // false: the default
};

struct Binding {
  std::map<std::string, BoundParam, std::less<>> params;
  std::string error;  // non-empty: the call does not match (a TypeError in Python)
};

Binding bind(const Signature& sig, const CallSite& call);

}  // namespace gshape::gradual
