// Observing Python values and resolving callees to rules.
#include <torch/csrc/Size.h>
#include <torch/csrc/autograd/python_variable.h>

#include "runtime/python_observe.h"  // after torch: Python.h comes through it

#include <algorithm>
#include <exception>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace gshape::runtime {

namespace {

const gradual::RuleRegistry& rules() { return gradual::RuleRegistry::builtin(); }

// rule name → object, resolved once; each key holds a reference.
std::unordered_map<PyObject*, const gradual::Rule*> g_objects;          // functions, classes
std::unordered_map<const PyMethodDef*, const gradual::Rule*> g_methods;  // C methods of torch.Tensor
std::unordered_map<PyObject*, const gradual::Rule*> g_module_classes;   // torch.nn.X → X.forward's rule
// torch.nn.X.forward, the function: `layer.forward(x)` and `super().forward(x)`
// call it without the module's __call__
std::unordered_map<PyObject*, const gradual::Rule*> g_forward_functions;
// Every rule class's own forward as the library defines it (each holds a
// reference): a class whose forward is another was patched by the program.
std::unordered_set<PyObject*> g_library_forwards;
std::unordered_map<PyTypeObject*, const gradual::Rule*> g_module_types;  // cache: instance type → rule
PyObject* g_nn_module = nullptr;

bool is_tensor(PyObject* v) { return THPVariable_Check(v); }

void observe_tensor(Observed& o, PyObject* v) {
  try {
    const at::Tensor& t = THPVariable_Unpack(v);
    c10::IntArrayRef sizes = t.sizes();
    o.reset(ObservedKind::Tensor);
    o.dims.assign(sizes.begin(), sizes.end());
    o.contiguous = t.is_contiguous();
    switch (t.scalar_type()) {
      case at::kBool: o.dtype = static_cast<uint8_t>(gradual::Dtype::Bool); break;
      case at::kByte: o.dtype = static_cast<uint8_t>(gradual::Dtype::Uint8); break;
      case at::kLong: o.dtype = static_cast<uint8_t>(gradual::Dtype::Int64); break;
      default: o.dtype = static_cast<uint8_t>(gradual::Dtype::Other); break;
    }
    if (!o.contiguous) {
      c10::IntArrayRef strides = t.strides();
      o.strides.assign(strides.begin(), strides.end());
    }
  } catch (const std::exception&) {  // symbolic or nested sizes: not readable
    o.reset(ObservedKind::Other);
    if (PyErr_Occurred()) PyErr_Clear();
  }
}

void observe_at(Observed& o, PyObject* v, int depth);

// Items one operand may still record: nested lists could otherwise cost
// 64^depth observations on every call.
thread_local std::size_t t_budget = 0;
constexpr std::size_t kObservedNodesPerOperand = 256;
// Rules read short strings ('mean', 'same'); a long one is not copied.
constexpr std::size_t kMaxObservedText = 64;

void observe_items(Observed& o, PyObject* const* items, Py_ssize_t n, int depth) {
  o.length = n;
  if (static_cast<std::size_t>(n) > kMaxObservedItems || depth >= kMaxObservedDepth ||
      static_cast<std::size_t>(n) > t_budget) {
    o.items_kept = false;
    return;
  }
  t_budget -= static_cast<std::size_t>(n);
  o.items.resize(static_cast<std::size_t>(n));
  for (Py_ssize_t i = 0; i < n; ++i) observe_at(o.items[static_cast<std::size_t>(i)], items[i], depth + 1);
}

// A value a module keeps as a hyperparameter: a number, a string, None, or
// a short sequence of those.
bool is_plain(PyObject* v, int depth = 0) {
  if (v == Py_None || PyLong_Check(v) || PyFloat_Check(v) || PyUnicode_Check(v)) return true;
  if ((PyTuple_Check(v) || PyList_Check(v)) && depth < 2) {
    Py_ssize_t n = PySequence_Fast_GET_SIZE(v);
    if (n > 16) return false;
    PyObject** items = PySequence_Fast_ITEMS(v);
    for (Py_ssize_t i = 0; i < n; ++i)
      if (!is_plain(items[i], depth + 1)) return false;
    return true;
  }
  return false;
}

void observe_at(Observed& o, PyObject* v, int depth) {
  if (THPVariable_CheckExact(v) || (!PyLong_Check(v) && !PyTuple_Check(v) && !PyList_Check(v) && is_tensor(v))) {
    observe_tensor(o, v);
  } else if (PyBool_Check(v)) {
    o.reset(ObservedKind::Bool);
    o.value = v == Py_True ? 1 : 0;
  } else if (PyLong_Check(v)) {
    int overflow = 0;
    long long x = PyLong_AsLongLongAndOverflow(v, &overflow);
    if (overflow != 0 || (x == -1 && PyErr_Occurred())) {
      PyErr_Clear();
      o.reset(ObservedKind::Other);
    } else {
      o.reset(ObservedKind::Int);
      o.value = x;
    }
  } else if (PyFloat_Check(v)) {
    o.reset(ObservedKind::Float);
    o.real = PyFloat_AS_DOUBLE(v);
  } else if (PyUnicode_Check(v)) {
    Py_ssize_t size = 0;
    const char* data = PyUnicode_GET_LENGTH(v) <= static_cast<Py_ssize_t>(kMaxObservedText)
                           ? PyUnicode_AsUTF8AndSize(v, &size)
                           : nullptr;
    if (data == nullptr) {
      if (PyErr_Occurred()) PyErr_Clear();
      o.reset(ObservedKind::Other);
    } else {
      o.reset(ObservedKind::Str);
      o.text.assign(data, static_cast<std::size_t>(size));
    }
  } else if (v == Py_None) {
    o.reset(ObservedKind::None);
  } else if (v == Py_Ellipsis) {  // an item of an index
    o.reset(ObservedKind::Other);
    o.text = "ellipsis";
  } else if (PySlice_Check(v)) {  // an item of an index: its bounds, which setitem's rule reads
    o.reset(ObservedKind::Other);
    o.text = "slice";
    auto* slice = reinterpret_cast<PySliceObject*>(v);
    o.items.resize(3);
    observe_at(o.items[0], slice->start, depth + 1);
    observe_at(o.items[1], slice->stop, depth + 1);
    observe_at(o.items[2], slice->step, depth + 1);
  } else if (PyTuple_Check(v)) {
    o.reset(THPSize_Check(v) ? ObservedKind::Size : ObservedKind::Tuple);
    observe_items(o, &PyTuple_GET_ITEM(v, 0), PyTuple_GET_SIZE(v), depth);
  } else if (PyList_Check(v)) {
    o.reset(ObservedKind::List);
    observe_items(o, PySequence_Fast_ITEMS(v), PyList_GET_SIZE(v), depth);
  } else if (PyDict_Check(v) && depth == 0) {
    o.reset(ObservedKind::Dict);
    o.length = PyDict_GET_SIZE(v);
    if (static_cast<std::size_t>(o.length) > kMaxObservedItems || static_cast<std::size_t>(o.length) > t_budget) {
      o.items_kept = false;
      return;
    }
    t_budget -= static_cast<std::size_t>(o.length);
    Py_ssize_t pos = 0;
    PyObject *key = nullptr, *value = nullptr;
    while (PyDict_Next(v, &pos, &key, &value)) {
      const char* name = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : nullptr;
      if (name == nullptr) {  // a **mapping always has str keys; anything else is not modelled
        PyErr_Clear();
        o.items_kept = false;
        o.items.clear();
        o.names.clear();
        return;
      }
      o.names.emplace_back(name);
      o.items.emplace_back();
      observe_at(o.items.back(), value, depth + 1);
    }
  } else {
    o.reset(ObservedKind::Other);
    o.text = Py_TYPE(v)->tp_name;  // named in messages ("numpy.ndarray")
  }
}

// Resolves a dotted name (`torch.nn.functional.relu`) from the torch module.
PyObject* resolve(PyObject* torch, std::string_view dotted) {
  Py_INCREF(torch);
  PyObject* obj = torch;
  std::size_t start = dotted.find('.');
  while (start != std::string_view::npos) {
    std::size_t end = dotted.find('.', start + 1);
    std::string part(dotted.substr(start + 1, end == std::string_view::npos ? std::string_view::npos : end - start - 1));
    PyObject* next = PyObject_GetAttrString(obj, part.c_str());
    Py_DECREF(obj);
    if (next == nullptr) {
      PyErr_Clear();
      return nullptr;
    }
    obj = next;
    start = end;
  }
  return obj;
}

// A name of a library other than torch ("einops.layers.torch.Rearrange"):
// the longest prefix that imports, then attributes. nullptr (no error set)
// when the library is not installed.
PyObject* resolve_external(std::string_view dotted) {
  for (std::size_t end = dotted.rfind('.'); end != std::string_view::npos && end > 0; end = dotted.rfind('.', end - 1)) {
    std::string module_name(dotted.substr(0, end));
    PyObject* module = PyImport_ImportModule(module_name.c_str());
    if (module == nullptr) {
      PyErr_Clear();
      continue;
    }
    PyObject* obj = resolve(module, std::string("_") + std::string(dotted.substr(end)));
    Py_DECREF(module);
    return obj;
  }
  return nullptr;
}

void append_entries(Observed& o, PyObject* dict, bool plain_only) {
  if (dict == nullptr || !PyDict_Check(dict)) return;
  Py_ssize_t pos = 0;
  PyObject *key = nullptr, *value = nullptr;
  while (PyDict_Next(dict, &pos, &key, &value)) {
    if (!PyUnicode_Check(key)) continue;
    if (plain_only ? !is_plain(value) : !(value == Py_None || is_tensor(value))) continue;
    const char* name = PyUnicode_AsUTF8(key);
    if (name == nullptr) {
      PyErr_Clear();
      continue;
    }
    o.names.emplace_back(name);
    o.items.emplace_back();
    t_budget = kObservedNodesPerOperand;
    observe_at(o.items.back(), value, 1);
  }
}

}  // namespace

