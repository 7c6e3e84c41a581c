// Static call graph by name resolution, and its components (Boost.Graph).
#include "gradual/interp_callgraph.h"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/strong_components.hpp>

#include <functional>
#include <map>
#include <set>
#include <string>

namespace gshape::gradual::interp {

namespace {

using namespace gshape::ir;

// Top-level names of one module: functions and classes' methods.
struct ModuleDefs {
  std::map<std::string, const FunctionDef*> functions;
  std::map<std::string, std::map<std::string, const FunctionDef*>> methods;  // class → method → def
};

// Calls every `visit` on each expression reachable from a statement list,
// without entering nested defs (they are their own graph nodes).
class CallCollector {
 public:
  explicit CallCollector(std::function<void(const Call*)> on_call) : on_call_(std::move(on_call)) {}

  void body(const Body& b, int depth = 0) {
    if (depth > 200) return;
    for (const Stmt* s : b) stmt(s, depth);
  }

 private:
  void stmt(const Stmt* s, int depth) {
    switch (s->kind) {
      case Kind::FunctionDef:
      case Kind::ClassDef: return;  // own nodes / handled by the caller
      case Kind::Assign:
        for (const Expr* t : cast<Assign>(s)->targets) expr(t, depth);
        expr(cast<Assign>(s)->value, depth);
        return;
      case Kind::AugAssign: expr(cast<AugAssign>(s)->target, depth); expr(cast<AugAssign>(s)->value, depth); return;
      case Kind::AnnAssign: expr(cast<AnnAssign>(s)->value, depth); return;
      case Kind::ExprStmt: expr(cast<ExprStmt>(s)->value, depth); return;
      case Kind::Return: expr(cast<Return>(s)->value, depth); return;
      case Kind::Assert: expr(cast<Assert>(s)->test, depth); return;
      case Kind::Raise: expr(cast<Raise>(s)->exc, depth); return;
      case Kind::If:
        expr(cast<If>(s)->test, depth);
        body(cast<If>(s)->body, depth + 1);
        body(cast<If>(s)->orelse, depth + 1);
        return;
      case Kind::For:
        expr(cast<For>(s)->iter, depth);
        body(cast<For>(s)->body, depth + 1);
        body(cast<For>(s)->orelse, depth + 1);
        return;
      case Kind::While:
        expr(cast<While>(s)->test, depth);
        body(cast<While>(s)->body, depth + 1);
        body(cast<While>(s)->orelse, depth + 1);
        return;
      case Kind::With:
        for (const WithItem& i : cast<With>(s)->items) expr(i.context, depth);
        body(cast<With>(s)->body, depth + 1);
        return;
      case Kind::Try: {
        const auto* t = cast<Try>(s);
        body(t->body, depth + 1);
        for (const ExceptHandler& h : t->handlers) body(h.body, depth + 1);
        body(t->orelse, depth + 1);
        body(t->finalbody, depth + 1);
        return;
      }
      default: return;
    }
  }

  void expr(const Expr* e, int depth) {
    if (!e || depth > 400) return;
    ++depth;
    switch (e->kind) {
      case Kind::Call: {
        const auto* c = cast<Call>(e);
        on_call_(c);
        expr(c->func, depth);
        for (const Argument& a : c->args) expr(a.value, depth);
        return;
      }
      case Kind::Attribute: expr(cast<Attribute>(e)->value, depth); return;
      case Kind::Subscript: expr(cast<Subscript>(e)->value, depth); expr(cast<Subscript>(e)->index, depth); return;
      case Kind::BinOp: expr(cast<BinOp>(e)->left, depth); expr(cast<BinOp>(e)->right, depth); return;
      case Kind::UnaryOp: expr(cast<UnaryOp>(e)->operand, depth); return;
      case Kind::Compare:
        expr(cast<Compare>(e)->left, depth);
        for (const Expr* x : cast<Compare>(e)->comparators) expr(x, depth);
        return;
      case Kind::BoolOp: for (const Expr* x : cast<BoolOp>(e)->values) expr(x, depth); return;
      case Kind::IfExp:
        expr(cast<IfExp>(e)->test, depth);
        expr(cast<IfExp>(e)->body, depth);
        expr(cast<IfExp>(e)->orelse, depth);
        return;
      case Kind::List:
      case Kind::Tuple:
      case Kind::Set:
        for (const Expr* x : static_cast<const SequenceExpr*>(e)->elts) expr(x, depth);
        return;
      case Kind::Dict: for (const Expr* x : cast<Dict>(e)->values) expr(x, depth); return;
      case Kind::Starred: expr(cast<Starred>(e)->value, depth); return;
      case Kind::ListComp:
      case Kind::SetComp:
      case Kind::GeneratorExp: {
        const auto* c = static_cast<const ComprehensionExpr*>(e);
        expr(c->elt, depth);
        for (const Comprehension& g : c->generators) expr(g.iter, depth);
        return;
      }
      case Kind::FString: for (const Expr* x : cast<FString>(e)->values) expr(x, depth); return;
      default: return;
    }
  }

