// The libtorch agreement suite: for every rule, at least 200 seeded random
// cases (shapes and arguments, many near the boundaries: off-by-one sizes,
// wrong ranks, out-of-range dims, -1 twice, non-divisible sizes, size-1
// broadcasting) run through the real libtorch op and through the rule on
// all-constant inputs. The rule must refute an obligation if and only if
// libtorch throws, and otherwise give the same result shapes with no
// deferred obligation.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <random>

#include "gradual/rule_registry.h"
#include "gradual/solver.h"
#include "oracle.h"

namespace gshape::oracle {
namespace {

using gradual::Dim;
using gradual::Obligation;
using gradual::Operand;
using gradual::Value;
using Sizes = std::vector<int64_t>;

constexpr int kCases = 240;

// ------------------------------------------------------------------ random cases

struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  int64_t range(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(g); }
  bool chance(double p) { return std::bernoulli_distribution(p)(g); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g); }

  int64_t size() {  // small sizes, with 1 and 0 often
    if (chance(0.25)) return 1;
    if (chance(0.08)) return 0;
    return range(2, 4);
  }
  Sizes shape(int64_t min_rank, int64_t max_rank) {
    Sizes s(static_cast<std::size_t>(range(min_rank, max_rank)));
    for (auto& d : s) d = size();
    return s;
  }
  // A dim index for a rank-r tensor (with `extra` more positions), one step
  // beyond the valid range on either side now and then.
  int64_t dim(int64_t r, int64_t extra = 0) {
    int64_t b = std::max<int64_t>(r + extra, 1);
    return chance(0.85) ? range(-b, b - 1) : (chance(0.5) ? b : -b - 1);
  }
  // Nudges one size by one, or sets it to 1, or changes the rank.
  Sizes mutate(Sizes s) {
    double p = real(0, 1);
    if (p < 0.15) {
      s.push_back(size());
    } else if (p < 0.3 && !s.empty()) {
      s.erase(s.begin());
    } else if (!s.empty()) {
      auto& d = s[static_cast<std::size_t>(range(0, static_cast<int64_t>(s.size()) - 1))];
      d = chance(0.3) ? 1 : std::max<int64_t>(0, d + (chance(0.5) ? 1 : -1));
    }
    return s;
  }
  // A shape that broadcasts with `s` (usually), built from its tail.
  Sizes broadcastable(const Sizes& s) {
    Sizes out;
    std::size_t keep = static_cast<std::size_t>(range(0, static_cast<int64_t>(s.size())));
    for (std::size_t i = s.size() - keep; i < s.size(); ++i) out.push_back(chance(0.3) ? 1 : s[i]);
    if (chance(0.2)) out.insert(out.begin(), size());
    return chance(0.2) ? mutate(out) : out;
  }
};

OArg T(Sizes s) { return OArg::tensor(std::move(s)); }
OArg I(int64_t v) { return OArg::integer(v); }
OArg L(Sizes v) { return OArg::int_list(std::move(v)); }
OArg B(bool v) { return OArg::boolean(v); }
OArg F(double v) { return OArg::floating(v); }
OArg None() { return OArg::none(); }

// A shape with the same numel as `s`: its sizes shuffled, merged and padded with 1s.
Sizes regroup(Rng& r, Sizes s) {
  std::shuffle(s.begin(), s.end(), r.g);
  Sizes out;
  for (int64_t d : s) {
    if (!out.empty() && r.chance(0.4)) {
      out.back() *= d;
    } else {
      out.push_back(d);
    }
  }
  if (r.chance(0.2)) out.insert(out.begin() + r.range(0, static_cast<int64_t>(out.size())), 1);
  return out;
}

// View-style size lists: valid groupings with -1 often, and broken ones.
Sizes view_sizes(Rng& r, const Sizes& in) {
  Sizes out = regroup(r, in);
  if (!out.empty() && r.chance(0.5)) out[static_cast<std::size_t>(r.range(0, static_cast<int64_t>(out.size()) - 1))] = -1;
  if (!out.empty() && r.chance(0.1)) out[static_cast<std::size_t>(r.range(0, static_cast<int64_t>(out.size()) - 1))] = -1;
  if (!out.empty() && r.chance(0.05)) out[0] = -2;
  if (!out.empty() && r.chance(0.2)) {
    auto& d = out[static_cast<std::size_t>(r.range(0, static_cast<int64_t>(out.size()) - 1))];
    if (d >= 0) d += r.chance(0.5) ? 1 : (d > 0 ? -1 : 1);
  }
  return out;
}

// ------------------------------------------------------------------ the rule side

struct RuleOutcome {
  bool modelled = true;
  bool refuted = false;
  bool deferred = false;
  std::string note;        // why not modelled / which obligation was refuted
  std::vector<Sizes> shapes;
  bool constant_result = true;
  std::vector<Sizes> patterns;  // every result's sizes, -1 where not a constant (when the ranks are known)
  bool patterns_known = true;
};

Operand operand_of(const OArg& a, int& next_slot) {
  using K = OArg::Kind;
  switch (a.kind) {
    case K::Tensor: return Operand(Value::tensor(gradual::Shape::of_constants(a.shape)), next_slot++);
    case K::BoolTensor:
      return Operand(Value::tensor(gradual::Shape::of_constants(a.shape)).with_dtype(gradual::Dtype::Bool), next_slot++);
    case K::LongTensor:
      return Operand(Value::tensor(gradual::Shape::of_constants(a.shape)).with_dtype(gradual::Dtype::Int64), next_slot++);
    case K::Ellipsis: return Operand(Value::object(std::make_shared<gradual::ObjectValue>("builtins.ellipsis")), next_slot++);
    case K::Slice: {
      auto obj = std::make_shared<gradual::ObjectValue>("builtins.slice");
      auto bound = [](int64_t b) { return b == OArg::kNoBound ? Value::none() : Value::integer(Dim(b)); };
      obj->attributes["start"] = bound(a.start);
      obj->attributes["stop"] = bound(a.stop);
      obj->attributes["step"] = a.step == 1 ? Value::none() : Value::integer(Dim(a.step));
      return Operand(Value::object(std::move(obj)), next_slot++);
    }
    case K::Index: {
      Operand tuple;
      tuple.slot = next_slot++;
      std::vector<Value> items;
      for (const OArg& it : a.items) {
        Operand e = operand_of(it, next_slot);
        items.push_back(e.value);
        tuple.elements.push_back(e);
      }
      tuple.value = Value::tuple(std::move(items));
      return tuple;
    }
    case K::Int: return Operand(Value::integer(Dim(a.i)), next_slot++);
    case K::Bool: return Operand(Value::boolean(gradual::Pred(a.b)), next_slot++);
    case K::Float: return Operand(Value::floating(a.f), next_slot++);
    case K::None: return Operand(Value::none(), next_slot++);
    case K::Str: return Operand(Value::string(a.s), next_slot++);
    case K::IntList: {
      std::vector<Value> items;
      for (int64_t v : a.ints) items.push_back(Value::integer(Dim(v)));
      return Operand(Value::tuple(std::move(items)), next_slot++);
    }
    case K::TensorList: {
      Operand list;
      list.slot = next_slot++;
      std::vector<Value> items;
      for (const Sizes& s : a.shapes) {
        Operand t(Value::tensor(gradual::Shape::of_constants(s)), next_slot++);
        items.push_back(t.value);
        list.elements.push_back(t);
      }
      list.value = Value::list(std::move(items));
      return list;
    }
  }
  return Operand();
}

RuleOutcome outcome_of(const gradual::RuleResult& r, const std::vector<Obligation>& obs) {
  RuleOutcome o;
  o.modelled = r.modelled;
  o.note = r.note;
  for (int id : r.obligations) {
    const Obligation& ob = obs[static_cast<std::size_t>(id)];
    if (ob.status == gradual::Status::Refuted) {
      if (!o.refuted) o.note = ob.tag + ": " + ob.render_message();
      o.refuted = true;
    }
    if (ob.status == gradual::Status::Deferred) {
      o.deferred = true;
      if (o.note.empty()) o.note = "deferred " + ob.tag + ": " + ob.constraint.pred().str();
    }
  }
  std::vector<Value> results;
  if (r.value.is_tensor()) {
    results.push_back(r.value);
  } else if (r.value.is_sequence() && r.value.items()) {
    results = *r.value.items();
  } else if (!r.value.is_object()) {
    o.constant_result = false;
  }
  for (const Value& v : results) {
    if (v.is_tensor() && v.shape().rank_known()) {
      Sizes p;
      for (const Dim& d : v.shape().dims()) p.push_back(d.constant_value().value_or(-1));
      o.patterns.push_back(p);
    } else {
      o.patterns_known = false;
    }
    auto sizes = v.is_tensor() ? v.shape().constant_sizes() : std::nullopt;
    if (!sizes) {
      o.constant_result = false;
      continue;
    }
    o.shapes.push_back(*sizes);
  }
  return o;
}

RuleOutcome run_rule(const std::string& key, const OCase& c, gradual::Solver& solver) {
  const gradual::Rule* rule = gradual::RuleRegistry::builtin().find(key);
  if (!rule) {
    RuleOutcome o;
    o.modelled = false;
    o.note = "no rule " + key;
    return o;
  }
  gradual::CallSite site;
  site.name = key;
  int slot = 0;
  for (const OArg& a : c.args) site.positional.push_back(operand_of(a, slot));
  for (const auto& [k, v] : c.kwargs) site.keywords.emplace_back(k, operand_of(v, slot));
  std::vector<Obligation> obs;
  return outcome_of(gradual::apply_rule(*rule, site, solver, obs), obs);
}

