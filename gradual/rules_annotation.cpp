// The shape annotation check (annotation_pattern.h): the one rule behind a
// parameter annotation's obligations at a call site, the entry check the
// rewriter puts at the top of an annotated function, and the checks of a
// `return` and of an annotated assignment. Its operands are the annotated
// values in slot order; its name spells the patterns.
//
// Tags: annotation_c1 the rank (the pattern's axis count, or at least its
// fixed axes around a variadic one); annotation_c2 an integer dimension;
// annotation_c3 a name's later uses equal its first (a `#name` may also be
// 1); annotation_c4 an arithmetic dimension equals its value; annotation_c5 a
// `*name` variadic has the same axes wherever it is used.
//
// The result is a tuple with one value per operand: the operand itself when
// its rank is known, else a tensor built from the pattern (names become
// symbols shared by every operand), which is what the analysis assumes
// inside an annotated function.
#include <map>
#include <mutex>

#include "gradual/annotation_pattern.h"
#include "gradual/rules.h"

namespace gshape::gradual {

namespace {

struct Bound {
  IntTerm term;
  std::string from;  // the role that bound it
};

struct Bindings {
  std::map<std::string, Bound> names;
  std::map<std::string, std::pair<std::vector<IntTerm>, std::string>> variadics;
};

std::optional<IntTerm> evaluate(const DimExpr& e, const Bindings& b) {
  switch (e.op) {
    case DimExpr::Op::Literal: return IntTerm(e.value);
    case DimExpr::Op::Name: {
      auto it = b.names.find(e.name);
      if (it == b.names.end()) return std::nullopt;
      return it->second.term;
    }
    default: break;
  }
  auto l = evaluate(*e.lhs, b);
  auto r = evaluate(*e.rhs, b);
  if (!l || !r) return std::nullopt;
  switch (e.op) {
    case DimExpr::Op::Add: return *l + *r;
    case DimExpr::Op::Sub: return *l - *r;
    case DimExpr::Op::Mul: return *l * *r;
    case DimExpr::Op::FloorDiv:
      if (r->dim().is_constant() && r->dim().constant_value() == 0) return std::nullopt;
      return floordiv(*l, *r);
    default: return std::nullopt;
  }
}

// "2 dimensions expected", "at least 1 dimension expected"
std::string rank_expected(const TensorPattern& p) {
  std::size_t k = p.fixed_count();
  return std::string(p.has_variadic() ? "at least " : "") + std::to_string(k) + (k == 1 ? " dimension" : " dimensions") +
         " expected";
}

// The axis a pattern position stands for in a tensor of rank r (known).
int64_t axis_of(const TensorPattern& p, std::size_t j, int64_t r) {
  std::size_t v = p.dims.size();
  for (std::size_t i = 0; i < p.dims.size(); ++i)
    if (p.dims[i].kind == DimPattern::Kind::Variadic) v = i;
  if (j < v) return static_cast<int64_t>(j);
  return r - static_cast<int64_t>(p.dims.size() - j);
}

class AnnotationChecker {
 public:
  AnnotationChecker(RuleContext& ctx) : ctx_(ctx) {}  // NOLINT

  // A given operand: binds the names its axes spell, checks nothing.
  void bind(const AnnotationOperand& o, const Arg& a) {
    if (!a.is_tensor() || !a.shape().rank_known()) return;
    const TensorPattern& p = o.pattern;
    int64_t r = static_cast<int64_t>(a.shape().rank());
    if (p.has_variadic() ? r < static_cast<int64_t>(p.fixed_count()) : r != static_cast<int64_t>(p.dims.size())) return;
    for (std::size_t j = 0; j < p.dims.size(); ++j) {
      const DimPattern& d = p.dims[j];
      if (d.kind == DimPattern::Kind::Name && !d.broadcast && !b_.names.count(d.name)) {
        b_.names.emplace(d.name, Bound{ctx_.size(a, axis_of(p, j, r)), o.role});
      } else if (d.kind == DimPattern::Kind::Variadic && !d.name.empty() && !b_.variadics.count(d.name)) {
        int64_t first = static_cast<int64_t>(j), last = r - static_cast<int64_t>(p.dims.size() - j - 1);
        std::vector<IntTerm> sizes;
        for (int64_t k = first; k < last; ++k) sizes.push_back(ctx_.size(a, k));
        b_.variadics.emplace(d.name, std::make_pair(std::move(sizes), o.role));
      }
    }
  }

