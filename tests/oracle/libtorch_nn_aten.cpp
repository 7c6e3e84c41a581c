// The libtorch side of the C++ nn oracle: each functional nn op (and the
// recurrent modules) on small zero-filled tensors through the ATen operator
// that PyTorch 1.13's Python wrapper calls, after the wrapper's argument
// handling (written out below per op, from torch/nn/functional.py and
// torch/nn/modules/rnn.py, the cells included). A check the wrapper makes in Python and the C++
// operator does not is reported as python_only, never imitated as an error.
// The only file of the test that includes libtorch headers. Attention runs
// through the C++ frontend's port of F.multi_head_attention_forward.
#include <ATen/ATen.h>
#include <ATen/ExpandUtils.h>
#include <torch/nn/functional/activation.h>  // the C++ frontend's multi_head_attention_forward

#include <cmath>
#include <functional>
#include <map>
#include <stdexcept>

#include "libtorch_nn_oracle.h"
#include "libtorch_quiet.h"

namespace gshape::oracle::nn {
namespace {

using K = NArg::Kind;
using Sizes = std::vector<int64_t>;

// A check of the Python layer that raised (see AtenOutcome::python_only).
struct PythonOnly {
  std::string why;
};

// Arguments bound to a Python parameter list (positional, then keywords).
class Args {
 public:
  Args(const NCall& call, std::vector<std::string> names) {
    if (call.args.size() > names.size()) throw std::invalid_argument("too many positional arguments");
    for (std::size_t i = 0; i < call.args.size(); ++i) bound_[names[i]] = &call.args[i];
    for (const auto& [k, v] : call.kwargs) {
      bool known = false;
      for (const std::string& n : names) known = known || n == k;
      if (!known) throw std::invalid_argument("unknown keyword " + k);
      bound_[k] = &v;
    }
  }
  // nullptr when absent or None
  const NArg* get(const std::string& name) const {
    auto it = bound_.find(name);
    return it == bound_.end() || it->second->kind == K::None ? nullptr : it->second;
  }
  const NArg& at(const std::string& name) const {
    const NArg* a = get(name);
    if (!a) throw std::invalid_argument("missing argument " + name);
    return *a;
  }
  int64_t integer(const std::string& name, int64_t fallback) const { return get(name) ? get(name)->i : fallback; }
  bool flag(const std::string& name, bool fallback) const { return get(name) ? get(name)->b : fallback; }
  double real(const std::string& name, double fallback) const {
    const NArg* a = get(name);
    if (!a) return fallback;
    return a->kind == K::Float ? a->f : static_cast<double>(a->i);
  }
  std::string str(const std::string& name, const std::string& fallback) const { return get(name) ? get(name)->s : fallback; }

