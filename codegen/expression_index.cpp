// One walk over the IR in Python's evaluation order, recording each
// expression's role, context and rank.
#include "codegen/expression_index.h"

#include <algorithm>
#include <string_view>

#include "gradual/operator_rules.h"

namespace gshape::codegen {

using namespace gshape::ir;

class IndexBuilder {
 public:
  IndexBuilder(ExpressionIndex& index, std::string_view text) : index_(index), text_(text) {}

  void body(const Body& stmts) {
    for (const Stmt* s : stmts) stmt(s);
  }

 private:
  struct Context {
    ExprRole role = ExprRole::Load;
    bool self_documenting = false;
    bool annotation = false;
  };

  // Records `e` after its operands (post-order = completion order).
  void record(const Expr* e, const Context& ctx, const Expr* aug_value = nullptr) {
    ExprInfo info;
    info.node = e;
    info.begin = e->loc.begin;
    info.end = e->loc.end;
    info.eval_rank = next_rank_++;
    info.role = ctx.role;
    info.in_self_documenting_fstring = ctx.self_documenting;
    info.in_annotation = ctx.annotation;
    info.is_slice = e->kind == Kind::Slice || (e->kind == Kind::Tuple && holds_slice(cast<Tuple>(e)));
    info.aug_value = aug_value;
    switch (e->kind) {
      case Kind::Tuple: case Kind::NamedExpr: case Kind::Lambda: case Kind::IfExp: case Kind::Yield:
        info.needs_parentheses = true;
        break;
      default:
        break;
    }
    if (e->kind == Kind::Call) index_.call_begins_.push_back(info.begin);
    // Children are recorded first; an enclosing node with the same range
    // replaces them: the outermost wins.
    index_.by_range_.insert_or_assign(ExpressionIndex::key(info.begin, info.end), info);
  }

  static bool holds_slice(const Tuple* t) {
    return std::any_of(t->elts.begin(), t->elts.end(), [](const Expr* x) { return x && x->kind == Kind::Slice; });
  }

  void alias(const SourceLoc& from, const Expr* to) {
    if (!to || (from.begin == to->loc.begin && from.end == to->loc.end)) return;
    index_.aliases_.emplace(ExpressionIndex::key(from.begin, from.end), ExpressionIndex::key(to->loc.begin, to->loc.end));
  }

  void load(const Expr* e) { expr(e, Context()); }

  void annotation(const Expr* e) {
    Context ctx;
    ctx.annotation = true;
    expr(e, ctx);
  }

  // A target of an assignment (`role` Store), `del` (Delete) or augmented
  // assignment (AugTarget). Attribute and subscript targets read their parts.
  void target(const Expr* e, ExprRole role, const Expr* aug_value = nullptr) {
    if (!e) return;
    Context ctx;
    ctx.role = role;
    switch (e->kind) {
      case Kind::Tuple: case Kind::List:
        for (const Expr* elt : cast<SequenceExpr>(e)->elts) target(elt, role);
        break;
      case Kind::Starred:
        target(cast<Starred>(e)->value, role);
        break;
      case Kind::Attribute:
        load(cast<Attribute>(e)->value);
        break;
      case Kind::Subscript:
        load(cast<Subscript>(e)->value);
        load(cast<Subscript>(e)->index);
        break;
      default:
        break;
    }
    record(e, ctx, aug_value);
  }

  // A call or operator the rewriter may check (never inside an annotation or
  // a `{expr=}` field, whose text or evaluation must not change).
  void site(const Expr* e, const Context& ctx) {
    if (!ctx.annotation && !ctx.self_documenting) index_.sites_.push_back(e);
  }

