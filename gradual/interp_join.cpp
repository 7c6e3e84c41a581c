// Joins, structural equality and memo keys of abstract values.
#include "gradual/interp_join.h"

#include "gradual/interp.h"

#include <algorithm>
#include <typeinfo>

namespace gshape::gradual::interp {

namespace {
// Whether the branch condition can say anything about the two sizes (a
// cheap filter before asking the solver).
bool shares_symbols(const Pred& c, const Dim& a, const Dim& b) {
  std::vector<Dim> in_c = symbols_of(c.node());
  if (in_c.empty()) return false;
  for (const Dim* d : {&a, &b})
    for (const Dim& s : symbols_of(d->node()))
      if (std::find(in_c.begin(), in_c.end(), s) != in_c.end()) return true;
  return false;
}
}  // namespace

Dim join_dims(const Dim& a, const Dim& b, const JoinOptions& options, const std::string& path) {
  if (a == b) return a;
  if (!options.widen && options.condition && !options.condition->is_constant()) {
    const Pred& c = *options.condition;
    if (options.proves && shares_symbols(c, a, b)) {
      if (options.proves(c || eq(a, b))) return a;   // not c => a == b
      if (options.proves(!c || eq(a, b))) return b;  // c => a == b
    }
    return Dim::ite(c, a, b);
  }
  bool nonneg = a.nonneg() && b.nonneg();
  if (options.widen && options.widen_cache) {
    auto it = options.widen_cache->find(path);
    if (it != options.widen_cache->end()) return it->second;
    Dim d = Dim::symbol(path, nonneg);
    options.widen_cache->emplace(path, d);
    return d;
  }
  return Dim::symbol(path, nonneg);
}

namespace {

bool object_or_none(const Value& v) { return v.is_none() || (v.is_object() && v.as_object()); }

// Two objects built alike (the layer a loop makes on each pass, `Block(dim)`):
// same kind and class, attributes and children alike in turn. Any call or
// read gives the same result on either, so a join keeps one of them.
bool similar_objects(const ObjectValue& a, const ObjectValue& b, int depth) {
  if (&a == &b) return true;
  if (depth > 4 || typeid(a) != typeid(b) || a.class_name != b.class_name) return false;
  if (const auto* ia = dynamic_cast<const InstanceObject*>(&a)) {
    if (ia->cls != static_cast<const InstanceObject&>(b).cls) return false;
  } else if (const auto* ca = dynamic_cast<const ContainerModule*>(&a)) {
    const auto& cb = static_cast<const ContainerModule&>(b);
    if (ca->children_known != cb.children_known || ca->children.size() != cb.children.size()) return false;
    for (std::size_t i = 0; i < ca->children.size(); ++i)
      if (!similar_values(ca->children[i], cb.children[i], depth + 1)) return false;
  } else if (const auto* ma = dynamic_cast<const BoundMethod*>(&a)) {
    const auto& mb = static_cast<const BoundMethod&>(b);
    if (ma->function != mb.function || !similar_values(ma->self, mb.self, depth + 1)) return false;
  } else if (const auto* la = dynamic_cast<const LoaderIterator*>(&a)) {
    // two iterators of one loader (`data_iter = iter(loader)` again) give the same batches
    return similar_values(la->loader, static_cast<const LoaderIterator&>(b).loader, depth + 1);
  } else if (typeid(a) != typeid(ObjectValue)) {
    return false;  // functions, classes, parsers, loaders ...: only itself
  }
  if (a.attributes.size() != b.attributes.size()) return false;
  for (auto ia = a.attributes.begin(), ib = b.attributes.begin(); ia != a.attributes.end(); ++ia, ++ib)
    if (ia->first != ib->first || !similar_values(ia->second, ib->second, depth + 1)) return false;
  return true;
}

}  // namespace

bool similar_values(const Value& a, const Value& b, int depth) {
  if (a.is_object() && b.is_object() && a.as_object() && b.as_object())
    return similar_objects(*a.as_object(), *b.as_object(), depth);
  if (a.is_sequence() && b.is_sequence() && a.items() && b.items() && a.sequence_kind() == b.sequence_kind() &&
      a.items()->size() == b.items()->size()) {
    for (std::size_t i = 0; i < a.items()->size(); ++i)
      if (!similar_values((*a.items())[i], (*b.items())[i], depth + 1)) return false;
    return true;
  }
  return same_value(a, b);
}

namespace {

// The alternatives of `a` and `b` (a choice's, or the value itself), at most
// kMaxAlternatives of them: beyond that nothing is kept.
constexpr std::size_t kMaxAlternatives = 4;

Value join_objects(const Value& a, const Value& b, const JoinOptions& options) {
  const auto* ca = object_as<ChoiceObject>(a);
  const auto* cb = object_as<ChoiceObject>(b);
  std::vector<Value> alternatives;
  auto add = [&](const Value& v) {
    for (const Value& have : alternatives)
      if (similar_values(have, v, 0)) return;
    alternatives.push_back(v);
  };
  for (const Value* side : {&a, &b}) {
    if (const auto* c = object_as<ChoiceObject>(*side)) {
      for (const Value& v : c->alternatives) add(v);
    } else {
      add(*side);
    }
  }
  if (alternatives.size() > kMaxAlternatives) return Value::unknown();
  if (alternatives.size() == 1) return alternatives.front();
  // a loop head meeting what it already holds: the fixed point (a condition
  // no longer says which one: the other side holds one of them regardless)
  if (ca && alternatives.size() == ca->alternatives.size() && !ca->condition) return a;
  auto choice = std::make_shared<ChoiceObject>();
  choice->alternatives = std::move(alternatives);
  if (!ca && !cb && !options.widen && options.condition && !options.condition->is_constant())
    choice->condition = *options.condition;
  return Value::object(choice);
}

}  // namespace

namespace {
Value join_known(const Value& a, const Value& b, const JoinOptions& options, const std::string& path);
}  // namespace

Value join_values(const Value& a, const Value& b, const JoinOptions& options, const std::string& path) {
  // what one side leaves unknown keeps that side's cause (docs/analysis.md, "Why a value is unknown")
  Value joined = join_known(a, b, options, path);
  if (joined.is_sequence() && joined.sequence_kind() == SequenceKind::List) {
    // the joined list may be either side's: a change through it changes theirs
    std::vector<const void*> storages;
    for (const Value* side : {&a, &b}) {
      if (!side->is_sequence() || side->sequence_kind() != SequenceKind::List) continue;
      if (side->storage() && side->storage() != joined.storage()) storages.push_back(side->storage());
      if (side->may_be()) storages.insert(storages.end(), side->may_be()->begin(), side->may_be()->end());
    }
    std::sort(storages.begin(), storages.end());
    storages.erase(std::unique(storages.begin(), storages.end()), storages.end());
    if (!storages.empty()) joined = joined.with_may_be(std::move(storages));
  }
  if (joined.cause() || (!a.cause() && !b.cause())) return joined;
  return Interpreter::inherit_cause(std::move(joined), a, &b);
}

namespace {
Value join_known(const Value& a, const Value& b, const JoinOptions& options, const std::string& path) {
  if (same_value(a, b)) return a;
  if (object_or_none(a) && object_or_none(b)) return join_objects(a, b, options);
  if (a.kind() != b.kind()) {
    // an int and a bool mix as ints (True + 1); everything else is unknown
    return Value::unknown();
  }
  switch (a.kind()) {
    case ValueKind::Unknown: return Value::unknown();  // hints that differ: no relation left
    case ValueKind::None: return a;
    case ValueKind::Bool:
      if (!options.widen && options.condition && !options.condition->is_constant()) {
        const Pred& c = *options.condition;
        return Value::boolean((c && a.as_bool()) || (!c && b.as_bool()));
      }
      return Value::unknown();
    case ValueKind::Int: return Value::integer(join_dims(a.as_int(), b.as_int(), options, path));
    case ValueKind::Float: return Value::floating(a.as_float() == b.as_float() ? a.as_float() : std::nullopt);
    case ValueKind::Str: return Value::string(a.as_str() == b.as_str() ? a.as_str() : std::nullopt);
    case ValueKind::Tensor: {
      const Shape& sa = a.shape();
      const Shape& sb = b.shape();
      if (!sa.rank_known() || !sb.rank_known() || sa.rank() != sb.rank()) {
        // ranks differ or are unknown: keep the last axes both know
        const std::vector<Dim>& ka = sa.known_suffix();
        const std::vector<Dim>& kb = sb.known_suffix();
        std::size_t n = std::min(ka.size(), kb.size());
        std::vector<Dim> suffix;
        for (std::size_t i = 0; i < n; ++i)
          suffix.push_back(join_dims(ka[ka.size() - n + i], kb[kb.size() - n + i], options,
                                     path + ".size(" + std::to_string(static_cast<int64_t>(i) - static_cast<int64_t>(n)) + ")"));
        return Value::tensor(Shape::unknown_with_suffix(std::move(suffix)), a.contiguous() && b.contiguous())
            .with_dtype(a.dtype() == b.dtype() ? a.dtype() : Dtype::Unknown);
      }
      std::vector<Dim> dims;
      for (std::size_t i = 0; i < sa.rank(); ++i)
        dims.push_back(join_dims(sa[i], sb[i], options, path + ".size(" + std::to_string(i) + ")"));
      return Value::tensor(Shape(std::move(dims)), a.contiguous() && b.contiguous())
          .with_dtype(a.dtype() == b.dtype() ? a.dtype() : Dtype::Unknown);
    }
    case ValueKind::Sequence: {
      if (a.sequence_kind() != b.sequence_kind()) return Value::unknown();
      const auto* ia = a.items();
      const auto* ib = b.items();
      if (ia && ib && ia->size() == ib->size()) {
        std::vector<Value> items;
        for (std::size_t i = 0; i < ia->size(); ++i)
          items.push_back(join_values((*ia)[i], (*ib)[i], options, path + "[" + std::to_string(i) + "]"));
        return Value::sequence(a.sequence_kind(), std::move(items));
      }
      // different or unknown lengths: one element describing all of them
      JoinOptions loose = options;
      loose.condition.reset();
      std::optional<Value> element;
      auto absorb = [&](const Value& s) {
        if (s.items()) {
          for (const Value& item : *s.items())
            element = element ? join_values(*element, item, loose, path + "[i]") : item;
        } else if (s.element()) {
          element = element ? join_values(*element, *s.element(), loose, path + "[i]") : *s.element();
        } else {
          element = Value::unknown();
        }
      };
      absorb(a);
      absorb(b);
      return Value::unknown_length(a.sequence_kind(), element ? *element : Value::unknown());
    }
    case ValueKind::Object: return Value::unknown();  // different objects
  }
  return Value::unknown();
}
}  // namespace

namespace {
void keep_common_sizes(UnknownShapeMemo& kept, const UnknownShapeMemo& other) {
  for (auto it = kept.sizes.begin(); it != kept.sizes.end();) {
    auto o = other.sizes.find(it->first);
    it = o != other.sizes.end() && o->second == it->second ? std::next(it) : kept.sizes.erase(it);
  }
  if (kept.rank != other.rank) kept.rank.reset();
}
}  // namespace

Vars join_vars(const Vars& a, const Vars& b, const JoinOptions& options) {
  Vars out = a;
  for (const auto& [name, bb] : b) {
    auto it = out.find(name);
    if (it == out.end()) {
      out.emplace(name, bb);
      continue;
    }
    Binding& ba = it->second;
    // two lists of equal items may still be two lists: the join is either
    // (`target = enc if c else dec`), whose changes both must see
    bool two_lists = ba.value.is_sequence() && ba.value.sequence_kind() == SequenceKind::List &&
                     bb.value.is_sequence() && (ba.value.storage() != bb.value.storage() || ba.value.may_be() != bb.value.may_be());
    if (!two_lists && same_value(ba.value, bb.value)) {
      // the same shape, but maybe not the same tensor (`x = f()` on both
      // sides): a size symbol survives only if both sides invented it
      keep_common_sizes(ba.unknown_sizes, bb.unknown_sizes);
      continue;
    }
    ba.value = join_values(ba.value, bb.value, options, name);
    ba.unknown_sizes.clear();
  }
  return out;
}

bool same_value(const Value& a, const Value& b) {
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case ValueKind::Unknown: return a.int_view() == b.int_view();  // the same hint, or none
    case ValueKind::None: return true;
    case ValueKind::Bool: return a.as_bool() == b.as_bool();
    case ValueKind::Int: return a.as_int() == b.as_int();
    case ValueKind::Float: return a.as_float() == b.as_float();
    case ValueKind::Str: return a.as_str() == b.as_str();
    case ValueKind::Tensor:
      return a.shape() == b.shape() && a.contiguous() == b.contiguous() && a.dtype() == b.dtype();
    case ValueKind::Object: {
      if (a.as_object() == b.as_object()) return true;
      const auto* ca = object_as<ChoiceObject>(a);
      const auto* cb = object_as<ChoiceObject>(b);
      if (!ca || !cb || ca->alternatives.size() != cb->alternatives.size()) return false;
      if (ca->condition.has_value() != cb->condition.has_value() || (ca->condition && !(*ca->condition == *cb->condition)))
        return false;
      for (std::size_t i = 0; i < ca->alternatives.size(); ++i)
        if (!same_value(ca->alternatives[i], cb->alternatives[i])) return false;
      return true;
    }
    case ValueKind::Sequence: {
      if (a.sequence_kind() != b.sequence_kind()) return false;
      const auto* ia = a.items();
      const auto* ib = b.items();
      if (ia && ib) {
        if (ia == ib) return true;
        if (ia->size() != ib->size()) return false;
        for (std::size_t i = 0; i < ia->size(); ++i)
          if (!same_value((*ia)[i], (*ib)[i])) return false;
        return true;
      }
      if (ia || ib) return false;
      const Value* ea = a.element();
      const Value* eb = b.element();
      if (!ea || !eb) return ea == eb;
      return same_value(*ea, *eb);
    }
  }
  return false;
}

