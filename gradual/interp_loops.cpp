// Loops. `for` over a known short sequence (range(n) with n <= 64, a tuple, a
// ModuleList) is unrolled. Any other loop is iterated silently to a fixed
// point at its head (dims that change become symbols, the same ones on every
// pass), then analysed once from that head with obligations recorded. A
// DataLoader over a TensorDataset of known length is analysed twice from the
// head: full batches of batch_size, and, when drop_last is false and
// len % batch_size != 0, the last partial batch in its own context (PyTea's
// rule); failures only there are warnings. Comprehensions follow the same
// iteration plans.
#include "gradual/interp.h"

#include <algorithm>
#include <set>
#include "gradual/operator_rules.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {

constexpr int kMaxFixpointPasses = 4;
// Unrolled iterations of nested loops together (64 x 64 x 64 would be 262144).
constexpr std::size_t kMaxUnrollProduct = 256;

// A DataLoader batch of `sample`: every tensor gains a leading axis of `b`,
// numbers become a [b] tensor; tuples and lists batch item by item.
Value collate(const Value& sample, const Dim& b) {
  if (sample.is_tensor()) {
    if (!sample.shape().rank_known()) return sample;
    std::vector<Dim> dims{b};
    dims.insert(dims.end(), sample.shape().dims().begin(), sample.shape().dims().end());
    return Value::tensor(Shape(std::move(dims)));
  }
  if (sample.is_int() || sample.is_float() || sample.is_bool()) return Value::tensor(Shape{b});
  if (sample.is_sequence() && sample.items()) {
    std::vector<Value> items;
    for (const Value& v : *sample.items()) items.push_back(collate(v, b));
    return Value::list(std::move(items));
  }
  return Value::unknown().with_cause(sample.cause());  // why the sample is unknown holds for its batch
}

}  // namespace

std::optional<std::vector<Value>> Interpreter::known_items(const Value& v, std::size_t limit) {
  if (v.is_sequence()) {
    if (v.items() && v.items()->size() <= limit) return *v.items();
    return std::nullopt;
  }
  if (!v.is_object() || !v.as_object()) return std::nullopt;
  const ObjectValue& obj = *v.as_object();
  if (obj.class_name == "builtins.range") {
    const Value* start = obj.attribute("start");
    const Value* step = obj.attribute("step");
    const Value* len = obj.attribute("len");
    if (!start || !step || !len || !len->is_int()) return std::nullopt;
    auto n = len->as_int().constant_value();
    if (!n || *n < 0 || static_cast<std::size_t>(*n) > limit) return std::nullopt;
    std::vector<Value> out;
    try {
      for (int64_t i = 0; i < *n; ++i) out.push_back(Value::integer(start->as_int() + step->as_int() * Dim(i)));
    } catch (const std::exception&) {
      return std::nullopt;
    }
    return out;
  }
  if (const auto* c = dynamic_cast<const ContainerModule*>(&obj)) {
    if (c->children_known && c->children.size() <= limit) return c->children;
    return std::nullopt;
  }
  if (const auto* choice = dynamic_cast<const ChoiceObject*>(&obj)) {
    // alternatives of one length: position by position, the alternatives' items
    std::optional<std::vector<Value>> out;
    for (const Value& alt : choice->alternatives) {
      if (alt.is_none()) continue;
      auto items = known_items(alt, limit);
      if (!items || (out && out->size() != items->size())) return std::nullopt;
      if (!out) {
        out = std::move(items);
        continue;
      }
      for (std::size_t i = 0; i < out->size(); ++i) (*out)[i] = join_values((*out)[i], (*items)[i], {}, "item");
    }
    return out;
  }
  if (const auto* d = dynamic_cast<const DictObject*>(&obj)) {
    if (!d->complete || d->entries.size() > limit) return std::nullopt;
    std::vector<Value> keys;
    for (const auto& [k, val] : d->entries) {
      if (k.rfind("s:", 0) == 0) keys.push_back(Value::string(k.substr(2)));
      else keys.push_back(Value::integer(static_cast<int64_t>(std::stoll(k.substr(2)))));
    }
    return keys;
  }
  if (const auto* e = dynamic_cast<const EnumerateObject*>(&obj)) {
    auto inner = known_items(e->inner, limit);
    if (!inner) return std::nullopt;
    std::vector<Value> out;
    for (std::size_t i = 0; i < inner->size(); ++i)
      out.push_back(Value::tuple({Value::integer(e->start + Dim(static_cast<int64_t>(i))), (*inner)[i]}));
    return out;
  }
  if (const auto* z = dynamic_cast<const ZipObject*>(&obj)) {
    std::vector<std::vector<Value>> lists;
    for (const Value& inner : z->inners) {
      auto items = known_items(inner, limit);
      if (!items) return std::nullopt;
      lists.push_back(std::move(*items));
    }
    std::size_t n = lists.empty() ? 0 : lists.front().size();
    for (const auto& l : lists) n = std::min(n, l.size());
    std::vector<Value> out;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<Value> t;
      for (const auto& l : lists) t.push_back(l[i]);
      out.push_back(Value::tuple(std::move(t)));
    }
    return out;
  }
  return std::nullopt;
}

