// Which function a line of a module belongs to, for the review's grouping
// per file and function: qualified names as Python's __qualname__ spells
// them without "<locals>" ("ViT.forward", "outer.inner"), "" at module level.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "frontend/ir.h"

namespace gshape::cli {

struct Scope {
  std::string name;         // "ViT.forward"; a class body is the class' name
  uint32_t first_line = 0;  // the def (or class) line
  uint32_t last_line = 0;
};

class ScopeIndex {
 public:
  explicit ScopeIndex(const ir::Module& module);
  // The innermost function or class holding `line`, or nullptr at module level.
  const Scope* scope_at(uint32_t line) const;

 private:
  std::vector<Scope> scopes_;  // outer scopes before the scopes they hold
};

}  // namespace gshape::cli