  std::function<void(const Call*)> on_call_;
};

}  // namespace

void CallGraph::build(const Project& project) {
  defs_.clear();
  index_.clear();
  std::map<std::string, ModuleDefs> by_module;
  struct Node {
    const FunctionDef* def;
    std::string module;
    std::string cls;  // enclosing class for methods
  };
  std::vector<Node> nodes;
  std::function<void(const Body&, const std::string&, const std::string&, int)> collect =
      [&](const Body& body, const std::string& module, const std::string& cls, int depth) {
        if (depth > 100) return;
        for (const Stmt* s : body) {
          if (const auto* f = dyn_cast<FunctionDef>(s)) {
            nodes.push_back({f, module, cls});
            if (depth == 0) by_module[module].functions[f->name] = f;
            if (!cls.empty() && depth == 1) by_module[module].methods[cls][f->name] = f;
            collect(f->body, module, {}, depth + 2);
          } else if (const auto* c = dyn_cast<ClassDef>(s)) {
            collect(c->body, module, depth == 0 ? c->name : std::string(), depth + 1);
          } else if (const auto* i = dyn_cast<If>(s)) {
            collect(i->body, module, cls, depth);
            collect(i->orelse, module, cls, depth);
          }
        }
      };
  for (const ProjectModule& pm : project.modules) {
    if (pm.ir) collect(pm.ir->body, pm.file->module_name(), {}, 0);
  }
  // names imported from project modules: module → local name → (module, name)
  std::map<std::string, std::map<std::string, std::pair<std::string, std::string>>> imported;
  for (const ProjectModule& pm : project.modules) {
    if (!pm.ir) continue;
    for (const Stmt* s : pm.ir->body) {
      const auto* from = dyn_cast<ImportFrom>(s);
      if (!from || from->level != 0) continue;
      for (const ImportAlias& a : from->names)
        imported[pm.file->module_name()][a.asname.empty() ? a.name : a.asname] = {from->module, a.name};
    }
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    defs_.push_back(nodes[i].def);
    index_[nodes[i].def] = i;
  }
  boost::adjacency_list<boost::vecS, boost::vecS, boost::directedS> graph(nodes.size());
  std::vector<bool> self_loop(nodes.size(), false);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = nodes[i];
    const ModuleDefs& defs = by_module[n.module];
    auto add_edge = [&](const FunctionDef* target) {
      auto it = index_.find(target);
      if (it == index_.end()) return;
      if (it->second == i) self_loop[i] = true;
      boost::add_edge(i, it->second, graph);
    };
    CallCollector collector([&](const Call* c) {
      if (const auto* name = dyn_cast<Name>(c->func)) {
        auto f = defs.functions.find(name->id);
        if (f != defs.functions.end()) return add_edge(f->second);
        auto m = imported[n.module].find(name->id);
        if (m != imported[n.module].end()) {
          auto other = by_module.find(m->second.first);
          if (other != by_module.end()) {
            auto g = other->second.functions.find(m->second.second);
            if (g != other->second.functions.end()) add_edge(g->second);
          }
        }
        return;
      }
      if (const auto* attr = dyn_cast<Attribute>(c->func)) {
        const auto* base = dyn_cast<Name>(attr->value);
        if (!base) return;
        std::string cls = base->id == "self" ? n.cls : base->id;
        auto methods = defs.methods.find(cls);
        if (methods == defs.methods.end()) return;
        auto m = methods->second.find(attr->attr);
        if (m != methods->second.end()) add_edge(m->second);
      }
    });
    collector.body(n.def->body);
  }
  component_.assign(nodes.size(), -1);
  if (!nodes.empty()) boost::strong_components(graph, component_.data());
  std::map<int, int> component_size;
  for (int c : component_) ++component_size[c];
  recursive_.assign(nodes.size(), false);
  for (std::size_t i = 0; i < nodes.size(); ++i) recursive_[i] = self_loop[i] || component_size[component_[i]] > 1;
}

int CallGraph::component(const ir::FunctionDef* def) const {
  auto it = index_.find(def);
  return it == index_.end() ? -1 : component_[it->second];
}

bool CallGraph::recursive(const ir::FunctionDef* def) const {
  auto it = index_.find(def);
  return it != index_.end() && recursive_[it->second];
}

}  // namespace gshape::gradual::interp