Value Interpreter::some_item(const Value& element) {
  auto fresh = [](const Dim& d) { return d.is_constant() ? d : Dim::symbol(d.is_symbol() ? d.symbol_name() : "item", d.nonneg()); };
  if (element.is_tensor()) {
    const Shape& s = element.shape();
    if (!s.rank_known()) return element;
    std::vector<Dim> dims;
    for (const Dim& d : s.dims()) dims.push_back(fresh(d));
    return Value::tensor(Shape(std::move(dims)), element.contiguous());
  }
  if (element.is_int()) return Value::integer(fresh(element.as_int()));
  if (element.is_sequence() && element.items()) {
    std::vector<Value> items;
    for (const Value& i : *element.items()) items.push_back(some_item(i));
    Value item = Value::sequence(element.sequence_kind(), std::move(items));
    if (element.sequence_kind() != SequenceKind::List) return item;
    // a list item is one of the lists the element stands for: a change
    // through it (`sorted(lists, key=len)[-1][0] = 6`) changes theirs
    std::vector<const void*> storages;
    if (element.storage()) storages.push_back(element.storage());
    if (element.may_be()) storages.insert(storages.end(), element.may_be()->begin(), element.may_be()->end());
    std::sort(storages.begin(), storages.end());
    storages.erase(std::unique(storages.begin(), storages.end()), storages.end());
    return item.with_may_be(std::move(storages));
  }
  return element;
}

Value Interpreter::any_element(const Value& v, const std::string& name_hint) {
  if (v.is_sequence()) {
    if (v.element()) return *v.element();
    if (!v.items() || v.items()->empty()) return Value::unknown();
    Value e = v.items()->front();
    for (std::size_t i = 1; i < v.items()->size(); ++i) e = join_values(e, (*v.items())[i], {}, name_hint);
    return e;
  }
  if (v.is_tensor()) {
    const Shape& s = v.shape();
    if (!s.rank_known() || s.rank() == 0) return Value::tensor(Shape::unknown(), false);
    return Value::tensor(Shape(std::vector<Dim>(s.dims().begin() + 1, s.dims().end())));
  }
  if (v.is_str()) return Value::string();  // a character
  if (!v.is_object() || !v.as_object()) return Value::unknown();
  const ObjectValue& obj = *v.as_object();
  if (obj.class_name == "builtins.range") {
    const Value* start = obj.attribute("start");
    bool nonneg = start && start->is_int() && start->as_int().nonneg();
    return fresh_int(name_hint, nonneg);
  }
  if (const auto* e = dynamic_cast<const EnumerateObject*>(&obj))
    return Value::tuple({fresh_int(name_hint + ".index"), any_element(e->inner, name_hint)});
  if (const auto* z = dynamic_cast<const ZipObject*>(&obj)) {
    std::vector<Value> t;
    for (const Value& inner : z->inners) t.push_back(any_element(inner, name_hint));
    return Value::tuple(std::move(t));
  }
  if (dynamic_cast<const DataLoaderObject*>(&obj)) return any_batch(v);
  if (const auto* c = dynamic_cast<const ContainerModule*>(&obj)) {
    // the children seen (every one when they are known; samples otherwise)
    if (c->children.empty()) return Value::unknown();
    Value e = c->children.front();
    for (std::size_t i = 1; i < c->children.size(); ++i) e = join_values(e, c->children[i], {}, name_hint);
    return e;
  }
  if (const auto* choice = dynamic_cast<const ChoiceObject*>(&obj)) {
    std::optional<Value> e;
    for (const Value& alt : choice->alternatives) {
      if (alt.is_none()) continue;
      Value one = any_element(alt, name_hint);
      e = e ? join_values(*e, one, {}, name_hint) : one;
    }
    return e ? *e : Value::unknown();
  }
  if (auto inst = shared_as<InstanceObject>(v)) {
    if (const Value* getitem = inst->cls->lookup("__getitem__")) {
      if (auto fn = shared_as<FunctionObject>(*getitem))
        return call_function(fn, {ArgValue{Argument::Type::Positional, {}, fresh_int("index"), nullptr, {}}}, v, nullptr);
    }
  }
  return Value::unknown();
}

