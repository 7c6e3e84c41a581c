// nn.DataParallel and nn.parallel.DistributedDataParallel as values: the
// wrapped module (`.module`) and what a call of the wrapper does with it
// (interp_wrappers.cpp; docs/analysis.md, "Module wrappers").
#pragma once

#include <map>
#include <string>

#include "gradual/interp_objects.h"

namespace gshape::gradual::interp {

// A wrapper is a library name of its own ("torch.nn.DataParallel<3>"):
// calls and attribute reads of a library name reach call_library and
// library_attribute, which find it by that path (Interpreter::wrapper_named).
struct ModuleWrapper : LibraryName {
  enum class Kind : uint8_t {
    DataParallel,  // scatters its inputs along `dim` into chunks, gathers the outputs
    Distributed,   // DistributedDataParallel: one replica per process, the inputs as given
  };
  ModuleWrapper(std::string unique_path, std::string cls, Kind k, Value wrapped, int64_t d)
      : LibraryName(std::move(unique_path)), wrapper_class(std::move(cls)), kind(k), dim(d) {
    attributes["module"] = std::move(wrapped);
  }
  std::string wrapper_class;  // "torch.nn.DataParallel"
  Kind kind;
  int64_t dim = 0;  // DataParallel: the axis it scatters and gathers along
  // The chunk size of each batch size scattered so far: the chunks depend on
  // the batch size and the wrapper's devices only, so one symbol serves
  // every call with that batch size.
  std::map<const TermNode*, Dim> chunks;
  const Value& module() const { return attributes.at("module"); }
};

}  // namespace gshape::gradual::interp
