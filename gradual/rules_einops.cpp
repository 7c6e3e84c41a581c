// einops: rearrange, repeat and reduce, and the Rearrange / Reduce layers.
// The pattern fixes the result's rank and each of its axes as a product of
// input axes and given lengths; the requirements are einops' own (its
// _reconstruct_from_shape), each an obligation:
//   einops_c1  the pattern is valid for the operation (identifiers on the
//              right sides, lengths given for new axes, at most one unknown
//              axis per group): an EinopsError whatever the shapes
//   einops_c2  the input has as many axes as the left side lists (at least
//              as many, with `...`)
//   einops_c3  an axis whose length is known (given, or `1`) has that length
//   einops_c4  a group with one unknown axis divides the input's axis by the
//              product of the known ones
#include <map>
#include <set>

#include "gradual/einops_pattern.h"
#include "gradual/rules.h"
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

enum class EinopsOp { Rearrange, Repeat, Reduce };

const char* op_name(EinopsOp op) {
  switch (op) {
    case EinopsOp::Rearrange: return "rearrange";
    case EinopsOp::Repeat: return "repeat";
    case EinopsOp::Reduce: return "reduce";
  }
  return "einops";
}

// What einops rejects before looking at any shape (einops_c1), or "".
std::string pattern_error(EinopsOp op, const EinopsPattern& p, const std::vector<Arg>& lengths) {
  std::set<std::string> left, right, given;
  for (const std::string& n : p.left.names()) left.insert(n);
  for (const std::string& n : p.right.names()) right.insert(n);
  for (const Arg& a : lengths) given.insert(a.role);
  for (const std::string& g : given)
    if (!left.count(g) && !right.count(g)) return "axis '" + g + "' is not used in the pattern";
  auto anonymous = [](const EinopsSide& side) {
    for (const EinopsElement& e : side.elements)
      for (const EinopsAxis& a : e.parts)
        if (!a.ellipsis && a.name.empty() && a.length != 1) return true;
    return false;
  };
  if (op == EinopsOp::Rearrange) {
    if (anonymous(p.left) || anonymous(p.right)) return "rearrange takes no anonymous axis other than 1";
    if (left != right || p.left.has_ellipsis != p.right.has_ellipsis)
      return "identifiers only on one side of the pattern (rearrange needs them on both)";
  } else if (op == EinopsOp::Repeat) {
    if (anonymous(p.left)) return "repeat takes no anonymous axis other than 1 on the left";
    for (const std::string& n : left)
      if (!right.count(n)) return "axis '" + n + "' is on the left of repeat but not on the right";
    if (p.left.has_ellipsis != p.right.has_ellipsis) return "'...' on one side of repeat only";
    for (const std::string& n : right)
      if (!left.count(n) && !given.count(n)) return "the new axis '" + n + "' of repeat needs a length";
  } else {
    for (const std::string& n : right)
      if (!left.count(n)) return "axis '" + n + "' is on the right of reduce but not on the left";
  }
  for (const EinopsElement& e : p.left.elements) {
    int unknown = 0;
    for (const EinopsAxis& a : e.parts)
      if (a.is_name() && !given.count(a.name)) ++unknown;
    if (e.group && unknown > 1) return "a group on the left has more than one axis of unknown length";
  }
  return {};
}