DatasetView Interpreter::dataset_view(const Value& dataset) {
  DatasetView view;
  if (const auto* choice = object_as<ChoiceObject>(dataset)) {
    // one of a few datasets (`if args.dataset == 'mnist': ... elif ...`): the
    // samples joined, the length when they all have the same
    std::optional<DatasetView> out;
    for (const Value& alt : choice->alternatives) {
      if (alt.is_none()) continue;  // a DataLoader of None raises before any batch
      DatasetView one = dataset_view(alt);
      if (!one.sample) return view;
      if (!out) {
        out = std::move(one);
        continue;
      }
      out->sample = join_values(*out->sample, *one.sample, {}, "sample");
      if (!out->length || !one.length || !(*out->length == *one.length)) out->length.reset();
    }
    return out ? *out : view;
  }
  if (const auto* ds = object_as<DatasetObject>(dataset)) {
    view.sample = ds->sample();
    view.length = ds->length();
    return view;
  }
  if (auto inst = shared_as<InstanceObject>(dataset)) {
    if (const Value* getitem = inst->cls->lookup("__getitem__")) {
      if (auto fn = shared_as<FunctionObject>(*getitem))
        view.sample = call_function(fn, {ArgValue{Argument::Type::Positional, {}, fresh_int("index"), nullptr, {}}}, dataset,
                                    nullptr);
    }
    if (const Value* len = inst->cls->lookup("__len__")) {
      if (auto fn = shared_as<FunctionObject>(*len)) {
        Value n = call_function(fn, {}, dataset, nullptr);
        if (n.is_int()) view.length = n.as_int();
      }
    }
  }
  return view;
}

namespace {
// Whether `v` holds a tensor whose shape is not known, or has a size made
// after the symbol numbered `first` (one that may differ from call to call).
bool shape_may_vary(const Value& v, std::size_t first, int depth = 0) {
  if (depth > 8) return true;
  if (v.is_tensor()) {
    if (!v.shape().rank_known()) return true;
    for (const Dim& d : v.shape().dims())
      for (const Dim& s : symbols_of(d.node()))
        if (static_cast<std::size_t>(s.node()->value) >= first) return true;
    return false;
  }
  if (v.is_int() || v.is_float() || v.is_bool() || v.is_str() || v.is_none()) return false;
  if (v.is_sequence()) {
    if (!v.items()) return !v.element() || shape_may_vary(*v.element(), first, depth + 1) || v.element()->is_tensor();
    for (const Value& item : *v.items())
      if (shape_may_vary(item, first, depth + 1)) return true;
    return false;
  }
  if (const auto* d = object_as<DictObject>(v)) {
    if (!d->complete) return true;
    for (const auto& [key, item] : d->entries)
      if (shape_may_vary(item, first, depth + 1)) return true;
    return false;
  }
  return true;  // unknown, or an object the collate may stack
}
}  // namespace

