// Rules for what the interpreter models itself but PyTorch still checks:
// indexing a tensor and assigning into it (operator.getitem,
// operator.setitem), size queries (Tensor.size) and
// TensorDataset's construction. They are registered check-only: the
// interpreter applies them for their obligations and computes the value its
// own way (symbols bound to the receiver, dataset objects); the runtime
// checks them like any rule.
#include <functional>

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

// What one item of an index is: an int, None (a new axis), `...`, a slice,
// or an advanced index: a Python bool, an int64 tensor or a list of ints
// (positions), a bool or uint8 tensor or a list of bools (a mask).
enum class IndexItem { Int, NewAxis, Ellipsis, Slice, Bool, Positions, Mask, Other };

IndexItem item_kind(const Value& v) {
  if (v.is_int()) return IndexItem::Int;
  if (v.is_bool()) return IndexItem::Bool;
  if (v.is_none()) return IndexItem::NewAxis;
  if (v.is_object() && v.as_object()) {
    if (v.as_object()->class_name == "builtins.ellipsis") return IndexItem::Ellipsis;
    if (v.as_object()->class_name == "builtins.slice") return IndexItem::Slice;
  }
  if (v.is_tensor()) {
    if (v.dtype() == Dtype::Bool || v.dtype() == Dtype::Uint8) return IndexItem::Mask;
    if (v.dtype() == Dtype::Int64) return IndexItem::Positions;
  }
  return IndexItem::Other;
}

// Whether PyTorch 1.13 reads a list index as a tuple of indices
// (treatSequenceAsTuple: fewer than 32 items, one of them a tensor, a
// sequence, a slice, None or `...`): `x[[idx0, idx1]]` is `x[idx0, idx1]`.
bool list_is_tuple(const Value& v) {
  if (!v.is_sequence() || v.sequence_kind() != SequenceKind::List) return false;
  if (!v.items()) {
    if (v.element() && (v.element()->is_int() || v.element()->is_bool())) return false;
    throw NotModelled("a list index whose items are not known");
  }
  if (v.items()->size() >= 32) return false;
  for (const Value& it : *v.items()) {
    if (it.is_unknown()) throw NotModelled("a list index with an item that is not known");
    if (it.is_tensor() || it.is_sequence() || it.is_none()) return true;
    IndexItem k = item_kind(it);
    if (k == IndexItem::Slice || k == IndexItem::Ellipsis) return true;
  }
  return false;
}

// The items of an index: a tuple's elements (or a list PyTorch reads as a
// tuple), else the index itself. Counts the items that consume an axis of a
// basic index; `advanced` tells whether one is an advanced index.
std::vector<Arg> index_items(RuleContext& ctx, const Arg& index, std::size_t& consumed, bool& advanced) {
  std::vector<Arg> items;
  if (index.value.is_sequence() &&
      (index.value.sequence_kind() == SequenceKind::Tuple || list_is_tuple(index.value))) {
    items = ctx.elements(index);
  } else {
    items.push_back(index);
  }
  consumed = 0;
  advanced = false;
  std::size_t ellipses = 0;
  for (const Arg& it : items) {
    IndexItem k = item_kind(it.value);
    if (k == IndexItem::Int || k == IndexItem::Slice) ++consumed;
    if (k == IndexItem::Ellipsis) ++ellipses;
    if (k != IndexItem::Int && k != IndexItem::Slice && k != IndexItem::Ellipsis && k != IndexItem::NewAxis)
      advanced = true;
  }
  if (ellipses > 1) throw NotModelled("several ellipses");  // an IndexError of Python's own, not a shape's
  return items;
}

// PyTorch's checks of a basic index into `input`: `<op>_c1` no more indices
// than axes, `<op>_c2` every integer index within its axis. False when the
// index cannot be checked (rank unknown, or c1 refuted).
bool check_basic_index(RuleContext& ctx, const std::string& op, const Arg& input, const std::vector<Arg>& items,
                       std::size_t consumed) {
  const Shape& s = input.shape();
  // of unknown rank statically: no obligation (the site is checked at run time)
  if (!s.rank_known() && s.known_suffix().empty()) return false;
  Message m1;
  m1 << "too many indices for tensor of dimension " << ctx.rank(input) << ": " << std::to_string(consumed)
     << " indices into shape " << ctx.shape_hole(input);
  if (ctx.require(op + "_c1", le(IntTerm(static_cast<int64_t>(consumed)), ctx.rank(input)), m1) == Status::Refuted)  // _c1
    return false;
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
    ctx.require(op + "_c2", ge(i, -n) && lt(i, n), m2);  // _c2
  }
  return true;
}

