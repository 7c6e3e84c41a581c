// Rules for what the interpreter models itself but PyTorch still checks:
// indexing a tensor (operator.getitem), size queries (Tensor.size) and
// TensorDataset's construction. They are registered check-only: the
// interpreter applies them for their obligations and computes the value its
// own way (symbols bound to the receiver, dataset objects); the runtime
// checks them like any rule.
#include "gradual/rules.h"

namespace gshape::gradual {
namespace {

// TensorDataset(*tensors): `tensordataset_c1` every tensor has an axis,
// `tensordataset_c2` their first axes are the first tensor's.
Value rule_tensor_dataset(RuleContext& ctx) {
  std::vector<Arg> ts;
  for (const Arg& a : ctx.elements(ctx.arg("tensors"))) ts.push_back(ctx.as_tensor(a));
  for (std::size_t i = 0; i < ts.size(); ++i) {
    Message m;
    m << "TensorDataset needs tensors with a first dimension, got tensor " << std::to_string(i) << " of shape "
      << ctx.shape_hole(ts[i]);
    if (ctx.require("tensordataset_c1", ge(ctx.rank(ts[i]), 1), m) == Status::Refuted) return Value::unknown();  // tensordataset_c1
  }
  for (std::size_t i = 1; i < ts.size(); ++i) {
    Message m;
    m << "Size mismatch between tensors: TensorDataset's tensors must have the same first dimension, but tensor 0 has "
      << ctx.size(ts[0], 0) << " and tensor " << std::to_string(i) << " has " << ctx.size(ts[i], 0);
    ctx.require("tensordataset_c2", eq(ctx.size(ts[0], 0), ctx.size(ts[i], 0)), m);  // tensordataset_c2
  }
  return Value::unknown();
}

// x.size(dim): `size_c1` dim in range (a 0-d tensor has no dim to ask for).
Value rule_size(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  if (!ctx.provided("dim") || ctx.is_none("dim")) return Value::unknown();
  Arg dim = ctx.arg("dim");
  if (!ctx.is_int(dim)) throw NotModelled("size(dim) with a dim that is not an int");
  // of unknown rank statically: no obligation (the site is checked at run time)
  if (!input.shape().rank_known()) return Value::unknown();
  require_dim(ctx, "size_c1", input, ctx.int_term(dim), false);  // size_c1
  return Value::unknown();
}

// What one item of an index is: an int (or bool), None (a new axis), `...`,
// a slice, or something else (a tensor, a list: advanced indexing).
enum class IndexItem { Int, NewAxis, Ellipsis, Slice, Other };

IndexItem item_kind(const Value& v) {
  if (v.is_int() || v.is_bool()) return IndexItem::Int;
  if (v.is_none()) return IndexItem::NewAxis;
  if (v.is_object() && v.as_object()) {
    if (v.as_object()->class_name == "builtins.ellipsis") return IndexItem::Ellipsis;
    if (v.as_object()->class_name == "builtins.slice") return IndexItem::Slice;
  }
  return IndexItem::Other;
}

// tensor[index] with basic indexing: `getitem_c1` no more indices than axes,
// `getitem_c2` every integer index within its axis. Advanced indexing (a
// tensor, a list) is not modelled past its position.
Value rule_getitem(RuleContext& ctx) {
  Arg input = ctx.arg("input");
  if (!input.is_tensor()) throw NotModelled("indexing something that is not a tensor");
  Arg index = ctx.arg("index");
  std::vector<Arg> items;
  if (index.value.is_sequence() && index.value.sequence_kind() == SequenceKind::Tuple) {
    items = ctx.elements(index);
  } else {
    items.push_back(index);
  }
  std::size_t consumed = 0, ellipses = 0;
  for (const Arg& it : items) {
    IndexItem k = item_kind(it.value);
    if (k == IndexItem::Other) throw NotModelled("advanced indexing");
    if (k == IndexItem::Int || k == IndexItem::Slice) ++consumed;
    if (k == IndexItem::Ellipsis) ++ellipses;
  }
  if (ellipses > 1) throw NotModelled("several ellipses");  // an IndexError of Python's own, not a shape's
  const Shape& s = input.shape();
  // of unknown rank statically: no obligation (the site is checked at run time)
  if (!s.rank_known() && s.known_suffix().empty()) return Value::unknown();
  Message m1;
  m1 << "too many indices for tensor of dimension " << ctx.rank(input) << ": " << std::to_string(consumed)
     << " indices into shape " << ctx.shape_hole(input);
  if (ctx.require("getitem_c1", le(IntTerm(static_cast<int64_t>(consumed)), ctx.rank(input)), m1) == Status::Refuted)  // getitem_c1
    return Value::unknown();
  // the axis each integer index reads: counted from the front before an
  // ellipsis, from the back after it
  bool after_ellipsis = false;
  int64_t from_front = 0, from_back = 0;
  for (const Arg& it : items) {
    if (item_kind(it.value) == IndexItem::Ellipsis) after_ellipsis = true;
    else if (after_ellipsis && item_kind(it.value) != IndexItem::NewAxis) ++from_back;
  }
  after_ellipsis = false;
  int64_t back = from_back;
  for (const Arg& it : items) {
    IndexItem k = item_kind(it.value);
    if (k == IndexItem::Ellipsis) {
      after_ellipsis = true;
      continue;
    }
    if (k == IndexItem::NewAxis) continue;
    int64_t axis = after_ellipsis ? -(back--) : from_front++;
    if (k != IndexItem::Int) continue;
    if (!s.rank_known() && axis >= 0) continue;  // the axis is not known from the front
    IntTerm i = ctx.int_term(it);
    IntTerm n = ctx.size(input, axis);
    Message m2;
    m2 << "index " << i << " is out of bounds for dimension " << std::to_string(axis) << " with size " << n;
    ctx.require("getitem_c2", ge(i, -n) && lt(i, n), m2);  // getitem_c2
  }
  return Value::unknown();
}

}  // namespace

void register_python_rules(RuleRegistry& r) {
  r.add_check("torch.utils.data.TensorDataset", "*tensors", rule_tensor_dataset);
  r.add_check("torch.utils.data.dataset.TensorDataset", "*tensors", rule_tensor_dataset);
  r.add_check("Tensor.size", "input, dim=None", rule_size);
  r.add_check("operator.getitem", "input, index", rule_getitem);
}

}  // namespace gshape::gradual