// nn.Linear(in, out) then its forward on the input.
RuleOutcome run_nn_linear(const std::string&, const OCase& c, gradual::Solver& solver) {
  const auto& reg = gradual::RuleRegistry::builtin();
  std::vector<Obligation> obs;
  gradual::CallSite init;
  init.name = "torch.nn.Linear";
  init.positional = {Operand(Value::integer(Dim(c.args[0].i)), 0), Operand(Value::integer(Dim(c.args[1].i)), 1)};
  gradual::RuleResult module = gradual::apply_rule(*reg.find(init.name), init, solver, obs);
  RuleOutcome init_outcome = outcome_of(module, obs);
  if (init_outcome.refuted) return init_outcome;
  gradual::CallSite fwd;
  fwd.name = "torch.nn.Linear.forward";
  fwd.positional = {Operand(module.value, 0), Operand(Value::tensor(gradual::Shape::of_constants(c.args[2].shape)), 1)};
  return outcome_of(gradual::apply_rule(*reg.find(fwd.name), fwd, solver, obs), obs);
}

// torch.tensordot(a, b, dims=(dims_a, dims_b)): the case holds the two lists
// as its 4th and 5th arguments (a case has no nested lists); the rule gets
// them as one pair.
RuleOutcome run_tensordot_lists(const std::string& key, const OCase& c, gradual::Solver& solver) {
  gradual::CallSite site;
  site.name = key;
  int slot = 0;
  site.positional.push_back(operand_of(c.args[0], slot));
  site.positional.push_back(operand_of(c.args[1], slot));
  Operand pair;
  pair.slot = slot++;
  pair.elements = {operand_of(c.args[3], slot), operand_of(c.args[4], slot)};
  pair.value = Value::tuple({pair.elements[0].value, pair.elements[1].value});
  site.positional.push_back(pair);
  std::vector<Obligation> obs;
  return outcome_of(gradual::apply_rule(*gradual::RuleRegistry::builtin().find(key), site, solver, obs), obs);
}

// x[index] = value (index_put_ for an advanced index): the rule's
// obligations; the result is x itself, of its own shape.
RuleOutcome run_setitem(const std::string& key, const OCase& c, gradual::Solver& solver) {
  RuleOutcome o = run_rule(key, c, solver);
  o.constant_result = true;
  o.shapes = {c.args[0].shape};
  o.patterns = {c.args[0].shape};
  o.patterns_known = true;
  return o;
}

// ------------------------------------------------------------------ suites

using Gen = std::function<OCase(Rng&)>;
using RuleRunner = RuleOutcome (*)(const std::string&, const OCase&, gradual::Solver&);

struct Suite {
  std::string op;    // the libtorch runner (oracle_torch.cpp)
  std::string rule;  // the registry key
  Gen gen;
  bool can_fail = true;  // the generator must produce both errors and successes
  RuleRunner runner = run_rule;
  // the result has sizes that depend on data (nonzero, masked_select,
  // one_hot without num_classes): the rule's non-constant sizes match any
  // size, everything else (ranks, constant sizes) must agree
  bool data_sizes = false;
};

OCase C(std::vector<OArg> args) {
  OCase c;
  c.args = std::move(args);
  return c;
}

Gen reduce_gen(bool list_dims) {
  return [list_dims](Rng& r) {
    Sizes s = r.shape(0, 4);
    int64_t rank = static_cast<int64_t>(s.size());
    double p = r.real(0, 1);
    if (p < 0.15) return C({T(s)});
    if (!list_dims || p < 0.55) return C({T(s), I(r.dim(rank)), B(r.chance(0.5))});
    Sizes dims(static_cast<std::size_t>(r.range(0, 3)));
    for (auto& d : dims) d = r.dim(rank);
    if (p < 0.62) return C({T(s), None(), B(r.chance(0.5))});
    return C({T(s), L(dims), B(r.chance(0.5))});
  };
}

Gen nonempty_reduce_gen() {
  return [](Rng& r) {
    Sizes s = r.shape(0, 3);
    if (r.chance(0.25)) return C({T(s)});
    return C({T(s), I(r.dim(static_cast<int64_t>(s.size()))), B(r.chance(0.5))});
  };
}

Gen along_dim_gen() {
  return [](Rng& r) {
    Sizes s = r.shape(0, 4);
    return C({T(s), I(r.dim(static_cast<int64_t>(s.size())))});
  };
}

Gen unary_gen() {
  return [](Rng& r) { return C({T(r.shape(0, 4))}); };
}

Gen binary_gen() {
  return [](Rng& r) {
    Sizes a = r.shape(0, 4);
    if (r.chance(0.15)) return C({T(a), r.chance(0.5) ? I(r.range(-3, 3)) : F(r.real(-2, 2))});
    return C({T(a), T(r.broadcastable(a))});
  };
}

Gen inplace_gen() {
  return [](Rng& r) {
    Sizes a = r.shape(0, 4);
    Sizes b = r.broadcastable(a);
    if (r.chance(0.2)) std::swap(a, b);
    return C({T(a), T(b)});
  };
}

Gen sizes_gen() {
  return [](Rng& r) {
    Sizes s = r.shape(0, 4);
    if (!s.empty() && r.chance(0.2)) s[static_cast<std::size_t>(r.range(0, static_cast<int64_t>(s.size()) - 1))] = r.range(-2, -1);
    return C({L(s)});
  };
}

Gen view_gen() {
  return [](Rng& r) {
    Sizes in = r.shape(0, 4);
    return C({T(in), L(view_sizes(r, in))});
  };
}

Gen like_pair_gen() {  // view_as / reshape_as / expand_as
  return [](Rng& r) {
    Sizes a = r.shape(0, 3);
    Sizes b = r.chance(0.6) ? regroup(r, a) : r.mutate(a);
    if (r.chance(0.3)) b = r.broadcastable(a), std::swap(a, b);
    return C({T(a), T(b)});
  };
}

int64_t pick_dim(Rng& r, const Sizes& s) { return r.dim(static_cast<int64_t>(s.size())); }


// An advanced index into `s` (sizes >= 1: a zero-filled position index of an
// empty axis is out of range, a value error the rules leave to PyTorch):
// position tensors that broadcast or not, adjacent or apart, with ints,
// slices, None, `...` and Python bools; or one bool mask (alone among the
// advanced items: the count of its true elements is data, so broadcasting
// it against other index tensors is not a shape question), of the indexed
// axes' shape or not.
OArg advanced_index(Rng& r, const Sizes& s) {
  std::vector<OArg> items;
  bool mask = r.chance(0.35);
  int64_t n = r.range(1, static_cast<int64_t>(s.size()) + 1);
  bool ellipsis = false, advanced = false;
  std::size_t axis = 0;  // roughly where the next item stands
  auto small_shape = [&](int64_t lo, int64_t hi) {
    Sizes t(static_cast<std::size_t>(r.range(lo, hi)));
    for (auto& d : t) d = r.chance(0.3) ? 1 : r.range(0, 3);
    return t;
  };
  int64_t mask_at = mask ? r.range(0, n - 1) : -1;
  for (int64_t k = 0; k < n; ++k) {
    if (k == mask_at) {
      Sizes m;
      if (r.chance(0.75) && axis < s.size()) {
        std::size_t len = static_cast<std::size_t>(r.range(0, std::min<int64_t>(2, static_cast<int64_t>(s.size() - axis))));
        m.assign(s.begin() + static_cast<std::ptrdiff_t>(axis), s.begin() + static_cast<std::ptrdiff_t>(axis + len));
        if (r.chance(0.2)) m = r.mutate(m);
      } else {
        m = small_shape(0, 2);
      }
      items.push_back(OArg::bool_tensor(m));
      axis += std::max<std::size_t>(m.size(), 1);
      continue;
    }
    double p = r.real(0, 1);
    if (p < 0.2) {
      int64_t size = axis < s.size() ? s[axis] : 2;
      items.push_back(OArg::integer(r.chance(0.85) ? r.range(-size, size - 1) : (r.chance(0.5) ? size : -size - 1)));
      ++axis;
    } else if (p < 0.38) {
      items.push_back(r.chance(0.5) ? OArg::slice() : OArg::slice(r.range(-3, 3), r.chance(0.5) ? OArg::kNoBound : r.range(-3, 4), r.range(1, 2)));
      ++axis;
    } else if (p < 0.48) {
      items.push_back(OArg::none());
    } else if (p < 0.55 && !ellipsis) {
      items.push_back(OArg::ellipsis());
      ellipsis = true;
    } else if (p < 0.62 && !mask) {
      items.push_back(OArg::boolean(r.chance(0.7)));
    } else if (!mask) {
      items.push_back(OArg::long_tensor(small_shape(0, 2)));
      advanced = true;
      ++axis;
    } else {
      items.push_back(OArg::slice());
      ++axis;
    }
  }
  if (!mask && !advanced) items.insert(items.begin() + r.range(0, static_cast<int64_t>(items.size())), OArg::long_tensor(small_shape(1, 2)));
  return OArg::index(std::move(items));
}

Sizes positive_shape(Rng& r, int64_t lo, int64_t hi) {
  Sizes s = r.shape(lo, hi);
  for (auto& d : s) d = std::max<int64_t>(d, 1);
  return s;
}