  void expr(const Expr* e, const Context& ctx) {
    if (!e) return;
    Context inner = ctx;
    inner.role = ExprRole::Load;
    switch (e->kind) {
      case Kind::Name: case Kind::Constant:
        break;
      case Kind::OpaqueExpr:
        if (cast<OpaqueExpr>(e)->too_deep) index_.too_deep_.push_back({e->loc.begin, e->loc.end});
        break;
      case Kind::FString: {
        const auto* f = cast<FString>(e);
        for (const Expr* value : f->values) {
          Context field = inner;
          field.self_documenting = ctx.self_documenting || is_self_documenting(value);
          expr(value, field);
        }
        break;
      }
      case Kind::Attribute:
        expr(cast<Attribute>(e)->value, inner);
        if (!gradual::tensor_attribute_rule(cast<Attribute>(e)->attr, true).empty()) site(e, ctx);  // `x.mT`
        break;
      case Kind::Subscript: {
        const Expr* index = cast<Subscript>(e)->index;
        expr(cast<Subscript>(e)->value, inner);
        expr(index, inner);
        site(e, ctx);  // an index holding a slice is read through `_gshape_rt.index[...]`
        break;
      }
      case Kind::Slice: {
        const auto* s = cast<Slice>(e);
        expr(s->lower, inner);
        expr(s->upper, inner);
        expr(s->step, inner);
        break;
      }
      case Kind::Call:
        call(cast<Call>(e), inner);
        site(e, ctx);
        break;
      case Kind::BinOp:
        expr(cast<BinOp>(e)->left, inner);
        expr(cast<BinOp>(e)->right, inner);
        site(e, ctx);
        break;
      case Kind::UnaryOp:
        expr(cast<UnaryOp>(e)->operand, inner);
        site(e, ctx);  // `not x` converts x to bool (operator.truth)
        break;
      case Kind::Compare: {
        const auto* c = cast<Compare>(e);
        expr(c->left, inner);
        for (const Expr* x : c->comparators) expr(x, inner);
        if (c->ops.size() == 1 && is_comparison(c->ops.front())) site(e, ctx);
        break;
      }
      case Kind::BoolOp:
        for (const Expr* x : cast<BoolOp>(e)->values) expr(x, inner);
        break;
      case Kind::IfExp: {
        const auto* i = cast<IfExp>(e);
        expr(i->test, inner);
        expr(i->body, inner);
        expr(i->orelse, inner);
        if (!gradual::truth_test_rule(i->test).empty()) site(e, ctx);  // the test converted to bool
        break;
      }
      case Kind::Lambda: {
        const auto* l = cast<Lambda>(e);
        parameters(l->params, inner);
        expr(l->body, inner);  // runs later, when called; ranked here for completeness
        break;
      }
      case Kind::ListComp: case Kind::SetComp: case Kind::GeneratorExp: {
        const auto* c = static_cast<const ComprehensionExpr*>(e);
        generators(c->generators, inner);
        expr(c->elt, inner);
        break;
      }
      case Kind::DictComp: {
        const auto* c = cast<DictComp>(e);
        generators(c->generators, inner);
        expr(c->key, inner);
        expr(c->value, inner);
        break;
      }
      case Kind::List: case Kind::Tuple: case Kind::Set:
        for (const Expr* x : static_cast<const SequenceExpr*>(e)->elts) expr(x, inner);
        break;
      case Kind::Dict: {
        const auto* d = cast<Dict>(e);
        for (std::size_t i = 0; i < d->values.size(); ++i) {
          if (i < d->keys.size()) expr(d->keys[i], inner);
          expr(d->values[i], inner);
        }
        break;
      }
      case Kind::Starred: {
        const Expr* value = cast<Starred>(e)->value;
        expr(value, inner);
        alias(e->loc, value);  // `*a` as an operand: wrap inside the star
        break;
      }
      case Kind::NamedExpr: {
        const auto* n = cast<NamedExpr>(e);
        expr(n->value, inner);
        target(n->target, ExprRole::Store);
        break;
      }
      case Kind::Await:
        expr(cast<Await>(e)->value, inner);
        break;
      case Kind::Yield:
        expr(cast<Yield>(e)->value, inner);
        break;
      default:
        break;
    }
    record(e, ctx);
  }

  // CPython evaluates the function, then positional and `*` arguments in
  // order, then keyword and `**` arguments in order (`f(k=a(), *b())` calls
  // b first).
  void call(const Call* c, const Context& ctx) {
    expr(c->func, ctx);
    for (int pass = 0; pass < 2; ++pass) {
      for (const Argument& arg : c->args) {
        bool positional = arg.type == Argument::Type::Positional || arg.type == Argument::Type::Star;
        if (positional != (pass == 0)) continue;
        expr(arg.value, ctx);
        alias(arg.loc, arg.value);
      }
    }
    if (c->args.size() == 1 && c->args[0].value && c->args[0].value->kind == Kind::GeneratorExp && c->func) {
      const Expr* gen = c->args[0].value;
      // The generator owns the call's parentheses when no `(` precedes it.
      std::string_view between = slice(c->func->loc.end, gen->loc.begin);
      if (between.find('(') == std::string_view::npos) generator_arguments_.push_back(gen);
    }
  }

  void parameters(const std::vector<Parameter>& params, const Context& ctx) {
    for (const Parameter& p : params) expr(p.default_value, ctx);
    for (const Parameter& p : params) annotation(p.annotation);
  }

  void generators(const std::vector<Comprehension>& gens, const Context& ctx) {
    for (const Comprehension& g : gens) {
      expr(g.iter, ctx);
      target(g.target, ExprRole::Store);
      for (const Expr* cond : g.ifs) expr(cond, ctx);
    }
  }