 private:
  std::map<std::string, const NArg*> bound_;
};

at::Tensor tensor(const NArg& a) {
  switch (a.kind) {
    case K::Tensor: return at::zeros(a.shape);
    case K::LongTensor: return at::zeros(a.shape, at::kLong);
    case K::BoolTensor: return at::zeros(a.shape, at::kBool);
    default: throw std::invalid_argument("expected a tensor argument, got " + a.python());
  }
}

c10::optional<at::Tensor> opt_tensor(const NArg* a) {
  if (!a) return c10::nullopt;
  return tensor(*a);
}

// An int or a tuple of ints as the Python argument parser reads an
// `int[n]`: an int is repeated n times.
Sizes ints(const NArg& a, std::size_t n) {
  if (a.kind == K::Int) return Sizes(n, a.i);
  Sizes out;
  for (const NArg& item : a.items) {
    if (item.kind != K::Int) throw std::invalid_argument("expected an int in " + a.python());
    out.push_back(item.i);
  }
  return out;
}
Sizes ints_or(const Args& args, const std::string& name, std::size_t n, int64_t fallback) {
  const NArg* a = args.get(name);
  return a ? ints(*a, n) : Sizes(n, fallback);
}

// _Reduction.get_enum: an unknown name is a ValueError in Python.
int64_t reduction(const Args& args) {
  std::string r = args.str("reduction", "mean");
  if (r == "none") return at::Reduction::None;
  if (r == "mean") return at::Reduction::Mean;
  if (r == "sum") return at::Reduction::Sum;
  throw PythonOnly{"_Reduction.get_enum: " + r + " is not a valid value for reduction"};
}

NOutcome of(const at::Tensor& t) {
  NOutcome o;
  o.shapes.emplace_back(t.sizes().vec());
  return o;
}
NOutcome of(std::initializer_list<at::Tensor> ts) {
  NOutcome o;
  for (const at::Tensor& t : ts) o.shapes.emplace_back(t.sizes().vec());
  return o;
}

using Runner = std::function<NOutcome(const NCase&)>;

// ------------------------------------------------------------------ convolution and pooling

template <std::size_t N>
NOutcome conv(const NCase& c) {
  Args a(c.call, {"input", "weight", "bias", "stride", "padding", "dilation", "groups"});
  at::Tensor x = tensor(a.at("input")), w = tensor(a.at("weight"));
  auto b = opt_tensor(a.get("bias"));
  Sizes stride = ints_or(a, "stride", N, 1), dilation = ints_or(a, "dilation", N, 1);
  int64_t groups = a.integer("groups", 1);
  const NArg* padding = a.get("padding");
  if (padding && padding->kind == K::Str) {
    if (N == 1) return of(at::conv1d(x, w, b, stride, padding->s, dilation, groups));
    return of(at::conv2d(x, w, b, stride, padding->s, dilation, groups));
  }
  Sizes pad = padding ? ints(*padding, N) : Sizes(N, 0);
  if (N == 1) return of(at::conv1d(x, w, b, stride, pad, dilation, groups));
  return of(at::conv2d(x, w, b, stride, pad, dilation, groups));
}

NOutcome conv_transpose2d(const NCase& c) {
  Args a(c.call, {"input", "weight", "bias", "stride", "padding", "output_padding", "groups", "dilation"});
  return of(at::conv_transpose2d(tensor(a.at("input")), tensor(a.at("weight")), opt_tensor(a.get("bias")),
                                 ints_or(a, "stride", 2, 1), ints_or(a, "padding", 2, 0), ints_or(a, "output_padding", 2, 0),
                                 a.integer("groups", 1), ints_or(a, "dilation", 2, 1)));
}

NOutcome max_pool2d(const NCase& c) {
  Args a(c.call, {"input", "kernel_size", "stride", "padding", "dilation", "ceil_mode", "return_indices"});
  at::Tensor x = tensor(a.at("input"));
  Sizes kernel = ints(a.at("kernel_size"), 2);
  Sizes stride = a.get("stride") ? ints(*a.get("stride"), 2) : Sizes{};  // None: [] (the kernel)
  Sizes padding = ints_or(a, "padding", 2, 0), dilation = ints_or(a, "dilation", 2, 1);
  bool ceil = a.flag("ceil_mode", false);
  if (a.flag("return_indices", false)) {
    auto [out, idx] = at::max_pool2d_with_indices(x, kernel, stride, padding, dilation, ceil);
    return of({out, idx});
  }
  return of(at::max_pool2d(x, kernel, stride, padding, dilation, ceil));
}

NOutcome avg_pool2d(const NCase& c) {
  Args a(c.call, {"input", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"});
  Sizes stride = a.get("stride") ? ints(*a.get("stride"), 2) : Sizes{};
  c10::optional<int64_t> divisor;
  if (a.get("divisor_override")) divisor = a.get("divisor_override")->i;
  return of(at::avg_pool2d(tensor(a.at("input")), ints(a.at("kernel_size"), 2), stride, ints_or(a, "padding", 2, 0),
                           a.flag("ceil_mode", false), a.flag("count_include_pad", true), divisor));
}

// F.adaptive_avg_pool2d: _list_with_default(output_size, input.size()).
NOutcome adaptive_avg_pool2d(const NCase& c) {
  Args a(c.call, {"input", "output_size"});
  at::Tensor x = tensor(a.at("input"));
  const NArg& out = a.at("output_size");
  if (out.kind == K::Int) return of(at::adaptive_avg_pool2d(x, Sizes(2, out.i)));
  if (x.dim() <= static_cast<int64_t>(out.items.size()))
    throw PythonOnly{"_list_with_default: Input dimension should be at least " + std::to_string(out.items.size() + 1)};
  Sizes size;
  for (std::size_t i = 0; i < out.items.size(); ++i) {
    int64_t axis = x.dim() - static_cast<int64_t>(out.items.size()) + static_cast<int64_t>(i);
    size.push_back(out.items[i].kind == K::None ? x.size(axis) : out.items[i].i);
  }
  return of(at::adaptive_avg_pool2d(x, size));
}

// ------------------------------------------------------------------ normalisation

// _verify_batch_size: one value per channel in training mode is a
// ValueError in Python; the C++ operators compute a NaN variance instead.
void verify_batch_size(const Sizes& size, const std::string& op) {
  if (size.empty()) throw PythonOnly{op + ": _verify_batch_size on a 0-d input"};
  int64_t prods = size[0];
  for (std::size_t i = 2; i < size.size(); ++i) prods *= size[i];
  if (prods == 1) throw PythonOnly{op + ": _verify_batch_size: Expected more than 1 value per channel when training"};
}

NOutcome batch_norm(const NCase& c) {
  Args a(c.call, {"input", "running_mean", "running_var", "weight", "bias", "training", "momentum", "eps"});
  at::Tensor x = tensor(a.at("input"));
  bool training = a.flag("training", false);
  if (training) verify_batch_size(x.sizes().vec(), "F.batch_norm");
  return of(at::batch_norm(x, opt_tensor(a.get("weight")), opt_tensor(a.get("bias")), opt_tensor(a.get("running_mean")),
                           opt_tensor(a.get("running_var")), training, 0.1, 1e-5, false));
}

NOutcome layer_norm(const NCase& c) {
  Args a(c.call, {"input", "normalized_shape", "weight", "bias", "eps"});
  const NArg& shape = a.at("normalized_shape");
  if (shape.kind == K::Int) throw PythonOnly{"layer_norm(): argument 'normalized_shape' must be tuple of ints, not int"};
  return of(at::layer_norm(tensor(a.at("input")), ints(shape, 0), opt_tensor(a.get("weight")), opt_tensor(a.get("bias"))));
}

NOutcome group_norm(const NCase& c) {
  Args a(c.call, {"input", "num_groups", "weight", "bias", "eps"});
  at::Tensor x = tensor(a.at("input"));
  int64_t groups = a.integer("num_groups", 1);
  if (x.dim() < 2) throw PythonOnly{"F.group_norm: input.size(1) of a " + std::to_string(x.dim()) + "-d input"};
  if (groups == 0) throw PythonOnly{"F.group_norm: ZeroDivisionError (num_groups 0)"};
  // Python's floor division
  int64_t n = x.size(0) * x.size(1), q = n / groups;
  if ((n % groups != 0) && ((n < 0) != (groups < 0))) --q;
  Sizes verify{q, groups};
  for (int64_t i = 2; i < x.dim(); ++i) verify.push_back(x.size(i));
  verify_batch_size(verify, "F.group_norm");
  return of(at::group_norm(x, groups, opt_tensor(a.get("weight")), opt_tensor(a.get("bias"))));
}

// ------------------------------------------------------------------ small layers

NOutcome linear(const NCase& c) {
  Args a(c.call, {"input", "weight", "bias"});
  return of(at::linear(tensor(a.at("input")), tensor(a.at("weight")), opt_tensor(a.get("bias"))));
}

NOutcome bilinear(const NCase& c) {
  Args a(c.call, {"input1", "input2", "weight", "bias"});
  return of(at::bilinear(tensor(a.at("input1")), tensor(a.at("input2")), tensor(a.at("weight")), opt_tensor(a.get("bias"))));
}

NOutcome prelu(const NCase& c) {
  Args a(c.call, {"input", "weight"});
  return of(at::prelu(tensor(a.at("input")), tensor(a.at("weight"))));
}

// F.embedding: padding_idx's range is asserted in Python, then a negative
// one is wrapped; torch.embedding(weight, input, padding_idx, ...).
NOutcome embedding(const NCase& c) {
  Args a(c.call, {"input", "weight", "padding_idx", "max_norm", "norm_type", "scale_grad_by_freq", "sparse"});
  at::Tensor idx = tensor(a.at("input")), w = tensor(a.at("weight"));
  int64_t padding_idx = -1;
  if (const NArg* p = a.get("padding_idx")) {
    int64_t rows = w.dim() > 0 ? w.size(0) : throw PythonOnly{"F.embedding: weight.size(0) of a 0-d weight"};
    if (p->i > 0 && p->i >= rows) throw PythonOnly{"F.embedding: Padding_idx must be within num_embeddings"};
    if (p->i < 0 && p->i < -rows) throw PythonOnly{"F.embedding: Padding_idx must be within num_embeddings"};
    padding_idx = p->i < 0 ? rows + p->i : p->i;
  }
  return of(at::embedding(w, idx, padding_idx));
}

NOutcome pixel_shuffle(const NCase& c) {
  Args a(c.call, {"input", "upscale_factor"});
  return of(at::pixel_shuffle(tensor(a.at("input")), a.integer("upscale_factor", 1)));
}

// F.pad is torch._C._nn.pad: at::pad, which calls constant_pad_nd in constant mode.
NOutcome pad(const NCase& c) {
  Args a(c.call, {"input", "pad", "mode", "value"});
  c10::optional<double> value;
  if (a.get("value")) value = a.real("value", 0);
  return of(at::pad(tensor(a.at("input")), ints(a.at("pad"), 0), a.str("mode", "constant"), value));
}

// F.interpolate's argument handling, then the upsample operator it picks.
NOutcome interpolate(const NCase& c) {
  Args a(c.call, {"input", "size", "scale_factor", "mode", "align_corners", "recompute_scale_factor", "antialias"});
  at::Tensor x = tensor(a.at("input"));
  std::string mode = a.str("mode", "nearest");
  bool nearest = mode == "nearest" || mode == "nearest-exact" || mode == "area";
  if (nearest && a.get("align_corners")) throw PythonOnly{"F.interpolate: align_corners with mode " + mode};
  bool align = a.flag("align_corners", false);
  int64_t dim = x.dim() - 2;
  const NArg *size = a.get("size"), *scale = a.get("scale_factor");
  if (size && scale) throw PythonOnly{"F.interpolate: only one of size or scale_factor should be defined"};
  if (!size && !scale) throw PythonOnly{"F.interpolate: either size or scale_factor should be defined"};
  c10::optional<Sizes> output_size;
  c10::optional<std::vector<double>> scales;
  if (size) {
    if (size->kind == K::Tuple && static_cast<int64_t>(size->items.size()) != dim)
      throw PythonOnly{"F.interpolate: size of another length than the spatial dims"};
    output_size = size->kind == K::Int ? Sizes(static_cast<std::size_t>(std::max<int64_t>(dim, 0)), size->i) : ints(*size, 0);
  } else {
    std::vector<double> s;
    if (scale->kind == K::Tuple) {
      if (static_cast<int64_t>(scale->items.size()) != dim)
        throw PythonOnly{"F.interpolate: scale_factor of another length than the spatial dims"};
      for (const NArg& item : scale->items) s.push_back(item.kind == K::Float ? item.f : static_cast<double>(item.i));
    } else {
      s.assign(static_cast<std::size_t>(std::max<int64_t>(dim, 0)), scale->kind == K::Float ? scale->f : static_cast<double>(scale->i));
    }
    scales = s;
  }
  bool recompute = a.flag("recompute_scale_factor", false);
  if (recompute && size) throw PythonOnly{"F.interpolate: recompute_scale_factor with an explicit size"};
  if (mode == "area" && !output_size) recompute = true;
  if (recompute) {
    Sizes out;
    for (int64_t i = 0; i < dim; ++i) out.push_back(static_cast<int64_t>(std::floor(static_cast<double>(x.size(i + 2)) * (*scales)[static_cast<std::size_t>(i)])));
    output_size = out;
    scales = c10::nullopt;
  }
  at::OptionalIntArrayRef osize = output_size ? at::OptionalIntArrayRef(*output_size) : c10::nullopt;
  c10::optional<at::ArrayRef<double>> sf = scales ? c10::optional<at::ArrayRef<double>>(*scales) : c10::nullopt;
  int64_t r = x.dim();
  if (mode == "nearest" && r == 3) return of(at::upsample_nearest1d(x, osize, sf));
  if (mode == "nearest" && r == 4) return of(at::upsample_nearest2d(x, osize, sf));
  if (mode == "nearest" && r == 5) return of(at::upsample_nearest3d(x, osize, sf));
  if (mode == "nearest-exact" && r == 3) return of(at::_upsample_nearest_exact1d(x, osize, sf));
  if (mode == "nearest-exact" && r == 4) return of(at::_upsample_nearest_exact2d(x, osize, sf));
  if (mode == "nearest-exact" && r == 5) return of(at::_upsample_nearest_exact3d(x, osize, sf));
  if (mode == "linear" && r == 3) return of(at::upsample_linear1d(x, osize, align, sf));
  if (mode == "bilinear" && r == 4) return of(at::upsample_bilinear2d(x, osize, align, sf));
  if (mode == "bicubic" && r == 4) return of(at::upsample_bicubic2d(x, osize, align, sf));
  if (mode == "trilinear" && r == 5) return of(at::upsample_trilinear3d(x, osize, align, sf));
  throw PythonOnly{"F.interpolate: NotImplementedError for mode " + mode + " on a " + std::to_string(r) + "-d input"};
}

// ------------------------------------------------------------------ losses

NOutcome cross_entropy(const NCase& c) {
  Args a(c.call, {"input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction", "label_smoothing"});
  return of(at::cross_entropy_loss(tensor(a.at("input")), tensor(a.at("target")), opt_tensor(a.get("weight")), reduction(a),
                                   a.integer("ignore_index", -100), a.real("label_smoothing", 0.0)));
}

NOutcome nll_loss(const NCase& c) {
  Args a(c.call, {"input", "target", "weight", "size_average", "ignore_index", "reduce", "reduction"});
  return of(at::nll_loss_nd(tensor(a.at("input")), tensor(a.at("target")), opt_tensor(a.get("weight")), reduction(a),
                            a.integer("ignore_index", -100)));
}

// mse/l1/smooth_l1/huber: torch.broadcast_tensors(input, target) first.
NOutcome broadcast_loss(const NCase& c, const std::string& op) {
  std::vector<std::string> names{"input", "target", "size_average", "reduce", "reduction"};
  if (op == "smooth_l1_loss") names.push_back("beta");
  if (op == "huber_loss") names = {"input", "target", "reduction", "delta"};
  Args a(c.call, names);
  int64_t red = reduction(a);
  std::vector<at::Tensor> both = at::broadcast_tensors({tensor(a.at("input")), tensor(a.at("target"))});
  if (op == "mse_loss") return of(at::mse_loss(both[0], both[1], red));
  if (op == "l1_loss") return of(at::l1_loss(both[0], both[1], red));
  if (op == "huber_loss") return of(at::huber_loss(both[0], both[1], red, a.real("delta", 1.0)));
  double beta = a.real("beta", 1.0);
  if (beta == 0.0) return of(at::l1_loss(both[0], both[1], red));
  return of(at::smooth_l1_loss(both[0], both[1], red, beta));
}

NOutcome kl_div(const NCase& c) {
  Args a(c.call, {"input", "target", "size_average", "reduce", "reduction", "log_target"});
  at::Tensor x = tensor(a.at("input"));
  bool batchmean = a.str("reduction", "mean") == "batchmean";
  int64_t red = batchmean ? static_cast<int64_t>(at::Reduction::Sum) : reduction(a);
  at::Tensor out = at::kl_div(x, tensor(a.at("target")), red, a.flag("log_target", false));
  if (batchmean && x.dim() != 0) out = out / x.size(0);
  return of(out);
}

NOutcome binary_cross_entropy(const NCase& c) {
  Args a(c.call, {"input", "target", "weight", "size_average", "reduce", "reduction"});
  at::Tensor x = tensor(a.at("input")), t = tensor(a.at("target"));
  int64_t red = reduction(a);
  if (t.sizes() != x.sizes()) throw PythonOnly{"F.binary_cross_entropy: ValueError: target size differs from input size"};
  c10::optional<at::Tensor> w = opt_tensor(a.get("weight"));
  if (w) w = w->expand(at::infer_size(t.sizes(), w->sizes()));
  return of(at::binary_cross_entropy(x, t, w, red));
}

NOutcome binary_cross_entropy_with_logits(const NCase& c) {
  Args a(c.call, {"input", "target", "weight", "size_average", "reduce", "reduction", "pos_weight"});
  at::Tensor x = tensor(a.at("input")), t = tensor(a.at("target"));
  int64_t red = reduction(a);
  if (t.sizes() != x.sizes()) throw PythonOnly{"F.binary_cross_entropy_with_logits: ValueError: target size differs from input size"};
  return of(at::binary_cross_entropy_with_logits(x, t, opt_tensor(a.get("weight")), opt_tensor(a.get("pos_weight")), red));
}

// ------------------------------------------------------------------ recurrent modules

enum class Cell { LSTM, GRU, RNN };

// nn.LSTM / nn.GRU / nn.RNN: the module's flat weights (RNNBase's layout:
// per layer and direction w_ih, w_hh, b_ih, b_hh, then w_hr), RNNBase.forward's
// handling of an unbatched input and of a missing hidden state, then
// _VF.lstm / gru / rnn_tanh / rnn_relu. The hyperparameters are valid (the
// generator's); check_forward_args' checks are Python-only.
NOutcome recurrent(const NCase& c, Cell cell) {
  std::vector<std::string> names{"input_size", "hidden_size", "num_layers"};
  if (cell == Cell::RNN) names.push_back("nonlinearity");
  for (const char* n : {"bias", "batch_first", "dropout", "bidirectional", "proj_size", "device", "dtype"}) names.push_back(n);
  Args init(c.init, names);
  int64_t in = init.integer("input_size", 0), hidden = init.integer("hidden_size", 0);
  int64_t layers = init.integer("num_layers", 1), proj = init.integer("proj_size", 0);
  bool bias = init.flag("bias", true), batch_first = init.flag("batch_first", false);
  bool bidirectional = init.flag("bidirectional", false);
  double dropout = init.real("dropout", 0.0);
  std::string nonlinearity = init.str("nonlinearity", "tanh");
  int64_t dirs = bidirectional ? 2 : 1, gates = cell == Cell::LSTM ? 4 : cell == Cell::GRU ? 3 : 1;
  int64_t real_hidden = proj > 0 ? proj : hidden;
  std::vector<at::Tensor> params;
  for (int64_t l = 0; l < layers; ++l) {
    for (int64_t d = 0; d < dirs; ++d) {
      params.push_back(at::zeros({gates * hidden, l == 0 ? in : real_hidden * dirs}));
      params.push_back(at::zeros({gates * hidden, real_hidden}));
      if (bias) {
        params.push_back(at::zeros({gates * hidden}));
        params.push_back(at::zeros({gates * hidden}));
      }
      if (proj > 0) params.push_back(at::zeros({proj, hidden}));
    }
  }

  Args call(c.call, {"input", "hx"});
  at::Tensor x = tensor(call.at("input"));
  if (x.dim() != 2 && x.dim() != 3) throw PythonOnly{"RNNBase.check_input: input must have 3 dimensions (2 unbatched)"};
  bool batched = x.dim() == 3;
  int64_t batch_dim = batch_first ? 0 : 1;
  // check_input: input.size(-1) must be equal to input_size; the C++
  // operator's own error (its first matrix product) stands when it raises
  bool python_raises = x.size(-1) != in;
  if (!batched) x = x.unsqueeze(batch_dim);
  int64_t batch = x.size(batch_first ? 0 : 1);
  Sizes want_h{layers * dirs, batch, real_hidden}, want_c{layers * dirs, batch, hidden};
  std::vector<at::Tensor> hx;
  if (const NArg* h = call.get("hx")) {
    std::vector<const NArg*> given;
    if (cell == Cell::LSTM) {
      if (h->kind != K::Tuple || h->items.size() != 2) throw std::invalid_argument("LSTM hx must be a pair");
      given = {&h->items[0], &h->items[1]};
    } else {
      given = {h};
    }
    for (const NArg* g : given) {
      at::Tensor t = tensor(*g);
      if (t.dim() != (batched ? 3 : 2)) throw PythonOnly{"RNNBase.forward: hidden state of the wrong rank"};
      hx.push_back(batched ? t : t.unsqueeze(1));
    }
    // the C++ operator trusts these sizes (a smaller stack is read out of bounds)
    if (hx[0].sizes().vec() != want_h || (cell == Cell::LSTM && hx[1].sizes().vec() != want_c))
      throw PythonOnly{"RNNBase.check_hidden_size: Expected hidden size " + shapes_str({want_h})};
  } else {
    hx.push_back(at::zeros(want_h));
    if (cell == Cell::LSTM) hx.push_back(at::zeros(want_c));
  }
  NOutcome o;
  if (cell == Cell::LSTM) {
    auto [out, h, cc] = at::lstm(x, hx, params, bias, layers, dropout, true, bidirectional, batch_first);
    o = batched ? of({out, h, cc}) : of({out.squeeze(batch_dim), h.squeeze(1), cc.squeeze(1)});
  } else {
    auto run = [&](auto op) { return op(x, hx[0], params, bias, layers, dropout, true, bidirectional, batch_first); };
    auto [out, h] = cell == Cell::GRU ? run([](auto&&... v) { return at::gru(v...); })
                    : nonlinearity == "relu" ? run([](auto&&... v) { return at::rnn_relu(v...); })
                                             : run([](auto&&... v) { return at::rnn_tanh(v...); });
    o = batched ? of({out, h}) : of({out.squeeze(batch_dim), h.squeeze(1)});
  }
  if (python_raises) throw PythonOnly{"RNNBase.check_input: input.size(-1) must be equal to input_size (the C++ operator accepts it)"};
  return o;
}

// nn.LSTMCell / nn.GRUCell / nn.RNNCell: RNNCellBase's weights (at::zeros
// raises on a negative size as torch.empty does), the forward's handling of
// an unbatched input (the input and each state unsqueezed, the results
// squeezed) and of a missing state, then _VF.lstm_cell / gru_cell /
// rnn_tanh_cell / rnn_relu_cell, whose checks are ATen's. Python-only: the
// input-rank assert, an unknown nonlinearity, an unbatched LSTMCell's hx of
// fewer than two tensors (Python indexes it).
NOutcome recurrent_cell(const NCase& c, Cell cell) {
  std::vector<std::string> names{"input_size", "hidden_size", "bias"};
  if (cell == Cell::RNN) names.push_back("nonlinearity");
  for (const char* n : {"device", "dtype"}) names.push_back(n);
  Args init(c.init, names);
  int64_t in = init.integer("input_size", 0), hidden = init.integer("hidden_size", 0);
  bool bias = init.flag("bias", true);
  std::string nonlinearity = init.str("nonlinearity", "tanh");
  int64_t gates = cell == Cell::LSTM ? 4 : cell == Cell::GRU ? 3 : 1;
  at::Tensor w_ih = at::zeros({gates * hidden, in}), w_hh = at::zeros({gates * hidden, hidden});
  c10::optional<at::Tensor> b_ih, b_hh;
  if (bias) {
    b_ih = at::zeros({gates * hidden});
    b_hh = at::zeros({gates * hidden});
  }
  Args call(c.call, {"input", "hx"});
  at::Tensor x = tensor(call.at("input"));
  if (x.dim() != 1 && x.dim() != 2) throw PythonOnly{"RNNCell.forward: assert input.dim() in (1, 2)"};
  bool batched = x.dim() == 2;
  if (!batched) x = x.unsqueeze(0);
  std::vector<at::Tensor> hx;
  if (const NArg* h = call.get("hx")) {
    std::vector<const NArg*> given;
    if (cell == Cell::LSTM) {
      if (h->kind != K::Tuple) throw std::invalid_argument("LSTMCell hx must be a tuple");
      if (!batched && h->items.size() < 2) throw PythonOnly{"LSTMCell.forward: hx[1] of a tuple of one"};
      for (std::size_t i = 0; i < h->items.size() && (batched || i < 2); ++i) given.push_back(&h->items[i]);
    } else {
      given = {h};
    }
    for (const NArg* g : given) hx.push_back(batched ? tensor(*g) : tensor(*g).unsqueeze(0));
  } else {
    hx.push_back(at::zeros({x.size(0), hidden}));
    if (cell == Cell::LSTM) hx.push_back(hx[0]);
  }
  if (cell == Cell::RNN && nonlinearity != "tanh" && nonlinearity != "relu")
    throw PythonOnly{"RNNCell.forward: Unknown nonlinearity: " + nonlinearity};
  auto unbatch = [&](const at::Tensor& t) { return batched ? t : t.squeeze(0); };
  if (cell == Cell::LSTM) {
    auto [h1, c1] = at::lstm_cell(x, hx, w_ih, w_hh, b_ih, b_hh);
    return of({unbatch(h1), unbatch(c1)});
  }
  if (cell == Cell::GRU) return of(unbatch(at::gru_cell(x, hx[0], w_ih, w_hh, b_ih, b_hh)));
  if (nonlinearity == "relu") return of(unbatch(at::rnn_relu_cell(x, hx[0], w_ih, w_hh, b_ih, b_hh)));
  return of(unbatch(at::rnn_tanh_cell(x, hx[0], w_ih, w_hh, b_ih, b_hh)));
}

// nn.MultiheadAttention: the module's parameters (in_proj_weight or
// q/k/v_proj_weight, in_proj_bias, bias_k/bias_v, out_proj), its forward's
// batch_first transposes, then the C++ frontend's
// torch::nn::functional::multi_head_attention_forward. That function is an
// older port of Python's: batched (L, N, E) operands only, one shape for key
// and value, 2-d attn_mask broadcast rather than checked, a key batch read
// through view(-1, ...) (ambiguous for a batch or head_dim of 0). Cases that need what it lacks are python_only;
// where Python raises first and the port raises too, the error stands.
NOutcome multihead_attention(const NCase& c) {
  Args init(c.init, {"embed_dim", "num_heads", "dropout", "bias", "add_bias_kv", "add_zero_attn", "kdim", "vdim",
                     "batch_first", "device", "dtype"});
  int64_t e = init.integer("embed_dim", 0), heads = init.integer("num_heads", 1);
  if (heads <= 0) throw PythonOnly{"MultiheadAttention(): embed_dim // num_heads with num_heads <= 0"};
  if (e < 0) throw PythonOnly{"MultiheadAttention(): torch.empty with a negative embed_dim"};
  int64_t kdim = init.integer("kdim", e), vdim = init.integer("vdim", e);
  bool bias = init.flag("bias", true), bias_kv = init.flag("add_bias_kv", false), zero_attn = init.flag("add_zero_attn", false);
  bool batch_first = init.flag("batch_first", false);
  double dropout = init.real("dropout", 0.0);
  bool separate = kdim != e || vdim != e;

  Args call(c.call, {"query", "key", "value", "key_padding_mask", "need_weights", "attn_mask", "average_attn_weights"});
  at::Tensor q = tensor(call.at("query")), k = tensor(call.at("key")), v = tensor(call.at("value"));
  if (q.dim() != 3 || k.dim() != 3 || v.dim() != 3)
    throw PythonOnly{"F.multi_head_attention_forward: unbatched or wrong-rank operands (the C++ port takes (L, N, E) only)"};
  at::Tensor kpm = call.get("key_padding_mask") ? tensor(*call.get("key_padding_mask")) : at::Tensor();
  at::Tensor mask = call.get("attn_mask") ? tensor(*call.get("attn_mask")) : at::Tensor();
  if (kpm.defined() && kpm.dim() != 2) throw PythonOnly{"_mha_shape_check: key_padding_mask of a batched query must be 2-d"};
  if (mask.defined() && mask.dim() != 2) throw PythonOnly{"F.multi_head_attention_forward: a 3-d attn_mask (the C++ port has 2-d ones only)"};
  if (batch_first) {
    q = q.transpose(1, 0);
    k = k.transpose(1, 0);
    v = v.transpose(1, 0);
  }
  // checks Python makes first; the port's own error stands when it raises
  bool python_raises = dropout < 0 || dropout > 1;                  // F.dropout's range
  if (separate && k.sizes().slice(0, 2) == v.sizes().slice(0, 2) && k.sizes() != v.sizes())
    throw PythonOnly{"F.multi_head_attention_forward: kdim != vdim (the C++ port needs one shape for key and value)"};
  if (k.size(1) != q.size(1)) python_raises = true;                  // k.view(k.shape[0], bsz * num_heads, head_dim)
  if (mask.defined() && (mask.size(0) != q.size(0) || mask.size(1) != k.size(0))) python_raises = true;  // 2-d attn_mask shape

  if (q.size(2) == e && e % heads == 0 && (q.size(1) == 0 || e == 0))
    throw PythonOnly{"F.multi_head_attention_forward: the C++ port's view(-1, bsz * num_heads, head_dim) of 0 elements"};

  namespace Fn = torch::nn::functional;
  at::Tensor in_w = separate ? at::Tensor() : at::zeros({3 * e, e});
  at::Tensor in_b = bias ? at::zeros({3 * e}) : at::Tensor();
  at::Tensor bk = bias_kv ? at::zeros({1, 1, e}) : at::Tensor(), bv = bias_kv ? at::zeros({1, 1, e}) : at::Tensor();
  at::Tensor out_w = at::zeros({e, e}), out_b = bias ? at::zeros({e}) : at::Tensor();
  auto options = Fn::MultiheadAttentionForwardFuncOptions(e, heads, in_w, in_b, bk, bv, zero_attn, dropout, out_w, out_b)
                     .training(true)
                     .key_padding_mask(kpm)
                     .need_weights(call.flag("need_weights", true))
                     .attn_mask(mask)
                     .average_attn_weights(call.flag("average_attn_weights", true));
  if (separate) {
    options.use_separate_proj_weight(true)
        .q_proj_weight(at::zeros({e, e}))
        .k_proj_weight(at::zeros({e, kdim}))
        .v_proj_weight(at::zeros({e, vdim}));
  }
  auto [out, weights] = Fn::multi_head_attention_forward(q, k, v, options);
  if (python_raises) throw PythonOnly{"F.multi_head_attention_forward: a check of Python's that the C++ port does not make"};
  NOutcome o;
  o.shapes.emplace_back((batch_first ? out.transpose(1, 0) : out).sizes().vec());
  if (weights.defined()) {
    o.shapes.emplace_back(weights.sizes().vec());
  } else {
    o.shapes.emplace_back(std::nullopt);
  }
  return o;
}

const std::map<std::string, Runner>& runners() {
  static const std::map<std::string, Runner> table = [] {
    std::map<std::string, Runner> m;
    m["F.conv1d"] = conv<1>;
    m["F.conv2d"] = conv<2>;
    m["F.conv_transpose2d"] = conv_transpose2d;
    m["F.max_pool2d"] = max_pool2d;
    m["F.avg_pool2d"] = avg_pool2d;
    m["F.adaptive_avg_pool2d"] = adaptive_avg_pool2d;
    m["F.batch_norm"] = batch_norm;
    m["F.layer_norm"] = layer_norm;
    m["F.group_norm"] = group_norm;
    m["F.linear"] = linear;
    m["F.bilinear"] = bilinear;
    m["F.prelu"] = prelu;
    m["F.embedding"] = embedding;
    m["F.pixel_shuffle"] = pixel_shuffle;
    m["F.pad"] = pad;
    m["F.interpolate"] = interpolate;
    m["F.cross_entropy"] = cross_entropy;
    m["F.nll_loss"] = nll_loss;
    for (const char* op : {"mse_loss", "l1_loss", "smooth_l1_loss", "huber_loss"}) {
      std::string name = op;
      m["F." + name] = [name](const NCase& c) { return broadcast_loss(c, name); };
    }
    m["F.kl_div"] = kl_div;
    m["F.binary_cross_entropy"] = binary_cross_entropy;
    m["F.binary_cross_entropy_with_logits"] = binary_cross_entropy_with_logits;
    m["nn.LSTM"] = [](const NCase& c) { return recurrent(c, Cell::LSTM); };
    m["nn.GRU"] = [](const NCase& c) { return recurrent(c, Cell::GRU); };
    m["nn.RNN"] = [](const NCase& c) { return recurrent(c, Cell::RNN); };
    m["nn.LSTMCell"] = [](const NCase& c) { return recurrent_cell(c, Cell::LSTM); };
    m["nn.GRUCell"] = [](const NCase& c) { return recurrent_cell(c, Cell::GRU); };
    m["nn.RNNCell"] = [](const NCase& c) { return recurrent_cell(c, Cell::RNN); };
    m["nn.MultiheadAttention"] = multihead_attention;
    return m;
  }();
  return table;
}

}  // namespace

AtenOutcome run_aten(const std::string& target, const NCase& c) {
  quiet_libtorch();
  auto it = runners().find(target);
  if (it == runners().end()) throw std::invalid_argument("libtorch nn oracle: no runner for " + target);
  AtenOutcome o;
  try {
    o.outcome = it->second(c);
  } catch (const PythonOnly& p) {
    o.python_only = true;
    o.why = p.why;
  } catch (const std::invalid_argument&) {
    throw;  // a case the runner cannot read: a bug of the test
  } catch (const std::exception& e) {
    o.outcome.threw = true;
    std::string what = e.what();
    o.outcome.error = what.substr(0, what.find('\n'));
  }
  return o;
}

}  // namespace gshape::oracle::nn