std::vector<Suite> suites() {
  std::vector<Suite> out;
  // ---- the 15 operations of the Cruces thesis
  out.push_back({"range", "torch.range", [](Rng& r) {
                   if (r.chance(0.2)) return C({F(r.real(-3, 5)), F(r.real(-3, 8)), F(r.chance(0.1) ? 0.0 : r.real(-2, 2))});
                   return C({I(r.range(-4, 6)), I(r.range(-4, 8)), I(r.range(-3, 3))});
                 }});
  out.push_back({"view", "Tensor.view", view_gen()});
  out.push_back({"reshape", "torch.reshape", view_gen()});
  out.push_back({"reshape", "Tensor.reshape", view_gen()});
  out.push_back({"transpose", "torch.transpose", [](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   return C({T(s), I(pick_dim(r, s)), I(pick_dim(r, s))});
                 }});
  out.push_back({"cat", "torch.cat", [](Rng& r) {
                   Sizes base = r.shape(0, 3);
                   int64_t rank = static_cast<int64_t>(base.size());
                   int64_t d = r.dim(rank);
                   std::vector<Sizes> ts;
                   int64_t n = r.chance(0.04) ? 0 : r.range(1, 4);
                   for (int64_t i = 0; i < n; ++i) {
                     Sizes t = base;
                     int64_t axis = d < 0 ? d + rank : d;
                     if (axis >= 0 && axis < rank) t[static_cast<std::size_t>(axis)] = r.range(0, 4);
                     if (r.chance(0.12)) t = r.mutate(t);
                     if (r.chance(0.1)) t = Sizes{0};  // legacy: 1-d empty tensors are skipped
                     ts.push_back(t);
                   }
                   return C({OArg::tensors(ts), I(d)});
                 }});
  out.push_back({"sum", "torch.sum", reduce_gen(true)});
  out.push_back({"split", "torch.split", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), I(r.range(-1, 5)), I(pick_dim(r, s))});
                 }});
  out.push_back({"split_list", "torch.split", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   int64_t d = pick_dim(r, s);
                   int64_t rank = static_cast<int64_t>(s.size());
                   int64_t axis = d < 0 ? d + rank : d;
                   int64_t total = axis >= 0 && axis < rank ? s[static_cast<std::size_t>(axis)] : r.range(0, 4);
                   Sizes parts;
                   while (total > 0) {
                     int64_t p = r.range(0, total);
                     parts.push_back(p);
                     total -= p;
                   }
                   if (parts.empty() || r.chance(0.2)) parts.push_back(0);
                   if (r.chance(0.2)) parts.back() += r.chance(0.5) ? 1 : -1;
                   return C({T(s), L(parts), I(d)});
                 }});
  out.push_back({"unsqueeze", "torch.unsqueeze", [](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   return C({T(s), I(r.dim(static_cast<int64_t>(s.size()), 1))});
                 }});
  out.push_back({"zeros", "torch.zeros", sizes_gen()});
  out.push_back({"arange", "torch.arange", [](Rng& r) {
                   if (r.chance(0.15)) return C({F(r.real(-1, 6)), F(r.real(-1, 9)), F(r.chance(0.1) ? 0.0 : r.real(-2, 2))});
                   int64_t form = r.range(1, 3);
                   if (form == 1) return C({I(r.range(-2, 8))});
                   if (form == 2) return C({I(r.range(-4, 6)), I(r.range(-4, 8))});
                   return C({I(r.range(-4, 6)), I(r.range(-4, 8)), I(r.range(-3, 3))});
                 }});
  out.push_back({"ones", "torch.ones", sizes_gen()});
  for (const char* op : {"linspace", "logspace"}) {
    out.push_back({op, std::string("torch.") + op, [](Rng& r) {
                     return C({F(r.real(-3, 3)), F(r.real(-3, 3)), I(r.range(-2, 9))});
                   }});
  }
  out.push_back({"randperm", "torch.randperm", [](Rng& r) { return C({I(r.range(-3, 9))}); }});
  // multinomial on ones (zeros are no distribution: PyTorch checks the data too): 1-D or 2-D, rarely
  // another rank; num_samples near the categories, 0 or negative; with and without replacement;
  // an empty batch of 2^24 + 1 categories (no storage) for the category limit
  auto multinomial = [](Rng& r) {
    Sizes s = r.chance(0.85) ? r.shape(1, 2) : r.shape(0, 3);
    if (r.chance(0.03)) s = {0, (int64_t{1} << 24) + r.range(0, 1)};
    int64_t k = s.empty() ? 1 : std::min<int64_t>(s.back(), 5);
    int64_t n = r.chance(0.1) ? r.range(-1, 0) : r.range(1, k + 1);
    if (r.chance(0.2)) return C({T(s), I(n)});
    return C({T(s), I(n), B(r.chance(0.5))});
  };
  out.push_back({"multinomial", "torch.multinomial", multinomial});
  out.push_back({"multinomial_method", "Tensor.multinomial", multinomial});
  // torch.Tensor(2, 3): the sizes as separate ints (one list would be data)
  out.push_back({"legacy_new", "torch.Tensor", [](Rng& r) {
                   Sizes s = r.shape(1, 4);
                   if (r.chance(0.2)) s[static_cast<std::size_t>(r.range(0, static_cast<int64_t>(s.size()) - 1))] = r.range(-2, -1);
                   std::vector<OArg> args;
                   for (int64_t d : s) args.push_back(I(d));
                   return C(args);
                 }});
  out.push_back({"meshgrid", "torch.meshgrid", [](Rng& r) {
                   std::vector<Sizes> ts;
                   int64_t n = r.chance(0.05) ? 0 : r.range(1, 3);
                   for (int64_t i = 0; i < n; ++i) ts.push_back(r.shape(0, r.chance(0.15) ? 2 : 1));
                   OCase c = C({OArg::tensors(ts)});
                   if (r.chance(0.6)) c.kwargs.emplace_back("indexing", OArg::string(r.chance(0.1) ? "ji" : r.chance(0.5) ? "ij" : "xy"));
                   return c;
                 }});
  out.push_back({"max", "torch.max", [](Rng& r) {
                   if (r.chance(0.25)) {
                     Sizes a = r.shape(0, 3);
                     return C({T(a), T(r.broadcastable(a))});
                   }
                   return nonempty_reduce_gen()(r);
                 }});
  out.push_back({"squeeze", "torch.squeeze", [](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   return r.chance(0.3) ? C({T(s)}) : C({T(s), I(pick_dim(r, s))});
                 }});
  out.push_back({"expand", "Tensor.expand", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   Sizes target;
                   int64_t lead = r.chance(0.1) ? -1 : r.range(0, 2);
                   for (int64_t i = 0; i < lead; ++i) target.push_back(r.chance(0.1) ? -1 : r.range(0, 3));
                   std::size_t start = lead < 0 ? 1 : 0;
                   for (std::size_t i = start; i < s.size(); ++i) {
                     double p = r.real(0, 1);
                     int64_t x = s[i];
                     target.push_back(p < 0.4 ? x : p < 0.6 ? -1 : p < 0.8 ? (x == 1 ? r.range(0, 4) : x) : x + r.range(-1, 1));
                   }
                   // -2 only where torch rejects it too (an existing axis other than 1): torch 1.13
                   // builds negative sizes elsewhere, which the rule deliberately rejects
                   if (!s.empty() && s.back() != 1 && r.chance(0.06)) target.back() = -2;
                   return C({T(s), L(target)});
                 }});
  out.push_back({"any", "torch.any", [](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   if (r.chance(0.25)) return C({OArg::bool_tensor(s)});
                   return C({OArg::bool_tensor(s), I(pick_dim(r, s)), B(r.chance(0.5))});
                 }});
  // ---- element-wise
  for (const char* op : {"relu", "sigmoid", "tanh", "exp", "log", "abs", "sqrt", "gelu"})
    out.push_back({op, std::string(op == std::string("gelu") ? "torch.nn.functional." : "torch.") + op, unary_gen(), false});
  out.push_back({"leaky_relu", "torch.nn.functional.leaky_relu", [](Rng& r) { return C({T(r.shape(0, 4)), F(r.real(0, 1))}); }, false});
  out.push_back({"clamp", "torch.clamp", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   auto bound = [&]() {
                     double p = r.real(0, 1);
                     if (p < 0.3) return None();
                     if (p < 0.7) return F(r.real(-1, 1));
                     return T(r.broadcastable(s));
                   };
                   OArg lo = bound(), hi = bound();
                   if ((lo.kind == OArg::Kind::Tensor) != (hi.kind == OArg::Kind::Tensor) && lo.kind != OArg::Kind::None &&
                       hi.kind != OArg::Kind::None)
                     hi = None();  // libtorch has no mixed tensor/number overload
                   return C({T(s), lo, hi});
                 }});
  out.push_back({"dropout", "torch.dropout", [](Rng& r) {
                   return C({T(r.shape(0, 3)), F(r.chance(0.8) ? r.real(0, 1) : r.real(-0.5, 1.5)), B(r.chance(0.5))});
                 }});
  for (const char* op : {"add", "sub", "mul", "div", "eq", "lt", "ge", "maximum", "pow"})
    out.push_back({op, std::string("torch.") + op, binary_gen()});
  out.push_back({"add", "operator.add", binary_gen()});
  out.push_back({"add_", "Tensor.add_", inplace_gen()});
  out.push_back({"mul_", "Tensor.mul_", inplace_gen()});
  out.push_back({"where", "torch.where", [](Rng& r) {
                   Sizes c = r.shape(0, 3);
                   OArg a = r.chance(0.15) ? F(1.0) : T(r.broadcastable(c));
                   OArg b = r.chance(0.15) ? F(0.0) : T(r.broadcastable(c));
                   return C({OArg::bool_tensor(c), a, b});
                 }});
  auto masked = [](Rng& r) {
    Sizes s = r.shape(0, 3);
    Sizes m = r.broadcastable(s);
    if (r.chance(0.15)) std::swap(s, m);
    OArg v = r.chance(0.75) ? F(1.5) : T(r.chance(0.6) ? Sizes{} : Sizes{r.range(1, 2)});
    return C({T(s), OArg::bool_tensor(m), v});
  };
  out.push_back({"masked_fill", "Tensor.masked_fill", masked});
  out.push_back({"masked_fill_", "Tensor.masked_fill_", masked});
  // ---- matrix products
  out.push_back({"matmul", "torch.matmul", [](Rng& r) {
                   Sizes a = r.shape(r.chance(0.05) ? 0 : 1, 4);
                   Sizes b = r.shape(r.chance(0.05) ? 0 : 1, 4);
                   if (!a.empty() && !b.empty() && r.chance(0.7)) {  // make the inner sizes agree
                     std::size_t k = b.size() > 1 ? b.size() - 2 : 0;
                     b[k] = a.back();
                   }
                   if (a.size() > 2 && b.size() > 2 && r.chance(0.6)) {  // and the batch axes broadcast
                     Sizes batch = r.broadcastable(Sizes(a.begin(), a.end() - 2));
                     Sizes nb = batch;
                     nb.insert(nb.end(), b.end() - 2, b.end());
                     b = nb;
                   }
                   return C({T(a), T(b)});
                 }});
  out.push_back({"matmul", "operator.matmul", [](Rng& r) {
                   Sizes a = r.shape(1, 3), b = r.shape(1, 3);
                   if (r.chance(0.7)) b[b.size() > 1 ? b.size() - 2 : 0] = a.back();
                   return C({T(a), T(b)});
                 }});
  out.push_back({"mm", "torch.mm", [](Rng& r) {
                   Sizes a = r.chance(0.9) ? r.shape(2, 2) : r.shape(0, 3);
                   Sizes b = r.chance(0.9) ? r.shape(2, 2) : r.shape(0, 3);
                   if (a.size() == 2 && b.size() == 2 && r.chance(0.7)) b[0] = a[1];
                   return C({T(a), T(b)});
                 }});
  out.push_back({"bmm", "torch.bmm", [](Rng& r) {
                   Sizes a = r.chance(0.9) ? r.shape(3, 3) : r.shape(2, 4);
                   Sizes b = r.chance(0.9) ? r.shape(3, 3) : r.shape(2, 4);
                   if (a.size() == 3 && b.size() == 3) {
                     if (r.chance(0.7)) b[0] = a[0];
                     if (r.chance(0.7)) b[1] = a[2];
                   }
                   return C({T(a), T(b)});
                 }});
  out.push_back({"addmm", "torch.addmm", [](Rng& r) {
                   Sizes a = r.chance(0.92) ? r.shape(2, 2) : r.shape(1, 3);
                   Sizes b = r.chance(0.92) ? r.shape(2, 2) : r.shape(1, 3);
                   if (a.size() == 2 && b.size() == 2 && r.chance(0.8)) b[0] = a[1];
                   Sizes out_shape = {a.empty() ? 1 : a[0], b.empty() ? 1 : b.back()};
                   return C({T(r.broadcastable(out_shape)), T(a), T(b)});
                 }});
  out.push_back({"linear", "torch.nn.functional.linear", [](Rng& r) {
                   Sizes in = r.shape(r.chance(0.05) ? 0 : 1, 4);
                   int64_t out_f = r.size();
                   Sizes w = r.chance(0.85) ? Sizes{out_f, in.empty() ? 1 : in.back()} : r.shape(0, 3);
                   if (r.chance(0.15) && !w.empty()) w.back() += 1;
                   OArg bias = r.chance(0.3) ? None() : T(r.chance(0.7) ? Sizes{out_f} : r.broadcastable(Sizes{2, out_f}));
                   return C({T(in), T(w), bias});
                 }});
  out.push_back({"nn_linear", "torch.nn.Linear.forward", [](Rng& r) {
                   int64_t in_f = r.range(0, 5), out_f = r.range(0, 5);
                   Sizes x = r.shape(0, 3);
                   if (!x.empty() && r.chance(0.7)) x.back() = in_f;
                   return C({I(in_f), I(out_f), T(x)});
                 },
                 true, run_nn_linear});
  out.push_back({"einsum", "torch.einsum", [](Rng& r) {
                   const std::string labels = "ijkB";
                   std::map<char, int64_t> size;
                   for (char l : labels) size[l] = r.chance(0.2) ? 1 : r.range(2, 4);
                   Sizes ell = r.shape(0, 2);
                   int64_t n = r.range(1, 3);
                   std::string lhs;
                   std::vector<Sizes> shapes;
                   std::string used;
                   bool any_ellipsis = false;
                   for (int64_t op = 0; op < n; ++op) {
                     std::string term;
                     Sizes shape;
                     int64_t k = r.range(0, 3);
                     bool ellipsis = r.chance(0.2);
                     for (int64_t j = 0; j < k; ++j) {
                       char l = r.chance(0.1) && !term.empty() ? term.back() : labels[static_cast<std::size_t>(r.range(0, 3))];
                       if (ellipsis && j == k / 2) {
                         term += "...";
                         Sizes tail(ell.end() - r.range(0, static_cast<int64_t>(ell.size())), ell.end());
                         shape.insert(shape.end(), tail.begin(), tail.end());
                         any_ellipsis = true;
                       }
                       term += l;
                       used += l;
                       shape.push_back(r.chance(0.1) ? 1 : size[l]);
                     }
                     if (ellipsis && k == 0) {
                       term += "...";
                       shape = ell;
                       any_ellipsis = true;
                     }
                     if (r.chance(0.1)) shape = r.mutate(shape);
                     lhs += (op ? "," : "") + term;
                     shapes.push_back(shape);
                   }
                   std::string eq = lhs;
                   if (r.chance(0.6)) {
                     std::string rhs = any_ellipsis && r.chance(0.8) ? "..." : "";
                     for (char l : labels)
                       if (used.find(l) != std::string::npos && r.chance(0.6)) rhs += l;
                     if (r.chance(0.05)) rhs += "z";
                     if (!rhs.empty() && r.chance(0.05)) rhs += rhs.back();
                     eq += "->" + rhs;
                   }
                   if (r.chance(0.04)) shapes.push_back({2});
                   std::vector<OArg> args{OArg::string(eq)};
                   for (const Sizes& s : shapes) args.push_back(T(s));
                   return C(args);
                 }});
  // ---- rearrangements
  out.push_back({"permute", "Tensor.permute", [](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   Sizes dims(s.size());
                   for (std::size_t i = 0; i < dims.size(); ++i) dims[i] = static_cast<int64_t>(i) - (r.chance(0.3) ? static_cast<int64_t>(s.size()) : 0);
                   std::shuffle(dims.begin(), dims.end(), r.g);
                   double p = r.real(0, 1);
                   if (p < 0.1 && !dims.empty()) dims[0] = dims.back();                         // a repeat
                   else if (p < 0.2) dims.push_back(static_cast<int64_t>(dims.size()));          // too many
                   else if (p < 0.3 && !dims.empty()) dims[0] = pick_dim(r, s);                  // maybe out of range
                   return C({T(s), L(dims)});
                 }});
  out.push_back({"t", "torch.t", [](Rng& r) { return C({T(r.shape(0, 3))}); }});
  out.push_back({"flatten", "torch.flatten", [](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   return C({T(s), I(pick_dim(r, s)), I(pick_dim(r, s))});
                 }});
  out.push_back({"unflatten", "Tensor.unflatten", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   int64_t d = pick_dim(r, s);
                   int64_t rank = static_cast<int64_t>(s.size());
                   int64_t axis = d < 0 ? d + rank : d;
                   int64_t n = axis >= 0 && axis < rank ? s[static_cast<std::size_t>(axis)] : r.range(1, 4);
                   Sizes sizes = r.chance(0.08) ? Sizes{} : view_sizes(r, Sizes{n});
                   return C({T(s), I(d), L(sizes)});
                 }});
  out.push_back({"stack", "torch.stack", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   std::vector<Sizes> ts;
                   int64_t n = r.chance(0.04) ? 0 : r.range(1, 3);
                   for (int64_t i = 0; i < n; ++i) ts.push_back(r.chance(0.15) ? r.mutate(s) : s);
                   return C({OArg::tensors(ts), I(r.dim(static_cast<int64_t>(s.size()), 1))});
                 }});
  out.push_back({"chunk", "torch.chunk", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), I(r.range(-1, 5)), I(pick_dim(r, s))});
                 }});
  out.push_back({"unbind", "torch.unbind", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), I(pick_dim(r, s))});
                 }});
  out.push_back({"expand_as", "Tensor.expand_as", like_pair_gen()});
  out.push_back({"view_as", "Tensor.view_as", like_pair_gen()});
  out.push_back({"reshape_as", "Tensor.reshape_as", like_pair_gen()});
  out.push_back({"repeat", "Tensor.repeat", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   Sizes reps(static_cast<std::size_t>(std::max<int64_t>(0, static_cast<int64_t>(s.size()) + r.range(-1, 2))));
                   for (auto& k : reps) k = r.chance(0.1) ? -1 : r.range(0, 3);
                   // a negative repeat on an axis of size 0 is accepted (0 * -1 is 0)
                   if (!s.empty() && reps.size() >= s.size() && r.chance(0.1)) s.back() = 0, reps.back() = -1;
                   return C({T(s), L(reps)});
                 }});
  // ---- reductions
  out.push_back({"mean", "torch.mean", reduce_gen(true)});
  out.push_back({"norm", "torch.norm", [](Rng& r) {
                   OCase c = reduce_gen(true)(r);
                   if (c.args.size() == 1) return c;
                   if (c.args[1].kind == OArg::Kind::Int) c.args[1] = L({c.args[1].i});
                   // torch.norm(input, p, dim, keepdim)
                   return C({c.args[0], I(2), c.args[1], c.args[2]});
                 }});
  out.push_back({"prod", "torch.prod", reduce_gen(false)});
  out.push_back({"all", "torch.all", [](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   if (r.chance(0.25)) return C({OArg::bool_tensor(s)});
                   return C({OArg::bool_tensor(s), I(pick_dim(r, s)), B(r.chance(0.5))});
                 }});
  out.push_back({"min", "torch.min", nonempty_reduce_gen()});
  out.push_back({"argmax", "torch.argmax", nonempty_reduce_gen()});
  out.push_back({"argmin", "torch.argmin", nonempty_reduce_gen()});
  out.push_back({"softmax", "torch.softmax", along_dim_gen()});
  out.push_back({"log_softmax", "torch.nn.functional.log_softmax", along_dim_gen()});
  out.push_back({"cumsum", "torch.cumsum", along_dim_gen()});
  // ---- creation
  out.push_back({"empty", "torch.empty", sizes_gen()});
  out.push_back({"rand", "torch.rand", sizes_gen()});
  out.push_back({"randn", "torch.randn", sizes_gen()});
  out.push_back({"full", "torch.full", [](Rng& r) { return C({sizes_gen()(r).args[0], F(2.5)}); }});
  out.push_back({"randint", "torch.randint", [](Rng& r) {
                   int64_t lo = r.range(-3, 3);
                   return C({I(lo), I(lo + r.range(-1, 4)), sizes_gen()(r).args[0]});
                 }});
  out.push_back({"eye", "torch.eye", [](Rng& r) {
                   if (r.chance(0.4)) return C({I(r.range(-1, 4))});
                   return C({I(r.range(-1, 4)), I(r.range(-1, 4))});
                 }});
  out.push_back({"zeros_like", "torch.zeros_like", unary_gen(), false});
  out.push_back({"erfinv", "torch.erfinv", unary_gen(), false});
  out.push_back({"to_sparse", "Tensor.to_sparse", unary_gen(), false});
  out.push_back({"to_dense", "Tensor.to_dense", unary_gen(), false});
  out.push_back({"new_zeros", "Tensor.new_zeros", [](Rng& r) { return C({T(r.shape(0, 2)), sizes_gen()(r).args[0]}); }});
  // ---- aliases and method forms with their own signatures (same torch op)
  auto same_as = [&out](const std::string& rule, const std::string& alias) {
    for (const Suite& s : out) {
      if (s.rule == rule) {
        Suite copy = s;
        copy.rule = alias;
        return copy;
      }
    }
    throw std::logic_error("no suite " + rule);
  };
  for (const auto& [rule, alias] : std::vector<std::pair<std::string, std::string>>{
           {"torch.cat", "torch.concat"},          {"torch.transpose", "Tensor.transpose"},
           {"torch.transpose", "torch.swapaxes"},  {"torch.flatten", "Tensor.flatten"},
           {"torch.sum", "Tensor.sum"},            {"torch.mean", "Tensor.mean"},
           {"torch.squeeze", "Tensor.squeeze"},    {"torch.unsqueeze", "Tensor.unsqueeze"},
           {"torch.chunk", "Tensor.chunk"},        {"torch.max", "Tensor.max"},
           {"torch.matmul", "Tensor.matmul"},      {"torch.softmax", "torch.nn.functional.softmax"},
           {"torch.split", "Tensor.split"},        {"torch.add", "Tensor.add"},
           {"torch.mm", "Tensor.mm"},              {"torch.bmm", "Tensor.bmm"},
           {"Tensor.permute", "torch.permute"},    {"torch.t", "Tensor.t_"},
           {"torch.transpose", "Tensor.transpose_"}, {"torch.transpose", "Tensor.swapaxes_"},
           {"torch.squeeze", "Tensor.squeeze_"},   {"torch.unsqueeze", "Tensor.unsqueeze_"}}) {
    out.push_back(same_as(rule, alias));
  }
  Suite split_sizes = same_as("torch.split", "torch.split_with_sizes");
  for (const Suite& s : out)
    if (s.op == "split_list") split_sizes.gen = s.gen;
  split_sizes.op = "split_list";
  out.push_back(split_sizes);
  out.push_back({"T", "Tensor.T", unary_gen(), false});
  for (const char* op : {"mT", "mH", "H"})
    out.push_back({op, std::string("Tensor.") + op, [](Rng& r) { return C({T(r.shape(0, 4))}); }});
  out.push_back({"logsumexp", "torch.logsumexp", [](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   int64_t rank = static_cast<int64_t>(s.size());
                   if (r.chance(0.5)) return C({T(s), I(r.dim(rank)), B(r.chance(0.5))});
                   Sizes dims(static_cast<std::size_t>(r.range(1, 3)));
                   for (auto& d : dims) d = r.dim(rank);
                   return C({T(s), L(dims), B(r.chance(0.5))});
                 }});
  out.push_back({"cumprod", "torch.cumprod", along_dim_gen()});
  out.push_back({"clamp_", "Tensor.clamp_", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   auto bound = [&]() { return r.chance(0.3) ? None() : r.chance(0.5) ? F(0.5) : T(r.broadcastable(s)); };
                   OArg lo = bound(), hi = bound();
                   if (lo.kind != hi.kind && lo.kind != OArg::Kind::None && hi.kind != OArg::Kind::None) hi = None();
                   return C({T(s), lo, hi});
                 }});
  out.push_back({"tensor_where", "Tensor.where", [](Rng& r) {
                   Sizes c = r.shape(0, 3);
                   return C({T(r.broadcastable(c)), OArg::bool_tensor(c), T(r.broadcastable(c))});
                 }});
  out.push_back({"new_ones", "Tensor.new_ones", [](Rng& r) { return C({T(r.shape(0, 2)), sizes_gen()(r).args[0]}); }});
  out.push_back({"new_full", "Tensor.new_full", [](Rng& r) { return C({T(r.shape(0, 2)), sizes_gen()(r).args[0], F(1.0)}); }});
  // ---- indexing, ordering and the other ops of rules_index.cpp and later additions
  auto matrixish = [](Rng& r) { return r.chance(0.8) ? r.shape(2, 4) : r.shape(0, 1); };
  for (const char* op : {"triu", "tril", "triu_", "tril_"}) {
    std::string key = std::string(op).back() == '_' ? std::string("Tensor.") + op : std::string("torch.") + op;
    out.push_back({op, key, [matrixish](Rng& r) { return C({T(matrixish(r)), I(r.range(-4, 4))}); }});
  }
  out.push_back({"narrow", "Tensor.narrow", [](Rng& r) {
                   Sizes s = r.shape(r.chance(0.05) ? 0 : 1, 3);
                   int64_t d = pick_dim(r, s);
                   int64_t rank = static_cast<int64_t>(s.size());
                   int64_t axis = d < 0 ? d + rank : d;
                   int64_t n = axis >= 0 && axis < rank ? s[static_cast<std::size_t>(axis)] : 3;
                   int64_t start = r.range(-n - 1, n + 1);
                   int64_t ws = start < 0 ? start + std::max<int64_t>(n, 1) : start;
                   int64_t length = r.chance(0.7) ? r.range(0, std::max<int64_t>(n - ws, 0)) : r.range(-1, n + 1);
                   return C({T(s), I(d), I(start), I(length)});
                 }});
  out.push_back({"select", "Tensor.select", [](Rng& r) {
                   Sizes s = r.shape(r.chance(0.05) ? 0 : 1, 3);
                   int64_t d = pick_dim(r, s);
                   int64_t rank = static_cast<int64_t>(s.size());
                   int64_t axis = d < 0 ? d + rank : d;
                   int64_t n = axis >= 0 && axis < rank ? s[static_cast<std::size_t>(axis)] : 2;
                   return C({T(s), I(d), I(r.range(-n - 1, n))});
                 }});
  out.push_back({"index_select", "torch.index_select", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   Sizes idx = r.chance(0.1) ? r.shape(0, 2) : Sizes{r.range(0, 3)};
                   return C({T(s), I(pick_dim(r, s)), T(idx)});
                 }});
  // gather / scatter: an index shaped like the input (smaller, equal, or one larger on some axis)
  auto index_like = [](Rng& r, const Sizes& s) {
    Sizes idx = s;
    for (auto& k : idx) k = r.chance(0.6) ? k : r.range(0, std::max<int64_t>(k, 1));
    if (!idx.empty() && r.chance(0.2)) idx[static_cast<std::size_t>(r.range(0, static_cast<int64_t>(idx.size()) - 1))] += 1;
    if (r.chance(0.1)) idx = r.mutate(idx);
    return idx;
  };
  out.push_back({"gather", "torch.gather", [index_like](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), I(pick_dim(r, s)), T(index_like(r, s))});
                 }});
  out.push_back({"scatter", "torch.scatter", [index_like](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   Sizes idx = index_like(r, s);
                   if (r.chance(0.15)) return C({T(s), I(pick_dim(r, s)), T(idx), F(1.5)});
                   Sizes src = r.chance(0.7) ? idx : index_like(r, idx);
                   if (r.chance(0.1)) src = r.chance(0.5) ? Sizes{} : Sizes{2};
                   return C({T(s), I(pick_dim(r, s)), T(idx), T(src)});
                 }});
  out.push_back({"scatter_add", "torch.scatter_add", [index_like](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   Sizes idx = index_like(r, s);
                   Sizes src = r.chance(0.7) ? idx : index_like(r, idx);
                   return C({T(s), I(pick_dim(r, s)), T(idx), T(src)});
                 }});
  out.push_back({"view_as_real", "torch.view_as_real", [](Rng& r) { return C({T(r.shape(0, 3))}); }, false});
  out.push_back({"view_as_complex", "torch.view_as_complex", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   if (!s.empty() && r.chance(0.6)) s.back() = 2;
                   return C({T(s)});
                 }});
  Suite advanced_getitem{"index", "operator.getitem", [](Rng& r) {
                           Sizes s = positive_shape(r, 1, 4);
                           return C({T(s), advanced_index(r, s)});
                         }};
  advanced_getitem.data_sizes = true;  // a mask's count of true elements
  out.push_back(advanced_getitem);
  Suite advanced_setitem{"index_put", "operator.setitem", [](Rng& r) {
                           Sizes s = positive_shape(r, 1, 4);
                           OArg index = advanced_index(r, s);
                           bool mask = false;
                           for (const OArg& it : index.items) mask = mask || it.kind == OArg::Kind::BoolTensor;
                           Outcome part = run_torch("index", C({T(s), index}));
                           Sizes v;
                           if (mask) {
                             // the part's count of true elements is data: a value of ones broadcasts to any
                             v = Sizes(static_cast<std::size_t>(r.range(0, 2)), 1);
                           } else if (!part.threw) {
                             v = part.shapes[0];
                             double p = r.real(0, 1);
                             if (p < 0.15) v.insert(v.begin(), r.chance(0.6) ? 1 : 2);
                             else if (p < 0.35 && !v.empty()) v.erase(v.begin());
                             else if (p < 0.6) v = r.mutate(v);
                           } else {
                             v = r.shape(0, 2);
                           }
                           return C({T(s), index, T(v)});
                         },
                         true, run_setitem};
  out.push_back(advanced_setitem);
  Suite masked_select{"masked_select", "torch.masked_select", [](Rng& r) {
                        Sizes s = r.shape(0, 3);
                        return C({T(s), OArg::bool_tensor(r.broadcastable(s))});
                      }};
  masked_select.data_sizes = true;
  out.push_back(masked_select);
  Suite nonzero{"nonzero", "torch.nonzero", unary_gen(), false};
  nonzero.data_sizes = true;
  out.push_back(nonzero);
  Suite one_hot{"one_hot", "torch.nn.functional.one_hot", [](Rng& r) { return C({T(r.shape(0, 3)), I(r.range(-2, 4))}); }};
  one_hot.data_sizes = true;
  out.push_back(one_hot);
  auto dim_list = [](Rng& r, const Sizes& s, int64_t max_len) {
    Sizes dims(static_cast<std::size_t>(r.range(0, max_len)));
    for (auto& d : dims) d = pick_dim(r, s);
    return dims;
  };
  out.push_back({"flip", "torch.flip", [dim_list](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   return C({T(s), L(dim_list(r, s, 3))});
                 }});
  out.push_back({"fliplr", "torch.fliplr", [](Rng& r) { return C({T(r.shape(0, 3))}); }});
  out.push_back({"flipud", "torch.flipud", [](Rng& r) { return C({T(r.shape(0, 3))}); }});
  out.push_back({"roll", "torch.roll", [dim_list](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   Sizes dims = dim_list(r, s, 2);
                   Sizes shifts(dims.size(), 1);
                   if (r.chance(0.25)) shifts.resize(static_cast<std::size_t>(r.range(0, 2)), -1);
                   if (shifts.empty() && r.chance(0.7)) shifts.push_back(2);
                   return dims.empty() && r.chance(0.5) ? C({T(s), L(shifts)}) : C({T(s), L(shifts), L(dims)});
                 }});
  out.push_back({"movedim", "torch.movedim", [dim_list](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   Sizes src = dim_list(r, s, 3);
                   Sizes dst = dim_list(r, s, 3);
                   if (r.chance(0.6)) dst.resize(src.size(), 0);
                   if (r.chance(0.5)) {  // distinct dims most of the time
                     for (std::size_t i = 0; i < src.size() && i < s.size(); ++i) src[i] = static_cast<int64_t>(i);
                     Sizes perm(s.size());
                     for (std::size_t i = 0; i < perm.size(); ++i) perm[i] = static_cast<int64_t>(i);
                     std::shuffle(perm.begin(), perm.end(), r.g);
                     for (std::size_t i = 0; i < dst.size() && i < perm.size(); ++i) dst[i] = perm[i];
                   }
                   return C({T(s), L(src), L(dst)});
                 }});
  out.push_back({"tile", "torch.tile", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   Sizes reps(static_cast<std::size_t>(r.range(0, 4)));
                   for (auto& k : reps) k = r.chance(0.08) ? -1 : r.range(0, 3);
                   return C({T(s), L(reps)});
                 }});
  out.push_back({"repeat_interleave", "torch.repeat_interleave", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   int64_t k = r.chance(0.1) ? -1 : r.range(0, 3);
                   return r.chance(0.25) ? C({T(s), I(k)}) : C({T(s), I(k), I(pick_dim(r, s))});
                 }});
  out.push_back({"diagonal", "torch.diagonal", [](Rng& r) {
                   Sizes s = r.shape(0, 4);
                   return C({T(s), I(r.range(-4, 4)), I(pick_dim(r, s)), I(pick_dim(r, s))});
                 }});
  out.push_back({"diag", "torch.diag", [](Rng& r) {
                   Sizes s = r.chance(0.85) ? r.shape(1, 2) : r.shape(0, 3);
                   return C({T(s), I(r.range(-4, 4))});
                 }});
  out.push_back({"topk", "torch.topk", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   int64_t d = pick_dim(r, s);
                   return C({T(s), I(r.range(-1, 4)), I(d)});
                 }});
  out.push_back({"sort", "torch.sort", along_dim_gen()});
  out.push_back({"argsort", "torch.argsort", along_dim_gen()});
  auto variance_gen = [](Rng& r) {
    OCase c = reduce_gen(true)(r);
    if (c.args.size() == 1) return C({c.args[0], B(r.chance(0.5))});  // the legacy unbiased overload
    return C({c.args[0], c.args[1], B(r.chance(0.5)), c.args[2]});
  };
  out.push_back({"var", "torch.var", variance_gen});
  out.push_back({"std", "Tensor.std", variance_gen});
  out.push_back({"median", "torch.median", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   if (r.chance(0.2)) return C({T(s)});
                   return C({T(s), I(pick_dim(r, s)), B(r.chance(0.5))});
                 }, true});
  out.push_back({"amax", "torch.amax", [dim_list](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), L(dim_list(r, s, 2)), B(r.chance(0.5))});
                 }});
  out.push_back({"amin", "Tensor.amin", [dim_list](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), L(dim_list(r, s, 2)), B(r.chance(0.5))});
                 }});
  out.push_back({"normalize", "torch.nn.functional.normalize", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), F(2.0), I(pick_dim(r, s))});
                 }});
  out.push_back({"dot", "torch.dot", [](Rng& r) {
                   Sizes a = r.chance(0.85) ? Sizes{r.size()} : r.shape(0, 2);
                   Sizes b = r.chance(0.7) ? a : r.chance(0.85) ? Sizes{r.size()} : r.shape(0, 2);
                   return C({T(a), T(b)});
                 }});
  out.push_back({"mv", "torch.mv", [](Rng& r) {
                   Sizes a = r.chance(0.85) ? r.shape(2, 2) : r.shape(0, 3);
                   Sizes v = {a.size() == 2 && r.chance(0.7) ? a[1] : r.size()};
                   if (r.chance(0.1)) v = r.shape(0, 2);
                   return C({T(a), T(v)});
                 }});
  out.push_back({"outer", "torch.outer", [](Rng& r) {
                   return C({T(r.chance(0.8) ? r.shape(1, 1) : r.shape(0, 2)), T(r.chance(0.8) ? r.shape(1, 1) : r.shape(0, 2))});
                 }});
  out.push_back({"baddbmm", "torch.baddbmm", [](Rng& r) {
                   Sizes a = r.chance(0.9) ? r.shape(3, 3) : r.shape(2, 4);
                   Sizes b = r.chance(0.9) ? r.shape(3, 3) : r.shape(2, 4);
                   if (a.size() == 3 && b.size() == 3) {
                     if (r.chance(0.8)) b[0] = a[0];
                     if (r.chance(0.8)) b[1] = a[2];
                   }
                   Sizes out_shape = {a.empty() ? 1 : a[0], a.size() > 1 ? a[1] : 1, b.empty() ? 1 : b.back()};
                   return C({T(r.broadcastable(out_shape)), T(a), T(b)});
                 }});
  out.push_back({"cdist", "torch.cdist", [](Rng& r) {
                   Sizes a = r.shape(r.chance(0.1) ? 1 : 2, 3);
                   Sizes b = r.chance(0.6) && a.size() > 2 ? Sizes(a.begin(), a.end() - 2) : r.shape(0, 1);
                   b.push_back(r.size());
                   b.push_back(r.chance(0.8) ? a.back() : r.size());
                   if (r.chance(0.1)) b = r.mutate(b);
                   return C({T(a), T(b), F(r.chance(0.1) ? -1.0 : 2.0)});
                 }});
  out.push_back({"cosine_similarity", "torch.nn.functional.cosine_similarity", [](Rng& r) {
                   Sizes a = r.shape(0, 3);
                   Sizes b = r.broadcastable(a);
                   int64_t rank = static_cast<int64_t>(std::max(a.size(), b.size()));
                   return C({T(a), T(b), I(r.dim(rank))});
                 }});
  out.push_back({"clamp_min", "torch.clamp_min", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return r.chance(0.3) ? C({T(s), F(0.5)}) : C({T(s), T(r.broadcastable(s))});
                 }});
  out.push_back({"clamp_max_", "Tensor.clamp_max_", inplace_gen()});
  // ---- the second batch
  out.push_back({"logaddexp", "torch.logaddexp", binary_gen()});
  out.push_back({"hypot", "torch.hypot", binary_gen()});
  out.push_back({"lerp", "torch.lerp", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), T(r.broadcastable(s)), r.chance(0.3) ? F(0.5) : T(r.broadcastable(s))});
                 }});
  out.push_back({"addcmul", "torch.addcmul", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(r.broadcastable(s)), T(s), T(r.broadcastable(s))});
                 }});
  out.push_back({"kthvalue", "torch.kthvalue", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), I(r.range(0, 4)), I(pick_dim(r, s)), B(r.chance(0.5))});
                 }});
  out.push_back({"mode", "torch.mode", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return C({T(s), I(pick_dim(r, s)), B(r.chance(0.5))});
                 }});
  out.push_back({"cummax", "torch.cummax", along_dim_gen()});
  out.push_back({"logcumsumexp", "torch.logcumsumexp", along_dim_gen()});
  out.push_back({"count_nonzero", "torch.count_nonzero", [dim_list](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   return r.chance(0.2) ? C({T(s)}) : C({T(s), L(dim_list(r, s, 3))});
                 }});
  for (const Suite& s : out) {
    if (s.rule == "Tensor.expand") {  // expand's generator, without the negative sizes a 0-d input lets through
      Suite b = s;
      b.op = "broadcast_to";
      b.rule = "torch.broadcast_to";
      b.gen = [gen = s.gen](Rng& r) {  // (torch 1.13 builds negative sizes there; the rule rejects them, see expand)
        for (;;) {
          OCase c = gen(r);
          bool negative = std::any_of(c.args[1].ints.begin(), c.args[1].ints.end(), [](int64_t k) { return k < 0; });
          if (!c.args[0].shape.empty() || !negative) return c;
        }
      };
      out.push_back(b);
      break;
    }
  }
  out.push_back({"broadcast_tensors", "torch.broadcast_tensors", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   std::vector<OArg> args{T(s)};
                   for (int64_t i = r.range(0, 2); i > 0; --i) args.push_back(T(r.broadcastable(s)));
                   return C(args);
                 }});
  out.push_back({"atleast_2d", "torch.atleast_2d", unary_gen(), false});
  out.push_back({"atleast_3d", "torch.atleast_3d", unary_gen(), false});
  out.push_back({"ravel", "torch.ravel", unary_gen(), false});
  out.push_back({"unfold", "Tensor.unfold", [](Rng& r) {
                   Sizes s = r.shape(0, 3);
                   int64_t d = pick_dim(r, s);
                   // a negative size only on a non-empty input: torch 1.13 builds a negative size on an
                   // empty one (no storage to overflow), which the rule rejects
                   int64_t numel = 1;
                   for (int64_t k : s) numel *= k;
                   return C({T(s), I(d), I(r.range(numel == 0 ? 0 : -1, 5)), I(r.chance(0.1) ? 0 : r.range(1, 3))});
                 }});
  out.push_back({"take_along_dim", "torch.take_along_dim", [index_like](Rng& r) {
                   Sizes s = r.shape(1, 3);
                   Sizes idx = index_like(r, s);
                   for (auto& k : idx)
                     if (r.chance(0.2)) k = 1;  // broadcasts
                   if (r.chance(0.15)) return C({T(s), T(idx)});
                   return C({T(s), T(idx), I(pick_dim(r, s))});
                 }});
  out.push_back({"trace", "torch.trace", [](Rng& r) { return C({T(r.chance(0.7) ? r.shape(2, 2) : r.shape(0, 3))}); }});
  out.push_back({"addmv", "torch.addmv", [](Rng& r) {
                   Sizes a = r.chance(0.85) ? r.shape(2, 2) : r.shape(1, 3);
                   Sizes v = {a.size() == 2 && r.chance(0.8) ? a[1] : r.size()};
                   Sizes in = r.chance(0.6) && !a.empty() ? Sizes{a[0]} : r.chance(0.5) ? Sizes{1} : r.shape(0, 2);
                   return C({T(in), T(a), T(v)});
                 }});
  out.push_back({"addbmm", "torch.addbmm", [](Rng& r) {
                   Sizes a = r.chance(0.9) ? r.shape(3, 3) : r.shape(2, 4);
                   Sizes b = r.chance(0.9) ? r.shape(3, 3) : r.shape(2, 4);
                   if (a.size() == 3 && b.size() == 3) {
                     if (r.chance(0.8)) b[0] = a[0];
                     if (r.chance(0.8)) b[1] = a[2];
                   }
                   Sizes out_shape = {a.size() > 1 ? a[1] : 1, b.empty() ? 1 : b.back()};
                   return C({T(r.broadcastable(out_shape)), T(a), T(b)});
                 }});
  out.push_back({"kron", "torch.kron", [](Rng& r) { return C({T(r.shape(0, 3)), T(r.shape(0, 3))}); }, false});
  out.push_back({"cross", "torch.cross", [](Rng& r) {
                   Sizes s = r.shape(1, 3);
                   for (auto& k : s)
                     if (r.chance(0.4)) k = 3;
                   Sizes o = r.chance(0.7) ? s : r.broadcastable(s);
                   if (r.chance(0.3)) return C({T(s), T(o)});
                   return C({T(s), T(o), I(pick_dim(r, s))});
                 }});
  out.push_back({"tensordot", "torch.tensordot", [](Rng& r) {
                   Sizes a = r.shape(0, 3);
                   int64_t k = r.chance(0.1) ? -1 : r.range(0, std::min<int64_t>(static_cast<int64_t>(a.size()), 2) + (r.chance(0.1) ? 1 : 0));
                   Sizes b;
                   for (int64_t i = 0; i < k && i < static_cast<int64_t>(a.size()); ++i)
                     b.push_back(r.chance(0.85) ? a[a.size() - static_cast<std::size_t>(k - i)] : r.size());
                   for (int64_t i = r.range(0, 2); i > 0; --i) b.push_back(r.size());
                   return C({T(a), T(b), I(k)});
                 }});
  Suite tensordot_lists{"tensordot_lists", "torch.tensordot", [dim_list](Rng& r) {
                          Sizes a = r.shape(1, 3), b = r.shape(1, 3);
                          Sizes da, db;
                          std::vector<int64_t> perm_a(a.size()), perm_b(b.size());
                          for (std::size_t i = 0; i < perm_a.size(); ++i) perm_a[i] = static_cast<int64_t>(i);
                          for (std::size_t i = 0; i < perm_b.size(); ++i) perm_b[i] = static_cast<int64_t>(i);
                          std::shuffle(perm_a.begin(), perm_a.end(), r.g);
                          std::shuffle(perm_b.begin(), perm_b.end(), r.g);
                          int64_t k = r.range(0, static_cast<int64_t>(std::min(a.size(), b.size())));
                          for (int64_t i = 0; i < k; ++i) {
                            da.push_back(perm_a[static_cast<std::size_t>(i)] - (r.chance(0.3) ? static_cast<int64_t>(a.size()) : 0));
                            db.push_back(perm_b[static_cast<std::size_t>(i)]);
                            if (r.chance(0.75)) b[static_cast<std::size_t>(perm_b[static_cast<std::size_t>(i)])] = a[static_cast<std::size_t>(perm_a[static_cast<std::size_t>(i)])];
                          }
                          if (r.chance(0.1)) db.push_back(0);                  // lengths differ
                          if (!da.empty() && r.chance(0.1)) da[0] = static_cast<int64_t>(a.size());  // out of range
                          return C({T(a), T(b), None(), L(da), L(db)});
                        },
                        true, run_tensordot_lists};
  out.push_back(tensordot_lists);
  // ---- torch.fft (rules_fft.cpp): sizes near 1 and 0, n and s entries near the boundary (-1 is the
  // input's size in s), dims out of range or repeated, an unknown norm now and then
  auto with_norm = [](Rng& r, OCase c) {
    if (r.chance(0.15)) c.kwargs.emplace_back("norm", OArg::string(r.chance(0.3) ? "bad" : r.chance(0.5) ? "ortho" : "forward"));
    return c;
  };
  for (const char* op : {"fft", "ifft", "rfft", "irfft", "hfft", "ihfft"}) {
    out.push_back({op, std::string("torch.fft.") + op, [with_norm](Rng& r) {
                     Sizes s = r.shape(0, 3);
                     OArg n = r.chance(0.5) ? None() : I(r.range(-1, 5));
                     return with_norm(r, C({T(s), n, I(r.dim(static_cast<int64_t>(s.size())))}));
                   }});
  }
  auto fft_lengths = [](Rng& r, std::size_t count) {
    Sizes s(count);
    for (auto& k : s) k = r.chance(0.25) ? -1 : r.chance(0.08) ? r.range(-2, 0) : r.range(1, 5);
    return s;
  };
  for (const char* op : {"fftn", "ifftn", "rfftn", "irfftn", "hfftn", "ihfftn"}) {
    out.push_back({op, std::string("torch.fft.") + op, [with_norm, fft_lengths](Rng& r) {
                     Sizes s = r.shape(0, 3);
                     int64_t rank = static_cast<int64_t>(s.size());
                     OArg dims = None(), lengths = None();
                     if (r.chance(0.6)) {
                       Sizes d(static_cast<std::size_t>(r.range(0, std::min<int64_t>(rank + 1, 3))));
                       for (auto& k : d) k = r.dim(rank);
                       dims = L(d);
                     }
                     if (r.chance(0.5)) {
                       std::size_t count = dims.kind == OArg::Kind::IntList && r.chance(0.85)
                                               ? dims.ints.size()
                                               : static_cast<std::size_t>(r.range(0, std::min<int64_t>(rank + 1, 3)));
                       lengths = L(fft_lengths(r, count));
                     }
                     return with_norm(r, C({T(s), lengths, dims}));
                   }});
  }
  for (const char* op : {"fft2", "ifft2", "rfft2", "irfft2", "hfft2", "ihfft2"}) {
    out.push_back({op, std::string("torch.fft.") + op, [with_norm, fft_lengths](Rng& r) {
                     Sizes s = r.shape(r.chance(0.1) ? 0 : 1, 4);
                     int64_t rank = static_cast<int64_t>(s.size());
                     OArg lengths = r.chance(0.5) ? L(fft_lengths(r, r.chance(0.85) ? 2 : r.range(0, 3))) : None();
                     if (r.chance(0.7)) return with_norm(r, C({T(s), lengths}));  // dim=(-2, -1)
                     Sizes d(static_cast<std::size_t>(r.chance(0.8) ? 2 : r.range(1, 3)));
                     for (auto& k : d) k = r.dim(rank);
                     return with_norm(r, C({T(s), lengths, L(d)}));
                   }});
  }
  for (const char* op : {"fftshift", "ifftshift"}) {
    out.push_back({op, std::string("torch.fft.") + op, [](Rng& r) {
                     Sizes s = r.shape(0, 3);
                     int64_t rank = static_cast<int64_t>(s.size());
                     if (r.chance(0.3)) return C({T(s)});
                     if (r.chance(0.4)) return C({T(s), I(r.dim(rank))});
                     Sizes d(static_cast<std::size_t>(r.range(0, 2)));
                     for (auto& k : d) k = r.dim(rank);
                     return C({T(s), L(d)});
                   }});
  }
  out.push_back({"fftfreq", "torch.fft.fftfreq", [](Rng& r) { return C({I(r.range(-3, 7)), F(r.real(0.1, 2))}); }});
  out.push_back({"rfftfreq", "torch.fft.rfftfreq", [](Rng& r) { return C({I(r.range(-6, 7)), F(r.real(0.1, 2))}); }});
  out.push_back({"bucketize", "torch.bucketize", [](Rng& r) {
                   Sizes b = r.chance(0.8) ? Sizes{r.size()} : r.shape(0, 2);
                   if (r.chance(0.2)) return C({F(r.real(-1, 1)), T(b)});
                   return C({T(r.shape(0, 3)), T(b)});
                 }});
  // searchsorted: a 1-D sequence, or one whose leading axes are the input's (sometimes off by one);
  // a number input; side against right; a sorter of the sequence's shape (sometimes not)
  out.push_back({"searchsorted", "torch.searchsorted", [](Rng& r) {
                   Sizes seq = r.chance(0.45) ? Sizes{r.size()} : r.shape(0, 3);
                   OArg input = F(0.5);
                   if (r.chance(0.85)) {
                     Sizes in = seq.empty() ? r.shape(0, 2) : Sizes(seq.begin(), seq.end() - 1);
                     in.push_back(r.size());
                     if (r.chance(0.15)) in = r.mutate(in);
                     if (r.chance(0.05)) in = {};
                     input = T(in);
                   }
                   OCase c = C({T(seq), input});
                   if (r.chance(0.2)) {
                     c.kwargs.emplace_back("side", OArg::string(r.chance(0.15) ? "middle" : r.chance(0.5) ? "left" : "right"));
                     if (r.chance(0.5)) c.kwargs.emplace_back("right", B(r.chance(0.5)));
                   }
                   if (r.chance(0.2)) c.kwargs.emplace_back("sorter", OArg::long_tensor(r.chance(0.8) ? seq : r.mutate(seq)));
                   return c;
                 }});
  out.push_back({"tan", "torch.tan", unary_gen(), false});
  out.push_back({"sinc", "Tensor.sinc", unary_gen(), false});
  return out;
}