bool Interpreter::samples_may_differ(const Value& dataset, int depth) {
  if (depth > 4) return true;
  if (const auto* choice = object_as<ChoiceObject>(dataset)) {
    for (const Value& alt : choice->alternatives)
      if (!alt.is_none() && samples_may_differ(alt, depth + 1)) return true;
    return false;
  }
  auto inst = shared_as<InstanceObject>(dataset);
  const Value* getitem = inst ? inst->cls->lookup("__getitem__") : nullptr;
  auto fn = getitem ? shared_as<FunctionObject>(*getitem) : nullptr;
  if (!fn) return false;  // a library dataset (TensorDataset's samples are rows of one tensor)
  const std::size_t first = symbol_count();
  Value sample = call_function(fn, {ArgValue{Argument::Type::Positional, {}, fresh_int("index"), nullptr, {}}}, dataset, nullptr);
  return shape_may_vary(sample, first);
}

Value Interpreter::any_batch(const Value& loader_value) {
  const auto* loader = object_as<DataLoaderObject>(loader_value);
  if (!loader) return Value::unknown();
  DatasetView view = dataset_view(loader->dataset);
  if (!view.sample || !loader->batch_size.is_int()) return Value::unknown();
  const Dim& b = loader->batch_size.as_int();
  try {
    // every batch is full when the last partial one is dropped or there is none
    if (loader->drop_last == true) return collate(*view.sample, b);
    if (view.length && solver_->query(eq(mod(*view.length, b), Dim(0))) == true)
      return collate(*view.sample, min(b, *view.length));
  } catch (const std::exception&) {
    return Value::unknown();
  }
  Dim batch = Dim::symbol("batch");
  add_fact(ge(batch, Dim(1)) && le(batch, b), loader->loc, "a batch holds 1 to batch_size samples");
  return collate(*view.sample, batch);
}

Value Interpreter::first_batch(const Value& loader_value) {
  const auto* loader = object_as<DataLoaderObject>(loader_value);
  if (!loader) return Value::unknown();
  DatasetView view = dataset_view(loader->dataset);
  if (!view.sample || !loader->batch_size.is_int()) return Value::unknown();
  const Dim& b = loader->batch_size.as_int();
  if (!view.length) return collate(*view.sample, Dim::symbol("batch"));
  try {
    Dim first = min(b, *view.length);
    return collate(*view.sample, first);
  } catch (const std::exception&) {
    return Value::unknown();
  }
}