Value apply_einops(RuleContext& ctx, EinopsOp op, const Arg& input, const std::optional<std::string>& text,
                   const std::vector<Arg>& lengths) {
  if (!text) throw NotModelled("the einops pattern is not a constant string");
  if (input.value.is_sequence()) throw NotModelled("einops of a list of tensors");
  const std::string head = std::string("einops.") + op_name(op) + "('" + *text + "')";
  EinopsParse parsed = parse_einops_pattern(*text);
  std::string error = parsed.error;
  if (error.empty()) error = pattern_error(op, *parsed.pattern, lengths);
  if (!error.empty()) {
    ctx.require("einops_c1", BoolTerm(false), Message(head + ": " + error));  // einops_c1
    return unknown_tensor();
  }
  const EinopsPattern& p = *parsed.pattern;
  std::map<std::string, IntTerm> length;  // every axis whose length is known so far
  for (const Arg& a : lengths) length.emplace(a.role, ctx.int_term(a));

  // einops_c2: the rank the left side spells out
  const int64_t listed = static_cast<int64_t>(p.left.elements.size()) - (p.left.has_ellipsis ? 1 : 0);
  Message m2;
  m2 << head << ": the pattern expects " << (p.left.has_ellipsis ? "at least " : "") << std::to_string(listed)
     << " dimensions, got input of shape " << ctx.shape_hole(input);
  BoolTerm ranked = p.left.has_ellipsis ? ge(ctx.rank(input), listed) : eq(ctx.rank(input), listed);
  if (ctx.require("einops_c2", ranked, m2) == Status::Refuted) return unknown_tensor();  // einops_c2

  const Shape& in = input.shape();
  std::vector<Dim> ellipsis_dims;  // the axes `...` stands for, when the rank is known
  bool ellipsis_known = !p.left.has_ellipsis || in.rank_known();
  std::size_t before = 0;
  for (const EinopsElement& e : p.left.elements) {
    if (e.is_ellipsis()) break;
    ++before;
  }
  const std::size_t after = p.left.elements.size() - before - (p.left.has_ellipsis ? 1 : 0);
  if (p.left.has_ellipsis && in.rank_known()) {
    for (std::size_t i = before; i + after < in.rank(); ++i) ellipsis_dims.push_back(in[i]);
  }
  bool ok = true;
  for (std::size_t i = 0; i < p.left.elements.size(); ++i) {
    const EinopsElement& e = p.left.elements[i];
    if (e.is_ellipsis()) continue;
    // axes before `...` count from the front, those after it from the back
    int64_t axis = i < before ? static_cast<int64_t>(i) : -static_cast<int64_t>(p.left.elements.size() - i);
    IntTerm size = ctx.size(input, axis);
    IntTerm known(1);
    std::optional<std::string> unknown;
    std::string spelled;
    for (const EinopsAxis& a : e.parts) {
      if (!spelled.empty()) spelled += " ";
      if (a.is_name()) {
        spelled += a.name;
        auto it = length.find(a.name);
        if (it == length.end()) {
          unknown = a.name;
        } else {
          known = known * it->second;
        }
      } else {
        spelled += std::to_string(a.length);
        known = known * IntTerm(a.length);
      }
    }
    if (e.group) spelled = "(" + spelled + ")";
    if (!unknown) {
      Message m3;
      m3 << head << ": axis " << std::to_string(axis) << " '" << spelled << "' should have length " << known
         << " but has length " << size << " (input shape " << ctx.shape_hole(input) << ")";
      if (ctx.require("einops_c3", eq(size, known), m3) == Status::Refuted) ok = false;  // einops_c3
      continue;
    }
    if (e.parts.size() == 1) {  // a single axis: its length is the input's
      length.emplace(*unknown, size);
      continue;
    }
    Message m4;
    m4 << head << ": axis " << std::to_string(axis) << " '" << spelled << "' of length " << size
       << " cannot be divided in chunks of " << known << " (input shape " << ctx.shape_hole(input) << ")";
    if (ctx.require("einops_c4", ne(known, 0) && eq(mod(size, known), 0), m4) == Status::Refuted)  // einops_c4
      ok = false;
    length.emplace(*unknown, floordiv(size, known));
  }
  if (!ok || ctx.any_refuted()) return unknown_tensor();
  if (!ellipsis_known) return unknown_tensor();

  std::vector<Dim> out;
  for (const EinopsElement& e : p.right.elements) {
    if (e.is_ellipsis()) {
      out.insert(out.end(), ellipsis_dims.begin(), ellipsis_dims.end());
      continue;
    }
    Dim product(1);
    for (const EinopsAxis& a : e.parts) {
      if (a.ellipsis) {
        for (const Dim& d : ellipsis_dims) product = product * d;
      } else if (a.is_name()) {
        auto it = length.find(a.name);
        product = product * (it == length.end() ? ctx.fresh(a.name) : it->second.dim());
      } else {
        product = product * Dim(a.length);
      }
    }
    out.push_back(product);
  }
  // rearrange's result is a view when it can be (reshape semantics): its
  // layout is not known; repeat and reduce make new tensors
  Value result = Value::tensor(Shape(std::move(out)), op != EinopsOp::Rearrange);
  return result;
}

template <EinopsOp Op>
Value rule_einops(RuleContext& ctx) {
  return apply_einops(ctx, Op, ctx.tensor("tensor"), str_constant(ctx.arg("pattern")), ctx.extra_keywords());
}

// Rearrange(pattern, **axes_lengths) / Reduce(pattern, reduction, **axes_lengths):
// the layer keeps its pattern and lengths; its forward is the function's.
template <EinopsOp Op>
Value rule_einops_layer_init(RuleContext& ctx) {
  auto obj = new_module(Op == EinopsOp::Rearrange ? "einops.layers.torch.Rearrange" : "einops.layers.torch.Reduce");
  obj->attributes["pattern"] = ctx.arg("pattern").value;
  std::vector<Value> names, values;
  for (const Arg& a : ctx.extra_keywords()) {
    names.push_back(Value::string(a.role));
    values.push_back(a.value);
  }
  obj->attributes["_axis_names"] = Value::tuple(std::move(names));
  obj->attributes["_axis_lengths"] = Value::tuple(std::move(values));
  return Value::object(obj);
}