// ------------------------------------------------------------------ the test

struct SuiteName {
  std::string operator()(const ::testing::TestParamInfo<Suite>& info) const {
    std::string name = info.param.rule + "_" + info.param.op;
    for (char& ch : name)
      if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
    return name;
  }
};

// Rule shapes with -1 for data-dependent sizes against libtorch's shapes.
bool matches(const std::vector<Sizes>& patterns, const std::vector<Sizes>& shapes) {
  if (patterns.size() != shapes.size()) return false;
  for (std::size_t i = 0; i < shapes.size(); ++i) {
    if (patterns[i].size() != shapes[i].size()) return false;
    for (std::size_t k = 0; k < shapes[i].size(); ++k)
      if (patterns[i][k] != -1 && patterns[i][k] != shapes[i][k]) return false;
  }
  return true;
}

class Oracle : public ::testing::TestWithParam<Suite> {};

TEST_P(Oracle, RuleAgreesWithLibtorch) {
  const Suite& suite = GetParam();
  Rng rng(std::hash<std::string>()(suite.rule + "/" + suite.op) % 100003 + 17);  // deterministic per suite
  gradual::Solver solver;
  int agree = 0, errors = 0;
  std::vector<std::string> disagreements;
  for (int i = 0; i < kCases; ++i) {
    OCase c = suite.gen(rng);
    Outcome torch = run_torch(suite.op, c);
    RuleOutcome rule = suite.runner(suite.rule, c, solver);
    std::string problem;
    if (torch.threw) {
      ++errors;
      if (!rule.refuted)
        problem = "libtorch throws (" + torch.error + ") but the rule " +
                  (rule.modelled ? "refutes nothing" + (rule.note.empty() ? "" : " [" + rule.note + "]")
                                 : "gave up: " + rule.note);
    } else if (rule.refuted) {
      problem = "libtorch succeeds but the rule refutes " + rule.note;
    } else if (!rule.modelled) {
      problem = "the rule gave up: " + rule.note;
    } else if (rule.deferred) {
      problem = "the rule defers on constant inputs: " + rule.note;
    } else if (suite.data_sizes) {
      if (!rule.patterns_known || !matches(rule.patterns, torch.shapes)) {
        std::string got, want;
        for (const auto& p : rule.patterns) got += shape_str(p) + " ";
        for (const auto& t : torch.shapes) want += shape_str(t) + " ";
        problem = "shapes differ: rule " + got + "(-1: a data-dependent size) vs libtorch " + want;
      }
    } else if (!rule.constant_result || rule.shapes != torch.shapes) {
      std::string got, want;
      for (const auto& s : rule.shapes) got += shape_str(s) + " ";
      for (const auto& s : torch.shapes) want += shape_str(s) + " ";
      problem = "shapes differ: rule " + got + (rule.constant_result ? "" : "(not all constant) ") + "vs libtorch " + want;
    }
    if (problem.empty()) {
      ++agree;
    } else if (disagreements.size() < 8) {
      disagreements.push_back(suite.rule + c.str() + ": " + problem);
    }
  }
  std::printf("[ oracle   ] %-34s %-12s %d cases, %d agree, %d libtorch errors\n", suite.rule.c_str(), suite.op.c_str(),
              kCases, agree, errors);
  for (const std::string& d : disagreements) ADD_FAILURE() << d;
  EXPECT_EQ(agree, kCases);
  if (suite.can_fail) {
    EXPECT_GT(errors, kCases / 50) << "the generator should reach the error boundary";
    EXPECT_LT(errors, kCases - kCases / 20) << "the generator should mostly produce valid calls too";
  }
}

INSTANTIATE_TEST_SUITE_P(Rules, Oracle, ::testing::ValuesIn(suites()), SuiteName());

}  // namespace
}  // namespace gshape::oracle