IterPlan Interpreter::plan_iteration(const Value& it, const std::string& hint) {
  IterPlan plan;
  if (auto items = known_items(it, static_cast<std::size_t>(options_.max_unroll))) {
    // nested unrolled loops multiply: past the product limit, a fixed point instead
    if (items->empty() || unroll_product_ * items->size() <= kMaxUnrollProduct) {
      plan.unroll = true;
      plan.items = std::move(*items);
      return plan;
    }
  }
  // enumerate(loader) keeps the loader's passes, each element with an index
  const Value* inner = &it;
  const EnumerateObject* enumerate = object_as<EnumerateObject>(it);
  if (enumerate) inner = &enumerate->inner;
  auto wrap = [&](Value element) {
    if (!enumerate) return element;
    return Value::tuple({fresh_int(hint + ".index"), std::move(element)});
  };

  if (const auto* loader = object_as<DataLoaderObject>(*inner)) {
    DatasetView view = dataset_view(loader->dataset);
    if (view.sample && loader->batch_size.is_int()) {
      const Dim& b = loader->batch_size.as_int();
      if (!view.length) {
        Dim batch = Dim::symbol("batch");
        IterPass pass{wrap(collate(*view.sample, batch)), context_, {}};
        pass.facts.push_back({ge(batch, Dim(1)) && le(batch, b), "a batch holds 1 to batch_size samples"});
        plan.head_element = pass.element;
        plan.passes.push_back(std::move(pass));
        return plan;
      }
      try {
        const Dim& n = *view.length;
        Dim rem = mod(n, b);
        Pred full_exists = ge(n, b);
        // a drop_last the analysis does not know may be False: the partial batch may come
        Pred last_exists = loader->drop_last == true ? Pred(false) : ne(rem, Dim(0));
        std::optional<bool> full = full_exists.constant_value();
        if (!full) full = solver_->query(full_exists);
        std::optional<bool> last = last_exists.constant_value();
        if (!last) last = solver_->query(last_exists);
        // enumerate(loader): the full batches are numbered from `start`, the
        // partial one comes after them (`if i == 0:` does not see it when
        // there are full batches)
        Dim full_batches = floordiv(n, b);
        if (full != false) {
          IterPass pass{wrap(collate(*view.sample, b)), context_, {}};
          if (!full) pass.facts.push_back({full_exists, "the dataset holds at least one full batch"});
          if (enumerate) {
            const Dim& i = pass.element.items()->front().as_int();
            pass.facts.push_back({ge(i, enumerate->start) && lt(i, enumerate->start + full_batches),
                                  "the index of a full batch"});
          }
          plan.passes.push_back(std::move(pass));
        }
        if (last != false) {
          IterPass pass{collate(*view.sample, rem), context_, {}};
          if (enumerate) pass.element = Value::tuple({Value::integer(enumerate->start + full_batches), pass.element});
          if (!last) pass.facts.push_back({last_exists, "the last batch is partial"});
          // Only partial-batch failures of a loader that also has full batches
          // are warnings; a loader whose only batch is partial always runs it.
          if (full != false && contexts_[static_cast<std::size_t>(context_)].kind == Context::Kind::Normal) {
            Context c;
            c.kind = Context::Kind::LastBatch;
            std::string size = rem.constant_value() ? std::to_string(*rem.constant_value()) : "len(dataset) % batch_size";
            c.note = "fails on the last batch of " + size + " when drop_last=False";
            c.loader_loc = loader->loc;
            c.detail = "the last batch holds " + size + " samples: len(dataset) = " + n.str() + ", batch_size = " + b.str();
            pass.context = push_context(std::move(c));
          }
          plan.passes.push_back(std::move(pass));
        }
        if (plan.passes.empty()) return plan;  // no batch at all: the body never runs
        plan.head_element = plan.passes.front().element;
        for (std::size_t i = 1; i < plan.passes.size(); ++i)
          plan.head_element = join_values(plan.head_element, plan.passes[i].element, {}, hint);
        return plan;
      } catch (const std::exception&) {
        plan.passes.clear();
      }
    }
    // a dataset whose samples the analysis cannot see: they are read when the program runs
    Value batch = Value::unknown();
    if (loader->loc.valid()) {
      auto cause = std::make_shared<UnknownCause>();
      cause->kind = UnknownCause::Kind::RunTimeData;
      cause->at = loader->loc;
      cause->text = "the batches of the DataLoader at " + std::to_string(loader->loc.line) + ":" +
                    std::to_string(loader->loc.column) + ", whose samples are read when the program runs";
      cause->alone = "its samples are read when the program runs";
      batch = batch.with_cause(std::move(cause));
    }
    IterPass pass{wrap(batch), context_, {}};
    plan.head_element = pass.element;
    plan.passes.push_back(std::move(pass));
    return plan;
  }

  IterPass pass{inherit_cause(any_element(it, hint), it), context_, {}};
  if (it.is_object() && it.as_object() && it.as_object()->class_name == "builtins.range" && pass.element.is_int()) {
    const ObjectValue& r = *it.as_object();
    const Value* start = r.attribute("start");
    const Value* stop = r.attribute("stop");
    const Value* step = r.attribute("step");
    if (start && stop && step && start->is_int() && stop->is_int() && step->is_int()) {
      auto st = step->as_int().constant_value();
      const Dim& i = pass.element.as_int();
      if (st && *st > 0) {
        pass.facts.push_back({ge(i, start->as_int()) && lt(i, stop->as_int()), "loop index in range"});
      } else if (st && *st < 0) {
        pass.facts.push_back({le(i, start->as_int()) && gt(i, stop->as_int()), "loop index in range"});
      }
    }
  }
  plan.head_element = pass.element;
  plan.passes.push_back(std::move(pass));
  return plan;
}

