// nn.DataParallel and nn.parallel.DistributedDataParallel (torch 1.13).
//
// `DistributedDataParallel(net, ...)(x)` runs `net(x)` in each process on
// the inputs as given: a call of the wrapper is a call of the module.
//
// `DataParallel(net)(x)` with several devices scatters every tensor argument
// along `dim` (0) into chunks, one per device (torch.chunk: ceil(B/n) each,
// fewer pieces when B < n), runs a replica of `net` on each chunk and
// concatenates the outputs along `dim`; with one device it runs `net` on the
// whole input, and without devices (CPU) it is `net(x)`. So inside `net`'s
// forward the batch axis is a chunk size c with min(1, B) <= c <= B, not B:
// a requirement there that holds only for the whole batch is not proven. The
// gathered result's axis `dim` is B when the module's output axis is c
// exactly (every replica gives back its own chunk's length); any other size,
// and any other axis that depends on c, is a fresh size. A 0-d output is
// gathered into a vector with one element per device: the result's rank is
// unknown. Every call shares the chunk symbol of its batch size, so the
// module's analysis is memoised as for a plain call.
#include "gradual/interp.h"
#include "gradual/interp_args.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {

std::optional<ModuleWrapper::Kind> wrapper_kind(const std::string& path, std::string& cls) {
  if (path == "torch.nn.DataParallel" || path == "torch.nn.parallel.DataParallel" ||
      path == "torch.nn.parallel.data_parallel.DataParallel") {
    cls = "torch.nn.DataParallel";
    return ModuleWrapper::Kind::DataParallel;
  }
  if (path == "torch.nn.parallel.DistributedDataParallel" ||
      path == "torch.nn.parallel.distributed.DistributedDataParallel") {
    cls = "torch.nn.parallel.DistributedDataParallel";
    return ModuleWrapper::Kind::Distributed;
  }
  return std::nullopt;
}

bool mentions(const Dim& d, const std::vector<Dim>& symbols) {
  for (const Dim& s : symbols_of(d.node()))
    for (const Dim& c : symbols)
      if (s == c) return true;
  return false;
}

}  // namespace

std::optional<Value> Interpreter::make_module_wrapper(const std::string& path, const std::vector<ArgValue>& args,
                                                      const Node* site) {
  std::string cls;
  std::optional<ModuleWrapper::Kind> kind = wrapper_kind(path, cls);
  if (!kind) return std::nullopt;
  Args a(args);
  const Value* module = a.get(0, "module");
  if (!module || a.has_star) return Value::unknown();
  int64_t dim = 0;
  if (*kind == ModuleWrapper::Kind::DataParallel) {
    // DataParallel(module, device_ids=None, output_device=None, dim=0)
    const Value* d = a.get(3, "dim");
    std::optional<Dim> di = d ? int_of(d) : std::optional<Dim>(Dim(0));
    if (!di || !di->constant_value() || *di->constant_value() < 0) return Value::unknown();  // an axis it cannot tell
    dim = *di->constant_value();
  }
  std::string unique = cls + "<" + std::to_string(wrappers_.size() + 1) + ">";
  auto w = std::make_shared<ModuleWrapper>(unique, cls, *kind, *module, dim);
  wrappers_.emplace(unique, w);
  note_created(w.get(), site->loc);
  return Value::object(w);
}

std::shared_ptr<ModuleWrapper> Interpreter::wrapper_named(const std::string& path) const {
  if (path.empty() || path.back() != '>') return nullptr;
  auto it = wrappers_.find(path);
  return it == wrappers_.end() ? nullptr : it->second;
}

