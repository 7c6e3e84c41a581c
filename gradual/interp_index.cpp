// Subscripts: tensor indexing (ints drop an axis, slices keep a computed
// length, None adds one, `...` fills), sequence and torch.Size indexing and
// slicing, nn.Sequential/ModuleList children, constant-key dicts, datasets.
#include <functional>

#include "gradual/interp.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {

struct SliceBounds {
  std::optional<Value> lower, upper, step;  // nullopt: absent
};

// Whether a condition on a symbolic bound holds: from its form, else from
// the facts.
using SignOracle = std::function<std::optional<bool>(const Pred&)>;

// A bound normalised against length n (Python's slice.indices for step > 0),
// or nullopt when its sign is not known.
std::optional<Dim> normalise(const std::optional<Value>& bound, const Dim& n, const Dim& absent,
                             const SignOracle& nonneg) {
  if (!bound || bound->is_none()) return absent;
  if (!bound->is_int()) return std::nullopt;
  const Dim& d = bound->as_int();
  if (auto c = d.constant_value()) {
    if (*c < 0) return max(Dim(*c) + n, Dim(0));
    return min(Dim(*c), n);
  }
  std::optional<bool> sign = d.nonneg() ? std::optional<bool>(true) : nonneg(ge(d, Dim(0)));
  if (sign == true) return min(d, n);
  if (sign == false) return max(d + n, Dim(0));
  return std::nullopt;
}