std::optional<std::vector<IntTerm>> advanced_index_sizes(RuleContext& ctx, const std::string& op, const Arg& input,
                                                         const std::vector<Arg>& items);

// tensor[index]: with basic indexing `getitem_c1`, `getitem_c2` as
// check_basic_index, and the interpreter computes the value itself; with an
// advanced index, advanced_index_sizes' checks and the result, which the
// interpreter takes. A torch.Size indexed by an int: `getitem_c3`.
Value rule_getitem(RuleContext& ctx) {
  Arg input = ctx.arg("input");
  if (input.value.is_sequence() && input.value.sequence_kind() == SequenceKind::Size) {
    // `x.shape[4]`: `getitem_c3` an int index within the torch.Size
    Arg index = ctx.arg("index");
    if (!index.value.is_int()) throw NotModelled("indexing a torch.Size by something that is not an int");
    IntTerm i = ctx.int_term(index);
    IntTerm n = ctx.len(input);
    Message m;
    m << "tuple index out of range: index " << i << " of a torch.Size of length " << n;
    ctx.require("getitem_c3", ge(i, -n) && lt(i, n), m);  // getitem_c3
    return Value::unknown();
  }
  if (!input.is_tensor()) throw NotModelled("indexing something that is not a tensor");
  std::size_t consumed = 0;
  bool advanced = false;
  std::vector<Arg> items = index_items(ctx, ctx.arg("index"), consumed, advanced);
  if (!advanced) {
    check_basic_index(ctx, "getitem", input, items, consumed);
    return Value::unknown();  // the interpreter computes a basic index's value
  }
  // of unknown rank statically: no obligation (the site is checked at run time)
  if (!input.shape().rank_known()) return unknown_tensor();
  std::optional<std::vector<IntTerm>> sizes = advanced_index_sizes(ctx, "getitem", input, items);
  if (!sizes) return Value::unknown();
  return Value::tensor(shape_of_terms(*sizes), false);  // a copy, laid out as PyTorch pleases
}

// An int bound of a slice as a term; nullopt for None.
std::optional<IntTerm> slice_bound(RuleContext& ctx, const ObjectValue& slice, const std::string& name) {
  const Value* v = slice.attribute(name);
  if (!v) throw NotModelled("a slice whose bounds are not known");
  if (v->is_none()) return std::nullopt;
  if (!v->is_int()) throw NotModelled("a slice bound that is not known to be an int");
  if (auto c = v->as_int().constant_value()) return IntTerm(*c);
  return ctx.int_term(Arg::of(*v, "slice." + name));
}

// Python's slice.indices(n) for one bound: a negative bound counts from the
// end, and both ends are clamped to [0, n].
IntTerm clamp_bound(RuleContext& ctx, const IntTerm& b, const IntTerm& n) {
  std::optional<bool> nonneg = b.dim().nonneg() ? std::optional<bool>(true) : ctx.query(ge(b.dim(), Dim(0)));
  auto below_n = [&](const IntTerm& x) { return ctx.query(le(x.dim(), n.dim())) == true ? x : min(x, n); };
  if (nonneg == true) return below_n(b);
  if (nonneg == false) return max(b + n, 0);
  return ite(lt(b, 0), max(b + n, 0), below_n(b));
}