void Interpreter::run_loop(const Expr* target, const Body& body, const Body& orelse, const IterPlan& plan,
                           const Expr* test, const Node* test_site) {
  auto test_value = [&] {
    Value c = eval(test);
    if (test_site) check_truth(test_site, test, c);
    return c;
  };
  Frame& f = frame();
  Frame::Loop loop;
  f.loops.push_back(&loop);
  struct PopLoop {
    Frame& f;
    ~PopLoop() { f.loops.pop_back(); }
  } pop{f};

  auto bind_target = [&](const Value& element) {
    if (target) assign(target, element, target->loc);
  };
  auto join_all = [&](std::vector<Vars>& states) -> std::optional<Vars> {
    if (states.empty()) return std::nullopt;
    Vars out = std::move(states.front());
    for (std::size_t i = 1; i < states.size(); ++i) out = join_vars(out, states[i], {});
    return out;
  };

  if (plan.unroll) {
    std::size_t saved_product = unroll_product_;
    unroll_product_ *= std::max<std::size_t>(plan.items.size(), 1);
    struct RestoreProduct {
      std::size_t& p;
      std::size_t v;
      ~RestoreProduct() { p = v; }
    } restore{unroll_product_, saved_product};
    for (const Value& item : plan.items) {
      bind_target(item);
      exec_body(body);
      std::vector<Vars> next;
      if (f.live) next.push_back(std::move(*f.vars));
      for (Vars& c : loop.continues) next.push_back(std::move(c));
      loop.continues.clear();
      if (auto joined = join_all(next)) {
        *f.vars = std::move(*joined);
        f.live = true;
      } else {
        break;  // every path left the loop
      }
    }
    if (f.live) exec_body(orelse);
    std::vector<Vars> exits;
    if (f.live) exits.push_back(std::move(*f.vars));
    for (Vars& b : loop.breaks) exits.push_back(std::move(b));
    if (auto joined = join_all(exits)) {
      *f.vars = std::move(*joined);
      f.live = true;
    }
    return;
  }

  // ---- silent passes to the fixed point of the loop head
  struct FixpointLoop {
    int& depth;
    explicit FixpointLoop(int& d) : depth(d) { ++depth; }
    ~FixpointLoop() { --depth; }
  } fixpoint_loop{fixpoint_loops_};
  std::map<std::string, Dim> widen_cache;
  JoinOptions widen;
  widen.widen = true;
  widen.widen_cache = &widen_cache;
  Vars entry = *f.vars;
  Vars head = entry;
  // Attributes of objects made before the loop that its body sets
  // (`self.mem = torch.cat([self.mem, x])`): widened at the head like the
  // variables, keyed by object and name.
  struct AttrHead {
    std::shared_ptr<ObjectValue> object;
    Value entry, value;
  };
  std::map<std::pair<const ObjectValue*, std::string>, AttrHead> attr_head;
  auto apply_attr_head = [&] {
    for (const auto& [key, a] : attr_head) write_object_attribute(a.object, key.second, a.value);
  };
  bool converged = false;
  for (int pass = 0; pass < kMaxFixpointPasses; ++pass) {
    Checkpoint cp = checkpoint();
    WriteMark mark = write_mark();
    ++log_depth;
    recording_ = false;
    std::vector<Vars> outs;
    std::map<std::pair<const ObjectValue*, std::string>, std::pair<std::shared_ptr<ObjectValue>, Value>> attr_out;
    try {
      SolverScope scope(*solver_);
      *f.vars = head;
      apply_attr_head();
      f.live = true;
      bool runs = true;
      if (test) {
        auto p = truth(test_value());
        if (p) {
          if (p->is_false() || solver_->query(*p) == false) runs = false;
          else add_fact(*p, test->loc, "loop condition");
        }
      }
      if (runs) {
        bind_target(plan.head_element);
        exec_body(body);
        if (f.live) outs.push_back(*f.vars);
        for (Vars& c : loop.continues) outs.push_back(std::move(c));
      }
      // the attributes the pass set on objects older than the loop, as they are now
      for (std::size_t i = mark.log; i < write_log_.size(); ++i) {
        const AttrWrite& w = write_log_[i];
        const auto* made = dynamic_cast<const InstanceObject*>(w.object.get());
        if (made && made->born > mark.clock) continue;
        const Value* now = w.object->attribute(w.name);
        attr_out[{w.object.get(), w.name}] = {w.object, now ? *now : Value::unknown()};
      }
    } catch (...) {
      --log_depth;
      undo_writes(mark);
      rollback(cp);
      loop.continues.clear();
      loop.breaks.clear();
      throw;
    }
    --log_depth;
    undo_writes(mark);
    rollback(cp);
    loop.continues.clear();
    loop.breaks.clear();
    Vars next = head;
    for (const Vars& out : outs) next = join_vars(next, out, widen);
    bool attrs_changed = false;
    for (const auto& [key, out] : attr_out) {
      auto it = attr_head.find(key);
      if (it == attr_head.end()) {
        const Value* before = out.first->attribute(key.second);  // as the loop found it (writes undone)
        Value v = before ? *before : Value::unknown();
        it = attr_head.emplace(key, AttrHead{out.first, v, v}).first;
      }
      Value joined = join_values(it->second.value, out.second, widen, key.second);
      if (!same_value(joined, it->second.value)) {
        it->second.value = std::move(joined);
        attrs_changed = true;
      }
    }
    if (same_vars(next, head) && !attrs_changed) {
      converged = true;
      break;
    }
    head = std::move(next);
  }
  if (!converged) {
    // what still changes after the last pass is unknown
    for (auto& [name, b] : head) {
      auto e = entry.find(name);
      if (e == entry.end() || !same_value(e->second.value, b.value)) {
        b.value = Value::unknown();
        b.unknown_sizes.clear();
      }
    }
    for (auto& [key, a] : attr_head)
      if (!same_value(a.entry, a.value)) a.value = Value::unknown();
  }

  // ---- recorded passes from the head
  std::vector<Vars> exits;
  struct RestoreContext {
    int& c;
    int saved;
    ~RestoreContext() { c = saved; }
  } restore_context{context_, context_};
  for (const IterPass& pass : plan.passes) {
    context_ = pass.context;
    {
      SolverScope scope(*solver_);
      *f.vars = head;
      apply_attr_head();
      f.live = true;
      bool runs = true;
      if (test) {
        auto p = truth(test_value());
        if (p) {
          if (p->is_false() || solver_->query(*p) == false) runs = false;
          else add_fact(*p, test->loc, "loop condition " + source_text(test->loc));
        }
      }
      for (const auto& [fact, why] : pass.facts) add_fact(fact, target ? target->loc : SourceLoc{}, why);
      if (runs) {
        bind_target(pass.element);
        exec_body(body);
      }
    }
    for (Vars& b : loop.breaks) exits.push_back(std::move(b));
    loop.breaks.clear();
    loop.continues.clear();
  }
  context_ = restore_context.saved;

  // after the loop: the head (zero or more iterations, then a normal exit), or a break
  *f.vars = head;
  apply_attr_head();
  f.live = true;
  bool exits_normally = true;
  if (test) {
    auto p = truth(test_value());
    if (p && (p->is_true() || solver_->query(*p) == true)) exits_normally = false;  // `while True`
  }
  if (exits_normally) exec_body(orelse);
  if (exits_normally && f.live) exits.insert(exits.begin(), *f.vars);
  if (auto joined = join_all(exits)) {
    *f.vars = std::move(*joined);
    f.live = true;
  } else {
    f.live = false;
  }
}

