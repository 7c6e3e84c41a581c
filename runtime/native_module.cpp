// gshape_runtime._native: the CPython extension that instrumented code calls.
// The hot path (CheckTable.stash / .check) is written against the CPython
// C API with METH_FASTCALL methods rather than pybind11: a pybind11 method
// call costs several times more than a cached check (docs/runtime.md).
//
// A site's check runs the operator's own rule on the operands' actual sizes
// (site_table.h); module_pre_hook checks every nn.Module call the sites did
// not, such as the layers inside an nn.Sequential.
#include "runtime/python_observe.h"  // first: it includes Python.h

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "gradual/python_errors.h"
#include "runtime/site_table.h"

namespace {

using gshape::runtime::ArgSpec;
using gshape::runtime::Observed;
using gshape::runtime::RuleRun;
using gshape::runtime::SiteSpec;
using gshape::runtime::SiteTable;
using gshape::runtime::SiteTableError;

PyObject* g_shape_check_error = nullptr;  // gshape_runtime.ShapeCheckError, the base of them all
// What a failure raises: a ShapeCheckError that is also the builtin class
// PyTorch raises for that constraint (gradual/python_errors.h), so that an
// `except IndexError:` catches it as it caught PyTorch's IndexError, and an
// `except RuntimeError:` does not catch what PyTorch raised as a ValueError.
// Each is named ShapeCheckError too: a traceback reads the same.
std::map<std::string, PyObject*, std::less<>> g_error_classes;

PyObject* error_class_for(const std::string& tag) {
  std::string_view raised = gshape::gradual::python_error_of(tag);
  auto it = g_error_classes.find(raised);
  return it != g_error_classes.end() ? it->second : g_error_classes.at("RuntimeError");
}

bool make_error_classes() {
  const std::pair<const char*, PyObject*> builtins[] = {
      {"RuntimeError", PyExc_RuntimeError},       {"IndexError", PyExc_IndexError},
      {"ValueError", PyExc_ValueError},           {"TypeError", PyExc_TypeError},
      {"AssertionError", PyExc_AssertionError},   {"NotImplementedError", PyExc_NotImplementedError},
      {"ZeroDivisionError", PyExc_ZeroDivisionError}};
  for (const auto& [name, builtin] : builtins) {
    if (g_error_classes.count(name)) continue;
    PyObject* bases = PyTuple_Pack(2, g_shape_check_error, builtin);
    if (bases == nullptr) return false;
    PyObject* cls = PyErr_NewException("gshape_runtime.ShapeCheckError", bases, nullptr);
    Py_DECREF(bases);
    if (cls == nullptr) return false;
    g_error_classes.emplace(name, cls);
  }
  return true;
}
bool g_checks_enabled = true;             // GSHAPE_CHECKS, read once at import

// The module call a site check has just checked: the hook skips it.
PyObject* g_checked_module = nullptr;  // compared, never dereferenced
PyThreadState* g_checked_thread = nullptr;

// Every table ever built, so that the stats written at exit cover all
// modules, including tables whose Python object is already gone.
std::vector<std::shared_ptr<SiteTable>>& registry() {
  static std::vector<std::shared_ptr<SiteTable>> tables;
  return tables;
}

PyObject* new_str(const std::string& s) { return PyUnicode_DecodeUTF8(s.data(), static_cast<Py_ssize_t>(s.size()), "replace"); }

bool set_attr(PyObject* obj, const char* name, PyObject* value) {
  if (value == nullptr) return false;
  int rc = PyObject_SetAttrString(obj, name, value);
  Py_DECREF(value);
  return rc == 0;
}

std::string failure_text(const std::string& where, const gshape::runtime::Failure& f) {
  std::string text = where + ": ";
  if (!f.tag.empty()) text += "[" + f.tag + "] ";
  text += f.message;
  if (!f.operands.empty()) text += " (" + f.operands + ")";
  return text;
}

// Raises ShapeCheckError for a failed run (the first failure is the message;
// the others ride along in `also_failed`).
void raise_failure(const std::string& path, int64_t line, int64_t col, Py_ssize_t site, const RuleRun& run,
                   const std::string& suffix = {}) {
  std::string where = path + ":" + std::to_string(line) + ":" + std::to_string(col);
  const gshape::runtime::Failure& first = run.failures.front();
  PyObject* text = new_str(failure_text(where, first) + suffix);
  if (text == nullptr) return;
  PyObject* cls = error_class_for(first.tag);
  PyObject* exc = PyObject_CallOneArg(cls, text);
  Py_DECREF(text);
  if (exc == nullptr) return;
  PyObject* others = PyTuple_New(static_cast<Py_ssize_t>(run.failures.size() - 1));
  if (others != nullptr)
    for (std::size_t i = 1; i < run.failures.size(); ++i)
      PyTuple_SET_ITEM(others, static_cast<Py_ssize_t>(i - 1), new_str(failure_text(where, run.failures[i])));
  bool ok = set_attr(exc, "also_failed", others) &&  // first: set_attr owns `others` either way
            set_attr(exc, "path", new_str(path)) && set_attr(exc, "line", PyLong_FromLongLong(line)) &&
            set_attr(exc, "col", PyLong_FromLongLong(col)) && set_attr(exc, "tag", new_str(first.tag)) &&
            set_attr(exc, "site", PyLong_FromSsize_t(site)) &&
            set_attr(exc, "constraint", new_str(first.constraint)) &&
            set_attr(exc, "detail", new_str(first.message));
  if (ok) PyErr_SetObject(cls, exc);
  Py_DECREF(exc);
}

// ---------------------------------------------------------------- the table object

struct TableObject {
  PyObject_HEAD
  SiteTable* table;  // owned through `owner`
  std::shared_ptr<SiteTable>* owner;
  std::vector<PyObject*>* module_callee;  // per site: the module the callee slot held (compared only)
  bool enabled;
};

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

void record(TableObject* self, std::size_t site, std::size_t slot, PyObject* value, const void* frame) {
  Observed* o = self->table->record(site, slot, frame);
  if (o == nullptr) return;
  if (self->table->arg(site, slot)->kind == ArgSpec::Kind::Callee) {
    gshape::runtime::CalleeRule callee = gshape::runtime::observe_callee(*o, value);
    self->table->set_callee(site, callee.rule, callee.receiver);
    (*self->module_callee)[site] = o->kind == gshape::runtime::ObservedKind::Module ? value : nullptr;
  } else {
    gshape::runtime::observe(*o, value);
  }
}

// Evaluates `site`; false (with an exception set) on failure.
bool run_site(TableObject* self, std::size_t site, const void* frame) {
  const RuleRun& run = self->table->evaluate(site, frame);
  PyObject*& module = (*self->module_callee)[site];
  g_checked_module = module;  // the call that follows is checked: its hook skips it
  g_checked_thread = module ? PyThreadState_Get() : nullptr;
  module = nullptr;
  if (run.verdict != RuleRun::Verdict::Failed) return true;
  const SiteSpec& spec = self->table->spec(site);
  raise_failure(self->table->path(), spec.line, spec.col, static_cast<Py_ssize_t>(site), run);
  return false;
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
    record(self, site, slot, args[2], gshape::runtime::caller_frame());
  }
  Py_INCREF(args[2]);
  return args[2];
}