// The length of `slice` on an axis of n, as `len(range(n)[slice])`.
IntTerm slice_length(RuleContext& ctx, const ObjectValue& slice, const IntTerm& n) {
  int64_t step = 1;
  if (auto st = slice_bound(ctx, slice, "step")) {
    if (!st->is_literal() || !st->dim().constant_value()) throw NotModelled("a slice step that is not a constant");
    step = *st->dim().constant_value();
    if (step <= 0) throw NotModelled("a slice step that is not positive");  // a ValueError of its own
  }
  auto start = slice_bound(ctx, slice, "start");
  auto stop = slice_bound(ctx, slice, "stop");
  IntTerm from = start ? clamp_bound(ctx, *start, n) : IntTerm(0);
  IntTerm to = stop ? clamp_bound(ctx, *stop, n) : n;
  IntTerm diff = to - from;
  IntTerm len = ctx.query(ge(diff.dim(), Dim(0))) == true ? diff : max(diff, 0);
  return step == 1 ? len : floordiv(len + (step - 1), step);
}

// The sizes of input[index] for a basic index into a tensor of known rank.
std::vector<IntTerm> basic_index_sizes(RuleContext& ctx, const Arg& input, const std::vector<Arg>& items,
                                       std::size_t consumed) {
  std::size_t rank = input.shape().rank();
  std::size_t fill = rank - std::min(consumed, rank);
  std::vector<IntTerm> out;
  int64_t k = 0;
  for (const Arg& it : items) {
    switch (item_kind(it.value)) {
      case IndexItem::Ellipsis:
        for (; fill > 0; --fill) out.push_back(ctx.size(input, k++));
        break;
      case IndexItem::Slice:
        out.push_back(slice_length(ctx, *it.value.as_object(), ctx.size(input, k++)));
        break;
      case IndexItem::Int: ++k; break;
      case IndexItem::NewAxis: out.emplace_back(1); break;
      case IndexItem::Bool:
      case IndexItem::Positions:
      case IndexItem::Mask:
      case IndexItem::Other: break;  // not a basic index
    }
  }
  for (; k < static_cast<int64_t>(rank); ++k) out.push_back(ctx.size(input, k));
  return out;
}

// ---- advanced indexing (numpy-style, as PyTorch 1.13's applySlicing, then
// at::index's expandTensors and its result shape)

// One index tensor as at::index receives it: its sizes, or a mask's.
struct AdvancedIndex {
  std::size_t position = 0;     // the axis of the sliced tensor it stands at
  bool mask = false;
  std::vector<IntTerm> sizes;   // its shape
  std::string shown;            // how messages name it
};

// The sizes of an advanced index item of known rank: a tensor's shape, a
// (rectangular) nested list's lengths, or the length of a list of unknown
// length. NotModelled for what PyTorch would read otherwise.
std::vector<IntTerm> advanced_sizes(RuleContext& ctx, const Arg& item) {
  if (item.is_tensor()) {
    if (!item.shape().rank_known()) throw NotModelled("an index tensor of unknown rank");
    return ctx.sizes(item);
  }
  const Value& v = item.value;
  if (!v.items()) return {ctx.len(item)};  // a list of ints of unknown length
  std::vector<IntTerm> out{IntTerm(static_cast<int64_t>(v.items()->size()))};
  if (v.items()->empty() || !v.items()->front().is_sequence()) return out;
  // a nested list: every item a list of the same lengths
  std::vector<IntTerm> inner;
  bool first = true;
  for (const Arg& sub : ctx.elements(item)) {
    if (!sub.value.is_sequence() || !sub.value.items()) throw NotModelled("a ragged nested list as an index");
    std::vector<IntTerm> s = advanced_sizes(ctx, sub);
    if (!first && s.size() != inner.size()) throw NotModelled("a ragged nested list as an index");
    for (std::size_t i = 0; !first && i < s.size(); ++i)
      if (s[i].dim().constant_value() != inner[i].dim().constant_value() || !s[i].dim().constant_value())
        throw NotModelled("a ragged nested list as an index");
    inner = s;
    first = false;
  }
  out.insert(out.end(), inner.begin(), inner.end());
  return out;
}