bool same_vars(const Vars& a, const Vars& b) {
  if (a.size() != b.size()) return false;
  auto ib = b.begin();
  for (auto ia = a.begin(); ia != a.end(); ++ia, ++ib) {
    if (ia->first != ib->first || !same_value(ia->second.value, ib->second.value)) return false;
  }
  return true;
}

std::string value_key(const Value& v) {
  switch (v.kind()) {
    case ValueKind::Unknown: return v.int_view() ? "?" + std::to_string(v.int_view()->node()->id) : "?";
    case ValueKind::None: return "N";
    case ValueKind::Bool: return "b" + std::to_string(v.as_bool().node()->id);
    case ValueKind::Int: return "i" + std::to_string(v.as_int().node()->id);
    case ValueKind::Float: return v.as_float() ? "f" + std::to_string(*v.as_float()) : "f?";
    case ValueKind::Str: return v.as_str() ? "s" + std::to_string(v.as_str()->size()) + ":" + *v.as_str() : "s?";
    case ValueKind::Tensor: {
      if (!v.contiguous()) return "n" + value_key(v.with_contiguous(true));  // a layout of its own
      if (v.dtype() != Dtype::Unknown)  // an index tensor's dtype decides its result
        return "d" + std::to_string(static_cast<int>(v.dtype())) + value_key(v.with_dtype(Dtype::Unknown));
      if (!v.shape().rank_known()) {
        std::string out = "t*[";
        for (const Dim& d : v.shape().known_suffix()) out += std::to_string(d.node()->id) + ",";
        return out + "]";
      }
      std::string out = "t[";
      for (const Dim& d : v.shape().dims()) out += std::to_string(d.node()->id) + ",";
      return out + "]";
    }
    case ValueKind::Sequence: {
      std::string out = "q" + std::to_string(static_cast<int>(v.sequence_kind()));
      if (!v.items()) return out + "*" + (v.element() ? value_key(*v.element()) : std::string("?"));
      out += "(";
      for (const Value& item : *v.items()) out += value_key(item) + ",";
      return out + ")";
    }
    case ValueKind::Object: {
      if (const auto* c = object_as<ChoiceObject>(v)) {
        std::string out = c->condition ? "c" + std::to_string(c->condition->node()->id) + "(" : "c(";
        for (const Value& alt : c->alternatives) out += value_key(alt) + ",";
        return out + ")";
      }
      std::string out = "o" + std::to_string(reinterpret_cast<uintptr_t>(v.as_object().get()));
      if (const auto* inst = object_as<InstanceObject>(v)) out += "v" + std::to_string(inst->version);
      return out;
    }
  }
  return "?";
}

}  // namespace gshape::gradual::interp
