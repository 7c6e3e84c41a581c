// Reading Python values into Observed summaries (tensor sizes through
// libtorch's Python binding, never their data), and finding the rule of a
// called object: an nn.Module whose forward is a torch class's, a torch
// function or class, or a tensor method. Include Python.h first.
#pragma once

#include <Python.h>

#include "gradual/rule_registry.h"
#include "runtime/observed.h"

namespace gshape::runtime {

// Identity of the calling Python frame, without creating a frame object.
// Only compared for equality, never dereferenced.
const void* caller_frame();

// Builds the table from each rule's name to the Python object it names
// (`torch.cat`, `torch.nn.Linear`, `torch.Tensor.view` ...). Call once, after
// torch is imported; false with a Python exception set on failure.
bool init_observe();

// Summarises any value (never fails; what it cannot read becomes Other).
void observe(Observed& o, PyObject* value);

// The rule of a called object, and whether `o` then holds a receiver (the
// module of a forward rule, the tensor of a tensor method) to pass first.
struct CalleeRule {
  const gradual::Rule* rule = nullptr;  // nullptr: the callee has no rule
  bool receiver = false;
};
CalleeRule observe_callee(Observed& o, PyObject* callee);

// The forward rule of an nn.Module instance (nullptr when its class, or the
// class that defines its forward, has none).
const gradual::Rule* module_forward_rule(PyObject* module);
// The module has forward pre-hooks of its own: they run after gshape's
// hook and may change the input (a transpose), so its rule is not checked
// on the input as called.
bool has_forward_pre_hooks(PyObject* module);
// Summarises a module with a forward rule: its class name, plain
// hyperparameters, parameters and buffers.
void observe_module(Observed& o, PyObject* module, const gradual::Rule* forward_rule);

}  // namespace gshape::runtime