// What a list (or tuple) inside an index is to PyTorch (torch.tensor of it):
// positions when every leaf is an int, a mask when every leaf is a bool.
IndexItem list_kind(const Value& v) {
  if (!v.items()) return v.element() && v.element()->is_int() ? IndexItem::Positions : IndexItem::Other;
  if (v.items()->empty()) return IndexItem::Positions;  // an empty list is an empty int64 tensor
  bool ints = true, bools = true;
  std::function<void(const Value&)> scan = [&](const Value& x) {
    if (x.is_sequence() && x.items()) {
      for (const Value& i : *x.items()) scan(i);
    } else {
      ints = ints && x.is_int();
      bools = bools && x.is_bool();
    }
  };
  scan(v);
  return ints ? IndexItem::Positions : bools ? IndexItem::Mask : IndexItem::Other;
}

// `op`[index] with at least one advanced index into a tensor of known rank:
// PyTorch's checks as obligations, `<op>_c1` no more indices than axes,
// `<op>_c2` an int index within its axis, `<op>_c5` a mask's shape equals
// the axes it indexes, `<op>_c6` the index tensors broadcast together.
// Returns the result's sizes, nullopt when a check is refuted. A mask's
// count of true elements is data: a fresh size, unknown at run time too.
std::optional<std::vector<IntTerm>> advanced_index_sizes(RuleContext& ctx, const std::string& op, const Arg& input,
                                                         const std::vector<Arg>& items) {
  const std::size_t r = input.shape().rank();
  // each item's kind, with the lists and 0-d tensors read as PyTorch reads them
  struct Item {
    IndexItem kind;
    Arg arg;
    bool scalar = false;  // a 0-d tensor: an int64 one selects, a bool one acts as a Python bool
  };
  std::vector<Item> parsed;
  std::size_t specified = 0;  // count_specified_dimensions: a mask counts its rank
  for (const Arg& it : items) {
    Item x{item_kind(it.value), it};
    if (x.kind == IndexItem::Other && it.value.is_sequence()) x.kind = list_kind(it.value);
    if (x.kind == IndexItem::Other) {
      if (it.value.is_tensor() && it.value.dtype() == Dtype::Unknown)
        throw NotModelled("an index tensor whose dtype is not known (a mask or positions)");
      if (it.value.is_tensor()) throw NotModelled("an index tensor that is neither bool, uint8 nor int64");
      throw NotModelled("an index item that is not known");
    }
    if (it.value.is_tensor()) {
      if (!it.shape().rank_known()) throw NotModelled("an index tensor of unknown rank");
      x.scalar = it.shape().rank() == 0;
    }
    switch (x.kind) {
      case IndexItem::Int:
      case IndexItem::Slice:
      case IndexItem::Positions: ++specified; break;
      case IndexItem::Mask: specified += it.value.is_tensor() ? it.shape().rank() : 1; break;
      default: break;
    }
    parsed.push_back(std::move(x));
  }
  auto too_many = [&](std::size_t n) {
    Message m;
    m << "too many indices for tensor of dimension " << ctx.rank(input) << ": " << std::to_string(n)
      << " indices into shape " << ctx.shape_hole(input);
    return ctx.require(op + "_c1", le(IntTerm(static_cast<int64_t>(n)), ctx.rank(input)), m) != Status::Refuted;  // _c1
  };
  if (!too_many(specified)) return std::nullopt;

  // applySlicing: ints select, slices narrow, None and bools add an axis,
  // index tensors are recorded at the axis they stand at (a mask advances
  // one axis only, as PyTorch 1.13 does)
  std::vector<IntTerm> cur = ctx.sizes(input);
  std::vector<AdvancedIndex> recorded;
  std::size_t dim = 0;
  auto need_axis = [&]() {
    if (dim >= cur.size()) throw NotModelled("an index past the last axis");
  };
  for (const Item& x : parsed) {
    switch (x.kind) {
      case IndexItem::Int: {
        need_axis();
        IntTerm i = ctx.int_term(x.arg);
        const IntTerm n = cur[dim];
        Message m2;
        m2 << "index " << i << " is out of bounds for dimension " << std::to_string(static_cast<int64_t>(dim))
           << " with size " << n;
        if (ctx.require(op + "_c2", ge(i, -n) && lt(i, n), m2) == Status::Refuted) return std::nullopt;  // _c2
        cur.erase(cur.begin() + static_cast<std::ptrdiff_t>(dim));
        break;
      }
      case IndexItem::Slice:
        need_axis();
        cur[dim] = slice_length(ctx, *x.arg.value.as_object(), cur[dim]);
        ++dim;
        break;
      case IndexItem::NewAxis:
        cur.insert(cur.begin() + static_cast<std::ptrdiff_t>(dim), IntTerm(1));
        ++dim;
        break;
      case IndexItem::Ellipsis: dim += r - std::min(specified, r); break;
      case IndexItem::Bool:
      case IndexItem::Mask:
      case IndexItem::Positions: {
        if (x.kind == IndexItem::Positions && x.scalar) {  // a 0-d int64 tensor selects (its value is data)
          need_axis();
          cur.erase(cur.begin() + static_cast<std::ptrdiff_t>(dim));
          break;
        }
        AdvancedIndex a;
        a.position = dim;
        a.shown = x.arg.role;
        if (x.kind == IndexItem::Bool || x.scalar) {
          // a Python bool or a 0-d mask: a new axis of 1, indexed by [0] (true) or [] (false)
          cur.insert(cur.begin() + static_cast<std::ptrdiff_t>(dim), IntTerm(1));
          if (x.kind == IndexItem::Bool) {
            if (!x.arg.value.as_bool().is_constant()) throw NotModelled("a symbolic bool as an index");
            a.sizes = {IntTerm(x.arg.value.as_bool().is_true() ? 1 : 0)};
          } else {
            a.sizes = {IntTerm::opaque(ctx.fresh("mask_count"), "the count of true elements of " + x.arg.role)};
          }
        } else {
          need_axis();
          a.mask = x.kind == IndexItem::Mask;
          a.sizes = advanced_sizes(ctx, x.arg);
        }
        recorded.push_back(std::move(a));
        ++dim;
        break;
      }
      case IndexItem::Other: break;
    }
  }

  // at::index: no more index tensors (a mask's axes each) than axes; a
  // constant condition, stated only when it fails
  auto fits = [&](std::size_t n) {
    if (n <= cur.size()) return true;
    Message m;
    m << "too many indices for tensor of dimension " << std::to_string(static_cast<int64_t>(cur.size())) << ": "
      << std::to_string(static_cast<int64_t>(n)) << " index tensors (a mask counts its axes) into shape ";
    append_list(m, cur);
    ctx.require(op + "_c1", le(IntTerm(static_cast<int64_t>(n)), IntTerm(static_cast<int64_t>(cur.size()))), m);  // _c1
    return false;
  };
  // expandTensors: a mask of rank k at list position p checks its shape
  // against axes p .. p+k-1 and becomes k position tensors of its count of
  // true elements; the later indices move k-1 places on
  std::vector<std::optional<std::vector<IntTerm>>> indices;  // by axis; nullopt: the axis is not indexed
  std::size_t next = 0;
  for (const AdvancedIndex& a : recorded) {
    // the axes before it that nothing indexes
    for (; next < a.position; ++next) indices.emplace_back(std::nullopt);
    ++next;
    if (!a.mask) {
      indices.emplace_back(a.sizes);
      continue;
    }
    std::size_t base = indices.size();
    if (!fits(base + a.sizes.size())) return std::nullopt;  // the mask reaches past the last axis
    std::vector<BoolTerm> same;
    std::vector<IntTerm> indexed(cur.begin() + static_cast<std::ptrdiff_t>(base),
                                 cur.begin() + static_cast<std::ptrdiff_t>(base + a.sizes.size()));
    for (std::size_t j = 0; j < a.sizes.size(); ++j) same.push_back(eq(a.sizes[j], indexed[j]));
    Message m5;
    m5 << "the shape of the mask ";
    append_list(m5, a.sizes);
    m5 << " at index " << std::to_string(static_cast<int64_t>(base)) << " does not match the shape of the indexed tensor ";
    append_list(m5, cur);
    m5 << ": the mask must have the shape of the axes it indexes, ";
    append_list(m5, indexed);
    if (!same.empty() && ctx.require(op + "_c5", all_of(same), m5) == Status::Refuted) return std::nullopt;  // _c5
    IntTerm count = IntTerm::opaque(ctx.fresh("mask_count"), "the count of true elements of " + a.shown);
    for (std::size_t j = 0; j < a.sizes.size(); ++j) indices.emplace_back(std::vector<IntTerm>{count});
  }
  if (!fits(indices.size())) return std::nullopt;

  // the index tensors broadcast together (at::index: `<op>_c6`)
  std::vector<IntTerm> shape;
  bool first = true;
  std::vector<std::vector<IntTerm>> all;
  for (const auto& idx : indices)
    if (idx) all.push_back(*idx);
  for (const std::vector<IntTerm>& b : all) {
    if (first) {
      shape = b;
      first = false;
      continue;
    }
    std::size_t n = std::max(shape.size(), b.size());
    std::vector<IntTerm> out(n, IntTerm(1));
    for (std::size_t k = 0; k < n; ++k) {  // k counts axes from the right
      std::size_t axis = n - 1 - k;
      if (k >= shape.size()) {
        out[axis] = b[b.size() - 1 - k];
        continue;
      }
      if (k >= b.size()) {
        out[axis] = shape[shape.size() - 1 - k];
        continue;
      }
      const IntTerm& x = shape[shape.size() - 1 - k];
      const IntTerm& y = b[b.size() - 1 - k];
      Message m6;
      m6 << "shape mismatch: indexing tensors could not be broadcast together with shapes ";
      append_list(m6, shape);
      m6 << ", ";
      append_list(m6, b);
      if (ctx.require(op + "_c6", eq(x, y) || eq(x, 1) || eq(y, 1), m6) == Status::Refuted) return std::nullopt;  // _c6
      out[axis] = ite(eq(x, 1), y, x);
    }
    shape = std::move(out);
  }

  // the result: the broadcast shape where the indexed axes stand when they
  // are adjacent, else in front; the other axes in order
  std::size_t lo = indices.size(), hi = 0;
  for (std::size_t i = 0; i < indices.size(); ++i)
    if (indices[i]) {
      lo = std::min(lo, i);
      hi = i;
    }
  bool adjacent = true;
  for (std::size_t i = lo; i <= hi && i < indices.size(); ++i) adjacent = adjacent && indices[i].has_value();
  std::vector<IntTerm> result;
  if (lo >= indices.size()) return cur;  // nothing left to index (cannot happen: a recorded index is there)
  if (adjacent) {
    result.assign(cur.begin(), cur.begin() + static_cast<std::ptrdiff_t>(lo));
    result.insert(result.end(), shape.begin(), shape.end());
    result.insert(result.end(), cur.begin() + static_cast<std::ptrdiff_t>(hi + 1), cur.end());
  } else {
    result = shape;
    for (std::size_t i = 0; i < cur.size(); ++i)
      if (i >= indices.size() || !indices[i]) result.push_back(cur[i]);
  }
  return result;
}