const void* caller_frame() {
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030D0000
  PyThreadState* ts = PyThreadState_Get();
  return ts->cframe != nullptr ? static_cast<const void*>(ts->cframe->current_frame) : nullptr;
#else
  return PyEval_GetFrame();
#endif
}

bool init_observe() {
  if (g_nn_module != nullptr) return true;
  PyObject* torch = PyImport_ImportModule("torch");
  if (torch == nullptr) return false;
  PyObject* tensor = PyObject_GetAttrString(torch, "Tensor");
  PyObject* nn_module = resolve(torch, "torch.nn.Module");
  if (tensor == nullptr || nn_module == nullptr) {
    Py_XDECREF(tensor);
    Py_DECREF(torch);
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_ImportError, "gshape_runtime: torch.nn.Module not found");
    return false;
  }
  const std::string forward = ".forward";
  for (const gradual::Rule* rule : rules().all()) {
    const std::string& name = rule->name;
    if (name.size() > forward.size() && name.compare(name.size() - forward.size(), forward.size(), forward) == 0) {
      std::string_view class_name = std::string_view(name).substr(0, name.size() - forward.size());
      PyObject* cls = name.rfind("torch.", 0) == 0 ? resolve(torch, class_name) : resolve_external(class_name);
      if (cls == nullptr) continue;
      if (PyType_Check(cls) && g_module_classes.emplace(cls, rule).second) {  // keeps the reference
        PyObject* forward_function = PyObject_GetAttrString(cls, "forward");
        if (forward_function == nullptr) {
          PyErr_Clear();
          continue;
        }
        if (PyFunction_Check(forward_function)) g_forward_functions.emplace(forward_function, rule);
        if (!g_library_forwards.insert(forward_function).second) Py_DECREF(forward_function);  // one reference kept
        continue;
      }
      Py_DECREF(cls);
      continue;
    }
    PyObject* obj = nullptr;
    if (name.rfind("Tensor.", 0) == 0) {
      obj = PyObject_GetAttrString(tensor, name.c_str() + 7);
      if (obj == nullptr) PyErr_Clear();
      if (obj != nullptr && Py_TYPE(obj) == &PyMethodDescr_Type) {
        g_methods.emplace(reinterpret_cast<PyMethodDescrObject*>(obj)->d_method, rule);
        Py_DECREF(obj);  // the descriptor lives in torch.Tensor's dict
        continue;
      }
      if (obj != nullptr && !PyFunction_Check(obj)) {  // a property, a slot wrapper ...
        Py_DECREF(obj);
        continue;
      }
    } else if (name.rfind("torch.", 0) == 0) {
      obj = resolve(torch, name);
    } else if (name.rfind("einops.", 0) == 0 || name.rfind("builtins.", 0) == 0 ||  // einops: when installed
               name.rfind("operator.", 0) == 0) {  // `operator.add(a, b)`: the operator's rule
      obj = resolve_external(name);
    }
    if (obj == nullptr) continue;
    if (!g_objects.emplace(obj, rule).second) Py_DECREF(obj);  // aliases: the first name wins
  }
  Py_DECREF(tensor);
  Py_DECREF(torch);
  g_nn_module = nn_module;
  return true;
}

