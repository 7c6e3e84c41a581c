#include "frontend/import_graph.h"

#include <algorithm>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <tuple>
#include <utility>

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include "frontend/project.h"

namespace gshape {

namespace {

// Every statement body directly nested in `stmt` (function, class, branch,
// loop, with and try bodies): imports can hide in any of them.
void push_nested_bodies(const ir::Stmt* stmt, std::vector<const ir::Body*>& pending) {
  using namespace ir;
  switch (stmt->kind) {
    case Kind::FunctionDef: pending.push_back(&cast<FunctionDef>(stmt)->body); break;
    case Kind::ClassDef: pending.push_back(&cast<ClassDef>(stmt)->body); break;
    case Kind::If:
      pending.push_back(&cast<If>(stmt)->body);
      pending.push_back(&cast<If>(stmt)->orelse);
      break;
    case Kind::For:
      pending.push_back(&cast<For>(stmt)->body);
      pending.push_back(&cast<For>(stmt)->orelse);
      break;
    case Kind::While:
      pending.push_back(&cast<While>(stmt)->body);
      pending.push_back(&cast<While>(stmt)->orelse);
      break;
    case Kind::With: pending.push_back(&cast<With>(stmt)->body); break;
    case Kind::Try: {
      const auto* t = cast<Try>(stmt);
      pending.push_back(&t->body);
      for (const ExceptHandler& h : t->handlers) pending.push_back(&h.body);
      pending.push_back(&t->orelse);
      pending.push_back(&t->finalbody);
      break;
    }
    default: break;
  }
}

// "a.b.c" → a, a.b, a.b.c (Python imports every enclosing package first).
void add_with_parents(const std::string& dotted, std::set<std::string>& out) {
  if (dotted.empty()) return;
  for (std::size_t dot = dotted.find('.'); dot != std::string::npos; dot = dotted.find('.', dot + 1)) {
    out.insert(dotted.substr(0, dot));
  }
  out.insert(dotted);
}

// The package a relative import with `level` dots starts from, or nullopt
// when it climbs above the top-level package.
std::optional<std::string> relative_base(const std::string& module_name, bool is_package_init, int level) {
  std::string package = module_name;
  if (!is_package_init) {
    std::size_t dot = package.rfind('.');
    package = dot == std::string::npos ? std::string() : package.substr(0, dot);
  }
  for (int i = 1; i < level; ++i) {
    if (package.empty()) return std::nullopt;
    std::size_t dot = package.rfind('.');
    package = dot == std::string::npos ? std::string() : package.substr(0, dot);
  }
  if (package.empty()) return std::nullopt;  // "attempted relative import with no known parent package"
  return package;
}

void add_import_from(const ir::ImportFrom& stmt, const std::string& module_name, bool is_package_init,
                     std::set<std::string>& out) {
  std::string base;
  if (stmt.level > 0) {
    std::optional<std::string> package = relative_base(module_name, is_package_init, stmt.level);
    if (!package) return;
    base = stmt.module.empty() ? *package : *package + "." + stmt.module;
  } else {
    base = stmt.module;
  }
  if (base.empty()) return;
  add_with_parents(base, out);
  for (const ir::ImportAlias& alias : stmt.names) {
    if (alias.name != "*" && !alias.name.empty()) out.insert(base + "." + alias.name);
  }
}

// A path the program computes from its own file, as a path relative to the
// file's folder ("../src"): `os.path.join(os.path.dirname(__file__), "..",
// "src")`, `os.path.abspath(...)`, `Path(__file__).resolve().parent / "src"`,
// `str(...)`. A path is kept as its parts; `__file__` is the file itself
// (the parts ["", <file>] stand for "the file", a folder below has no "").
// nullopt: not a path the analysis can compute.
struct FilePath {
  bool is_file = false;             // the file itself (no parent taken yet)
  std::vector<std::string> parts;   // relative to the file's folder
};

std::optional<FilePath> file_path_of(const ir::Expr* e, int depth = 0) {
  using namespace ir;
  if (e == nullptr || depth > 32) return std::nullopt;
  auto parent = [](FilePath p) -> std::optional<FilePath> {
    if (p.is_file) {
      p.is_file = false;  // the file's folder
      return p;
    }
    p.parts.push_back("..");
    return p;
  };
  auto join = [](FilePath p, const std::string& part) -> std::optional<FilePath> {
    if (p.is_file || part.empty() || part.front() == '/') return std::nullopt;
    p.parts.push_back(part);
    return p;
  };
  if (const auto* n = dyn_cast<Name>(e)) {
    if (n->id == "__file__") return FilePath{true, {}};
    return std::nullopt;
  }
  if (const auto* c = dyn_cast<Call>(e)) {
    std::string callee;
    if (const auto* f = dyn_cast<Name>(c->func)) callee = f->id;
    const Expr* receiver = nullptr;
    if (const auto* a = dyn_cast<Attribute>(c->func)) {
      receiver = a->value;
      callee = a->attr;
      if (const auto* inner = dyn_cast<Attribute>(a->value)) {
        if (const auto* os = dyn_cast<Name>(inner->value); os && os->id == "os" && inner->attr == "path") {
          receiver = nullptr;
          callee = "os.path." + a->attr;
        }
      } else if (const auto* mod = dyn_cast<Name>(a->value); mod && mod->id == "pathlib" && a->attr == "Path") {
        receiver = nullptr;
        callee = "Path";
      }
    }
    std::vector<const Expr*> args;
    for (const Argument& arg : c->args) {
      if (arg.type != Argument::Type::Positional) return std::nullopt;
      args.push_back(arg.value);
    }
    // a method of a Path: resolve(), absolute() keep it
    if (receiver != nullptr) {
      if ((callee == "resolve" || callee == "absolute") && args.empty()) return file_path_of(receiver, depth + 1);
      return std::nullopt;
    }
    if ((callee == "os.path.abspath" || callee == "os.path.realpath" || callee == "os.path.normpath" ||
         callee == "str" || callee == "Path") && args.size() == 1)
      return file_path_of(args[0], depth + 1);
    if (callee == "os.path.dirname" && args.size() == 1) {
      auto p = file_path_of(args[0], depth + 1);
      return p ? parent(*p) : std::nullopt;
    }
    if ((callee == "os.path.join" || callee == "Path") && !args.empty()) {
      auto p = file_path_of(args[0], depth + 1);
      for (std::size_t i = 1; p && i < args.size(); ++i) {
        const auto* k = dyn_cast<Constant>(args[i]);
        if (!k || k->type != Constant::Type::Str) return std::nullopt;
        p = join(*p, k->str_value);
      }
      return p;
    }
    return std::nullopt;
  }
  if (const auto* a = dyn_cast<Attribute>(e)) {
    if (a->attr == "parent") {
      auto p = file_path_of(a->value, depth + 1);
      return p ? parent(*p) : std::nullopt;
    }
    return std::nullopt;
  }
  if (const auto* b = dyn_cast<BinOp>(e); b && b->op == BinOpKind::Div) {
    const auto* k = dyn_cast<Constant>(b->right);
    auto p = file_path_of(b->left, depth + 1);
    if (!p || !k || k->type != Constant::Type::Str) return std::nullopt;
    return join(*p, k->str_value);
  }
  return std::nullopt;
}

// `sys.path.insert(i, PATH)` / `sys.path.append(PATH)` of a path computed
// from the file itself: the marker import_graph.h documents.
void add_sys_path(const ir::Stmt* stmt, std::set<std::string>& out) {
  using namespace ir;
  const auto* es = dyn_cast<ExprStmt>(stmt);
  const auto* call = es ? dyn_cast<Call>(es->value) : nullptr;
  const auto* method = call ? dyn_cast<Attribute>(call->func) : nullptr;
  if (!method || (method->attr != "insert" && method->attr != "append")) return;
  const auto* path = dyn_cast<Attribute>(method->value);
  const auto* sys = path ? dyn_cast<Name>(path->value) : nullptr;
  if (!sys || sys->id != "sys" || path->attr != "path") return;
  std::size_t index = method->attr == "insert" ? 1 : 0;
  if (call->args.size() != index + 1 || call->args[index].type != Argument::Type::Positional) return;
  std::string rel;
  const auto* literal = dyn_cast<Constant>(call->args[index].value);
  if (literal && literal->type == Constant::Type::Str && !literal->str_value.empty() && literal->str_value.front() == '/') {
    rel = literal->str_value;  // an absolute folder: where it is, whatever the file's
  } else {
    std::optional<FilePath> p = file_path_of(call->args[index].value);
    if (!p || p->is_file) return;
    rel = ".";
    for (const std::string& part : p->parts) rel += "/" + part;
  }
  out.insert(std::string(kSysPathMarker) + (method->attr == "insert" ? "insert:" : "append:") + rel);
}

}  // namespace

std::vector<std::string> imported_module_names(const ir::Module& module, const std::string& module_name,
                                               bool is_package_init) {
  std::set<std::string> names;
  // An explicit work list rather than recursion: nesting depth is the input's choice.
  std::vector<const ir::Body*> pending{&module.body};
  while (!pending.empty()) {
    const ir::Body* body = pending.back();
    pending.pop_back();
    for (const ir::Stmt* stmt : *body) {
      if (stmt == nullptr) continue;
      if (const auto* imp = ir::dyn_cast<ir::Import>(stmt)) {
        for (const ir::ImportAlias& alias : imp->names) add_with_parents(alias.name, names);
      } else if (const auto* from = ir::dyn_cast<ir::ImportFrom>(stmt)) {
        add_import_from(*from, module_name, is_package_init, names);
      } else if (stmt->kind == ir::Kind::ExprStmt) {
        add_sys_path(stmt, names);
      } else {
        push_nested_bodies(stmt, pending);
      }
    }
  }
  return {names.begin(), names.end()};
}

ImportGraph build_import_graph(const std::vector<ProjectModule>& modules) {
  const std::size_t n = modules.size();
  std::map<std::string, std::vector<std::size_t>> by_name;  // name → modules (path order)
  for (std::size_t i = 0; i < n; ++i) by_name[modules[i].file->module_name()].push_back(i);

  ImportGraph graph;
  graph.imports.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    const ProjectModule& m = modules[i];
    // load_project fills import_names (from the IR, or from the file facts
    // cache for a module it did not parse); a module made another way may
    // have only its IR
    std::vector<std::string> computed;
    const std::vector<std::string>* names = &m.import_names;
    if (!m.deferred && m.import_names.empty()) {
      if (!m.ir) continue;
      computed = imported_module_names(*m.ir, m.file->module_name(), m.file->is_package_init());
      names = &computed;
    }
    for (const std::string& name : *names) {
      auto found = by_name.find(name);
      if (found == by_name.end()) continue;  // outside the project
      const std::vector<std::size_t>& candidates = found->second;
      std::size_t target = candidates.front();
      for (std::size_t c : candidates) {
        if (modules[c].root == m.root) {
          target = c;
          break;
        }
      }
      if (target != i) graph.imports[i].push_back(target);
    }
    std::sort(graph.imports[i].begin(), graph.imports[i].end());
    graph.imports[i].erase(std::unique(graph.imports[i].begin(), graph.imports[i].end()), graph.imports[i].end());
  }