void Interpreter::exec_for(const For* loop) {
  Value it = eval(loop->iter);
  check_unpacked(loop, iter_unpack_rule(loop->target), it, loop->iter);  // `for a, b in items`
  std::string hint = loop->target ? source_text(loop->target->loc, 24) : std::string("item");
  IterPlan plan = plan_iteration(it, hint);
  if (!plan.unroll && plan.passes.empty()) {
    exec_body(loop->orelse);  // the body never runs
    return;
  }
  run_loop(loop->target, loop->body, loop->orelse, plan, nullptr);
}

void Interpreter::exec_while(const While* loop) {
  Value c = eval(loop->test);
  check_truth(loop, loop->test, c);
  auto p = truth(c);
  if (p && (p->is_false() || solver_->query(*p) == false)) {
    exec_body(loop->orelse);
    return;
  }
  IterPlan plan;
  plan.passes.push_back(IterPass{Value::unknown(), context_, {}});
  run_loop(nullptr, loop->body, loop->orelse, plan, loop->test, loop);
}

Value Interpreter::comprehension(const ComprehensionExpr* c, bool is_set) {
  std::vector<Value> results;
  bool known = generate_each(c->generators, [&]() { results.push_back(eval(c->elt)); }, c->kind == Kind::GeneratorExp);
  if (is_set) return Value::unknown();
  if (known) return Value::list(std::move(results));
  Value element = results.empty() ? Value::unknown() : results.front();
  for (std::size_t i = 1; i < results.size(); ++i) element = join_values(element, results[i], {}, "item");
  return Value::unknown_length(SequenceKind::List, element);
}