template <EinopsOp Op>
Value rule_einops_layer_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  std::optional<std::string> pattern = module_str(module, "pattern");
  const Value* names = module_field(module, "_axis_names");
  const Value* values = module_field(module, "_axis_lengths");
  if (!names || !values || !names->items() || !values->items()) throw NotModelled("the layer's axis lengths are not known");
  std::vector<Arg> lengths;
  for (std::size_t i = 0; i < names->items()->size(); ++i) {
    const Value& name = (*names->items())[i];
    if (!name.as_str()) throw NotModelled("an axis name is not known");
    lengths.push_back(Arg::of((*values->items())[i], *name.as_str()));
  }
  return apply_einops(ctx, Op, ctx.tensor("input"), pattern, lengths);
}

// pack / unpack patterns: names and exactly one `*` ("b * d").
struct PackPattern {
  std::size_t before = 0, after = 0;  // names before and after the `*`
};

PackPattern pack_pattern(RuleContext& ctx, const std::string& head, const std::optional<std::string>& text) {
  if (!text) throw NotModelled("the einops pattern is not a constant string");
  PackPattern p;
  int stars = 0;
  std::string error;
  std::set<std::string> names;
  std::size_t i = 0;
  while (i < text->size()) {
    char c = (*text)[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '*') {
      ++stars;
      ++i;
    } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      std::size_t j = i;
      while (j < text->size() && (std::isalnum(static_cast<unsigned char>((*text)[j])) || (*text)[j] == '_')) ++j;
      if (!names.insert(text->substr(i, j - i)).second) error = "an axis appears twice";
      ++(stars ? p.after : p.before);
      i = j;
    } else {
      error = std::string("unexpected character '") + c + "' (pack takes names and one '*')";
      break;
    }
  }
  if (stars != 1 && error.empty()) error = "the pattern needs exactly one '*'";
  if (!error.empty()) {
    ctx.require("einops_c1", BoolTerm(false), Message(head + ": " + error));  // einops_c1
    throw NotModelled("invalid pack pattern");
  }
  return p;
}

// einops.pack(tensors, pattern) -> (packed, packed_shapes): each tensor's
// axes matched by `*` are flattened and the tensors concatenated there;
// `einops_pack_c1` every tensor has the named axes, `einops_pack_c2` their
// sizes are the first tensor's (torch.cat's requirement).
Value rule_einops_pack(RuleContext& ctx) {
  Arg list = ctx.arg("tensors");
  std::optional<std::string> text = str_constant(ctx.arg("pattern"));
  const std::string head = "einops.pack('" + text.value_or("?") + "')";
  PackPattern p = pack_pattern(ctx, head, text);
  std::vector<Arg> tensors = ctx.elements(list);
  if (tensors.empty()) throw NotModelled("pack of no tensors");
  const IntTerm named(static_cast<int64_t>(p.before + p.after));
  std::vector<IntTerm> first;  // the named axes of the first tensor
  std::vector<Value> shapes;
  IntTerm total(0);
  bool known = true;
  for (std::size_t k = 0; k < tensors.size(); ++k) {
    Arg t = ctx.as_tensor(tensors[k]);
    Message m1;
    m1 << head << ": " << t.role << " has " << ctx.rank(t) << " dimensions, fewer than the pattern names ("
       << std::to_string(p.before + p.after) << "); its shape is " << ctx.shape_hole(t);
    if (ctx.require("einops_pack_c1", ge(ctx.rank(t), named), m1) == Status::Refuted) return Value::unknown();  // einops_pack_c1
    std::vector<IntTerm> axes;
    for (std::size_t i = 0; i < p.before; ++i) axes.push_back(ctx.size(t, static_cast<int64_t>(i)));
    for (std::size_t i = 0; i < p.after; ++i) axes.push_back(ctx.size(t, -static_cast<int64_t>(p.after - i)));
    if (k == 0) {
      first = axes;
    } else {
      std::vector<BoolTerm> same;
      for (std::size_t i = 0; i < axes.size(); ++i) same.push_back(eq(axes[i], first[i]));
      Message m2;
      m2 << head << ": the named axes of " << t.role << " (shape " << ctx.shape_hole(t)
         << ") must be those of the first tensor (shape " << ctx.shape_hole(ctx.as_tensor(tensors[0])) << ")";
      if (ctx.require("einops_pack_c2", all_of(same), m2) == Status::Refuted) return Value::unknown();  // einops_pack_c2
    }
    const Shape& shape = t.shape();
    if (!shape.rank_known()) {
      known = false;
      continue;
    }
    std::vector<Value> star;
    Dim count(1);
    for (std::size_t i = p.before; i + p.after < shape.rank(); ++i) {
      star.push_back(Value::integer(shape[i]));
      count = count * shape[i];
    }
    shapes.push_back(Value::tuple(std::move(star)));
    total = total + IntTerm::opaque(count, t.role + " packed");
  }
  if (!known) return Value::tuple({unknown_tensor(), Value::unknown()});
  std::vector<Dim> out;
  for (const IntTerm& a : std::vector<IntTerm>(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(p.before)))
    out.push_back(a.dim());
  out.push_back(total.dim());
  for (std::size_t i = p.before; i < first.size(); ++i) out.push_back(first[i].dim());
  return Value::tuple({Value::tensor(Shape(std::move(out))), Value::list(std::move(shapes))});
}