Value Interpreter::call_module_wrapper(ModuleWrapper& w, const std::vector<ArgValue>& args, const Node* site) {
  if (w.kind == ModuleWrapper::Kind::Distributed) return call_value(w.module(), nullptr, args, site);

  // ---- scatter: every tensor's axis `dim` becomes its batch size's chunk
  std::vector<Dim> batches, chunks;  // the batch sizes scattered in this call, and their chunks
  std::function<Value(const Value&, int)> scatter = [&](const Value& v, int depth) -> Value {
    if (v.is_tensor()) {
      const Shape& s = v.shape();
      if (!s.rank_known()) return Value::tensor(Shape::unknown(), v.contiguous());  // which axis is `dim` is unknown
      if (s.rank() <= static_cast<std::size_t>(w.dim)) return v;  // torch.chunk would fail: not modelled
      std::vector<Dim> dims = s.dims();
      const Dim batch = dims[static_cast<std::size_t>(w.dim)];
      auto it = w.chunks.find(batch.node());
      if (it == w.chunks.end()) {
        std::string b = batch.str();
        Dim c = batch.constant_value() && *batch.constant_value() <= 1
                    ? batch  // a batch of 0 or 1 is one chunk of itself
                    : Dim::symbol(b.size() <= 40 ? "chunk(" + b + ")" : std::string("chunk"), true);
        it = w.chunks.emplace(batch.node(), c).first;
      }
      const Dim& c = it->second;
      if (c != batch) {
        // each call in its own scope of facts: stated again here
        add_fact(le(c, batch) && ge(c, min(batch, 1)), site->loc,
                 "nn.DataParallel scatters " + batch.str() + " into chunks of " + c.str());
      }
      bool seen = false;
      for (const Dim& b : batches) seen = seen || b == batch;
      if (!seen) {
        batches.push_back(batch);
        chunks.push_back(c);
      }
      dims[static_cast<std::size_t>(w.dim)] = c;
      return Value::tensor(Shape(dims), w.dim == 0 && v.contiguous());  // a chunk along another axis is a strided view
    }
    if (v.is_sequence()) {
      if (!v.items() || depth > 8) return Value::unknown();  // any number of tensors, each chunked
      std::vector<Value> items;
      for (const Value& item : *v.items()) items.push_back(scatter(item, depth + 1));
      return Value::sequence(v.sequence_kind(), std::move(items));
    }
    // ints, strings, None and objects are copied to every replica; a dict
    // (its tensors are scattered) or an unknown value may hold tensors
    if (v.is_unknown() || object_as<DictObject>(v) || object_as<ChoiceObject>(v)) return Value::unknown();
    return v;
  };
  std::vector<ArgValue> chunked = args;
  for (ArgValue& a : chunked) {
    a.value = scatter(a.value, 0);
    for (Value& e : a.elements) e = scatter(e, 0);
  }

  Value out = call_value(w.module(), nullptr, chunked, site);

  // ---- gather: the outputs concatenated along `dim`
  std::string text = source_text(site->loc, 40);
  std::function<Value(const Value&, int)> gather = [&](const Value& v, int depth) -> Value {
    if (v.is_tensor()) {
      const Shape& s = v.shape();
      // a 0-d output is gathered into a vector (one element per device), and an
      // output of unknown rank may be one
      if (!s.rank_known() || s.rank() <= static_cast<std::size_t>(w.dim)) return Value::tensor(Shape::unknown(), false);
      std::vector<Dim> dims = s.dims();
      for (std::size_t k = 0; k < dims.size(); ++k) {
        const bool gathered = k == static_cast<std::size_t>(w.dim);
        if (gathered && chunks.size() == 1 && dims[k] == chunks.front()) {
          dims[k] = batches.front();  // each replica gave back its chunk's length
        } else if (gathered || mentions(dims[k], chunks)) {
          // other lengths, or an axis that differs between replicas (gathering fails then)
          dims[k] = Dim::symbol(text.empty() ? "gathered" : text + ".size(" + std::to_string(k) + ")", true);
        }
      }
      return Value::tensor(Shape(dims), v.contiguous());
    }
    if (v.is_none()) return v;
    if (v.is_sequence() && v.items() && depth <= 8) {
      std::vector<Value> items;
      for (const Value& item : *v.items()) items.push_back(gather(item, depth + 1));
      return Value::sequence(v.sequence_kind(), std::move(items));
    }
    return Value::unknown();  // a number, a dict, an object: not modelled
  };
  return gather(out, 0);
}

}  // namespace gshape::gradual::interp