  // A checked operand of known rank: every axis against the pattern.
  bool check(const AnnotationOperand& o, const Arg& a) {
    const TensorPattern& p = o.pattern;
    int64_t r = static_cast<int64_t>(a.shape().rank());
    int64_t k = static_cast<int64_t>(p.fixed_count());
    Message m1;
    m1 << o.role << " expects " << p.display() << " but gets " << ctx_.shape_hole(a) << ": ";
    m1 << rank_expected(p);
    IntTerm rank = ctx_.rank(a);
    BoolTerm rank_ok = p.has_variadic() ? ge(rank, k) : eq(rank, k);
    if (ctx_.require("annotation_c1", rank_ok, m1) == Status::Refuted) return false;  // annotation_c1
    if (p.has_variadic() ? r < k : r != k) return false;
    for (std::size_t j = 0; j < p.dims.size(); ++j) {
      const DimPattern& d = p.dims[j];
      switch (d.kind) {
        case DimPattern::Kind::Anonymous: break;
        case DimPattern::Kind::Literal: {
          IntTerm s = ctx_.size(a, axis_of(p, j, r));
          Message m = head(o, a);
          m << "dimension " << std::to_string(axis_of(p, j, r)) << " is " << s << " instead of "
            << std::to_string(d.value);
          ctx_.require("annotation_c2", eq(s, d.value), m);  // annotation_c2
          break;
        }
        case DimPattern::Kind::Name: {
          IntTerm s = ctx_.size(a, axis_of(p, j, r));
          auto it = b_.names.find(d.name);
          if (it == b_.names.end()) {
            if (!d.broadcast) b_.names.emplace(d.name, Bound{s, o.role});
            break;
          }
          Message m = head(o, a);
          m << "dimension " << std::to_string(axis_of(p, j, r)) << " is " << s << " but " << d.name << " = "
            << it->second.term;
          if (it->second.from != o.role) m << " (from " << it->second.from << ")";
          BoolTerm c = d.broadcast ? (eq(s, 1) || eq(s, it->second.term)) : eq(s, it->second.term);
          ctx_.require("annotation_c3", c, m);  // annotation_c3
          break;
        }
        case DimPattern::Kind::Expr:
          exprs_.push_back({&o, a, j});
          break;
        case DimPattern::Kind::Variadic: {
          if (d.name.empty()) break;
          int64_t first = static_cast<int64_t>(j), last = r - static_cast<int64_t>(p.dims.size() - j - 1);
          std::vector<IntTerm> sizes;
          for (int64_t x = first; x < last; ++x) sizes.push_back(ctx_.size(a, x));
          auto it = b_.variadics.find(d.name);
          if (it == b_.variadics.end()) {
            b_.variadics.emplace(d.name, std::make_pair(std::move(sizes), o.role));
            break;
          }
          const std::vector<IntTerm>& want = it->second.first;
          Message m = head(o, a);
          m << "*" << d.name << " has " << std::to_string(sizes.size()) << (sizes.size() == 1 ? " dimension" : " dimensions")
            << " here but " << std::to_string(want.size()) << " in " << it->second.second;
          if (ctx_.require("annotation_c5", BoolTerm(sizes.size() == want.size()), m) == Status::Refuted) break;  // annotation_c5
          for (std::size_t x = 0; x < sizes.size(); ++x) {
            Message mx = head(o, a);
            mx << "dimension " << std::to_string(first + static_cast<int64_t>(x)) << " is " << sizes[x] << " but *"
               << d.name << " has " << want[x] << " there (from " << it->second.second << ")";
            ctx_.require("annotation_c5", eq(sizes[x], want[x]), mx);  // annotation_c5
          }
          break;
        }
      }
    }
    return true;
  }

  // Arithmetic dimensions, once every operand has bound its names.
  void check_expressions() {
    for (const PendingExpr& e : exprs_) {
      const TensorPattern& p = e.operand->pattern;
      const DimPattern& d = p.dims[e.index];
      std::optional<IntTerm> want = evaluate(*d.expr, b_);
      if (!want) continue;  // a name no operand binds: any size
      int64_t r = static_cast<int64_t>(e.arg.shape().rank());
      IntTerm s = ctx_.size(e.arg, axis_of(p, e.index, r));
      Message m = head(*e.operand, e.arg);
      m << "dimension " << std::to_string(axis_of(p, e.index, r)) << " is " << s << " but " << d.name << " = " << *want;
      BoolTerm c = d.broadcast ? (eq(s, 1) || eq(s, *want)) : eq(s, *want);
      ctx_.require("annotation_c4", c, m);  // annotation_c4
    }
  }

  // The shape an operand of unknown rank is assumed to have after its check.
  Value assumed(const AnnotationOperand& o) {
    const TensorPattern& p = o.pattern;
    std::vector<Dim> before, after;
    bool variadic = false, variadic_known = false;
    std::vector<Dim> middle;
    for (const DimPattern& d : p.dims) {
      std::vector<Dim>& out = variadic ? after : before;
      switch (d.kind) {
        case DimPattern::Kind::Literal: out.push_back(Dim::constant(d.value)); break;
        case DimPattern::Kind::Anonymous: out.push_back(ctx_.fresh(d.name)); break;
        case DimPattern::Kind::Name: {
          if (d.broadcast) {
            out.push_back(ctx_.fresh(d.name));
            break;
          }
          auto it = b_.names.find(d.name);
          if (it == b_.names.end()) {
            Dim s = ctx_.fresh(d.name);
            b_.names.emplace(d.name, Bound{IntTerm::opaque(s, d.name), o.role});
            out.push_back(s);
          } else {
            out.push_back(it->second.term.dim());
          }
          break;
        }
        case DimPattern::Kind::Expr: {
          std::optional<IntTerm> v = evaluate(*d.expr, b_);
          out.push_back(v ? v->dim() : ctx_.fresh(d.name));
          break;
        }
        case DimPattern::Kind::Variadic: {
          variadic = true;
          auto it = d.name.empty() ? b_.variadics.end() : b_.variadics.find(d.name);
          if (it != b_.variadics.end()) {
            variadic_known = true;
            for (const IntTerm& t : it->second.first) middle.push_back(t.dim());
          }
          break;
        }
      }
    }
    if (!variadic || variadic_known) {
      std::vector<Dim> all = before;
      all.insert(all.end(), middle.begin(), middle.end());
      all.insert(all.end(), after.begin(), after.end());
      return Value::tensor(Shape::of(std::move(all)), false);  // any layout: its origin is not known
    }
    if (before.empty()) return Value::tensor(Shape::unknown_with_suffix(std::move(after)), false);
    return Value::tensor(Shape::unknown(), false);
  }

