// Recording a Python value into an Operand: sizes of a tensor (through
// libtorch's Python binding, never its data), items of a sequence, the value
// of an int. Shared by the extension and the binding benchmark variants.
#pragma once

#include <torch/csrc/Size.h>
#include <torch/csrc/autograd/python_variable.h>

#include <algorithm>
#include <exception>

#include "runtime/operand.h"

namespace gshape::runtime {

// Identity of the calling Python frame, without creating a frame object:
// on 3.11 and 3.12 the interpreter frame pointer is at hand in the thread
// state. Only compared for equality, never dereferenced.
inline const void* caller_frame() {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030D0000
  PyThreadState* ts = PyThreadState_Get();
  return ts->cframe != nullptr ? static_cast<const void*>(ts->cframe->current_frame) : nullptr;
#else
  return PyEval_GetFrame();
#endif
}

inline void record_tensor(Operand& op, PyObject* value) {
  try {
    c10::IntArrayRef sizes = THPVariable_Unpack(value).sizes();
    op.dims.assign(sizes.begin(), sizes.end());
    op.length = static_cast<int64_t>(sizes.size());
    op.kind = OperandKind::Tensor;
  } catch (const std::exception&) {  // symbolic or nested sizes: not readable
    op.kind = OperandKind::Other;
    if (PyErr_Occurred()) PyErr_Clear();
  }
}

inline void record_items(Operand& op, PyObject* const* items, Py_ssize_t n) {
  op.length = n;
  op.dims.clear();
  op.item_is_int.clear();
  op.all_items_int = static_cast<std::size_t>(n) <= kMaxRecordedItems;
  const std::size_t kept = std::min(static_cast<std::size_t>(n), kMaxRecordedItems);
  for (std::size_t i = 0; i < kept; ++i) {
    PyObject* item = items[i];
    int overflow = 0;
    long long v = PyLong_Check(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : 0;
    bool is_int = PyLong_Check(item) && overflow == 0 && !(v == -1 && PyErr_Occurred());
    if (PyErr_Occurred()) PyErr_Clear();
    op.dims.push_back(is_int ? v : 0);
    op.item_is_int.push_back(is_int ? 1 : 0);
    op.all_items_int = op.all_items_int && is_int;
  }
}

// Reads the integer attributes the checks need (attr K NAME); an attribute
// that is missing or not an int is not evaluable. Only an object's plain
// attributes are read (hyperparameters such as in_features), never tensor data.
inline void record_attributes(Operand& op, PyObject* value) {
  for (std::size_t i = 0; i < op.attr_names.size(); ++i) {
    op.attr_known[i] = 0;
    PyObject* attribute = PyObject_GetAttrString(value, op.attr_names[i].c_str());
    if (attribute == nullptr) {
      PyErr_Clear();
      continue;
    }
    if (PyLong_Check(attribute)) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(attribute, &overflow);
      if (overflow == 0 && !(v == -1 && PyErr_Occurred())) {
        op.attr_values[i] = v;
        op.attr_known[i] = 1;
      }
      if (PyErr_Occurred()) PyErr_Clear();
    }
    Py_DECREF(attribute);
  }
}

// Summarises `value` into `op`: sizes of a tensor, items of a sequence, the
// value of an int, the attributes the checks read. Never fails; an
// unreadable value becomes Other.
inline void record(Operand& op, PyObject* value, const void* frame) {
  if (!op.attr_names.empty()) record_attributes(op, value);
  op.frame = frame;
  PyTypeObject* type = Py_TYPE(value);
  if (THPVariable_CheckTypeExact(type)) {
    record_tensor(op, value);
  } else if (PyLong_Check(value)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (overflow != 0 || (v == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      op.kind = OperandKind::Other;
    } else {
      op.kind = PyBool_Check(value) ? OperandKind::Bool : OperandKind::Int;
      op.value = v;
    }
  } else if (PyTuple_Check(value)) {
    op.kind = THPSize_Check(value) ? OperandKind::Size : OperandKind::Tuple;
    record_items(op, &PyTuple_GET_ITEM(value, 0), PyTuple_GET_SIZE(value));
  } else if (PyList_Check(value)) {
    op.kind = OperandKind::List;
    record_items(op, PySequence_Fast_ITEMS(value), PyList_GET_SIZE(value));
  } else if (THPVariableClass != nullptr) {
    int is_tensor = PyObject_IsInstance(value, THPVariableClass);  // a Tensor subclass
    if (is_tensor < 0) PyErr_Clear();
    if (is_tensor > 0) {
      record_tensor(op, value);
    } else {
      op.kind = OperandKind::Other;
    }
  } else {
    op.kind = OperandKind::Other;
  }
}

}  // namespace gshape::runtime
