// gshape_runtime._native: the CPython extension that instrumented code calls.
// The hot path (CheckTable.stash / .check) is written against the CPython
// C API with METH_FASTCALL methods rather than pybind11: a pybind11 method
// call costs several times more than the whole check (see docs/runtime.md,
// "Why the C API"). Tensors are read through libtorch's own Python binding
// (THPVariable_Unpack) for their sizes only, never their data.
#include "runtime/python_operand.h"  // first: it includes Python.h

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/check_table.h"

namespace {

using gshape::runtime::CheckSpec;
using gshape::runtime::CheckTable;
using gshape::runtime::CheckTableError;
using gshape::runtime::caller_frame;
using gshape::runtime::Operand;
using gshape::runtime::OperandKind;
using gshape::runtime::record;

PyObject* g_shape_check_error = nullptr;  // gshape_runtime.ShapeCheckError
bool g_checks_enabled = true;             // GSHAPE_CHECKS, read once at import

// Every table ever built, so that the stats written at exit cover all
// modules, including tables whose Python object is already gone.
std::vector<std::shared_ptr<CheckTable>>& registry() {
  static std::vector<std::shared_ptr<CheckTable>> tables;
  return tables;
}

// ---------------------------------------------------------------- the table object

struct TableObject {
  PyObject_HEAD
  CheckTable* table;               // owned through `owner`
  std::shared_ptr<CheckTable>* owner;
  std::vector<std::size_t>* failed;  // scratch list, reused on every call
  bool enabled;
};

PyObject* new_str(const std::string& s) { return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"); }

bool set_attr(PyObject* obj, const char* name, PyObject* value) {
  if (value == nullptr) return false;
  int rc = PyObject_SetAttrString(obj, name, value);
  Py_DECREF(value);
  return rc == 0;
}

// Raises ShapeCheckError for the failed checks (the first one is the
// message; the others ride along in `also_failed`).
void raise_failure(CheckTable& table, std::size_t site, const std::vector<std::size_t>& failed) {
  const gshape::runtime::Check& first = table.check(failed.front());
  PyObject* text = new_str(table.failure_message(failed.front()));
  if (text == nullptr) return;
  PyObject* exc = PyObject_CallOneArg(g_shape_check_error, text);
  Py_DECREF(text);
  if (exc == nullptr) return;
  PyObject* others = PyTuple_New(static_cast<Py_ssize_t>(failed.size() - 1));
  if (others != nullptr)
    for (std::size_t i = 1; i < failed.size(); ++i)
      PyTuple_SET_ITEM(others, static_cast<Py_ssize_t>(i - 1), new_str(table.failure_message(failed[i])));
  bool ok = set_attr(exc, "also_failed", others) &&  // first: set_attr owns `others` either way
            set_attr(exc, "path", new_str(table.path())) &&
            set_attr(exc, "line", PyLong_FromLongLong(first.spec.line)) &&
            set_attr(exc, "col", PyLong_FromLongLong(first.spec.col)) &&
            set_attr(exc, "tag", new_str(first.spec.tag)) &&
            set_attr(exc, "site", PyLong_FromSize_t(site)) &&
            set_attr(exc, "check", PyLong_FromSize_t(first.index_in_site)) &&
            set_attr(exc, "constraint", new_str(first.spec.constraint)) &&
            set_attr(exc, "detail", new_str(table.filled_message(failed.front())));
  if (ok) PyErr_SetObject(g_shape_check_error, exc);
  Py_DECREF(exc);
}

// Evaluates every check of `site`; false (with an exception set) on failure.
bool run_site(TableObject* self, std::size_t site, const void* frame) {
  CheckTable& table = *self->table;
  std::vector<std::size_t>& failed = *self->failed;
  table.evaluate(site, frame, failed);
  if (!failed.empty()) raise_failure(table, site, failed);
  table.clear(site);
  return failed.empty();
}

bool site_index(TableObject* self, PyObject* arg, std::size_t& site) {
  Py_ssize_t s = PyLong_AsSsize_t(arg);
  if (s == -1 && PyErr_Occurred()) return false;
  if (s < 0 || static_cast<std::size_t>(s) >= self->table->site_count()) {
    PyErr_Format(PyExc_IndexError, "gshape check table of %s has %zu sites; site %zd does not exist",
                 self->table->path().c_str(), self->table->site_count(), s);
    return false;
  }
  site = static_cast<std::size_t>(s);
  return true;
}

bool slot_index(PyObject* arg, std::size_t& slot) {
  Py_ssize_t k = PyLong_AsSsize_t(arg);
  if (k == -1 && PyErr_Occurred()) return false;
  if (k < 0) {
    PyErr_Format(PyExc_IndexError, "gshape operand slot %zd is negative", k);
    return false;
  }
  slot = static_cast<std::size_t>(k);
  return true;
}

PyObject* wrong_arg_count(const char* method, const char* expected, Py_ssize_t nargs) {
  PyErr_Format(PyExc_TypeError, "CheckTable.%s() takes %s arguments (%zd given)", method, expected, nargs);
  return nullptr;
}

// stash(site, slot, value) -> value
PyObject* table_stash(PyObject* py_self, PyObject* const* args, Py_ssize_t nargs) {
  auto* self = reinterpret_cast<TableObject*>(py_self);
  if (nargs != 3) return wrong_arg_count("stash", "3", nargs);
  if (self->enabled) {
    std::size_t site = 0, slot = 0;
    if (!site_index(self, args[0], site) || !slot_index(args[1], slot)) return nullptr;
    if (Operand* op = self->table->slot(site, slot)) record(*op, args[2], caller_frame());
  }
  Py_INCREF(args[2]);
  return args[2];
}

// check(site, slot, value) -> value, or raises ShapeCheckError
PyObject* table_check(PyObject* py_self, PyObject* const* args, Py_ssize_t nargs) {
  auto* self = reinterpret_cast<TableObject*>(py_self);
  if (nargs != 3) return wrong_arg_count("check", "3", nargs);
  if (self->enabled) {
    std::size_t site = 0, slot = 0;
    if (!site_index(self, args[0], site) || !slot_index(args[1], slot)) return nullptr;
    const void* frame = caller_frame();
    if (Operand* op = self->table->slot(site, slot)) record(*op, args[2], frame);
    if (!run_site(self, site, frame)) return nullptr;
  }
  Py_INCREF(args[2]);
  return args[2];
}

// check_values(site, v0, v1, ...) -> None: slot i gets v_i, then the checks run.
PyObject* table_check_values(PyObject* py_self, PyObject* const* args, Py_ssize_t nargs) {
  auto* self = reinterpret_cast<TableObject*>(py_self);
  if (nargs < 1) return wrong_arg_count("check_values", "at least 1", nargs);
  if (self->enabled) {
    std::size_t site = 0;
    if (!site_index(self, args[0], site)) return nullptr;
    const void* frame = caller_frame();
    for (Py_ssize_t i = 1; i < nargs; ++i)
      if (Operand* op = self->table->slot(site, static_cast<std::size_t>(i - 1))) record(*op, args[i], frame);
    if (!run_site(self, site, frame)) return nullptr;
  }
  Py_RETURN_NONE;
}

PyObject* stats_of(const CheckTable& table) {
  PyObject* list = PyList_New(0);
  if (list == nullptr) return nullptr;
  for (std::size_t i = 0; i < table.check_count(); ++i) {
    const gshape::runtime::Check& c = table.check(i);
    PyObject* entry = Py_BuildValue(
        "{s:N,s:L,s:L,s:N,s:n,s:n,s:N,s:K,s:K,s:K}", "path", new_str(table.path()), "line",
        static_cast<long long>(c.spec.line), "col", static_cast<long long>(c.spec.col), "tag", new_str(c.spec.tag),
        "site", static_cast<Py_ssize_t>(c.site), "index", static_cast<Py_ssize_t>(c.index_in_site), "constraint",
        new_str(c.spec.constraint), "runs", static_cast<unsigned long long>(c.counters.runs), "failures",
        static_cast<unsigned long long>(c.counters.failures), "skipped",
        static_cast<unsigned long long>(c.counters.skipped));
    if (entry == nullptr || PyList_Append(list, entry) != 0) {
      Py_XDECREF(entry);
      Py_DECREF(list);
      return nullptr;
    }
    Py_DECREF(entry);
  }
  return list;
}

PyObject* table_stats(PyObject* py_self, PyObject* /*unused*/) {
  return stats_of(*reinterpret_cast<TableObject*>(py_self)->table);
}

// ---- construction: CheckTable(path, sites, *, enabled=None)

bool utf8_of(PyObject* obj, std::string& out, const char* what, const std::string& where) {
  if (!PyUnicode_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s: %s must be a str, not %s", where.c_str(), what, Py_TYPE(obj)->tp_name);
    return false;
  }
  Py_ssize_t size = 0;
  const char* data = PyUnicode_AsUTF8AndSize(obj, &size);
  if (data == nullptr) return false;
  out.assign(data, static_cast<std::size_t>(size));
  return true;
}

bool int_of(PyObject* obj, int64_t& out, const char* what, const std::string& where) {
  if (!PyLong_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s: %s must be an int, not %s", where.c_str(), what, Py_TYPE(obj)->tp_name);
    return false;
  }
  out = PyLong_AsLongLong(obj);
  return !(out == -1 && PyErr_Occurred());
}

bool parse_check(PyObject* obj, CheckSpec& spec, const std::string& where) {
  if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s: a check must be a tuple (line, col, tag, constraint, message[, slot_names]), not %s",
                 where.c_str(), Py_TYPE(obj)->tp_name);
    return false;
  }
  PyObject* fast = PySequence_Fast(obj, "check");
  if (fast == nullptr) return false;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  PyObject** items = PySequence_Fast_ITEMS(fast);
  bool ok = true;
  if (n != 5 && n != 6) {
    PyErr_Format(PyExc_TypeError, "%s: a check has 5 or 6 fields (line, col, tag, constraint, message[, slot_names]), not %zd",
                 where.c_str(), n);
    ok = false;
  }
  ok = ok && int_of(items[0], spec.line, "line", where) && int_of(items[1], spec.col, "col", where) &&
       utf8_of(items[2], spec.tag, "tag", where) && utf8_of(items[3], spec.constraint, "constraint", where) &&
       utf8_of(items[4], spec.message, "message", where);
  if (ok && n == 6 && items[5] != Py_None) {
    PyObject* names = PySequence_Fast(items[5], "slot_names must be a list of str or None");
    ok = names != nullptr;
    if (ok) {
      spec.slot_names.emplace();
      for (Py_ssize_t k = 0; ok && k < PySequence_Fast_GET_SIZE(names); ++k) {
        PyObject* name = PySequence_Fast_GET_ITEM(names, k);
        if (name == Py_None) {
          spec.slot_names->emplace_back();
        } else {
          std::string text;
          ok = utf8_of(name, text, "a slot name", where);
          spec.slot_names->emplace_back(std::move(text));
        }
      }
      Py_DECREF(names);
    }
  }
  Py_DECREF(fast);
  return ok;
}