// tensor[index] = value, as torch 1.13's setitem: `setitem_c1`,
// `setitem_c2` (and with an advanced index `setitem_c5`, `setitem_c6`) the
// index checks of getitem; then the value, a number or a tensor, is copied
// into the indexed part (index_put_ for an advanced index): a tensor's
// leading axes of size 1 are dropped and the rest broadcast to the part's
// shape, so `setitem_c3` its extra leading axes are 1 and `setitem_c4` each
// of its other axes is 1 or the part's size there.
Value rule_setitem(RuleContext& ctx) {
  Arg input = ctx.arg("input");
  if (!input.is_tensor()) throw NotModelled("assigning into something that is not a tensor");
  std::size_t consumed = 0;
  bool advanced = false;
  std::vector<Arg> items = index_items(ctx, ctx.arg("index"), consumed, advanced);
  if (!advanced && !check_basic_index(ctx, "setitem", input, items, consumed)) return Value::unknown();
  // of unknown rank statically: checked at run time, where ranks are known
  if (advanced && !input.shape().rank_known()) return Value::unknown();
  std::vector<IntTerm> part;
  if (advanced) {
    // index_put_: the index's own checks, then the value against the indexed part
    std::optional<std::vector<IntTerm>> sizes = advanced_index_sizes(ctx, "setitem", input, items);
    if (!sizes) return Value::unknown();
    part = std::move(*sizes);
  }
  Arg value = ctx.arg("value");
  if (value.value.is_int() || value.value.is_bool() || value.value.is_float()) return Value::unknown();  // fills
  if (!value.is_tensor()) throw NotModelled("a value that is not known to be a tensor or a number");
  // of unknown rank statically: checked at run time, where ranks are known
  if (!input.shape().rank_known() || !value.shape().rank_known()) return Value::unknown();
  if (!advanced) part = basic_index_sizes(ctx, input, items, consumed);
  std::size_t rv = value.shape().rank(), rp = part.size();
  auto mismatch = [&]() {
    Message m;
    m << "shape mismatch: value tensor of shape " << ctx.shape_hole(value) << " cannot be broadcast to indexing result of shape ";
    append_list(m, part);
    return m;
  };
  std::vector<BoolTerm> leading, aligned;
  for (std::size_t i = 0; i + rp < rv; ++i) leading.push_back(eq(ctx.size(value, static_cast<int64_t>(i)), 1));
  for (std::size_t j = 0; j < std::min(rv, rp); ++j) {
    IntTerm v = ctx.size(value, static_cast<int64_t>(rv - 1 - j));
    aligned.push_back(eq(v, 1) || eq(v, part[rp - 1 - j]));
  }
  if (!leading.empty() && ctx.require("setitem_c3", all_of(leading), mismatch()) == Status::Refuted)  // setitem_c3
    return Value::unknown();
  if (!aligned.empty()) ctx.require("setitem_c4", all_of(aligned), mismatch());  // setitem_c4
  return Value::unknown();
}