void observe(Observed& o, PyObject* value) {
  t_budget = kObservedNodesPerOperand;
  observe_at(o, value, 0);
}

namespace {
// `m.forward = ...` on the instance: nn.Module.__call__ calls that, not the
// class's forward
bool overrides_forward(PyObject* module) {
  PyObject** dict = _PyObject_GetDictPtr(module);
  if (dict != nullptr && *dict != nullptr && PyDict_GetItemString(*dict, "forward") != nullptr) return true;
  // `nn.Linear.forward = lora_forward`: the class's forward is no longer the
  // library's, so its rule does not describe the call (checked on every
  // call: a program may patch it after its first call)
  static PyObject* const name = PyUnicode_InternFromString("forward");
  PyObject* forward = _PyType_Lookup(Py_TYPE(module), name);
  return forward == nullptr || g_library_forwards.count(forward) == 0;
}
}  // namespace

const gradual::Rule* module_forward_rule(PyObject* module) {
  PyTypeObject* type = Py_TYPE(module);
  auto hit = g_module_types.find(type);
  if (hit != g_module_types.end()) return hit->second && overrides_forward(module) ? nullptr : hit->second;
  const gradual::Rule* rule = nullptr;
  int is_module = g_nn_module ? PyObject_IsInstance(module, g_nn_module) : 0;
  if (is_module < 0) PyErr_Clear();
  if (is_module > 0 && type->tp_mro != nullptr) {
    // the first class in the MRO that has a rule, unless a class before it
    // defines its own forward (a user's subclass that overrides it)
    PyObject* mro = type->tp_mro;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(mro); ++i) {
      PyObject* cls = PyTuple_GET_ITEM(mro, i);
      // a lazy module (nn.LazyConv2d ...) has no sizes before its first call
      // (in_channels is 0 until then); once called it becomes its
      // materialised class (nn.Conv2d), which is checked
      if (std::string_view(reinterpret_cast<PyTypeObject*>(cls)->tp_name) == "LazyModuleMixin") {
        rule = nullptr;
        break;
      }
      auto known = g_module_classes.find(cls);
      if (known != g_module_classes.end()) {
        rule = known->second;
        break;
      }
      PyObject* dict = reinterpret_cast<PyTypeObject*>(cls)->tp_dict;
      if (dict != nullptr && PyDict_GetItemString(dict, "forward") != nullptr) break;
    }
  }
  Py_INCREF(type);  // the cache key stays valid
  g_module_types.emplace(type, rule);
  return rule && overrides_forward(module) ? nullptr : rule;
}