PyObject* table_new(PyTypeObject* type, PyObject* args, PyObject* kwargs) {
  static const char* keywords[] = {"path", "sites", "enabled", nullptr};
  PyObject* py_path = nullptr;
  PyObject* py_sites = nullptr;
  PyObject* py_enabled = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kwargs, "UO|$O:CheckTable", const_cast<char**>(keywords), &py_path,
                                   &py_sites, &py_enabled))
    return nullptr;
  std::string path;
  if (!utf8_of(py_path, path, "path", "CheckTable")) return nullptr;
  bool enabled = g_checks_enabled;
  if (py_enabled != Py_None) {
    int truth = PyObject_IsTrue(py_enabled);
    if (truth < 0) return nullptr;
    enabled = truth != 0;
  }

  PyObject* sites_fast = PySequence_Fast(py_sites, "CheckTable: sites must be a list of lists of checks");
  if (sites_fast == nullptr) return nullptr;
  std::vector<std::vector<CheckSpec>> sites(static_cast<std::size_t>(PySequence_Fast_GET_SIZE(sites_fast)));
  bool ok = true;
  for (std::size_t s = 0; ok && s < sites.size(); ++s) {
    PyObject* site = PySequence_Fast_GET_ITEM(sites_fast, static_cast<Py_ssize_t>(s));
    if (site == Py_None) continue;  // a site id with no checks
    PyObject* checks = PySequence_Fast(site, "CheckTable: each site must be a list of checks (or None)");
    if (checks == nullptr) {
      ok = false;
      break;
    }
    sites[s].resize(static_cast<std::size_t>(PySequence_Fast_GET_SIZE(checks)));
    for (std::size_t i = 0; ok && i < sites[s].size(); ++i) {
      std::string where = path + " site " + std::to_string(s) + " check " + std::to_string(i);
      ok = parse_check(PySequence_Fast_GET_ITEM(checks, static_cast<Py_ssize_t>(i)), sites[s][i], where);
    }
    Py_DECREF(checks);
  }
  Py_DECREF(sites_fast);
  if (!ok) return nullptr;

  std::shared_ptr<CheckTable> table;
  try {
    table = std::make_shared<CheckTable>(std::move(path), std::move(sites));
  } catch (const CheckTableError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
    return nullptr;
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return nullptr;
  }

  auto* self = reinterpret_cast<TableObject*>(type->tp_alloc(type, 0));
  if (self == nullptr) return nullptr;
  registry().push_back(table);
  self->owner = new std::shared_ptr<CheckTable>(std::move(table));
  self->table = self->owner->get();
  self->failed = new std::vector<std::size_t>();
  self->failed->reserve(4);
  self->enabled = enabled;
  return reinterpret_cast<PyObject*>(self);
}