// `a, b, c = value` of a tensor or of a sequence holding tensors (the
// pieces of chunk/split/unbind), with the count in the rule's name
// (`operator.unpack3`): `unpack_c1` as many values as names. A tensor
// unpacks along its first axis (`unpack_c2`: it has one). Python raises a
// ValueError (a TypeError for a 0-d tensor); sequences of other values are
// Python's own business and not modelled.
Value rule_unpack(RuleContext& ctx) {
  const std::string& name = ctx.rule_name();
  const int64_t n = std::stoll(name.substr(name.find_first_of("0123456789")));
  Arg value = ctx.arg("value");
  IntTerm count = 0;
  if (value.is_tensor()) {
    Message m2;
    m2 << "iteration over a 0-d tensor";
    if (ctx.require("unpack_c2", ge(ctx.rank(value), 1), m2) == Status::Refuted) return Value::unknown();  // unpack_c2
    count = ctx.size(value, 0);
  } else if (value.value.is_sequence() && value.value.sequence_kind() != SequenceKind::Size) {
    bool tensors = value.value.element() && value.value.element()->is_tensor();
    if (value.value.items())
      for (const Value& item : *value.value.items()) tensors = tensors || item.is_tensor();
    if (!tensors) throw NotModelled("unpacking a sequence that holds no tensor");
    count = ctx.len(value);
  } else {
    throw NotModelled("unpacking something that is not a tensor or a sequence of tensors");
  }
  Message m1;
  m1 << "wrong number of values to unpack (expected " << std::to_string(n) << ", got " << count << ")";
  ctx.require("unpack_c1", eq(count, n), m1);  // unpack_c1
  return Value::unknown();
}