  void stmt(const Stmt* s) {
    if (!s) return;
    switch (s->kind) {
      case Kind::FunctionDef: {
        const auto* f = cast<FunctionDef>(s);
        for (const Expr* d : f->decorators) load(d);
        parameters(f->params, Context());
        annotation(f->returns);
        body(f->body);
        break;
      }
      case Kind::ClassDef: {
        const auto* c = cast<ClassDef>(s);
        for (const Expr* d : c->decorators) load(d);
        for (const Argument& b : c->bases) {
          load(b.value);
          alias(b.loc, b.value);
        }
        body(c->body);
        break;
      }
      case Kind::Assign: {
        const auto* a = cast<Assign>(s);
        load(a->value);
        for (const Expr* t : a->targets) target(t, ExprRole::Store);
        // `x[i] = v`: a site (operator.setitem) reading x, i and v; `a, b = v`
        // (operator.unpack2) reading v
        if (a->targets.size() == 1 && (a->targets.front()->kind == Kind::Subscript ||
                                       a->targets.front()->kind == Kind::Tuple || a->targets.front()->kind == Kind::List))
          index_.sites_.push_back(s);
        break;
      }
      case Kind::AugAssign: {
        const auto* a = cast<AugAssign>(s);
        target(a->target, ExprRole::AugTarget, a->value);
        load(a->value);
        index_.sites_.push_back(s);
        break;
      }
      case Kind::AnnAssign: {
        const auto* a = cast<AnnAssign>(s);
        load(a->value);
        target(a->target, ExprRole::Store);
        annotation(a->annotation);
        break;
      }
      case Kind::ExprStmt: load(cast<ExprStmt>(s)->value); break;
      case Kind::If: {
        const auto* i = cast<If>(s);
        load(i->test);
        if (!gradual::truth_test_rule(i->test).empty()) index_.sites_.push_back(s);  // the test converted to bool
        body(i->body);
        body(i->orelse);
        break;
      }
      case Kind::For: {
        const auto* f = cast<For>(s);
        load(f->iter);
        if (!gradual::iter_unpack_rule(f->target).empty()) index_.sites_.push_back(s);  // `for a, b in items`
        target(f->target, ExprRole::Store);
        body(f->body);
        body(f->orelse);
        break;
      }
      case Kind::While: {
        const auto* w = cast<While>(s);
        load(w->test);
        if (!gradual::truth_test_rule(w->test).empty()) index_.sites_.push_back(s);
        body(w->body);
        body(w->orelse);
        break;
      }
      case Kind::With: {
        const auto* w = cast<With>(s);
        for (const WithItem& item : w->items) {
          load(item.context);
          target(item.target, ExprRole::Store);
        }
        body(w->body);
        break;
      }
      case Kind::Try: {
        const auto* t = cast<Try>(s);
        body(t->body);
        for (const ExceptHandler& h : t->handlers) {
          load(h.type);
          body(h.body);
        }
        body(t->orelse);
        body(t->finalbody);
        break;
      }
      case Kind::Return: load(cast<Return>(s)->value); break;
      case Kind::Raise: {
        const auto* r = cast<Raise>(s);
        load(r->exc);
        load(r->cause);
        break;
      }
      case Kind::Assert: {
        const auto* a = cast<Assert>(s);
        load(a->test);
        if (!gradual::truth_test_rule(a->test).empty()) index_.sites_.push_back(s);
        load(a->msg);
        break;
      }
      case Kind::Delete:
        for (const Expr* t : cast<Delete>(s)->targets) target(t, ExprRole::Delete);
        break;
      default:
        break;  // import, pass, break, continue, global, nonlocal, opaque
    }
  }

 public:
  void finish() {
    std::sort(index_.call_begins_.begin(), index_.call_begins_.end());
    for (const Expr* gen : generator_arguments_) {
      auto it = index_.by_range_.find(ExpressionIndex::key(gen->loc.begin, gen->loc.end));
      if (it != index_.by_range_.end()) it->second.is_call_generator_argument = true;
    }
  }

 private:
  std::string_view slice(uint32_t begin, uint32_t end) const {
    if (begin > end || end > text_.size()) return {};
    return text_.substr(begin, end - begin);
  }

  // `{value=}` / `{value = !r}`: the field prints the expression's text.
  bool is_self_documenting(const Expr* value) const {
    if (!value) return false;
    std::size_t i = value->loc.end;
    while (i < text_.size() && (text_[i] == ' ' || text_[i] == '\t' || text_[i] == '\n' || text_[i] == '\r')) ++i;
    return i < text_.size() && text_[i] == '=' && (i + 1 >= text_.size() || text_[i + 1] != '=');
  }

  ExpressionIndex& index_;
  std::string_view text_;
  uint32_t next_rank_ = 0;
  std::vector<const Expr*> generator_arguments_;
};

ExpressionIndex::ExpressionIndex(const ir::Module& module) {
  IndexBuilder builder(*this, module.file().text());
  builder.body(module.body);
  builder.finish();
}

const ExprInfo* ExpressionIndex::find(uint32_t begin, uint32_t end) const {
  uint64_t k = key(begin, end);
  auto alias = aliases_.find(k);
  if (alias != aliases_.end() && by_range_.find(k) == by_range_.end()) k = alias->second;
  auto it = by_range_.find(k);
  if (it == by_range_.end()) return nullptr;
  // A starred element resolves to what it unpacks.
  if (it->second.node->kind == Kind::Starred) {
    const Expr* value = cast<Starred>(it->second.node)->value;
    if (value) {
      auto inner = by_range_.find(key(value->loc.begin, value->loc.end));
      if (inner != by_range_.end() && it->second.role == ExprRole::Load) return &inner->second;
    }
  }
  return &it->second;
}

}  // namespace gshape::codegen