void table_dealloc(PyObject* py_self) {
  auto* self = reinterpret_cast<TableObject*>(py_self);
  delete self->owner;
  delete self->failed;
  PyTypeObject* type = Py_TYPE(py_self);
  type->tp_free(py_self);
  Py_DECREF(type);
}

PyObject* table_repr(PyObject* py_self) {
  auto* self = reinterpret_cast<TableObject*>(py_self);
  return PyUnicode_FromFormat("<gshape_runtime.CheckTable %s: %zu sites, %zu checks%s>", self->table->path().c_str(),
                              self->table->site_count(), self->table->check_count(),
                              self->enabled ? "" : ", disabled");
}

PyObject* get_path(PyObject* py_self, void*) { return new_str(reinterpret_cast<TableObject*>(py_self)->table->path()); }
PyObject* get_site_count(PyObject* py_self, void*) {
  return PyLong_FromSize_t(reinterpret_cast<TableObject*>(py_self)->table->site_count());
}
PyObject* get_check_count(PyObject* py_self, void*) {
  return PyLong_FromSize_t(reinterpret_cast<TableObject*>(py_self)->table->check_count());
}
PyObject* get_enabled(PyObject* py_self, void*) { return PyBool_FromLong(reinterpret_cast<TableObject*>(py_self)->enabled); }

