// Helpers of the nn rules: module objects, `_pair`-style arguments, reading
// hyperparameters back in forward rules, message pieces, loss reductions.
#include "gradual/rules_nn.h"

#include <iomanip>
#include <sstream>

namespace gshape::gradual {

std::shared_ptr<ObjectValue> new_module(const std::string& cls) { return std::make_shared<ObjectValue>(cls); }

std::vector<IntTerm> int_tuple(RuleContext& ctx, const Arg& a, std::size_t n) {
  std::vector<IntTerm> out;
  if (a.value.is_int() || (a.value.is_bool() && a.value.as_bool().is_constant())) {
    IntTerm t = ctx.int_term(a);
    out.assign(n, t);
    return out;
  }
  if (a.value.is_sequence()) {
    std::vector<Arg> items = ctx.elements(a);
    if (items.size() != n)
      throw NotModelled("'" + a.role + "' has " + std::to_string(items.size()) + " items, expected " + std::to_string(n));
    for (const Arg& item : items) out.push_back(ctx.int_term(item));
    return out;
  }
  if (a.value.is_unknown()) {
    // an int or a tuple: each axis is its own unknown
    for (std::size_t i = 0; i < n; ++i)
      out.push_back(IntTerm::opaque(ctx.fresh(a.role + "[" + std::to_string(i) + "]", false), a.role));
    return out;
  }
  throw NotModelled("'" + a.role + "' is neither an int nor a tuple of ints");
}

Value tuple_value(const std::vector<IntTerm>& terms) {
  std::vector<Value> items;
  for (const IntTerm& t : terms) items.push_back(Value::integer(t.dim()));
  return Value::tuple(std::move(items));
}

std::optional<double> float_constant(const Arg& a) {
  if (a.value.is_float()) return a.value.as_float();
  if (a.value.is_int()) {
    if (auto c = a.value.as_int().constant_value()) return static_cast<double>(*c);
  }
  if (a.value.is_bool() && a.value.as_bool().is_constant()) return a.value.as_bool().is_true() ? 1.0 : 0.0;
  return std::nullopt;
}

std::optional<std::string> str_constant(const Arg& a) {
  if (a.value.is_str()) return a.value.as_str();
  return std::nullopt;
}

const ObjectValue& module_object(const Arg& module) {
  if (!module.value.is_object() || !module.value.as_object()) throw NotModelled("'" + module.role + "' is not a module");
  return *module.value.as_object();
}

const Value* module_field(const Arg& module, const std::string& name) { return module_object(module).attribute(name); }

void require_dropout1d_rank(RuleContext& ctx, const Arg& input) {
  IntTerm rank = ctx.rank(input);
  Message m;
  m << "dropout1d: Expected 2D or 3D input, but received a " << rank << "D input";
  ctx.require("dropout1d_c1", eq(rank, 2) || eq(rank, 3), m);  // dropout1d_c1
}

// (1.13 only warns about other ranks; in evaluation nothing is required)
void require_feature_dropout_rank(RuleContext& ctx, const Arg& input, int min_rank, const BoolTerm& training) {
  Message m;
  m << "Feature dropout requires at least " << IntTerm(min_rank) << " dimensions in the input";
  ctx.require("feature_dropout_c1", !training || ge(ctx.rank(input), min_rank), m);  // feature_dropout_c1
}

BoolTerm training_of(RuleContext& ctx, const Arg& module) {
  IntTerm t = module_int(ctx, module, "training");
  return ne(t, 0);
}

IntTerm module_int(RuleContext& ctx, const Arg& module, const std::string& name) {
  const Value* v = module_field(module, name);
  if (v && v->is_int() && v->as_int().is_constant()) return IntTerm(*v->as_int().constant_value());
  if (v && v->is_bool() && v->as_bool().is_constant()) return IntTerm(v->as_bool().is_true() ? 1 : 0);
  if (module.slot >= 0) return IntTerm(cx::attr(module.slot, name), ctx.attr(module.slot, name));
  Dim d = v && v->is_int() ? v->as_int() : ctx.fresh(module.role + "." + name, false);
  return IntTerm::opaque(d, module.role + "." + name);
}

std::vector<IntTerm> module_ints(const Arg& module, const std::string& name) {
  const Value* v = module_field(module, name);
  if (!v || !v->is_sequence() || !v->items()) throw NotModelled("module attribute '" + name + "' is not a known tuple");
  std::vector<IntTerm> out;
  for (std::size_t i = 0; i < v->items()->size(); ++i) {
    const Value& item = (*v->items())[i];
    if (item.is_int() && item.as_int().is_constant()) {
      out.emplace_back(*item.as_int().constant_value());
    } else if (item.is_int()) {
      out.push_back(IntTerm::opaque(item.as_int(), module.role + "." + name + "[" + std::to_string(i) + "]"));
    } else {
      throw NotModelled("module attribute '" + name + "' holds a non-int");
    }
  }
  return out;
}

bool module_flag(const Arg& module, const std::string& name) {
  const Value* v = module_field(module, name);
  if (v && v->is_bool() && v->as_bool().is_constant()) return v->as_bool().is_true();
  if (v && v->is_int() && v->as_int().is_constant()) return *v->as_int().constant_value() != 0;
  throw NotModelled("module flag '" + name + "' is not a constant");
}

std::optional<std::string> module_str(const Arg& module, const std::string& name) {
  const Value* v = module_field(module, name);
  if (v && v->is_str()) return v->as_str();
  return std::nullopt;
}

BoolTerm settle(RuleContext& ctx, const BoolTerm& c) {
  if (c.pred().is_constant()) return c;
  if (std::optional<bool> known = ctx.query(c.pred())) return BoolTerm(*known);
  return c;
}

void append_tuple(Message& m, const std::vector<IntTerm>& terms) {
  if (terms.size() == 1) {
    m << terms[0];
    return;
  }
  m << "(";
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (i) m << ", ";
    m << terms[i];
  }
  m << ")";
}