  // Strongly connected components (Tarjan, through Boost.Graph).
  using Graph = boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS>;
  Graph g(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j : graph.imports[i]) boost::add_edge(i, j, g);
  }
  std::vector<std::size_t> component_of(n);
  std::size_t component_count = n == 0 ? 0 : static_cast<std::size_t>(boost::strong_components(
      g, boost::make_iterator_property_map(component_of.begin(), boost::get(boost::vertex_index, g))));

  // Members of each component sorted by (name, path): the order within a cycle.
  auto name_less = [&](std::size_t a, std::size_t b) {
    return std::tie(modules[a].file->module_name(), modules[a].file->path()) <
           std::tie(modules[b].file->module_name(), modules[b].file->path());
  };
  std::vector<std::vector<std::size_t>> members(component_count);
  for (std::size_t i = 0; i < n; ++i) members[component_of[i]].push_back(i);
  for (auto& group : members) std::sort(group.begin(), group.end(), name_less);

  // Kahn's algorithm on the condensation: a component is ready once every
  // component it imports has been emitted; among ready ones the smallest name goes first.
  std::vector<std::set<std::size_t>> depends_on(component_count);
  std::vector<std::vector<std::size_t>> dependents(component_count);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j : graph.imports[i]) {
      std::size_t from = component_of[i], to = component_of[j];
      if (from != to && depends_on[from].insert(to).second) dependents[to].push_back(from);
    }
  }
  auto component_greater = [&](std::size_t a, std::size_t b) { return name_less(members[b].front(), members[a].front()); };
  std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(component_greater)> ready(component_greater);
  std::vector<std::size_t> waiting_for(component_count);
  for (std::size_t c = 0; c < component_count; ++c) {
    waiting_for[c] = depends_on[c].size();
    if (waiting_for[c] == 0) ready.push(c);
  }
  while (!ready.empty()) {
    std::size_t c = ready.top();
    ready.pop();
    graph.analysis_order.push_back(members[c]);
    for (std::size_t d : dependents[c]) {
      if (--waiting_for[d] == 0) ready.push(d);
    }
  }
  return graph;
}

}  // namespace gshape