// `for a, b, c in items` (`operator.iter_unpack3`), checked once on the
// iterable: a tensor iterates along its first axis (`iter_unpack_c2`: it has
// one), each item a row that unpacks along its own first axis
// (`iter_unpack_c3`: the rows have an axis, `iter_unpack_c1`: as many
// values as names), unless there are no rows; a sequence's tensors each
// unpack into the names. Sequences of other values, iterators and
// generators are Python's own business (not read: reading would consume them).
Value rule_iter_unpack(RuleContext& ctx) {
  const std::string& name = ctx.rule_name();
  const int64_t n = std::stoll(name.substr(name.find_first_of("0123456789")));
  Arg items = ctx.arg("items");
  auto too_many = [&](const IntTerm& count) {
    Message m;
    m << "each item of the loop unpacks into " << std::to_string(n) << " names but holds " << count << " values";
    return m;
  };
  if (items.is_tensor()) {
    Message m2;
    m2 << "iteration over a 0-d tensor";
    if (ctx.require("iter_unpack_c2", ge(ctx.rank(items), 1), m2) == Status::Refuted) return Value::unknown();  // iter_unpack_c2
    IntTerm rows = ctx.size(items, 0);
    Message m3;
    m3 << "iteration over a 0-d tensor: the rows of a tensor of shape " << ctx.shape_hole(items)
       << " have no axis to unpack";
    if (ctx.require("iter_unpack_c3", eq(rows, 0) || ge(ctx.rank(items), 2), m3) == Status::Refuted)  // iter_unpack_c3
      return Value::unknown();
    if (items.shape().rank_known() && items.shape().rank() < 2) return Value::unknown();
    ctx.require("iter_unpack_c1", eq(rows, 0) || eq(ctx.size(items, 1), n), too_many(ctx.size(items, 1)));  // iter_unpack_c1
    return Value::unknown();
  }
  if (!items.value.is_sequence() || items.value.sequence_kind() == SequenceKind::Size)
    throw NotModelled("iterating something that is not a tensor or a sequence of tensors");
  for (const Arg& item : ctx.elements(items)) {
    if (!item.is_tensor()) continue;  // a tuple of tensors, a number: Python's own business
    Message m2;
    m2 << "iteration over a 0-d tensor";
    if (ctx.require("iter_unpack_c2", ge(ctx.rank(item), 1), m2) == Status::Refuted) continue;  // iter_unpack_c2
    ctx.require("iter_unpack_c1", eq(ctx.size(item, 0), n), too_many(ctx.size(item, 0)));  // iter_unpack_c1
  }
  return Value::unknown();
}