std::string float_text(double v) {
  std::ostringstream out;
  out << std::setprecision(12) << v;
  std::string text = out.str();
  if (text.find_first_of(".en") == std::string::npos) text += ".0";
  return text;
}

void append_by(Message& m, const std::vector<IntTerm>& terms) {
  for (std::size_t i = 0; i < terms.size(); ++i) {
    if (i) m << " x ";
    m << terms[i];
  }
}

std::string loss_reduction(RuleContext& ctx, const Arg& reduction, const Arg& size_average, const Arg& reduce,
                           bool batchmean_ok) {
  auto flag = [](const Arg& a) -> std::optional<bool> {
    if (a.is_none()) return true;  // Python's legacy default
    if (a.value.is_bool() && a.value.as_bool().is_constant()) return a.value.as_bool().is_true();
    if (a.value.is_int() && a.value.as_int().is_constant()) return *a.value.as_int().constant_value() != 0;
    return std::nullopt;
  };
  if (!size_average.is_none() || !reduce.is_none()) {
    auto avg = flag(size_average), red = flag(reduce);
    if (!avg || !red) throw NotModelled("size_average/reduce are not constants");
    return *avg && *red ? "mean" : (*red ? "sum" : "none");
  }
  std::optional<std::string> r = str_constant(reduction);
  if (!r) throw NotModelled("the reduction is not a constant string");
  std::string name = *r == "elementwise_mean" ? "mean" : *r;
  bool valid = name == "none" || name == "mean" || name == "sum" || (batchmean_ok && name == "batchmean");
  Message m;
  m << *r << " is not a valid value for reduction";
  ctx.require("reduction_c1", BoolTerm(valid), m);  // reduction_c1
  return valid ? name : "";
}

}  // namespace gshape::gradual
