#include "auto_plan.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <tuple>

#include "gradual/constraint.h"

namespace gshape::testing {

using namespace gshape::ir;

namespace {

class Planner {
 public:
  Planner(const Module& module, const AutoPlanOptions& options) : options_(options) {
    plan_.path = module.file().path();
    body(module.body);
    std::stable_sort(plan_.sites.begin(), plan_.sites.end(), [](const auto& a, const auto& b) {
      return std::tie(a.begin, a.end) < std::tie(b.begin, b.end);
    });
  }
  codegen::FilePlan take() { return std::move(plan_); }

 private:
  void add_site(const Node* at, const std::vector<SourceLoc>& operand_locs) {
    if (operand_locs.empty()) return;
    codegen::SitePlan site;
    site.begin = at->loc.begin;
    site.end = at->loc.end;
    site.line = at->loc.line;
    site.col = at->loc.column;
    for (std::size_t k = 0; k < operand_locs.size(); ++k) {
      codegen::OperandPlan op;
      op.slot = static_cast<int>(k);
      op.begin = operand_locs[k].begin;
      op.end = operand_locs[k].end;
      op.description = "operand " + std::to_string(k);
      site.operands.push_back(op);
    }
    codegen::CheckPlan check;
    check.line = site.line;
    check.col = site.col;
    check.tag = "auto_c1";
    check.constraint = "(true)";
    check.message = "always holds";
    check.obligation_id = next_obligation_++;
    for (std::size_t k = 0; k < operand_locs.size(); ++k) check.slots.push_back(static_cast<int>(k));
    const Override* override_here = nullptr;
    for (const Override& o : options_.overrides) {
      if (o.line == site.line && o.col == site.col) override_here = &o;
    }
    if (override_here) {
      check.constraint = override_here->constraint;
      check.message = override_here->message;
      check.tag = override_here->tag;
      for (const std::string& name : override_here->slot_names) {
        check.slot_names.push_back(name.empty() ? std::nullopt : std::optional<std::string>(name));
      }
      if (override_here->only_slots_read) {
        gradual::CExpr parsed = gradual::parse_sexpr(check.constraint);
        check.slots = parsed ? gradual::slots_of(parsed) : std::vector<int>{};
      }
    } else if (options_.only_overrides) {
      return;
    }
    site.checks.push_back(std::move(check));
    plan_.sites.push_back(std::move(site));
  }

  void body(const Body& stmts) {
    for (const Stmt* s : stmts) stmt(s);
  }

  void stmt(const Stmt* s) {
    switch (s->kind) {
      case Kind::FunctionDef: {
        const auto* f = cast<FunctionDef>(s);
        for (const Expr* d : f->decorators) expr(d);
        for (const Parameter& p : f->params) {
          expr(p.default_value);
          expr(p.annotation);
        }
        expr(f->returns);
        body(f->body);
        break;
      }
      case Kind::ClassDef: {
        const auto* c = cast<ClassDef>(s);
        for (const Expr* d : c->decorators) expr(d);
        for (const Argument& b : c->bases) expr(b.value);
        body(c->body);
        break;
      }
      case Kind::Assign: {
        const auto* a = cast<Assign>(s);
        for (const Expr* t : a->targets) expr(t);
        expr(a->value);
        break;
      }
      case Kind::AugAssign: {
        const auto* a = cast<AugAssign>(s);
        if (options_.aug_assigns) add_site(s, {a->target->loc, a->value->loc});
        expr(a->target);
        expr(a->value);
        break;
      }
      case Kind::AnnAssign: {
        const auto* a = cast<AnnAssign>(s);
        expr(a->target);
        expr(a->annotation);
        expr(a->value);
        break;
      }
      case Kind::ExprStmt: expr(cast<ExprStmt>(s)->value); break;
      case Kind::If:
        expr(cast<If>(s)->test);
        body(cast<If>(s)->body);
        body(cast<If>(s)->orelse);
        break;
      case Kind::For:
        expr(cast<For>(s)->target);
        expr(cast<For>(s)->iter);
        body(cast<For>(s)->body);
        body(cast<For>(s)->orelse);
        break;
      case Kind::While:
        expr(cast<While>(s)->test);
        body(cast<While>(s)->body);
        body(cast<While>(s)->orelse);
        break;
      case Kind::With:
        for (const WithItem& item : cast<With>(s)->items) {
          expr(item.context);
          expr(item.target);
        }
        body(cast<With>(s)->body);
        break;
      case Kind::Try: {
        const auto* t = cast<Try>(s);
        body(t->body);
        for (const ExceptHandler& h : t->handlers) {
          expr(h.type);
          body(h.body);
        }
        body(t->orelse);
        body(t->finalbody);
        break;
      }
      case Kind::Return: expr(cast<Return>(s)->value); break;
      case Kind::Raise: expr(cast<Raise>(s)->exc); expr(cast<Raise>(s)->cause); break;
      case Kind::Assert: expr(cast<Assert>(s)->test); expr(cast<Assert>(s)->msg); break;
      case Kind::Delete:
        for (const Expr* t : cast<Delete>(s)->targets) expr(t);
        break;
      default: break;
    }
  }