namespace {

// A module's observation, kept while the module keeps the same attributes.
// It holds references to every key and value it was built from (the
// module's __dict__ and its parameter and buffer dicts), so none of them can
// be freed and its address reused: the same pointers then mean the same
// immutable hyperparameters. Tensors may change shape in place, so their
// sizes are read again on every validation.
struct ModuleSnapshot {
  const gradual::Rule* rule = nullptr;
  std::vector<PyObject*> refs;  // the dicts, then their keys and values, in order
  std::vector<std::pair<PyObject*, std::size_t>> tensors;  // a tensor and its item in `observed`
  std::shared_ptr<Observed> observed;
  uint64_t id = 0;

  ModuleSnapshot() = default;
  ModuleSnapshot(const ModuleSnapshot&) = delete;
  ModuleSnapshot& operator=(const ModuleSnapshot&) = delete;
  ~ModuleSnapshot() {
    for (PyObject* r : refs) Py_DECREF(r);
  }
};

// Keyed by the module's address; a module that dies leaves an entry that can
// only match a new module whose attributes are the very same objects.
// Never destroyed: at exit the interpreter is gone before static destructors
// run, and a snapshot's destructor would release Python references.
std::unordered_map<PyObject*, std::unique_ptr<ModuleSnapshot>>& g_snapshots =
    *new std::unordered_map<PyObject*, std::unique_ptr<ModuleSnapshot>>();
constexpr std::size_t kMaxSnapshots = 4096;
uint64_t g_next_snapshot_id = 1;

PyObject* module_dict(PyObject* module) {
  PyObject** dict_ptr = _PyObject_GetDictPtr(module);
  return dict_ptr != nullptr ? *dict_ptr : nullptr;
}

// The dicts a snapshot reads, in order: __dict__, _parameters, _buffers.
void snapshot_dicts(PyObject* dict, PyObject* out[3]) {
  out[0] = dict;
  PyObject* p = PyDict_GetItemString(dict, "_parameters");
  PyObject* b = PyDict_GetItemString(dict, "_buffers");
  out[1] = p && PyDict_Check(p) ? p : nullptr;
  out[2] = b && PyDict_Check(b) ? b : nullptr;
}

bool still_valid(const ModuleSnapshot& s, PyObject* dict, const gradual::Rule* rule) {
  if (s.rule != rule) return false;
  PyObject* dicts[3];
  snapshot_dicts(dict, dicts);
  std::size_t r = 0;
  for (PyObject* d : dicts) {
    if (r >= s.refs.size() || s.refs[r++] != (d ? d : Py_None)) return false;
    if (!d) continue;
    if (r >= s.refs.size()) return false;
    PyObject* size = s.refs[r++];  // the dict's size when snapshotted, as an int object
    if (PyLong_AsSsize_t(size) != PyDict_GET_SIZE(d)) return false;
    Py_ssize_t pos = 0;
    PyObject *key = nullptr, *value = nullptr;
    while (PyDict_Next(d, &pos, &key, &value)) {
      if (r + 1 >= s.refs.size() || s.refs[r] != key || s.refs[r + 1] != value) return false;
      r += 2;
    }
  }
  for (const auto& [tensor, item] : s.tensors) {
    try {
      c10::IntArrayRef sizes = THPVariable_Unpack(tensor).sizes();
      const std::vector<int64_t>& dims = s.observed->items[item].dims;
      if (!std::equal(sizes.begin(), sizes.end(), dims.begin(), dims.end())) return false;
    } catch (const std::exception&) {
      if (PyErr_Occurred()) PyErr_Clear();
      return false;
    }
  }
  return true;
}

std::unique_ptr<ModuleSnapshot> take_snapshot(PyObject* dict, const gradual::Rule* rule) {
  auto s = std::make_unique<ModuleSnapshot>();
  s->rule = rule;
  s->id = g_next_snapshot_id++;
  s->observed = std::make_shared<Observed>();
  Observed& o = *s->observed;
  o.reset(ObservedKind::Module);
  o.text.assign(rule->name, 0, rule->name.size() - 8);  // without ".forward"
  PyObject* dicts[3];
  snapshot_dicts(dict, dicts);
  for (int i = 0; i < 3; ++i) {
    PyObject* d = dicts[i];
    PyObject* marker = d ? d : Py_None;
    Py_INCREF(marker);
    s->refs.push_back(marker);
    if (!d) continue;
    s->refs.push_back(PyLong_FromSsize_t(PyDict_GET_SIZE(d)));
    Py_ssize_t pos = 0;
    PyObject *key = nullptr, *value = nullptr;
    while (PyDict_Next(d, &pos, &key, &value)) {
      Py_INCREF(key);
      Py_INCREF(value);
      s->refs.push_back(key);
      s->refs.push_back(value);
    }
    std::size_t before = o.items.size();
    append_entries(o, d, i == 0);
    for (std::size_t k = before; k < o.items.size(); ++k)
      if (o.items[k].is_tensor()) s->tensors.emplace_back(PyDict_GetItemString(d, o.names[k].c_str()), k);
  }
  o.length = static_cast<int64_t>(o.items.size());
  return s;
}

}  // namespace