// Python converting a tensor to a scalar needs exactly one element:
// `truth_c1` bool(x) (`if x:`, `while x:`, `assert x`, `not x`, `a if x
// else b`), `item_c1` x.item(), float(x), int(x). Other values are Python's
// own business.
Value rule_truth(RuleContext& ctx) {
  Arg value = ctx.arg("value");
  if (!value.is_tensor()) return Value::unknown();
  Message m;
  m << "Boolean value of Tensor with " << ctx.numel(value) << " values is ambiguous (a tensor of shape "
    << ctx.shape_hole(value) << " is tested; its truth needs exactly one element)";
  ctx.require("truth_c1", eq(ctx.numel(value), 1), m);  // truth_c1
  return Value::unknown();
}

Value rule_scalar(RuleContext& ctx) {
  Arg value = ctx.arg("value");
  if (!value.is_tensor()) return Value::unknown();
  Message m;
  m << "only one element tensors can be converted to Python scalars, got a tensor of shape " << ctx.shape_hole(value)
    << " (" << ctx.numel(value) << " elements)";
  ctx.require("item_c1", eq(ctx.numel(value), 1), m);  // item_c1
  return Value::unknown();
}

}  // namespace

void register_python_rules(RuleRegistry& r) {
  // as operator_rules.h's unpack_rule names them (that library is not a dependency of the rules)
  for (int n = 1; n <= 16; ++n) r.add_check("operator.unpack" + std::to_string(n), "value", rule_unpack);
  for (int n = 1; n <= 16; ++n) r.add_check("operator.iter_unpack" + std::to_string(n), "items", rule_iter_unpack);
  r.add_check("operator.truth", "value", rule_truth);
  r.add_check("builtins.bool", "value=None", rule_truth);
  r.add_check("Tensor.item", "value", rule_scalar);
  r.add_check("builtins.float", "value=None", rule_scalar);
  r.add_check("builtins.int", "value=None, base=None", rule_scalar);
  r.add_check("torch.utils.data.TensorDataset", "*tensors", rule_tensor_dataset);
  r.add_check("torch.utils.data.dataset.TensorDataset", "*tensors", rule_tensor_dataset);
  r.add_check("Tensor.size", "input, dim=None", rule_size);
  r.add_check("operator.getitem", "input, index", rule_getitem);
  r.add_check("operator.setitem", "input, index, value", rule_setitem);
}

}  // namespace gshape::gradual