Value Interpreter::dict_comprehension(const DictComp* d) {
  auto dict = std::make_shared<DictObject>();
  bool known = generate_each(d->generators, [&]() {
    Value key = eval(d->key);
    Value value = eval(d->value);  // its calls and operators are analysed like any others
    if (std::optional<std::string> k = dict_key(key)) dict->set(*k, std::move(value));
    else dict->complete = false;
  });
  if (!known) {
    // entries of an unknown count: none is known to be there, or to be the last one set
    dict->entries.clear();
    dict->complete = false;
  }
  return Value::object(dict);
}

bool Interpreter::generate_each(const std::vector<Comprehension>& generators, const std::function<void()>& produce,
                                bool lazy) {
  Vars saved = *frame().vars;  // comprehension variables do not leak (Python 3)
  bool known = true;
  std::function<void(std::size_t)> generate = [&](std::size_t g) {
    if (g == generators.size()) {
      produce();
      return;
    }
    const Comprehension& gen = generators[g];
    Value it = eval(gen.iter);
    auto run_one = [&](const Value& element) {
      assign(gen.target, element, gen.target->loc);
      for (const Expr* cond : gen.ifs) {
        auto p = truth(eval(cond));
        if (p && p->is_false()) return;
        if (!p || !p->is_constant()) known = false;
      }
      generate(g + 1);
    };
    if (auto items = known_items(it, static_cast<std::size_t>(options_.max_unroll))) {
      for (const Value& item : *items) run_one(item);
    } else {
      known = false;
      run_one(inherit_cause(any_element(it, source_text(gen.target->loc, 24)), it));
    }
  };
  generate(0);
  // the comprehension's own variables do not leak; a name a walrus in it
  // bound (PEP 572: the enclosing scope's) or a list a call in it changed
  // (`any(dims.pop() for ...)`) keeps what it did, unknown when the number
  // of runs is not known
  std::set<std::string> own;
  std::function<void(const Expr*)> targets = [&](const Expr* t) {
    if (!t) return;
    if (const auto* n = dyn_cast<Name>(t)) own.insert(n->id);
    else if (const auto* st = dyn_cast<Starred>(t)) targets(st->value);
    else if (isa<Tuple>(t) || isa<List>(t))
      for (const Expr* e : static_cast<const SequenceExpr*>(t)->elts) targets(e);
  };
  for (const Comprehension& gen : generators) targets(gen.target);
  Vars after = std::move(*frame().vars);
  *frame().vars = std::move(saved);
  for (auto& [name, binding] : after) {
    if (own.count(name)) continue;
    auto before = frame().vars->find(name);
    if (before != frame().vars->end() && same_value(before->second.value, binding.value)) continue;
    if (!known || lazy) {
      Value forgotten = after_unseen_change(binding.value);
      binding.value = same_value(forgotten, binding.value) ? Value::unknown() : forgotten;
    }
    (*frame().vars)[name] = std::move(binding);
  }
  return known;
}

}  // namespace gshape::gradual::interp