namespace {
// A forward pre-hook for every module other than gshape's own
// (register_module_forward_pre_hook): it runs after gshape's and may change
// the input gshape's check saw (tester7/08).
bool other_global_pre_hooks() {
  static PyObject* const global = [] {
    PyObject* m = PyImport_ImportModule("torch.nn.modules.module");
    PyObject* d = m ? PyObject_GetAttrString(m, "_global_forward_pre_hooks") : nullptr;  // kept
    Py_XDECREF(m);
    if (d == nullptr) PyErr_Clear();
    return d;
  }();
  if (global == nullptr || !PyDict_Check(global)) return false;
  PyObject* key = nullptr;
  PyObject* hook = nullptr;
  Py_ssize_t pos = 0;
  while (PyDict_Next(global, &pos, &key, &hook)) {
    bool own = PyCFunction_Check(hook) &&
               std::string_view(reinterpret_cast<PyCFunctionObject*>(hook)->m_ml->ml_name) == "module_pre_hook";
    if (!own) return true;
  }
  return false;
}
}  // namespace

bool has_forward_pre_hooks(PyObject* module) {
  PyObject* dict = module_dict(module);
  PyObject* hooks = dict ? PyDict_GetItemString(dict, "_forward_pre_hooks") : nullptr;  // borrowed
  return (hooks != nullptr && PyDict_Check(hooks) && PyDict_GET_SIZE(hooks) > 0) || other_global_pre_hooks();
}