// The first `count` + 1 items of an iterator, as a tuple: what Python's
// unpacking into `count` names reads of it (one more item tells "too many
// values"), so the check can count them and the unpacking reads the tuple.
PyObject* first_items(PyObject* iterator, std::size_t count) {
  PyObject* items = PyList_New(0);
  if (items == nullptr) return nullptr;
  while (static_cast<std::size_t>(PyList_GET_SIZE(items)) <= count) {
    PyObject* item = PyIter_Next(iterator);
    if (item == nullptr) break;
    int appended = PyList_Append(items, item);
    Py_DECREF(item);
    if (appended < 0) break;
  }
  if (PyErr_Occurred()) {  // the iterator's own error, raised at this line as Python would
    Py_DECREF(items);
    return nullptr;
  }
  PyObject* tuple = PyList_AsTuple(items);
  Py_DECREF(items);
  return tuple;
}

// check(site, slot, value, *more) -> value, or raises ShapeCheckError; `more`
// go to the slots after `slot` (an annotated function's parameters at entry).
// An iterator unpacked into N names (`q, k, v = map(f, qkv)`) is read as
// Python would read it, and the tuple of its items is returned instead.
PyObject* table_check(PyObject* py_self, PyObject* const* args, Py_ssize_t nargs) {
  auto* self = reinterpret_cast<TableObject*>(py_self);
  if (nargs < 3) return wrong_arg_count("check", "at least 3", nargs);
  PyObject* value = args[2];
  Py_INCREF(value);
  if (self->enabled) {
    std::size_t site = 0, slot = 0;
    if (!site_index(self, args[0], site) || !slot_index(args[1], slot)) {
      Py_DECREF(value);
      return nullptr;
    }
    if (std::size_t count = self->table->unpack_count(site); count > 0 && nargs == 3 && PyIter_Check(value)) {
      // iter(value) first, once, as the unpacking would: an iterator's
      // __iter__ may set it up (tester9/07)
      PyObject* iterator = PyObject_GetIter(value);
      Py_DECREF(value);
      if (iterator == nullptr) return nullptr;
      value = iterator;
      PyObject* items = first_items(value, count);
      Py_DECREF(value);
      if (items == nullptr) return nullptr;
      value = items;
    }
    const void* frame = gshape::runtime::caller_frame();
    record(self, site, slot, value, frame);
    for (Py_ssize_t i = 3; i < nargs; ++i) record(self, site, slot + static_cast<std::size_t>(i - 2), args[i], frame);
    if (!run_site(self, site, frame)) {
      Py_DECREF(value);
      return nullptr;
    }
  }
  return value;
}

