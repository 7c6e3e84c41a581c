// The torch side of the oracle: runs the real libtorch operator on small
// zero-filled tensors of the case's shapes. The only file of the test that
// includes libtorch headers (they take long to compile).
#include <ATen/ATen.h>
#include <ATen/TensorIndexing.h>
#include <ATen/ops/numpy_T_native.h>

#include <functional>
#include <map>
#include <stdexcept>

#include "libtorch_quiet.h"
#include "oracle.h"

namespace gshape::oracle {
namespace {

using Kind = OArg::Kind;
using Sizes = std::vector<int64_t>;

at::Tensor T(const OArg& a) {
  if (a.kind == Kind::BoolTensor) return at::zeros(a.shape, at::kBool);
  if (a.kind != Kind::Tensor) throw std::invalid_argument("oracle: expected a tensor argument");
  return at::zeros(a.shape);
}

// An index tensor: int64 zeros of the argument's shape.
at::Tensor LT(const OArg& a) { return at::zeros(a.shape, at::kLong); }

std::vector<at::Tensor> TL(const OArg& a) {
  std::vector<at::Tensor> out;
  for (const auto& s : a.shapes) out.push_back(at::zeros(s));
  return out;
}

at::Scalar S(const OArg& a) {
  if (a.kind == Kind::Float) return at::Scalar(a.f);
  if (a.kind == Kind::Bool) return at::Scalar(a.b);
  return at::Scalar(a.i);
}

// An index as Python's `x[a, b, ...]` passes it (TensorIndex is what
// torch's own getitem/setitem build: applySlicing, then index/index_put_).
std::vector<at::indexing::TensorIndex> index_of(const OArg& a) {
  using at::indexing::TensorIndex;
  std::vector<TensorIndex> out;
  for (const OArg& it : a.items) {
    switch (it.kind) {
      case Kind::Int: out.emplace_back(it.i); break;
      case Kind::Bool: out.emplace_back(it.b); break;
      case Kind::None: out.emplace_back(c10::nullopt); break;
      case Kind::Ellipsis: out.emplace_back(at::indexing::Ellipsis); break;
      case Kind::Slice: {
        auto bound = [](int64_t b) { return b == OArg::kNoBound ? c10::optional<int64_t>() : c10::optional<int64_t>(b); };
        out.emplace_back(at::indexing::Slice(bound(it.start), bound(it.stop), it.step));
        break;
      }
      case Kind::LongTensor: out.emplace_back(at::zeros(it.shape, at::kLong)); break;
      case Kind::BoolTensor: out.emplace_back(at::zeros(it.shape, at::kBool)); break;
      default: throw std::invalid_argument("oracle: not an index item: " + it.str());
    }
  }
  return out;
}

bool is_tensor(const OArg& a) { return a.kind == Kind::Tensor || a.kind == Kind::BoolTensor; }
bool has(const OCase& c, std::size_t i) { return c.args.size() > i && c.args[i].kind != Kind::None; }

Outcome of(const at::Tensor& t) {
  Outcome o;
  o.shapes.push_back(t.sizes().vec());
  return o;
}
Outcome of(const std::vector<at::Tensor>& ts) {
  Outcome o;
  for (const auto& t : ts) o.shapes.push_back(t.sizes().vec());
  return o;
}
Outcome of(const std::tuple<at::Tensor, at::Tensor>& ts) { return of(std::vector<at::Tensor>{std::get<0>(ts), std::get<1>(ts)}); }

// clamp(t, lo, hi) and t.clamp_(lo, hi): both bounds tensors (or None) when
// either is a tensor, otherwise scalars (or None).
template <class Clamp>
Outcome clamp_with(const OCase& c, Clamp clamp) {
  const OArg& lo = c.args[1];
  const OArg& hi = c.args[2];
  if (is_tensor(lo) || is_tensor(hi)) {
    c10::optional<at::Tensor> l, h;
    if (is_tensor(lo)) l = T(lo);
    if (is_tensor(hi)) h = T(hi);
    return of(clamp(T(c.args[0]), l, h));
  }
  c10::optional<at::Scalar> l, h;
  if (lo.kind != Kind::None) l = S(lo);
  if (hi.kind != Kind::None) h = S(hi);
  return of(clamp(T(c.args[0]), l, h));
}

// A reduction called as op(t), op(t, dim), op(t, dim, keepdim).
template <class WithDim, class Plain>
Outcome reduce_single(const OCase& c, WithDim with_dim, Plain plain) {
  if (!has(c, 1)) return of(plain(T(c.args[0])));
  bool keep = c.args.size() > 2 && c.args[2].b;
  return of(with_dim(T(c.args[0]), c.args[1].i, keep));
}

// sum/mean(t) or (t, dims, keepdim) where dims is an int, a list or None.
template <class F>
Outcome reduce_list(const OCase& c, F f) {
  bool keep = c.args.size() > 2 && c.args[2].b;
  const OArg& d = c.args.size() > 1 ? c.args[1] : OArg::none();
  if (d.kind == Kind::None) return of(f(T(c.args[0]), c10::nullopt, keep));
  if (d.kind == Kind::Int) return of(f(T(c.args[0]), at::IntArrayRef{d.i}, keep));
  return of(f(T(c.args[0]), at::IntArrayRef(d.ints), keep));
}

using Runner = std::function<Outcome(const OCase&)>;

const std::map<std::string, Runner>& runners() {
  static const std::map<std::string, Runner> table = [] {
    std::map<std::string, Runner> m;
    // shape rearrangements
    m["view"] = [](const OCase& c) { return of(T(c.args[0]).view(c.args[1].ints)); };
    m["reshape"] = [](const OCase& c) { return of(T(c.args[0]).reshape(c.args[1].ints)); };
    m["view_as"] = [](const OCase& c) { return of(T(c.args[0]).view_as(T(c.args[1]))); };
    m["reshape_as"] = [](const OCase& c) { return of(T(c.args[0]).reshape_as(T(c.args[1]))); };
    m["transpose"] = [](const OCase& c) { return of(at::transpose(T(c.args[0]), c.args[1].i, c.args[2].i)); };
    m["permute"] = [](const OCase& c) { return of(at::permute(T(c.args[0]), c.args[1].ints)); };
    m["t"] = [](const OCase& c) { return of(at::t(T(c.args[0]))); };
    m["flatten"] = [](const OCase& c) { return of(at::flatten(T(c.args[0]), c.args[1].i, c.args[2].i)); };
    m["unflatten"] = [](const OCase& c) { return of(at::unflatten(T(c.args[0]), c.args[1].i, c.args[2].ints)); };
    m["squeeze"] = [](const OCase& c) {
      return has(c, 1) ? of(at::squeeze(T(c.args[0]), c.args[1].i)) : of(at::squeeze(T(c.args[0])));
    };
    m["unsqueeze"] = [](const OCase& c) { return of(at::unsqueeze(T(c.args[0]), c.args[1].i)); };
    m["expand"] = [](const OCase& c) { return of(T(c.args[0]).expand(c.args[1].ints)); };
    m["expand_as"] = [](const OCase& c) { return of(T(c.args[0]).expand_as(T(c.args[1]))); };
    m["repeat"] = [](const OCase& c) { return of(T(c.args[0]).repeat(c.args[1].ints)); };
    // joins and splits
    m["cat"] = [](const OCase& c) { return of(at::cat(TL(c.args[0]), has(c, 1) ? c.args[1].i : 0)); };
    m["stack"] = [](const OCase& c) { return of(at::stack(TL(c.args[0]), has(c, 1) ? c.args[1].i : 0)); };
    m["split"] = [](const OCase& c) { return of(at::split(T(c.args[0]), c.args[1].i, c.args[2].i)); };
    m["split_list"] = [](const OCase& c) { return of(at::split_with_sizes(T(c.args[0]), c.args[1].ints, c.args[2].i)); };
    m["chunk"] = [](const OCase& c) { return of(at::chunk(T(c.args[0]), c.args[1].i, c.args[2].i)); };
    m["unbind"] = [](const OCase& c) { return of(at::unbind(T(c.args[0]), c.args[1].i)); };
    // reductions
    m["sum"] = [](const OCase& c) {
      return reduce_list(c, [](const at::Tensor& t, at::OptionalIntArrayRef d, bool k) { return at::sum(t, d, k); });
    };
    m["mean"] = [](const OCase& c) {
      return reduce_list(c, [](const at::Tensor& t, at::OptionalIntArrayRef d, bool k) { return at::mean(t, d, k); });
    };
    // torch.norm(input, p, dim, keepdim) is linalg.vector_norm in torch 1.13's Python
    m["norm"] = [](const OCase& c) {
      at::Tensor t = T(c.args[0]);
      if (c.args.size() == 1) return of(at::linalg_vector_norm(t, 2));
      bool keep = c.args[3].b;
      if (c.args[2].kind == Kind::None) return of(at::linalg_vector_norm(t, 2, c10::nullopt, keep));
      return of(at::linalg_vector_norm(t, 2, at::IntArrayRef(c.args[2].ints), keep));
    };
    m["prod"] = [](const OCase& c) {
      return reduce_single(c, [](const at::Tensor& t, int64_t d, bool k) { return at::prod(t, d, k); },
                           [](const at::Tensor& t) { return at::prod(t); });
    };
    m["any"] = [](const OCase& c) {
      return reduce_single(c, [](const at::Tensor& t, int64_t d, bool k) { return at::any(t, d, k); },
                           [](const at::Tensor& t) { return at::any(t); });
    };
    m["all"] = [](const OCase& c) {
      return reduce_single(c, [](const at::Tensor& t, int64_t d, bool k) { return at::all(t, d, k); },
                           [](const at::Tensor& t) { return at::all(t); });
    };
    for (bool is_max : {true, false}) {
      m[is_max ? "max" : "min"] = [is_max](const OCase& c) {
        at::Tensor t = T(c.args[0]);
        if (!has(c, 1)) return of(is_max ? at::max(t) : at::min(t));
        if (is_tensor(c.args[1])) return of(is_max ? at::max(t, T(c.args[1])) : at::min(t, T(c.args[1])));
        bool keep = c.args.size() > 2 && c.args[2].b;
        return of(is_max ? at::max(t, c.args[1].i, keep) : at::min(t, c.args[1].i, keep));
      };
      m[is_max ? "argmax" : "argmin"] = [is_max](const OCase& c) {
        c10::optional<int64_t> d;
        if (has(c, 1)) d = c.args[1].i;
        bool keep = c.args.size() > 2 && c.args[2].b;
        return of(is_max ? at::argmax(T(c.args[0]), d, keep) : at::argmin(T(c.args[0]), d, keep));
      };
    }
    m["softmax"] = [](const OCase& c) { return of(at::softmax(T(c.args[0]), c.args[1].i)); };
    m["log_softmax"] = [](const OCase& c) { return of(at::log_softmax(T(c.args[0]), c.args[1].i)); };
    m["cumsum"] = [](const OCase& c) { return of(at::cumsum(T(c.args[0]), c.args[1].i)); };
    // element-wise
    m["relu"] = [](const OCase& c) { return of(at::relu(T(c.args[0]))); };
    m["sigmoid"] = [](const OCase& c) { return of(at::sigmoid(T(c.args[0]))); };
    m["tanh"] = [](const OCase& c) { return of(at::tanh(T(c.args[0]))); };
    m["exp"] = [](const OCase& c) { return of(at::exp(T(c.args[0]))); };
    m["erfinv"] = [](const OCase& c) { return of(at::erfinv(T(c.args[0]))); };
    m["to_sparse"] = [](const OCase& c) { return of(T(c.args[0]).to_sparse()); };
    m["to_dense"] = [](const OCase& c) { return of(T(c.args[0]).to_sparse().to_dense()); };
    m["log"] = [](const OCase& c) { return of(at::log(T(c.args[0]))); };
    m["abs"] = [](const OCase& c) { return of(at::abs(T(c.args[0]))); };
    m["sqrt"] = [](const OCase& c) { return of(at::sqrt(T(c.args[0]))); };
    m["gelu"] = [](const OCase& c) { return of(at::gelu(T(c.args[0]))); };
    m["leaky_relu"] = [](const OCase& c) { return of(at::leaky_relu(T(c.args[0]), S(c.args[1]))); };
    m["dropout"] = [](const OCase& c) { return of(at::dropout(T(c.args[0]), c.args[1].f, c.args[2].b)); };
    m["clamp"] = [](const OCase& c) {
      return clamp_with(c, [](const at::Tensor& t, const auto& l, const auto& h) { return at::clamp(t, l, h); });
    };
    using Bin = at::Tensor (*)(const at::Tensor&, const at::Tensor&);
    const std::pair<const char*, Bin> binaries[] = {
        {"add", [](const at::Tensor& a, const at::Tensor& b) { return at::add(a, b); }},
        {"sub", [](const at::Tensor& a, const at::Tensor& b) { return at::sub(a, b); }},
        {"mul", [](const at::Tensor& a, const at::Tensor& b) { return at::mul(a, b); }},
        {"div", [](const at::Tensor& a, const at::Tensor& b) { return at::div(a, b); }},
        {"eq", [](const at::Tensor& a, const at::Tensor& b) { return at::eq(a, b); }},
        {"lt", [](const at::Tensor& a, const at::Tensor& b) { return at::lt(a, b); }},
        {"ge", [](const at::Tensor& a, const at::Tensor& b) { return at::ge(a, b); }},
        {"maximum", [](const at::Tensor& a, const at::Tensor& b) { return at::maximum(a, b); }},
        {"pow", [](const at::Tensor& a, const at::Tensor& b) { return at::pow(a, b); }},
    };
    for (const auto& [name, fn] : binaries) {
      m[name] = [fn = fn](const OCase& c) {
        const OArg& b = c.args[1];
        if (is_tensor(b)) return of(fn(T(c.args[0]), T(b)));
        return of(fn(T(c.args[0]), at::scalar_tensor(S(b))));  // a Python number: a 0-d operand
      };
    }
    m["add_"] = [](const OCase& c) { return of(T(c.args[0]).add_(T(c.args[1]))); };
    m["mul_"] = [](const OCase& c) { return of(T(c.args[0]).mul_(T(c.args[1]))); };
    m["where"] = [](const OCase& c) {
      const OArg& a = c.args[1];
      const OArg& b = c.args[2];
      at::Tensor cond = T(c.args[0]);
      if (is_tensor(a) && is_tensor(b)) return of(at::where(cond, T(a), T(b)));
      if (is_tensor(a)) return of(at::where(cond, T(a), S(b)));
      if (is_tensor(b)) return of(at::where(cond, S(a), T(b)));
      return of(at::where(cond, S(a), S(b)));
    };
    m["masked_fill"] = [](const OCase& c) {
      if (is_tensor(c.args[2])) return of(at::masked_fill(T(c.args[0]), T(c.args[1]), T(c.args[2])));
      return of(at::masked_fill(T(c.args[0]), T(c.args[1]), S(c.args[2])));
    };
    m["masked_fill_"] = [](const OCase& c) {
      if (is_tensor(c.args[2])) return of(T(c.args[0]).masked_fill_(T(c.args[1]), T(c.args[2])));
      return of(T(c.args[0]).masked_fill_(T(c.args[1]), S(c.args[2])));
    };
    // matrix products
    m["matmul"] = [](const OCase& c) { return of(at::matmul(T(c.args[0]), T(c.args[1]))); };
    m["mm"] = [](const OCase& c) { return of(at::mm(T(c.args[0]), T(c.args[1]))); };
    m["bmm"] = [](const OCase& c) { return of(at::bmm(T(c.args[0]), T(c.args[1]))); };
    m["addmm"] = [](const OCase& c) { return of(at::addmm(T(c.args[0]), T(c.args[1]), T(c.args[2]))); };
    m["linear"] = [](const OCase& c) {
      c10::optional<at::Tensor> bias;
      if (has(c, 2)) bias = T(c.args[2]);
      return of(at::linear(T(c.args[0]), T(c.args[1]), bias));
    };
    m["einsum"] = [](const OCase& c) {
      std::vector<at::Tensor> ts;
      for (std::size_t i = 1; i < c.args.size(); ++i) ts.push_back(T(c.args[i]));
      return of(at::einsum(c.args[0].s, ts));
    };
    // nn.Linear(in, out)(input): F.linear with weight [out, in] and bias [out]
    m["nn_linear"] = [](const OCase& c) {
      at::Tensor w = at::zeros({c.args[1].i, c.args[0].i});
      at::Tensor b = at::zeros({c.args[1].i});
      return of(at::linear(T(c.args[2]), w, b));
    };
    m["T"] = [](const OCase& c) { return of(at::native::numpy_T(T(c.args[0]))); };
    m["mT"] = [](const OCase& c) { return of(T(c.args[0]).mT()); };
    m["mH"] = [](const OCase& c) { return of(T(c.args[0]).mH()); };
    // Tensor.H has no C++ method: Python's property (python_variable.cpp)
    // checks the rank (0 or 2) and returns mH
    m["H"] = [](const OCase& c) {
      at::Tensor t = T(c.args[0]);
      if (t.dim() != 0 && t.dim() != 2) throw std::runtime_error("tensor.H is only supported on matrices (2-D tensors)");
      return of(t.mH());
    };
    m["logsumexp"] = [](const OCase& c) {
      const OArg& d = c.args[1];
      return of(at::logsumexp(T(c.args[0]), d.kind == Kind::Int ? Sizes{d.i} : d.ints, c.args[2].b));
    };
    m["cumprod"] = [](const OCase& c) { return of(at::cumprod(T(c.args[0]), c.args[1].i)); };
    m["clamp_"] = [](const OCase& c) {
      return clamp_with(c, [](at::Tensor t, const auto& l, const auto& h) { return t.clamp_(l, h); });
    };
    // Tensor.where(condition, other) with self first
    m["tensor_where"] = [](const OCase& c) { return of(at::where(T(c.args[1]), T(c.args[0]), T(c.args[2]))); };
    // creation
    m["zeros"] = [](const OCase& c) { return of(at::zeros(c.args[0].ints)); };
    m["ones"] = [](const OCase& c) { return of(at::ones(c.args[0].ints)); };
    m["empty"] = [](const OCase& c) { return of(at::empty(c.args[0].ints)); };
    m["rand"] = [](const OCase& c) { return of(at::rand(c.args[0].ints)); };
    m["randn"] = [](const OCase& c) { return of(at::randn(c.args[0].ints)); };
    m["full"] = [](const OCase& c) { return of(at::full(c.args[0].ints, S(c.args[1]))); };
    m["zeros_like"] = [](const OCase& c) { return of(at::zeros_like(T(c.args[0]))); };
    m["new_zeros"] = [](const OCase& c) { return of(T(c.args[0]).new_zeros(c.args[1].ints)); };
    m["new_ones"] = [](const OCase& c) { return of(T(c.args[0]).new_ones(c.args[1].ints)); };
    m["new_full"] = [](const OCase& c) { return of(T(c.args[0]).new_full(c.args[1].ints, S(c.args[2]))); };
    m["eye"] = [](const OCase& c) { return has(c, 1) ? of(at::eye(c.args[0].i, c.args[1].i)) : of(at::eye(c.args[0].i)); };
    m["randint"] = [](const OCase& c) { return of(at::randint(c.args[0].i, c.args[1].i, c.args[2].ints)); };
    m["arange"] = [](const OCase& c) {
      if (c.args.size() == 1) return of(at::arange(S(c.args[0])));
      if (c.args.size() == 2) return of(at::arange(S(c.args[0]), S(c.args[1])));
      return of(at::arange(S(c.args[0]), S(c.args[1]), S(c.args[2])));
    };
    m["linspace"] = [](const OCase& c) { return of(at::linspace(S(c.args[0]), S(c.args[1]), c.args[2].i)); };
    m["logspace"] = [](const OCase& c) { return of(at::logspace(S(c.args[0]), S(c.args[1]), c.args[2].i)); };
    m["randperm"] = [](const OCase& c) { return of(at::randperm(c.args[0].i)); };
    // multinomial samples a distribution: ones, not the oracle's zeros (whose sum is 0)
    m["multinomial"] = [](const OCase& c) {
      return of(at::multinomial(at::ones(c.args[0].shape), c.args[1].i, has(c, 2) && c.args[2].b));
    };
    m["multinomial_method"] = [](const OCase& c) {
      return of(at::ones(c.args[0].shape).multinomial(c.args[1].i, has(c, 2) && c.args[2].b));
    };
    m["legacy_new"] = [](const OCase& c) {  // torch.Tensor(*sizes) allocates as at::empty
      std::vector<int64_t> sizes;
      for (const OArg& a : c.args) sizes.push_back(a.i);
      return of(at::empty(sizes));
    };
    m["meshgrid"] = [](const OCase& c) {
      const OArg& indexing = c.kw("indexing");
      return of(at::meshgrid(TL(c.args[0]), indexing.kind == OArg::Kind::Str ? indexing.s : std::string("ij")));
    };
    m["range"] = [](const OCase& c) { return of(at::range(S(c.args[0]), S(c.args[1]), S(c.args[2]))); };
    // ---- indexing, ordering and other ops added with rules_index.cpp (index
    // tensors are int64 zeros: every index is 0)
    m["triu"] = [](const OCase& c) { return of(at::triu(T(c.args[0]), c.args[1].i)); };
    m["tril"] = [](const OCase& c) { return of(at::tril(T(c.args[0]), c.args[1].i)); };
    m["triu_"] = [](const OCase& c) { return of(T(c.args[0]).triu_(c.args[1].i)); };
    m["tril_"] = [](const OCase& c) { return of(T(c.args[0]).tril_(c.args[1].i)); };
    m["narrow"] = [](const OCase& c) { return of(at::narrow(T(c.args[0]), c.args[1].i, c.args[2].i, c.args[3].i)); };
    m["select"] = [](const OCase& c) { return of(at::select(T(c.args[0]), c.args[1].i, c.args[2].i)); };
    m["index_select"] = [](const OCase& c) { return of(at::index_select(T(c.args[0]), c.args[1].i, LT(c.args[2]))); };
    m["gather"] = [](const OCase& c) { return of(at::gather(T(c.args[0]), c.args[1].i, LT(c.args[2]))); };
    m["scatter"] = [](const OCase& c) {
      if (is_tensor(c.args[3])) return of(at::scatter(T(c.args[0]), c.args[1].i, LT(c.args[2]), T(c.args[3])));
      return of(at::scatter(T(c.args[0]), c.args[1].i, LT(c.args[2]), S(c.args[3])));
    };
    m["scatter_add"] = [](const OCase& c) { return of(at::scatter_add(T(c.args[0]), c.args[1].i, LT(c.args[2]), T(c.args[3]))); };
    m["view_as_real"] = [](const OCase& c) { return of(at::view_as_real(at::zeros(c.args[0].shape, at::kComplexFloat))); };
    m["view_as_complex"] = [](const OCase& c) { return of(at::view_as_complex(T(c.args[0]))); };
    m["index"] = [](const OCase& c) { return of(T(c.args[0]).index(index_of(c.args[1]))); };
    m["index_put"] = [](const OCase& c) {
      at::Tensor x = T(c.args[0]);
      x.index_put_(index_of(c.args[1]), T(c.args[2]));
      return of(x);
    };
    m["masked_select"] = [](const OCase& c) { return of(at::masked_select(T(c.args[0]), T(c.args[1]))); };
    m["nonzero"] = [](const OCase& c) { return of(at::nonzero(T(c.args[0]))); };
    m["one_hot"] = [](const OCase& c) { return of(at::one_hot(LT(c.args[0]), c.args[1].i)); };
    m["flip"] = [](const OCase& c) { return of(at::flip(T(c.args[0]), c.args[1].ints)); };
    m["fliplr"] = [](const OCase& c) { return of(at::fliplr(T(c.args[0]))); };
    m["flipud"] = [](const OCase& c) { return of(at::flipud(T(c.args[0]))); };
    m["roll"] = [](const OCase& c) {
      Sizes dims = has(c, 2) ? c.args[2].ints : Sizes{};
      return of(at::roll(T(c.args[0]), c.args[1].ints, dims));
    };
    m["movedim"] = [](const OCase& c) { return of(at::movedim(T(c.args[0]), at::IntArrayRef(c.args[1].ints), at::IntArrayRef(c.args[2].ints))); };
    m["tile"] = [](const OCase& c) { return of(at::tile(T(c.args[0]), c.args[1].ints)); };
    m["repeat_interleave"] = [](const OCase& c) {
      c10::optional<int64_t> dim;
      if (has(c, 2)) dim = c.args[2].i;
      return of(at::repeat_interleave(T(c.args[0]), c.args[1].i, dim));
    };
    m["diagonal"] = [](const OCase& c) { return of(at::diagonal(T(c.args[0]), c.args[1].i, c.args[2].i, c.args[3].i)); };
    m["diag"] = [](const OCase& c) { return of(at::diag(T(c.args[0]), c.args[1].i)); };
    m["topk"] = [](const OCase& c) { return of(at::topk(T(c.args[0]), c.args[1].i, c.args[2].i)); };
    m["sort"] = [](const OCase& c) { return of(at::sort(T(c.args[0]), c.args[1].i)); };
    m["argsort"] = [](const OCase& c) { return of(at::argsort(T(c.args[0]), c.args[1].i)); };
    // var/std(input, dim, unbiased, keepdim): dim an int, a list, None, or
    // (the legacy overload) the bool unbiased itself
    for (bool is_var : {true, false}) {
      m[is_var ? "var" : "std"] = [is_var](const OCase& c) {
        at::Tensor t = T(c.args[0]);
        const OArg& d = c.args[1];
        if (d.kind == Kind::Bool) return of(is_var ? at::var(t, d.b) : at::std(t, d.b));
        at::OptionalIntArrayRef dims;
        Sizes one;
        if (d.kind == Kind::Int) one = {d.i}, dims = at::IntArrayRef(one);
        if (d.kind == Kind::IntList) dims = at::IntArrayRef(d.ints);
        bool keep = c.args[3].b;
        return of(is_var ? at::var(t, dims, c.args[2].b, keep) : at::std(t, dims, c.args[2].b, keep));
      };
    }
    m["median"] = [](const OCase& c) {
      if (!has(c, 1)) return of(at::median(T(c.args[0])));
      return of(at::median(T(c.args[0]), c.args[1].i, c.args[2].b));
    };
    m["amax"] = [](const OCase& c) { return of(at::amax(T(c.args[0]), c.args[1].ints, c.args[2].b)); };
    m["amin"] = [](const OCase& c) { return of(at::amin(T(c.args[0]), c.args[1].ints, c.args[2].b)); };
    // F.normalize is Python: input / input.norm(p, dim, keepdim=True).clamp_min(eps).expand_as(input)
    m["normalize"] = [](const OCase& c) {
      at::Tensor t = T(c.args[0]);
      at::Tensor denom = at::norm(t, S(c.args[1]), at::IntArrayRef{c.args[2].i}, true).clamp_min(1e-12).expand_as(t);
      return of(t / denom);
    };
    m["dot"] = [](const OCase& c) { return of(at::dot(T(c.args[0]), T(c.args[1]))); };
    m["mv"] = [](const OCase& c) { return of(at::mv(T(c.args[0]), T(c.args[1]))); };
    m["outer"] = [](const OCase& c) { return of(at::outer(T(c.args[0]), T(c.args[1]))); };
    m["baddbmm"] = [](const OCase& c) { return of(at::baddbmm(T(c.args[0]), T(c.args[1]), T(c.args[2]))); };
    m["cdist"] = [](const OCase& c) { return of(at::cdist(T(c.args[0]), T(c.args[1]), c.args[2].f)); };
    m["cosine_similarity"] = [](const OCase& c) { return of(at::cosine_similarity(T(c.args[0]), T(c.args[1]), c.args[2].i)); };
    m["clamp_min"] = [](const OCase& c) {
      if (is_tensor(c.args[1])) return of(at::clamp_min(T(c.args[0]), T(c.args[1])));
      return of(at::clamp_min(T(c.args[0]), S(c.args[1])));
    };
    m["clamp_max_"] = [](const OCase& c) { return of(T(c.args[0]).clamp_max_(T(c.args[1]))); };
    // ---- the second batch
    m["logaddexp"] = [](const OCase& c) { return of(at::logaddexp(T(c.args[0]), is_tensor(c.args[1]) ? T(c.args[1]) : at::scalar_tensor(S(c.args[1])))); };
    m["hypot"] = [](const OCase& c) { return of(at::hypot(T(c.args[0]), is_tensor(c.args[1]) ? T(c.args[1]) : at::scalar_tensor(S(c.args[1])))); };
    m["lerp"] = [](const OCase& c) {
      if (is_tensor(c.args[2])) return of(at::lerp(T(c.args[0]), T(c.args[1]), T(c.args[2])));
      return of(at::lerp(T(c.args[0]), T(c.args[1]), S(c.args[2])));
    };
    m["addcmul"] = [](const OCase& c) { return of(at::addcmul(T(c.args[0]), T(c.args[1]), T(c.args[2]))); };
    m["kthvalue"] = [](const OCase& c) { return of(at::kthvalue(T(c.args[0]), c.args[1].i, c.args[2].i, c.args[3].b)); };
    m["mode"] = [](const OCase& c) { return of(at::mode(T(c.args[0]), c.args[1].i, c.args[2].b)); };
    m["cummax"] = [](const OCase& c) { return of(at::cummax(T(c.args[0]), c.args[1].i)); };
    m["logcumsumexp"] = [](const OCase& c) { return of(at::logcumsumexp(T(c.args[0]), c.args[1].i)); };
    m["count_nonzero"] = [](const OCase& c) {
      if (!has(c, 1)) return of(at::count_nonzero(T(c.args[0])));
      return of(at::count_nonzero(T(c.args[0]), c.args[1].ints));
    };
    m["broadcast_to"] = [](const OCase& c) { return of(at::broadcast_to(T(c.args[0]), c.args[1].ints)); };
    m["broadcast_tensors"] = [](const OCase& c) {
      std::vector<at::Tensor> ts;
      for (const OArg& a : c.args) ts.push_back(T(a));
      return of(at::broadcast_tensors(ts));
    };
    m["atleast_2d"] = [](const OCase& c) { return of(at::atleast_2d(T(c.args[0]))); };
    m["atleast_3d"] = [](const OCase& c) { return of(at::atleast_3d(T(c.args[0]))); };
    m["ravel"] = [](const OCase& c) { return of(at::ravel(T(c.args[0]))); };
    m["unfold"] = [](const OCase& c) { return of(T(c.args[0]).unfold(c.args[1].i, c.args[2].i, c.args[3].i)); };
    m["take_along_dim"] = [](const OCase& c) {
      c10::optional<int64_t> dim;
      if (has(c, 2)) dim = c.args[2].i;
      return of(at::take_along_dim(T(c.args[0]), LT(c.args[1]), dim));
    };
    m["trace"] = [](const OCase& c) { return of(at::trace(T(c.args[0]))); };
    m["addmv"] = [](const OCase& c) { return of(at::addmv(T(c.args[0]), T(c.args[1]), T(c.args[2]))); };
    m["addbmm"] = [](const OCase& c) { return of(at::addbmm(T(c.args[0]), T(c.args[1]), T(c.args[2]))); };
    m["kron"] = [](const OCase& c) { return of(at::kron(T(c.args[0]), T(c.args[1]))); };
    m["cross"] = [](const OCase& c) {
      c10::optional<int64_t> dim;
      if (has(c, 2)) dim = c.args[2].i;
      return of(at::cross(T(c.args[0]), T(c.args[1]), dim));
    };
    // torch.tensordot is Python: an int k is checked (k >= 0) and becomes the
    // lists (-k .. -1) and (0 .. k-1) for at::tensordot
    m["tensordot"] = [](const OCase& c) {
      if (c.args[2].kind == Kind::Int) {
        int64_t k = c.args[2].i;
        if (k < 0) throw std::runtime_error("tensordot expects dims >= 0, but got dims=" + std::to_string(k));
        Sizes da, db;
        for (int64_t i = 0; i < k; ++i) da.push_back(i - k), db.push_back(i);
        return of(at::tensordot(T(c.args[0]), T(c.args[1]), da, db));
      }
      return of(at::tensordot(T(c.args[0]), T(c.args[1]), c.args[3].ints, c.args[4].ints));
    };
    m["tensordot_lists"] = m["tensordot"];
    // ---- torch.fft (rules_fft.cpp): 1-D (input, n, dim), n-D (input, s, dim), a norm keyword
    auto norm_of = [](const OCase& c) {
      const OArg& n = c.kw("norm");
      return n.kind == Kind::Str ? c10::optional<c10::string_view>(n.s) : c10::nullopt;
    };
    auto optional_int = [](const OArg& a) { return a.kind == Kind::Int ? c10::optional<int64_t>(a.i) : c10::nullopt; };
    auto optional_list = [](const OCase& c, std::size_t i) {
      return has(c, i) ? at::OptionalIntArrayRef(c.args[i].ints) : at::OptionalIntArrayRef();
    };
    using Fft1d = at::Tensor (*)(const at::Tensor&, c10::optional<int64_t>, int64_t, c10::optional<c10::string_view>);
    const std::pair<const char*, Fft1d> one_dim[] = {{"fft", at::fft_fft},   {"ifft", at::fft_ifft},
                                                     {"rfft", at::fft_rfft}, {"irfft", at::fft_irfft},
                                                     {"hfft", at::fft_hfft}, {"ihfft", at::fft_ihfft}};
    for (const auto& [name, fn] : one_dim)
      m[name] = [fn = fn, norm_of, optional_int](const OCase& c) {
        return of(fn(T(c.args[0]), optional_int(c.args[1]), c.args[2].i, norm_of(c)));
      };
    using FftNd = at::Tensor (*)(const at::Tensor&, at::OptionalIntArrayRef, at::OptionalIntArrayRef,
                                 c10::optional<c10::string_view>);
    const std::pair<const char*, FftNd> n_dims[] = {{"fftn", at::fft_fftn},   {"ifftn", at::fft_ifftn},
                                                    {"rfftn", at::fft_rfftn}, {"irfftn", at::fft_irfftn},
                                                    {"hfftn", at::fft_hfftn}, {"ihfftn", at::fft_ihfftn}};
    for (const auto& [name, fn] : n_dims)
      m[name] = [fn = fn, norm_of, optional_list](const OCase& c) {
        return of(fn(T(c.args[0]), optional_list(c, 1), optional_list(c, 2), norm_of(c)));
      };
    using Fft2d = at::Tensor (*)(const at::Tensor&, at::OptionalIntArrayRef, at::IntArrayRef,
                                 c10::optional<c10::string_view>);
    const std::pair<const char*, Fft2d> two_dims[] = {{"fft2", at::fft_fft2},   {"ifft2", at::fft_ifft2},
                                                      {"rfft2", at::fft_rfft2}, {"irfft2", at::fft_irfft2},
                                                      {"hfft2", at::fft_hfft2}, {"ihfft2", at::fft_ihfft2}};
    for (const auto& [name, fn] : two_dims)
      m[name] = [fn = fn, norm_of, optional_list](const OCase& c) {  // dim absent: (-2, -1)
        Sizes dim = has(c, 2) ? c.args[2].ints : Sizes{-2, -1};
        return of(fn(T(c.args[0]), optional_list(c, 1), dim, norm_of(c)));
      };
    m["fftshift"] = [](const OCase& c) {
      if (!has(c, 1)) return of(at::fft_fftshift(T(c.args[0])));
      Sizes dim = c.args[1].kind == Kind::Int ? Sizes{c.args[1].i} : c.args[1].ints;
      return of(at::fft_fftshift(T(c.args[0]), dim));
    };
    m["ifftshift"] = [](const OCase& c) {
      if (!has(c, 1)) return of(at::fft_ifftshift(T(c.args[0])));
      Sizes dim = c.args[1].kind == Kind::Int ? Sizes{c.args[1].i} : c.args[1].ints;
      return of(at::fft_ifftshift(T(c.args[0]), dim));
    };
    m["fftfreq"] = [](const OCase& c) { return of(at::fft_fftfreq(c.args[0].i, c.args[1].f)); };
    m["rfftfreq"] = [](const OCase& c) { return of(at::fft_rfftfreq(c.args[0].i, c.args[1].f)); };
    // bucketize(input or number, boundaries); searchsorted(sequence, input or number, side=, sorter=)
    m["bucketize"] = [](const OCase& c) {
      if (c.args[0].kind == Kind::Float) return of(at::bucketize(S(c.args[0]), T(c.args[1])));
      return of(at::bucketize(T(c.args[0]), T(c.args[1])));
    };
    m["searchsorted"] = [](const OCase& c) {
      bool right = c.kw("right").kind == Kind::Bool && c.kw("right").b;
      const OArg& side_arg = c.kw("side");
      c10::optional<c10::string_view> side;
      if (side_arg.kind == Kind::Str) side = side_arg.s;
      c10::optional<at::Tensor> sorter;
      if (c.kw("sorter").kind == Kind::LongTensor) sorter = LT(c.kw("sorter"));
      if (c.args[1].kind == Kind::Float)
        return of(at::searchsorted(T(c.args[0]), S(c.args[1]), false, right, side, sorter));
      return of(at::searchsorted(T(c.args[0]), T(c.args[1]), false, right, side, sorter));
    };
    m["tan"] = [](const OCase& c) { return of(at::tan(T(c.args[0]))); };
    m["sinc"] = [](const OCase& c) { return of(at::sinc(T(c.args[0]))); };
    return m;
  }();
  return table;
}

}  // namespace

Outcome run_torch(const std::string& op, const OCase& c) {
  quiet_libtorch();
  auto it = runners().find(op);
  if (it == runners().end()) throw std::invalid_argument("oracle: no libtorch runner for '" + op + "'");
  try {
    return it->second(c);
  } catch (const std::invalid_argument&) {
    throw;
  } catch (const std::exception& e) {
    Outcome o;
    o.threw = true;
    o.error = e.what();
    std::size_t nl = o.error.find('\n');
    if (nl != std::string::npos) o.error.resize(nl);
    return o;
  }
}

}  // namespace gshape::oracle