// C API tables want generic function pointers; going through void(*)() is
// the cast GCC accepts without -Wcast-function-type.
template <typename F>
PyCFunction as_cfunction(F* f) {
  return reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(f));
}
template <typename F>
void* as_slot(F* f) {
  return reinterpret_cast<void*>(f);
}

PyMethodDef table_methods[] = {
    {"stash", as_cfunction(table_stash), METH_FASTCALL,
     "stash(site, slot, value) -> value\n\nRecords value's shape in operand slot `slot` of `site`."},
    {"check", as_cfunction(table_check), METH_FASTCALL,
     "check(site, slot, value) -> value\n\nRecords value in `slot`, then evaluates every check of `site`;\n"
     "raises ShapeCheckError when one fails."},
    {"check_values", as_cfunction(table_check_values), METH_FASTCALL,
     "check_values(site, *values) -> None\n\nRecords values in slots 0, 1, ... and evaluates the site's checks."},
    {"stats", as_cfunction(table_stats), METH_NOARGS,
     "stats() -> list of dict\n\nPer check: path, line, col, tag, site, index, constraint, runs, failures, skipped."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef table_getset[] = {
    {"path", get_path, nullptr, "the path the table's messages name", nullptr},
    {"site_count", get_site_count, nullptr, "number of sites", nullptr},
    {"check_count", get_check_count, nullptr, "number of checks over all sites", nullptr},
    {"enabled", get_enabled, nullptr, "False when checks are no-ops (GSHAPE_CHECKS=0)", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

const char* const kTableDoc =
    "CheckTable(path, sites, *, enabled=None)\n\n"
    "A module's runtime shape checks, compiled once. `sites[i]` lists the checks of\n"
    "site i as tuples (line, col, tag, constraint, message[, slot_names]).\n"
    "`enabled` overrides GSHAPE_CHECKS for this table.";

PyType_Slot table_slots[] = {
    {Py_tp_new, as_slot(table_new)},
    {Py_tp_dealloc, as_slot(table_dealloc)},
    {Py_tp_repr, as_slot(table_repr)},
    {Py_tp_methods, table_methods},
    {Py_tp_getset, table_getset},
    {Py_tp_doc, const_cast<char*>(kTableDoc)},
    {0, nullptr},
};

PyType_Spec table_spec = {"gshape_runtime.CheckTable", sizeof(TableObject), 0, Py_TPFLAGS_DEFAULT, table_slots};

// ---------------------------------------------------------------- module

PyObject* all_stats(PyObject* /*module*/, PyObject* /*unused*/) {
  PyObject* all = PyList_New(0);
  if (all == nullptr) return nullptr;
  for (const auto& table : registry()) {
    PyObject* entries = stats_of(*table);
    Py_ssize_t end = PyList_GET_SIZE(all);
    if (entries == nullptr || PyList_SetSlice(all, end, end, entries) != 0) {
      Py_XDECREF(entries);
      Py_DECREF(all);
      return nullptr;
    }
    Py_DECREF(entries);
  }
  return all;
}

PyMethodDef module_methods[] = {
    {"_all_stats", as_cfunction(all_stats), METH_NOARGS,
     "Per-check counters of every table built in this process (list of dict)."},
    {nullptr, nullptr, 0, nullptr},
};

PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "gshape_runtime._native", "gshape's runtime shape checks (C++ core).", -1,
    module_methods,        nullptr,                  nullptr,                                      nullptr,
    nullptr,
};

bool checks_enabled_by_environment() {
  const char* value = std::getenv("GSHAPE_CHECKS");
  if (value == nullptr) return true;
  std::string v(value);
  std::transform(v.begin(), v.end(), v.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return !(v == "0" || v == "false" || v == "off" || v == "no");
}

}  // namespace

PyMODINIT_FUNC PyInit__native() {
  // Tensor recognition needs torch's classes registered (THPVariableClass):
  // importing torch first makes `import gshape_runtime` order-independent.
  PyObject* torch = PyImport_ImportModule("torch");
  if (torch == nullptr) return nullptr;
  Py_DECREF(torch);

  g_checks_enabled = checks_enabled_by_environment();
  PyObject* module = PyModule_Create(&module_def);
  if (module == nullptr) return nullptr;
  if (g_shape_check_error == nullptr) {
    g_shape_check_error = PyErr_NewExceptionWithDoc(
        "gshape_runtime.ShapeCheckError",
        "A runtime shape check failed. Attributes: path, line, col, tag, site, check,\n"
        "constraint, detail (the message with its holes filled), also_failed (the\n"
        "messages of other checks of the same site that failed too).",
        PyExc_RuntimeError, nullptr);
    if (g_shape_check_error == nullptr) {
      Py_DECREF(module);
      return nullptr;
    }
  }
  PyObject* type = PyType_FromSpec(&table_spec);
  bool ok = type != nullptr && PyModule_AddObject(module, "CheckTable", type) == 0;
  if (!ok) Py_XDECREF(type);
  Py_INCREF(g_shape_check_error);
  ok = ok && PyModule_AddObject(module, "ShapeCheckError", g_shape_check_error) == 0;
  ok = ok && PyModule_AddObject(module, "checks_enabled", PyBool_FromLong(g_checks_enabled)) == 0;
  if (!ok) {
    Py_DECREF(module);
    return nullptr;
  }
  return module;
}
