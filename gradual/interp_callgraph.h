// The project's static call graph (which def calls which, by name: module
// functions, imported project functions, `self.method`), and its strongly
// connected components found with Boost.Graph. A call into a component that
// is already on the analysis' call stack is recursion: its result is unknown.
#pragma once

#include <unordered_map>
#include <vector>

#include "frontend/project.h"

namespace gshape::gradual::interp {

class CallGraph {
 public:
  void build(const Project& project);
  // The component of `def` (-1 when the def is not in the graph).
  int component(const ir::FunctionDef* def) const;
  // Whether `def` can reach itself (a self call or a cycle of calls).
  bool recursive(const ir::FunctionDef* def) const;
  std::size_t size() const { return defs_.size(); }

 private:
  std::vector<const ir::FunctionDef*> defs_;
  std::unordered_map<const ir::FunctionDef*, std::size_t> index_;
  std::vector<int> component_;
  std::vector<bool> recursive_;
};

}  // namespace gshape::gradual::interp