void observe_module(Observed& o, PyObject* module, const gradual::Rule* forward_rule) {
  o.reset(ObservedKind::Module);
  PyObject* dict = module_dict(module);
  if (dict == nullptr) {  // no attributes to read: the rule sees the class only
    auto bare = std::make_shared<Observed>();
    bare->reset(ObservedKind::Module);
    bare->text.assign(forward_rule->name, 0, forward_rule->name.size() - 8);
    o.module = std::move(bare);
    return;
  }
  auto& slot = g_snapshots[module];
  if (!slot || !still_valid(*slot, dict, forward_rule)) {
    if (!slot && g_snapshots.size() > kMaxSnapshots) {
      g_snapshots.clear();  // a program that builds modules without end: start over
      return observe_module(o, module, forward_rule);
    }
    slot = take_snapshot(dict, forward_rule);
  }
  o.module = slot->observed;
  o.value = static_cast<int64_t>(slot->id);
}

CalleeRule observe_callee(Observed& o, PyObject* callee) {
  auto hit = g_objects.find(callee);
  if (hit != g_objects.end()) {
    o.reset(ObservedKind::None);
    return {hit->second, false};
  }
  if (Py_TYPE(callee) == &PyMethodDescr_Type) {  // torch.Tensor.view itself: the tensor comes as an argument
    auto m = g_methods.find(reinterpret_cast<PyMethodDescrObject*>(callee)->d_method);
    o.reset(ObservedKind::None);
    if (m != g_methods.end()) return {m->second, false};
  } else if (PyCFunction_Check(callee)) {
    PyObject* self = PyCFunction_GET_SELF(callee);
    if (self != nullptr && is_tensor(self)) {
      auto m = g_methods.find(reinterpret_cast<PyCFunctionObject*>(callee)->m_ml);
      if (m != g_methods.end()) {
        observe_tensor(o, self);
        return {m->second, true};
      }
    }
  } else if (PyMethod_Check(callee)) {
    PyObject* self = PyMethod_GET_SELF(callee);
    auto f = g_objects.find(PyMethod_GET_FUNCTION(callee));
    if (f != g_objects.end() && is_tensor(self)) {
      observe_tensor(o, self);
      return {f->second, true};
    }
    // `layer.forward(x)`, `super().forward(x)` in a subclass of a library layer
    auto forward = g_forward_functions.find(PyMethod_GET_FUNCTION(callee));
    if (forward != g_forward_functions.end() && g_nn_module != nullptr) {  // no hook runs: x is the input
      int is_module = PyObject_IsInstance(self, g_nn_module);
      if (is_module < 0) PyErr_Clear();
      if (is_module > 0) {
        observe_module(o, self, forward->second);
        return {forward->second, true};
      }
    }
  } else if (!PyType_Check(callee) && !PyFunction_Check(callee)) {
    const gradual::Rule* rule = module_forward_rule(callee);
    if (rule != nullptr && !has_forward_pre_hooks(callee)) {
      observe_module(o, callee, rule);
      return {rule, true};
    }
  }
  o.reset(ObservedKind::Other);
  return {};
}

}  // namespace gshape::runtime