 private:
  Message head(const AnnotationOperand& o, const Arg& a) {
    Message m;
    m << o.role << " expects " << o.pattern.display() << " but gets " << ctx_.shape_hole(a) << ": ";
    return m;
  }
  struct PendingExpr {
    const AnnotationOperand* operand;
    Arg arg;
    std::size_t index;
  };
  RuleContext& ctx_;
  Bindings b_;
  std::vector<PendingExpr> exprs_;
};

// "a list", "an int", ... for a value that is not a tensor.
std::string kind_of(const Value& v) {
  if (v.is_bool()) return "a bool";
  if (v.is_int()) return "an int";
  if (v.is_float()) return "a float";
  if (v.is_str()) return "a string";
  if (v.is_sequence()) return "a sequence";
  if (v.is_object() && v.as_object()) return "an object of type " + v.as_object()->class_name;
  return "a value that is not a tensor";
}

Value rule_shape_annotation(RuleContext& ctx) {
  std::optional<AnnotationCheck> check = parse_annotation_rule_name(ctx.rule_name());
  if (!check) throw NotModelled("a malformed shape annotation");
  std::vector<Arg> args = ctx.elements(ctx.arg("operands"));
  if (args.size() != check->operands.size()) throw NotModelled("the annotation check has a different operand count");
  for (std::size_t i = 0; i < args.size(); ++i) {  // for reasons, symbols and messages
    args[i].role = check->operands[i].role;
    if (args[i].slot >= 0) ctx.set_role(args[i].slot, check->operands[i].role);
  }
  AnnotationChecker checker(ctx);
  std::vector<Value> out(args.size());
  std::vector<bool> is_tensor(args.size(), false);
  bool ok = true;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const Value& v = args[i].value;
    if (v.is_tensor() || v.is_unknown()) {
      is_tensor[i] = true;
    } else if (!check->operands[i].given && !v.is_none()) {
      // jaxtyping's Tensor annotations admit tensors only (None stays
      // allowed: `mask: Float[Tensor, "b t"] = None` is everywhere)
      Message m;
      m << check->operands[i].role << " expects a tensor " << check->operands[i].pattern.display() << " but gets "
        << kind_of(v);
      if (ctx.require("annotation_c1", BoolTerm(false), m) == Status::Refuted) ok = false;  // annotation_c1
    }
    if (check->operands[i].given) checker.bind(check->operands[i], args[i]);
  }
  // operands of known rank bind names before those whose rank is not known
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (check->operands[i].given || !is_tensor[i]) continue;
    Arg t = ctx.as_tensor(args[i]);
    if (t.shape().rank_known()) ok = checker.check(check->operands[i], t) && ok;
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (check->operands[i].given || !is_tensor[i]) {
      out[i] = args[i].value;
      continue;
    }
    Arg t = ctx.as_tensor(args[i]);
    if (t.shape().rank_known()) {
      out[i] = t.value;
      continue;
    }
    const TensorPattern& p = check->operands[i].pattern;
    Message m;
    m << check->operands[i].role << " expects " << p.display() << " but gets " << ctx.shape_hole(t) << ": "
      << rank_expected(p);
    IntTerm rank = ctx.rank(t);
    int64_t k = static_cast<int64_t>(p.fixed_count());
    ctx.require("annotation_c1", p.has_variadic() ? ge(rank, k) : eq(rank, k), m);  // annotation_c1
    out[i] = checker.assumed(check->operands[i]);
  }
  checker.check_expressions();
  if (!ok) return Value::unknown();
  return Value::tuple(std::move(out));
}

}  // namespace

const Rule* annotation_rule(std::string_view name) {
  static std::mutex mutex;
  static std::map<std::string, std::unique_ptr<Rule>, std::less<>> rules;
  if (!is_annotation_rule(name)) return nullptr;
  std::lock_guard<std::mutex> lock(mutex);
  auto it = rules.find(name);
  if (it != rules.end()) return it->second.get();
  if (!parse_annotation_rule_name(name)) return nullptr;
  auto rule = std::make_unique<Rule>(Rule{std::string(name), Signature::parse("*operands"), rule_shape_annotation});
  const Rule* out = rule.get();
  rules.emplace(std::string(name), std::move(rule));
  return out;
}

}  // namespace gshape::gradual