// check_values(site, v0, v1, ...) -> None: slot i gets v_i, then the site is evaluated.
PyObject* table_check_values(PyObject* py_self, PyObject* const* args, Py_ssize_t nargs) {
  auto* self = reinterpret_cast<TableObject*>(py_self);
  if (nargs < 1) return wrong_arg_count("check_values", "at least 1", nargs);
  if (self->enabled) {
    std::size_t site = 0;
    if (!site_index(self, args[0], site)) return nullptr;
    const void* frame = gshape::runtime::caller_frame();
    for (Py_ssize_t i = 1; i < nargs; ++i) record(self, site, static_cast<std::size_t>(i - 1), args[i], frame);
    if (!run_site(self, site, frame)) return nullptr;
  }
  Py_RETURN_NONE;
}

// enter(site, v0, v1, ...) -> (v0, v1, ...): check_values for an annotated
// function's entry, returning the values its returns check against.
PyObject* table_enter(PyObject* py_self, PyObject* const* args, Py_ssize_t nargs) {
  PyObject* none = table_check_values(py_self, args, nargs);
  if (none == nullptr) return nullptr;
  Py_DECREF(none);
  PyObject* values = PyTuple_New(nargs - 1);
  if (values == nullptr) return nullptr;
  for (Py_ssize_t i = 1; i < nargs; ++i) {
    Py_INCREF(args[i]);
    PyTuple_SET_ITEM(values, i - 1, args[i]);
  }
  return values;
}

// {"a": 1, ...} from a counter map.
template <typename Map, typename Name>
PyObject* counts_dict(const Map& counts, Name name_of) {
  PyObject* d = PyDict_New();
  if (d == nullptr) return nullptr;
  for (const auto& [key, n] : counts) {
    PyObject* v = PyLong_FromUnsignedLongLong(n);
    PyObject* k = new_str(name_of(key));
    if (v == nullptr || k == nullptr || PyDict_SetItem(d, k, v) != 0) {
      Py_XDECREF(v);
      Py_XDECREF(k);
      Py_DECREF(d);
      return nullptr;
    }
    Py_DECREF(v);
    Py_DECREF(k);
  }
  return d;
}