  void expr(const Expr* e) {
    if (!e) return;
    switch (e->kind) {
      case Kind::Call: {
        const auto* c = cast<Call>(e);
        if (options_.calls) {
          std::vector<SourceLoc> locs;
          const auto* attr = dyn_cast<Attribute>(c->func);
          locs.push_back(attr ? attr->value->loc : c->func->loc);  // the receiver, or the callee
          for (const Argument& a : c->args) locs.push_back(a.loc);  // keyword and star: the whole argument
          add_site(e, locs);
        }
        expr(c->func);
        for (const Argument& a : c->args) expr(a.value);
        break;
      }
      case Kind::BinOp: {
        const auto* b = cast<BinOp>(e);
        if (options_.binops) add_site(e, {b->left->loc, b->right->loc});
        expr(b->left);
        expr(b->right);
        break;
      }
      case Kind::Subscript: {
        const auto* s = cast<Subscript>(e);
        if (options_.subscripts) add_site(e, {s->value->loc, s->index->loc});
        expr(s->value);
        expr(s->index);
        break;
      }
      case Kind::FString: for (const Expr* v : cast<FString>(e)->values) expr(v); break;
      case Kind::Attribute: expr(cast<Attribute>(e)->value); break;
      case Kind::Slice:
        expr(cast<Slice>(e)->lower);
        expr(cast<Slice>(e)->upper);
        expr(cast<Slice>(e)->step);
        break;
      case Kind::UnaryOp: expr(cast<UnaryOp>(e)->operand); break;
      case Kind::Compare:
        expr(cast<Compare>(e)->left);
        for (const Expr* x : cast<Compare>(e)->comparators) expr(x);
        break;
      case Kind::BoolOp: for (const Expr* x : cast<BoolOp>(e)->values) expr(x); break;
      case Kind::IfExp:
        expr(cast<IfExp>(e)->test);
        expr(cast<IfExp>(e)->body);
        expr(cast<IfExp>(e)->orelse);
        break;
      case Kind::Lambda:
        for (const Parameter& p : cast<Lambda>(e)->params) expr(p.default_value);
        expr(cast<Lambda>(e)->body);
        break;
      case Kind::ListComp: case Kind::SetComp: case Kind::GeneratorExp: {
        const auto* c = static_cast<const ComprehensionExpr*>(e);
        for (const Comprehension& g : c->generators) {
          expr(g.target);
          expr(g.iter);
          for (const Expr* x : g.ifs) expr(x);
        }
        expr(c->elt);
        break;
      }
      case Kind::DictComp: {
        const auto* c = cast<DictComp>(e);
        for (const Comprehension& g : c->generators) {
          expr(g.target);
          expr(g.iter);
          for (const Expr* x : g.ifs) expr(x);
        }
        expr(c->key);
        expr(c->value);
        break;
      }
      case Kind::List: case Kind::Tuple: case Kind::Set:
        for (const Expr* x : static_cast<const SequenceExpr*>(e)->elts) expr(x);
        break;
      case Kind::Dict:
        for (const Expr* x : cast<Dict>(e)->keys) expr(x);
        for (const Expr* x : cast<Dict>(e)->values) expr(x);
        break;
      case Kind::Starred: expr(cast<Starred>(e)->value); break;
      case Kind::NamedExpr: expr(cast<NamedExpr>(e)->target); expr(cast<NamedExpr>(e)->value); break;
      case Kind::Await: expr(cast<Await>(e)->value); break;
      case Kind::Yield: expr(cast<Yield>(e)->value); break;
      default: break;
    }
  }

  const AutoPlanOptions& options_;
  codegen::FilePlan plan_;
  int next_obligation_ = 0;
};

}  // namespace

codegen::FilePlan plan_every_operation(const Module& module, const AutoPlanOptions& options) {
  Planner planner(module, options);
  return planner.take();
}

}  // namespace gshape::testing