// Length of `[lower:upper:step]` on an axis of length n, or nullopt.
std::optional<Dim> slice_length(const SliceBounds& s, const Dim& n, const SignOracle& nonneg) {
  int64_t step = 1;
  if (s.step && !s.step->is_none()) {
    if (!s.step->is_int() || !s.step->as_int().constant_value() || *s.step->as_int().constant_value() <= 0)
      return std::nullopt;
    step = *s.step->as_int().constant_value();
  }
  try {
    auto start = normalise(s.lower, n, Dim(0), nonneg);
    auto stop = normalise(s.upper, n, n, nonneg);
    if (!start || !stop) return std::nullopt;
    // an empty slice is 0 long; when the facts order the bounds (`x[:T]`
    // of an axis n, which as a tensor's axis is >= 0), the length is their
    // difference, without max
    Dim diff = *stop - *start;
    bool ordered = !diff.nonneg() && !diff.is_constant() && nonneg(implies(ge(n, Dim(0)), ge(diff, Dim(0)))) == true;
    Dim len = ordered ? diff : max(diff, Dim(0));
    if (step > 1) len = floordiv(len + Dim(step - 1), Dim(step));
    return len;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

// The slice object Python builds for `lower:upper:step`, with its bounds
// (the indexing rules read them).
Value slice_object(const SliceBounds& s) {
  auto obj = std::make_shared<ObjectValue>("builtins.slice");
  obj->attributes["start"] = s.lower ? *s.lower : Value::none();
  obj->attributes["stop"] = s.upper ? *s.upper : Value::none();
  obj->attributes["step"] = s.step ? *s.step : Value::none();
  return Value::object(std::move(obj));
}

}  // namespace

Value Interpreter::index_value(const Expr* index_expr) {
  // a slice is the object Python builds for it; `...` is Ellipsis
  auto item = [this](const Expr* x) {
    if (const auto* sl = dyn_cast<Slice>(x)) {
      SliceBounds b;
      if (sl->lower) b.lower = eval(sl->lower);
      if (sl->upper) b.upper = eval(sl->upper);
      if (sl->step) b.step = eval(sl->step);
      return slice_object(b);
    }
    if (const auto* c = dyn_cast<Constant>(x); c && c->type == Constant::Type::Ellipsis)
      return Value::object(std::make_shared<ObjectValue>("builtins.ellipsis"));
    return eval(x);
  };
  const auto* tuple = dyn_cast<Tuple>(index_expr);
  if (!tuple || tuple->parenthesized) return item(index_expr);
  std::vector<Value> parts;
  for (const Expr* x : tuple->elts) parts.push_back(item(x));
  return Value::tuple(std::move(parts));
}

Value Interpreter::subscript(const Value& obj, const Expr* index_expr, const Subscript* site) {
  SignOracle sign = [this](const Pred& p) -> std::optional<bool> {
    try {
      if (auto known = solver_->query(p)) return *known;
    } catch (const std::exception&) {
    }
    return std::nullopt;
  };
  // Evaluate the index once, keeping slices and `...`/None apart.
  struct Item {
    enum class Kind { Value, Slice, Ellipsis } kind = Kind::Value;
    Value value;
    SliceBounds slice;
  };
  auto evaluate = [&](const Expr* x) {
    Item it;
    if (const auto* sl = dyn_cast<Slice>(x)) {
      it.kind = Item::Kind::Slice;
      if (sl->lower) it.slice.lower = eval(sl->lower);
      if (sl->upper) it.slice.upper = eval(sl->upper);
      if (sl->step) it.slice.step = eval(sl->step);
      return it;
    }
    if (const auto* c = dyn_cast<Constant>(x); c && c->type == Constant::Type::Ellipsis) {
      it.kind = Item::Kind::Ellipsis;
      return it;
    }
    it.value = eval(x);
    return it;
  };
  std::vector<Item> items;
  const auto* tuple = dyn_cast<Tuple>(index_expr);
  bool multi = tuple && !tuple->parenthesized;
  if (tuple && (multi || obj.is_tensor())) {
    for (const Expr* x : tuple->elts) items.push_back(evaluate(x));
    multi = true;
  } else {
    items.push_back(evaluate(index_expr));
  }

  // Basic indexing of a contiguous tensor gives a contiguous view while it
  // indexes or narrows leading axes only: integers, then at most one partial
  // slice (step 1), then whole axes. `x[0]`, `x[1:3]`, `x[0, 2:5]` are
  // contiguous; `x[:, 0]`, `x[::2]` in general are not.
  auto keeps_contiguity = [](const std::vector<Item>& index) {
    bool leading = true;
    for (const Item& it : index) {
      if (it.kind == Item::Kind::Ellipsis) {
        leading = false;  // whole axes (or none)
      } else if (it.kind == Item::Kind::Slice) {
        bool whole = (!it.slice.lower || it.slice.lower->is_none()) && (!it.slice.upper || it.slice.upper->is_none()) &&
                     (!it.slice.step || it.slice.step->is_none());
        bool unit_step = !it.slice.step || it.slice.step->is_none() ||
                         (it.slice.step->is_int() && it.slice.step->as_int().constant_value() == 1);
        if (!unit_step || (!whole && !leading)) return false;
        leading = false;
      } else if (it.value.is_int()) {
        if (!leading) return false;
      }  // None adds an axis of size 1: no effect
    }
    return true;
  };
  if (obj.is_unknown() && site) note_unresolved(site, "the indexed value is not known (it may be a tensor)");
  // PyTorch's index checks (rules_python.cpp), also of a torch.Size indexed
  // by an int (IndexError past its length); the value is computed below
  const bool size_by_int = !multi && obj.is_sequence() && obj.sequence_kind() == SequenceKind::Size &&
                           items.front().kind == Item::Kind::Value && items.front().value.is_int();
  if (site && (obj.is_tensor() || size_by_int)) {
    std::vector<Value> parts;
    for (const Item& it : items) {
      parts.push_back(it.kind == Item::Kind::Slice      ? slice_object(it.slice)
                      : it.kind == Item::Kind::Ellipsis ? Value::object(std::make_shared<ObjectValue>("builtins.ellipsis"))
                                                        : it.value);
    }
    Value index = multi ? Value::tuple(parts) : parts.front();
    std::vector<ArgValue> args{ArgValue{Argument::Type::Positional, {}, obj, site->value, {}},
                               ArgValue{Argument::Type::Positional, {}, index, index_expr, {}}};
    // an advanced index's value is the rule's (rules_python.cpp)
    if (std::optional<Value> v = apply_named_rule("operator.getitem", std::nullopt, args, site); v && obj.is_tensor())
      return *v;
  }
  if (obj.is_tensor()) {
    const Shape& s = obj.shape();
    if (!s.rank_known()) return Value::tensor(Shape::unknown(), false);
    std::size_t consumed = 0;
    int ellipses = 0;
    for (const Item& it : items) {
      if (it.kind == Item::Kind::Slice) {
        ++consumed;
      } else if (it.kind == Item::Kind::Ellipsis) {
        ++ellipses;
      } else if (it.value.is_int()) {
        ++consumed;
      } else if (it.value.is_none()) {
        // adds an axis
      } else {
        return Value::tensor(Shape::unknown(), false);  // an advanced index the rule could not follow
      }
    }
    if (ellipses > 1 || consumed > s.rank()) return Value::tensor(Shape::unknown(), false);
    std::size_t fill = s.rank() - consumed;
    std::vector<Dim> out;
    std::size_t k = 0;
    for (const Item& it : items) {
      if (it.kind == Item::Kind::Ellipsis) {
        for (std::size_t i = 0; i < fill; ++i) out.push_back(s[k++]);
        fill = 0;
      } else if (it.kind == Item::Kind::Slice) {
        auto len = slice_length(it.slice, s[k], sign);
        out.push_back(len ? *len : Dim::symbol("slice"));
        ++k;
      } else if (it.value.is_int()) {
        ++k;
      } else {
        out.push_back(Dim(1));
      }
    }
    for (; k < s.rank(); ++k) out.push_back(s[k]);
    return Value::tensor(Shape(std::move(out)), obj.contiguous() && keeps_contiguity(items)).with_dtype(obj.dtype());
  }

  if (multi || items.size() != 1) return Value::unknown();
  if (obj.is_str()) return Value::string();  // a character or a slice of a string is a string
  const Item& it = items.front();

  if (obj.is_sequence()) {
    const std::vector<Value>* seq = obj.items();
    if (it.kind == Item::Kind::Slice) {
      if (!seq) return obj;
      Dim n(static_cast<int64_t>(seq->size()));
      auto start = normalise(it.slice.lower, n, Dim(0), sign);
      auto len = slice_length(it.slice, n, sign);
      int64_t step = 1;
      if (it.slice.step && it.slice.step->is_int() && it.slice.step->as_int().constant_value())
        step = *it.slice.step->as_int().constant_value();
      if (start && len && start->constant_value() && len->constant_value() && step > 0) {
        std::vector<Value> out;
        for (int64_t i = 0; i < *len->constant_value(); ++i)
          out.push_back((*seq)[static_cast<std::size_t>(*start->constant_value() + i * step)]);
        return Value::sequence(obj.sequence_kind(), std::move(out));
      }
      return Value::unknown_length(obj.sequence_kind(), seq->empty() ? Value::unknown() : any_element(obj, "item"));
    }
    if (it.kind != Item::Kind::Value || !it.value.is_int()) return Value::unknown();
    if (!seq) return !obj.element() ? Value::unknown() : obj.uniform_items() ? *obj.element() : some_item(*obj.element());
    if (auto c = it.value.as_int().constant_value()) {
      int64_t i = *c < 0 ? *c + static_cast<int64_t>(seq->size()) : *c;
      if (i >= 0 && static_cast<std::size_t>(i) < seq->size()) return (*seq)[static_cast<std::size_t>(i)];
      return Value::unknown();
    }
    return some_item(any_element(obj, "item"));
  }

  if (const auto* c = object_as<ContainerModule>(obj)) {
    if (!c->children_known) return Value::unknown();
    if (it.kind == Item::Kind::Value && it.value.is_int()) {
      if (auto k = it.value.as_int().constant_value()) {
        int64_t i = *k < 0 ? *k + static_cast<int64_t>(c->children.size()) : *k;
        if (i >= 0 && static_cast<std::size_t>(i) < c->children.size()) return c->children[static_cast<std::size_t>(i)];
      }
      return Value::unknown();
    }
    if (it.kind == Item::Kind::Slice) {
      std::vector<Value> children(c->children.begin(), c->children.end());
      Value as_list = Value::list(children);
      Value sliced = subscript(as_list, index_expr, site);
      if (!sliced.items()) return Value::unknown();
      auto out = std::make_shared<ContainerModule>(c->class_name);
      out->fixpoint_loops = fixpoint_loops_;
      out->children = *sliced.items();
      return Value::object(out);
    }
    return Value::unknown();
  }
  if (const auto* d = object_as<DictObject>(obj)) {
    if (it.kind != Item::Kind::Value) return Value::unknown();
    if (auto k = dict_key(it.value)) {
      if (const Value* v = d->find(*k)) return *v;
    }
    return Value::unknown();
  }
  if (const auto* ds = object_as<DatasetObject>(obj)) {
    if (it.kind == Item::Kind::Slice) return Value::unknown();
    Value sample = ds->sample();
    // a library dataset's target differs from one index to the next
    if (!ds->is_tensor_dataset() && sample.items() && sample.items()->size() == 2 && (*sample.items())[1].is_int())
      sample = Value::tuple({sample.items()->front(), fresh_int("target", false)});
    return sample;
  }
  if (obj.is_str()) return Value::string();
  if (auto inst = shared_as<InstanceObject>(obj)) {
    if (const Value* getitem = inst->cls->lookup("__getitem__")) {
      if (auto fn = shared_as<FunctionObject>(*getitem)) {
        std::vector<ArgValue> args{ArgValue{Argument::Type::Positional, {}, it.kind == Item::Kind::Value ? it.value : Value::unknown(),
                                            index_expr, {}}};
        return call_function(fn, args, obj, site);
      }
    }
  }
  return Value::unknown();
}

}  // namespace gshape::gradual::interp