PyObject* stats_of(const SiteTable& table) {
  PyObject* list = PyList_New(0);
  if (list == nullptr) return nullptr;
  for (std::size_t i = 0; i < table.site_count(); ++i) {
    const SiteSpec& spec = table.spec(i);
    const gshape::runtime::SiteCounters& c = table.counters(i);
    PyObject* tags = counts_dict(c.failed_tags, [](const std::string& s) { return s; });
    PyObject* rules = counts_dict(c.rules, [](const gshape::gradual::Rule* r) { return r->name; });
    PyObject* entry =
        tags && rules
            ? Py_BuildValue("{s:N,s:L,s:L,s:N,s:n,s:K,s:K,s:K,s:K,s:K,s:N,s:N}", "path", new_str(table.path()),
                            "line", static_cast<long long>(spec.line), "col", static_cast<long long>(spec.col), "rule",
                            new_str(spec.rule), "site", static_cast<Py_ssize_t>(i), "runs",
                            static_cast<unsigned long long>(c.runs), "failures",
                            static_cast<unsigned long long>(c.failures), "skipped",
                            static_cast<unsigned long long>(c.skipped), "no_rule",
                            static_cast<unsigned long long>(c.no_rule), "cached",
                            static_cast<unsigned long long>(c.cached), "failed_tags", tags, "rules_run", rules)
            : nullptr;
    if (entry == nullptr) {
      Py_XDECREF(tags);
      Py_XDECREF(rules);
    }
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

// 'callee' | 'arg' | '*' | '**' | 'NAME='
bool parse_arg(PyObject* obj, ArgSpec& arg, const std::string& where) {
  std::string text;
  if (!utf8_of(obj, text, "an operand kind", where)) return false;
  if (text == "callee") {
    arg.kind = ArgSpec::Kind::Callee;
  } else if (text == "arg") {
    arg.kind = ArgSpec::Kind::Positional;
  } else if (text == "*") {
    arg.kind = ArgSpec::Kind::Star;
  } else if (text == "**") {
    arg.kind = ArgSpec::Kind::DoubleStar;
  } else if (text.size() > 1 && text.back() == '=') {
    arg.kind = ArgSpec::Kind::Keyword;
    arg.keyword = text.substr(0, text.size() - 1);
  } else {
    PyErr_Format(PyExc_ValueError, "%s: operand kind '%s' is not 'callee', 'arg', '*', '**' or 'NAME='",
                 where.c_str(), text.c_str());
    return false;
  }
  return true;
}

bool parse_site(PyObject* obj, SiteSpec& spec, const std::string& where) {
  if (!PyTuple_Check(obj) && !PyList_Check(obj)) {
    PyErr_Format(PyExc_TypeError, "%s: a site must be a tuple (line, col, rule, operands), not %s", where.c_str(),
                 Py_TYPE(obj)->tp_name);
    return false;
  }
  PyObject* fast = PySequence_Fast(obj, "site");
  if (fast == nullptr) return false;
  bool ok = true;
  if (PySequence_Fast_GET_SIZE(fast) != 4) {
    PyErr_Format(PyExc_TypeError, "%s: a site has 4 fields (line, col, rule, operands), not %zd", where.c_str(),
                 PySequence_Fast_GET_SIZE(fast));
    ok = false;
  }
  PyObject** items = PySequence_Fast_ITEMS(fast);
  ok = ok && int_of(items[0], spec.line, "line", where) && int_of(items[1], spec.col, "col", where);
  if (ok && items[2] != Py_None) ok = utf8_of(items[2], spec.rule, "rule", where);
  if (ok) {
    PyObject* args = PySequence_Fast(items[3], "a site's operands must be a list of str");
    ok = args != nullptr;
    for (Py_ssize_t k = 0; ok && k < PySequence_Fast_GET_SIZE(args); ++k) {
      spec.args.emplace_back();
      ok = parse_arg(PySequence_Fast_GET_ITEM(args, k), spec.args.back(), where);
    }
    Py_XDECREF(args);
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
  PyObject* sites_fast = PySequence_Fast(py_sites, "CheckTable: sites must be a list of sites");
  if (sites_fast == nullptr) return nullptr;
  std::vector<SiteSpec> sites(static_cast<std::size_t>(PySequence_Fast_GET_SIZE(sites_fast)));
  bool ok = true;
  for (std::size_t s = 0; ok && s < sites.size(); ++s) {
    ok = parse_site(PySequence_Fast_GET_ITEM(sites_fast, static_cast<Py_ssize_t>(s)), sites[s],
                    path + " site " + std::to_string(s));
  }
  Py_DECREF(sites_fast);
  if (!ok) return nullptr;
  if (!gshape::runtime::init_observe()) return nullptr;

  std::shared_ptr<SiteTable> table;
  try {
    table = std::make_shared<SiteTable>(std::move(path), std::move(sites));
  } catch (const SiteTableError& e) {
    PyErr_SetString(PyExc_ValueError, e.what());
    return nullptr;
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
    return nullptr;
  }
  auto* self = reinterpret_cast<TableObject*>(type->tp_alloc(type, 0));
  if (self == nullptr) return nullptr;
  registry().push_back(table);
  self->owner = new std::shared_ptr<SiteTable>(std::move(table));
  self->table = self->owner->get();
  self->module_callee = new std::vector<PyObject*>(self->table->site_count(), nullptr);
  self->enabled = enabled;
  return reinterpret_cast<PyObject*>(self);
}

void table_dealloc(PyObject* py_self) {
  auto* self = reinterpret_cast<TableObject*>(py_self);
  delete self->owner;
  delete self->module_callee;
  PyTypeObject* type = Py_TYPE(py_self);
  type->tp_free(py_self);
  Py_DECREF(type);
}

PyObject* table_repr(PyObject* py_self) {
  auto* self = reinterpret_cast<TableObject*>(py_self);
  return PyUnicode_FromFormat("<gshape_runtime.CheckTable %s: %zu sites%s>", self->table->path().c_str(),
                              self->table->site_count(), self->enabled ? "" : ", disabled");
}

PyObject* get_path(PyObject* py_self, void*) { return new_str(reinterpret_cast<TableObject*>(py_self)->table->path()); }
PyObject* get_site_count(PyObject* py_self, void*) {
  return PyLong_FromSize_t(reinterpret_cast<TableObject*>(py_self)->table->site_count());
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
     "stash(site, slot, value) -> value\n\nRecords a summary of value in operand slot `slot` of `site`."},
    {"check", as_cfunction(table_check), METH_FASTCALL,
     "check(site, slot, value, *more) -> value\n\nRecords value in `slot` (and `more` in the slots after it), then runs the site's rule on the recorded\n"
     "operands; raises ShapeCheckError when the operation would fail."},
    {"enter", as_cfunction(table_enter), METH_FASTCALL,
     "enter(site, *values) -> values\n\nAn annotated function's entry check: check_values, then the values as a tuple."},
    {"check_values", as_cfunction(table_check_values), METH_FASTCALL,
     "check_values(site, *values) -> None\n\nRecords values in slots 0, 1, ... and evaluates the site."},
    {"stats", as_cfunction(table_stats), METH_NOARGS,
     "stats() -> list of dict\n\nPer site: path, line, col, rule, site, runs, failures, skipped, no_rule,\n"
     "cached, failed_tags, rules_run."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef table_getset[] = {
    {"path", get_path, nullptr, "the path the table's messages name", nullptr},
    {"site_count", get_site_count, nullptr, "number of sites", nullptr},
    {"enabled", get_enabled, nullptr, "False when checks are no-ops (GSHAPE_CHECKS=0)", nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

const char* const kTableDoc =
    "CheckTable(path, sites, *, enabled=None)\n\n"
    "A module's runtime shape checks. `sites[i]` is (line, col, rule, operands):\n"
    "the operator's rule name (None: the callee operand decides) and, per operand\n"
    "slot, how the call passes it: 'callee', 'arg', '*', '**' or 'NAME='.\n"
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

// ---------------------------------------------------------------- module calls the sites did not check

// Directories whose frames are not the user's (torch, this package).
std::vector<std::string>& library_dirs() {
  static std::vector<std::string> dirs;
  return dirs;
}

bool in_library(PyCodeObject* code) {
  const char* file = PyUnicode_AsUTF8(code->co_filename);
  if (file == nullptr) {
    PyErr_Clear();
    return true;
  }
  std::string_view f(file);
  if (f.empty() || f.front() == '<') return true;  // <frozen ...>, <string>
  for (const std::string& d : library_dirs())
    if (f.rfind(d, 0) == 0) return true;
  return false;
}

// The innermost frame of the user's code, as path:line:col, and whether it
// called the module directly (no torch frame between, other than the call).
struct UserFrame {
  std::string path;
  int64_t line = 0;
  int64_t col = 0;
  bool found = false;
};

UserFrame innermost_user_frame() {
  UserFrame out;
  PyFrameObject* frame = PyEval_GetFrame();  // borrowed
  Py_XINCREF(frame);
  while (frame != nullptr) {
    PyCodeObject* code = PyFrame_GetCode(frame);
    bool library = in_library(code);
    if (!library) {
      const char* file = PyUnicode_AsUTF8(code->co_filename);
      out.path = file ? file : "?";
      out.line = PyFrame_GetLineNumber(frame);
      out.col = 0;
#if PY_VERSION_HEX >= 0x030B0000
      int line = 0, col = 0, end_line = 0, end_col = 0;
      if (PyCode_Addr2Location(code, PyFrame_GetLasti(frame), &line, &col, &end_line, &end_col) && col >= 0)
        out.col = col + 1;
#endif
      out.found = true;
    }
    Py_DECREF(code);
    if (out.found) {
      Py_DECREF(frame);
      break;
    }
    PyFrameObject* back = PyFrame_GetBack(frame);
    Py_DECREF(frame);
    frame = back;
  }
  // name the file as the user does: relative to the working directory
  PyObject* os = out.found ? PyImport_ImportModule("os") : nullptr;
  if (os != nullptr) {
    PyObject* cwd = PyObject_CallMethod(os, "getcwd", nullptr);
    const char* c = cwd ? PyUnicode_AsUTF8(cwd) : nullptr;
    if (c != nullptr) {
      std::string prefix = std::string(c) + "/";
      if (out.path.rfind(prefix, 0) == 0) out.path = out.path.substr(prefix.size());
    }
    Py_XDECREF(cwd);
    Py_DECREF(os);
  }
  if (PyErr_Occurred()) PyErr_Clear();
  return out;
}

// gshape_runtime's _locate_layer and _traceback_at (set_layer_locator):
// asked only when a check of the module hook failed.
PyObject* g_layer_locator = nullptr;
PyObject* g_traceback_at = nullptr;

struct LayerPlace {
  std::string suffix;  // the message's ending ("" : the generic one)
  std::string file;    // where the traceback's last frame points ("" : nowhere new)
  long line = 0;
  std::string name;    // that frame's name: "self.net[2]"
};

// Where a failing module runs as a layer of an nn.Sequential; empty when it
// does not, or when the locator fails (its error never hides the check's).
LayerPlace locate_layer(PyObject* module) {
  LayerPlace out;
  if (g_layer_locator == nullptr) return out;
  PyObject* got = PyObject_CallOneArg(g_layer_locator, module);
  const char* suffix = nullptr;
  const char* file = nullptr;
  const char* name = nullptr;
  long line = 0;
  if (got != nullptr && got != Py_None &&
      PyArg_ParseTuple(got, "szls", &suffix, &file, &line, &name) && suffix != nullptr) {
    out.suffix = suffix;
    if (file != nullptr && line > 0 && name != nullptr) {
      out.file = file;
      out.line = line;
      out.name = name;
    }
  }
  Py_XDECREF(got);
  if (PyErr_Occurred()) PyErr_Clear();
  return out;
}

// The pending ShapeCheckError gets a traceback whose innermost entry is
// layer.file:layer.line (the frames PyTorch adds while it propagates come
// before it); left as it is when that cannot be made.
void end_traceback_at(const LayerPlace& layer) {
  if (g_traceback_at == nullptr) return;
  PyObject *type = nullptr, *value = nullptr, *tb = nullptr;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (value != nullptr) {
    PyObject* made = PyObject_CallFunction(g_traceback_at, "Osls", value, layer.file.c_str(), layer.line,
                                           layer.name.c_str());
    if (made != nullptr && PyTraceBack_Check(made)) {
      Py_XDECREF(tb);
      tb = made;
      PyException_SetTraceback(value, tb);
    } else {
      Py_XDECREF(made);
      PyErr_Clear();
    }
  }
  PyErr_Restore(type, value, tb);
}

// One single-site table per (forward rule, number of inputs): the hook's
// operands and verdict cache.
SiteTable& hook_table(const gshape::gradual::Rule* rule, std::size_t inputs) {
  static std::map<std::pair<const gshape::gradual::Rule*, std::size_t>, std::shared_ptr<SiteTable>> tables;
  auto& t = tables[{rule, inputs}];
  if (!t) {
    SiteSpec spec;
    spec.rule = rule->name;
    spec.args.push_back({ArgSpec::Kind::Callee, {}});
    for (std::size_t i = 0; i < inputs; ++i) spec.args.push_back({ArgSpec::Kind::Positional, {}});
    t = std::make_shared<SiteTable>("<module calls>", std::vector<SiteSpec>{spec});
    registry().push_back(t);
  }
  return *t;
}

// module_pre_hook(module, inputs) -> None: the forward pre-hook every module
// call goes through (registered for all modules by gshape_runtime).
PyObject* module_pre_hook(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2) {
    PyErr_SetString(PyExc_TypeError, "module_pre_hook(module, inputs) takes 2 arguments");
    return nullptr;
  }
  PyObject* module = args[0];
  if (module == g_checked_module && g_checked_thread == PyThreadState_Get()) {
    g_checked_module = nullptr;  // the site at the call has checked it
    Py_RETURN_NONE;
  }
  const gshape::gradual::Rule* rule = gshape::runtime::module_forward_rule(module);
  if (rule == nullptr || !PyTuple_Check(args[1]) || gshape::runtime::has_forward_pre_hooks(module)) Py_RETURN_NONE;
  PyObject* inputs = args[1];
  std::size_t n = static_cast<std::size_t>(PyTuple_GET_SIZE(inputs));
  SiteTable& table = hook_table(rule, n);
  const void* frame = gshape::runtime::caller_frame();
  gshape::runtime::observe_module(*table.record(0, 0, frame), module, rule);
  table.set_callee(0, rule, true);
  for (std::size_t i = 0; i < n; ++i)
    gshape::runtime::observe(*table.record(0, i + 1, frame), PyTuple_GET_ITEM(inputs, static_cast<Py_ssize_t>(i)));
  const RuleRun& run = table.evaluate(0, frame);
  if (run.verdict != RuleRun::Verdict::Failed) Py_RETURN_NONE;
  UserFrame where = innermost_user_frame();
  std::string cls = rule->name.substr(0, rule->name.size() - 8);
  if (cls.rfind("torch.nn.", 0) == 0) cls = "nn." + cls.substr(9);
  std::string suffix = "; raised in a call of " + cls + " made inside the call at this line";
  // A layer of an nn.Sequential: the message names the layer as written,
  // and the traceback ends at its line rather than inside torch.
  LayerPlace layer = locate_layer(module);
  if (!layer.suffix.empty()) suffix = layer.suffix;
  raise_failure(where.found ? where.path : "<unknown>", where.line, where.col, -1, run, suffix);
  if (!layer.file.empty()) end_traceback_at(layer);
  return nullptr;
}

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

// error_class(tag) -> the ShapeCheckError class a failure of `tag` raises.
PyObject* error_class(PyObject* /*module*/, PyObject* tag) {
  const char* text = PyUnicode_AsUTF8(tag);
  if (text == nullptr) return nullptr;
  PyObject* cls = error_class_for(text);
  Py_INCREF(cls);
  return cls;
}

// use_error_classes({builtin name: class}) -> None: the classes failures
// raise from now on (gshape_runtime makes them picklable, so that a
// DataLoader worker can send its failure to the main process).
PyObject* use_error_classes(PyObject* /*module*/, PyObject* mapping) {
  if (!PyDict_Check(mapping)) {
    PyErr_SetString(PyExc_TypeError, "use_error_classes takes a dict {builtin exception name: class}");
    return nullptr;
  }
  PyObject *key = nullptr, *value = nullptr;
  Py_ssize_t pos = 0;
  while (PyDict_Next(mapping, &pos, &key, &value)) {
    const char* name = PyUnicode_AsUTF8(key);
    if (name == nullptr) return nullptr;
    int sub = PyType_Check(value) ? PyObject_IsSubclass(value, g_shape_check_error) : 0;
    if (sub < 0) return nullptr;
    if (sub == 0) {
      PyErr_Format(PyExc_TypeError, "use_error_classes: the class for %s is not a ShapeCheckError", name);
      return nullptr;
    }
    Py_INCREF(value);
    auto it = g_error_classes.find(std::string_view(name));
    if (it != g_error_classes.end()) {
      Py_DECREF(it->second);
      it->second = value;
    } else {
      g_error_classes.emplace(name, value);
    }
  }
  Py_RETURN_NONE;
}

PyObject* rule_names(PyObject* /*module*/, PyObject* /*unused*/) {
  PyObject* list = PyList_New(0);
  if (list == nullptr) return nullptr;
  for (const gshape::gradual::Rule* r : gshape::gradual::RuleRegistry::builtin().all()) {
    PyObject* s = new_str(r->name);
    if (s == nullptr || PyList_Append(list, s) != 0) {
      Py_XDECREF(s);
      Py_DECREF(list);
      return nullptr;
    }
    Py_DECREF(s);
  }
  return list;
}

// set_layer_locator(locate, traceback_at): see locate_layer, end_traceback_at.
PyObject* set_layer_locator(PyObject* /*module*/, PyObject* const* args, Py_ssize_t nargs) {
  if (nargs != 2 || !PyCallable_Check(args[0]) || !PyCallable_Check(args[1])) {
    PyErr_SetString(PyExc_TypeError, "set_layer_locator(locate, traceback_at) takes two callables");
    return nullptr;
  }
  Py_INCREF(args[0]);
  Py_INCREF(args[1]);
  Py_XSETREF(g_layer_locator, args[0]);
  Py_XSETREF(g_traceback_at, args[1]);
  Py_RETURN_NONE;
}

// set_library_dirs([dir, ...]): frames under these are not the user's.
PyObject* set_library_dirs(PyObject* /*module*/, PyObject* arg) {
  PyObject* fast = PySequence_Fast(arg, "set_library_dirs takes a list of str");
  if (fast == nullptr) return nullptr;
  std::vector<std::string> dirs;
  for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); ++i) {
    std::string d;
    if (!utf8_of(PySequence_Fast_GET_ITEM(fast, i), d, "a directory", "set_library_dirs")) {
      Py_DECREF(fast);
      return nullptr;
    }
    dirs.push_back(std::move(d));
  }
  Py_DECREF(fast);
  library_dirs() = std::move(dirs);
  Py_RETURN_NONE;
}

PyMethodDef module_methods[] = {
    {"_all_stats", as_cfunction(all_stats), METH_NOARGS,
     "Per-site counters of every table built in this process (list of dict)."},
    {"rule_names", as_cfunction(rule_names), METH_NOARGS, "The qualified names of every rule (list of str)."},
    {"error_class", as_cfunction(error_class), METH_O,
     "error_class(tag) -> the ShapeCheckError class a failed check of that constraint raises (also the\n"
     "builtin exception PyTorch raises for it)."},
    {"module_pre_hook", as_cfunction(module_pre_hook), METH_FASTCALL,
     "module_pre_hook(module, inputs) -> None\n\nChecks a module call with the module's forward rule, unless the\n"
     "site of the call has just checked it; raises ShapeCheckError naming the\nuser's innermost line."},
    {"set_layer_locator", as_cfunction(set_layer_locator), METH_FASTCALL,
     "set_layer_locator(locate, traceback_at): how a failing check of the module hook names a layer of an\n"
     "nn.Sequential and ends its traceback at the layer's line (gshape_runtime sets them)."},
    {"use_error_classes", as_cfunction(use_error_classes), METH_O,
     "use_error_classes({name: class}): the ShapeCheckError subclass raised where PyTorch raises the builtin\n"
     "exception `name` (gshape_runtime sets picklable ones)."},
    {"set_library_dirs", as_cfunction(set_library_dirs), METH_O,
     "set_library_dirs(dirs): frames in files under these are not the user's."},
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
        "A runtime shape check failed. Attributes: path, line, col, tag, site,\n"
        "constraint, detail (the message with the actual sizes), also_failed (the\n"
        "messages of other requirements of the same call that failed too). A raised\n"
        "one is also the builtin exception PyTorch raises for that requirement\n"
        "(RuntimeError for most; IndexError, ValueError, ... for some).",
        PyExc_Exception, nullptr);
    if (g_shape_check_error == nullptr || !make_error_classes()) {
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