// einops.unpack(tensor, packed_shapes, pattern) -> the tensors pack joined:
// `einops_unpack_c1` the tensor has the named axes and one more,
// `einops_unpack_c2` its `*` axis is the sum of the packed shapes' sizes.
Value rule_einops_unpack(RuleContext& ctx) {
  Arg tensor = ctx.tensor("tensor");
  std::optional<std::string> text = str_constant(ctx.arg("pattern"));
  const std::string head = "einops.unpack('" + text.value_or("?") + "')";
  PackPattern p = pack_pattern(ctx, head, text);
  const int64_t rank = static_cast<int64_t>(p.before + p.after + 1);
  Message m1;
  m1 << head << ": the pattern expects " << std::to_string(rank) << " dimensions, got shape " << ctx.shape_hole(tensor);
  if (ctx.require("einops_unpack_c1", eq(ctx.rank(tensor), rank), m1) == Status::Refuted) return Value::unknown();  // einops_unpack_c1
  const Value& ps = ctx.arg("packed_shapes").value;
  if (!ps.is_sequence() || !ps.items()) throw NotModelled("the packed shapes are not known");
  std::vector<Dim> sizes;  // each packed tensor's `*` size
  std::vector<std::vector<Dim>> stars;
  for (const Value& item : *ps.items()) {
    if (!item.is_sequence() || !item.items()) throw NotModelled("a packed shape is not known");
    std::vector<Dim> dims;
    Dim count(1);
    for (const Value& d : *item.items()) {
      if (!d.is_int()) throw NotModelled("a packed size is not an int");
      dims.push_back(d.as_int());
      count = count * d.as_int();
    }
    sizes.push_back(count);
    stars.push_back(std::move(dims));
  }
  Dim total(0);
  for (const Dim& d : sizes) total = total + d;
  // the sizes come from pack, statically: this requirement is checked only
  // where the analysis followed the pack (no run-time operand holds them)
  Message m2;
  m2 << head << ": the packed axis has length " << ctx.size(tensor, static_cast<int64_t>(p.before))
     << " but the packed shapes add up to " << IntTerm::opaque(total, "the packed shapes' sizes");
  if (ctx.require("einops_unpack_c2", eq(ctx.size(tensor, static_cast<int64_t>(p.before)),
                                       IntTerm::opaque(total, "the packed shapes' sizes")),
                  m2) == Status::Refuted)  // einops_unpack_c2
    return Value::unknown();
  const Shape& in = tensor.shape();
  if (!in.rank_known() || static_cast<int64_t>(in.rank()) != rank) return Value::unknown();
  std::vector<Value> out;
  for (const std::vector<Dim>& star : stars) {
    std::vector<Dim> dims(in.dims().begin(), in.dims().begin() + static_cast<std::ptrdiff_t>(p.before));
    dims.insert(dims.end(), star.begin(), star.end());
    dims.insert(dims.end(), in.dims().end() - static_cast<std::ptrdiff_t>(p.after), in.dims().end());
    out.push_back(Value::tensor(Shape(std::move(dims))));
  }
  return Value::list(std::move(out));
}

}  // namespace

void register_einops_rules(RuleRegistry& r) {
  r.add("einops.pack", "tensors, pattern", rule_einops_pack);
  r.add("einops.unpack", "tensor, packed_shapes, pattern", rule_einops_unpack);
  r.add("einops.rearrange", "tensor, pattern, **axes_lengths", rule_einops<EinopsOp::Rearrange>);
  r.add("einops.repeat", "tensor, pattern, **axes_lengths", rule_einops<EinopsOp::Repeat>);
  r.add("einops.reduce", "tensor, pattern, reduction, **axes_lengths", rule_einops<EinopsOp::Reduce>);
  r.add("einops.layers.torch.Rearrange", "pattern, **axes_lengths", rule_einops_layer_init<EinopsOp::Rearrange>);
  r.add("einops.layers.torch.Rearrange.forward", "self, input", rule_einops_layer_forward<EinopsOp::Rearrange>);
  r.add("einops.layers.torch.Reduce", "pattern, reduction, **axes_lengths", rule_einops_layer_init<EinopsOp::Reduce>);
  r.add("einops.layers.torch.Reduce.forward", "self, input", rule_einops_layer_forward<EinopsOp::Reduce>);
}

}  // namespace gshape::gradual
