// torch.fft: the one-dimensional transforms (fft, ifft, rfft, irfft, hfft,
// ihfft), the two- and n-dimensional ones (fft2 ... ihfftn), fftshift /
// ifftshift and the sample frequencies (fftfreq, rfftfreq), as PyTorch 1.13's
// aten/src/ATen/native/SpectralOps.cpp checks and sizes them. Three kinds of
// transform: complex to complex keeps each transformed length; real to
// one-sided (rfft, ihfft) halves the last one to n // 2 + 1; one-sided to
// real (irfft, hfft) gives n, whose default is 2 * (size - 1). Dtypes are not
// modelled (rfft of a complex tensor is PyTorch's error, not the rule's).
#include <algorithm>

#include "gradual/rules.h"
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

enum class FftKind { ComplexToComplex, RealToOneSided, OneSidedToReal };

// `<op>_c<n>`: the tags of the fft family, numbered per op as docs/rules.md lists them.
std::string fft_tag(RuleContext& ctx, int n) { return op_short_name(ctx.rule_name()) + "_c" + std::to_string(n); }

// norm is None, "forward", "backward" or "ortho" (fft_norm_from_string).
// A norm that is not a constant string is not modelled.
void require_norm(RuleContext& ctx, const std::string& tag) {
  if (ctx.is_none("norm")) return;
  std::optional<std::string> norm = str_constant(ctx.arg("norm"));
  if (!norm) throw NotModelled("norm is not a constant string");
  Message m;
  m << "Invalid normalization mode: \"" << *norm << "\"";
  ctx.require(tag, BoolTerm(*norm == "forward" || *norm == "backward" || *norm == "ortho"), m);
}

// The result of replacing the sizes at the transformed axes. `axes` are the
// wrapped indices (rank known) or, for an input of unknown rank, negative
// literal dims: the result then has unknown leading axes and a known tail.
// nullopt: the axes are not known (a symbolic dim).
std::optional<Shape> replace_axes(RuleContext& ctx, const Arg& input, const std::vector<IntTerm>& dims,
                                  const std::vector<std::optional<std::size_t>>& idx, const std::vector<IntTerm>& lengths) {
  const Shape& in = input.shape();
  if (in.rank_known()) {
    Shape out = in;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      if (!idx[i]) return std::nullopt;
      out = with_axis(out, *idx[i], lengths[i].dim());
    }
    return out;
  }
  int64_t tail = 0;  // how many trailing axes the result spells out
  for (const IntTerm& d : dims) {
    std::optional<int64_t> k = d.dim().constant_value();
    if (!k || *k >= 0) return std::nullopt;
    tail = std::max(tail, -*k);
  }
  std::vector<Dim> suffix;
  for (int64_t k = -tail; k < 0; ++k) suffix.push_back(ctx.size(input, k).dim());
  for (std::size_t i = 0; i < dims.size(); ++i)
    suffix[static_cast<std::size_t>(tail + *dims[i].dim().constant_value())] = lengths[i].dim();
  return Shape::unknown_with_suffix(std::move(suffix));
}

// The input is cut or padded to the requested lengths first
// (resize_fft_input); torch 1.13's constant_pad_nd then requires every axis
// of the result to be non-empty, so when a transformed axis is padded
// (`target > size`), every axis not transformed must be non-empty (`tag`).
// The transformed ones are positive already. An input of unknown rank, or a
// symbolic dim, whose axes cannot be listed is not modelled.
void require_padded_input_nonempty(RuleContext& ctx, const std::string& tag, const Arg& input,
                                   const std::vector<std::optional<std::size_t>>& idx,
                                   const std::vector<IntTerm>& sizes, const std::vector<IntTerm>& targets) {
  std::vector<BoolTerm> padded;
  for (std::size_t i = 0; i < targets.size(); ++i) {
    BoolTerm p = gt(targets[i], sizes[i]);
    if (p.pred().is_false()) continue;  // never padded
    padded.push_back(p);
  }
  if (padded.empty()) return;
  const Shape& in = input.shape();
  if (!in.rank_known() || std::any_of(idx.begin(), idx.end(), [](const auto& i) { return !i; }))
    throw NotModelled("a padded transform of an input whose axes are not known");
  std::vector<BoolTerm> others_nonempty;
  for (std::size_t k = 0; k < in.rank(); ++k)
    if (std::find(idx.begin(), idx.end(), std::optional<std::size_t>(k)) == idx.end())
      others_nonempty.push_back(gt(ctx.size(input, static_cast<int64_t>(k)), 0));
  if (others_nonempty.empty()) return;
  Message m;
  m << "The input size 0, plus negative padding 0 and 0 resulted in a negative output size, which is invalid: "
    << "padding the input of shape " << ctx.shape_hole(input) << " for the transform needs its other axes non-empty";
  ctx.require(tag, !any_of(padded) || all_of(others_nonempty), m);
}

// fft / ifft / rfft / irfft / hfft / ihfft(input, n=None, dim=-1, norm=None):
// `<op>_c1` dim in range, `<op>_c5` the input has an axis, `<op>_c2` n >= 1 (n, or its default: the size along dim;
// 2 * (size - 1) for irfft and hfft), `<op>_c3` norm is known. A given n
// cuts or zero-pads the input along dim first (to n // 2 + 1 for irfft and
// hfft), so its own size may be 0 there; `<op>_c4` when it pads, the other
// axes are non-empty.
template <FftKind Kind>
Value rule_fft_1d(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  require_norm(ctx, fft_tag(ctx, 3));  // <op>_c3
  IntTerm dim = ctx.int_term(ctx.arg("dim"));
  // 1.13 wraps dim as for a 1-d tensor (an IndexError), then finds no axis
  // to transform in a 0-d input (a RuntimeError: no data points)
  std::optional<std::size_t> idx = require_dim(ctx, fft_tag(ctx, 1), input, dim);  // <op>_c1
  if (ctx.any_refuted()) return unknown_tensor();
  Message m5;
  m5 << "Invalid number of data points (0) specified: the input of shape " << ctx.shape_hole(input)
     << " has no axis to transform";
  ctx.require(fft_tag(ctx, 5), ge(ctx.rank(input), 1), m5);  // <op>_c5
  if (ctx.any_refuted()) return unknown_tensor();
  std::optional<IntTerm> size = size_at(ctx, input, idx, dim);
  IntTerm n(0);
  if (!ctx.is_none("n")) {
    n = ctx.int_term(ctx.arg("n"));
  } else if (size) {
    n = Kind == FftKind::OneSidedToReal ? 2 * (*size - 1) : *size;
  } else {
    return unknown_tensor();  // a symbolic dim on an input of unknown rank: the length is not known
  }
  Message m;
  m << "Invalid number of data points (" << n << ") specified";
  if (ctx.require(fft_tag(ctx, 2), ge(n, 1), m) == Status::Refuted) return unknown_tensor();  // <op>_c2
  if (!ctx.is_none("n")) {
    if (!size) throw NotModelled("n given on an input whose axis is not known");
    IntTerm target = Kind == FftKind::OneSidedToReal ? floordiv(n, 2) + 1 : n;
    require_padded_input_nonempty(ctx, fft_tag(ctx, 4), input, {idx}, {*size}, {target});  // <op>_c4
    if (ctx.any_refuted()) return unknown_tensor();
  }
  IntTerm length = Kind == FftKind::RealToOneSided ? floordiv(n, 2) + 1 : n;
  std::optional<Shape> out = replace_axes(ctx, input, {dim}, {idx}, {length});
  return out ? Value::tensor(*out) : unknown_tensor();
}

// The n-dimensional transforms: fftn(input, s=None, dim=None, norm=None),
// fft2(input, s=None, dim=(-2, -1), norm=None) and their inverse, real and
// Hermitian forms. Which axes and lengths, as canonicalize_fft_shape_and_dim_args
// decides them: `<op>_c1` each dim in range (no scalar wrap), `<op>_c2` no dim
// twice, `<op>_c3` s and dim have the same length when both are given,
// `<op>_c4` s has at most as many entries as the input has axes (without dim
// s transforms the last len(s) axes; -1 in s is the input's size), `<op>_c5`
// every transformed length is positive; then `<op>_c6` there is something to
// transform (a complex-to-complex transform: the input has an axis; the real
// and Hermitian ones: at least one axis is transformed), `<op>_c7` (irfftn,
// hfftn) the last output length, the default 2 * (size - 1), is at least 1,
// `<op>_c8` norm is known, and `<op>_c9` when s pads a transformed axis, the
// axes not transformed are non-empty.
template <FftKind Kind, bool TwoDims>
Value rule_fft_nd(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  require_norm(ctx, fft_tag(ctx, 8));  // <op>_c8
  IntTerm rank = ctx.rank(input);
  std::optional<std::vector<IntTerm>> dims;
  if (TwoDims && !ctx.provided("dim")) dims = std::vector<IntTerm>{IntTerm(-2), IntTerm(-1)};
  else if (!ctx.is_none("dim")) dims = int_terms(ctx, ctx.int_or_list(ctx.arg("dim")));
  else if (TwoDims) throw NotModelled("fft2's dim is None");  // a TypeError in 1.13, not a shape error
  std::optional<std::vector<Arg>> s;
  if (!ctx.is_none("s")) s = ctx.int_or_list(ctx.arg("s"));

  std::vector<std::optional<std::size_t>> idx;
  if (dims) {
    std::vector<IntTerm> wrapped;
    for (const IntTerm& d : *dims) {
      idx.push_back(require_dim(ctx, fft_tag(ctx, 1), input, d, /*wrap_scalar=*/false));  // <op>_c1
      wrapped.push_back(ite(lt(d, 0), d + rank, d));
    }
    std::vector<BoolTerm> distinct;
    for (std::size_t i = 0; i < wrapped.size(); ++i)
      for (std::size_t j = i + 1; j < wrapped.size(); ++j) distinct.push_back(ne(wrapped[i], wrapped[j]));
    if (!distinct.empty()) {
      Message m;
      m << "FFT dims must be unique, got ";
      append_list(m, *dims);
      ctx.require(fft_tag(ctx, 2), all_of(distinct), m);  // <op>_c2
    }
  }
  if (ctx.any_refuted()) return unknown_tensor();

  std::vector<IntTerm> lengths, axis_sizes;  // per transformed axis: its length, the input's size there
  std::optional<IntTerm> last_given;  // s's last entry, when s is given
  if (s) {
    IntTerm count(static_cast<int64_t>(s->size()));
    if (dims) {
      Message m3;
      m3 << "When given, dim and shape arguments must have the same length: s has " << count << " entries, dim "
         << IntTerm(static_cast<int64_t>(dims->size()));
      ctx.require(fft_tag(ctx, 3), BoolTerm(s->size() == dims->size()), m3);  // <op>_c3
    }
    Message m4;
    m4 << "Got shape with " << count << " values but input tensor only has " << rank << " dimensions.";
    ctx.require(fft_tag(ctx, 4), le(count, rank), m4);  // <op>_c4
    if (ctx.any_refuted()) return unknown_tensor();
    if (!dims) {  // the last len(s) axes, as negative dims (known for an input of unknown rank too)
      dims.emplace();
      for (std::size_t i = 0; i < s->size(); ++i) {
        IntTerm d(static_cast<int64_t>(i) - static_cast<int64_t>(s->size()));
        dims->push_back(d);
        std::optional<int64_t> r = rank.dim().constant_value();
        idx.push_back(r ? std::optional<std::size_t>(static_cast<std::size_t>(*r + *d.dim().constant_value()))
                        : std::nullopt);
      }
    }
    for (std::size_t i = 0; i < s->size(); ++i) {
      std::optional<IntTerm> size = size_at(ctx, input, idx[i], (*dims)[i]);
      if (!size) return unknown_tensor();  // a symbolic dim on an input of unknown rank
      IntTerm given = ctx.int_term((*s)[i]);
      lengths.push_back(ite(eq(given, -1), *size, given));
      axis_sizes.push_back(*size);
    }
    if (!s->empty()) last_given = ctx.int_term(s->back());
  } else if (dims) {
    for (std::size_t i = 0; i < dims->size(); ++i) {
      std::optional<IntTerm> size = size_at(ctx, input, idx[i], (*dims)[i]);
      if (!size) return unknown_tensor();
      lengths.push_back(*size);
    }
  }

  // neither s nor dim: every axis, which an input of unknown rank cannot list
  bool all_axes = !s && !dims;
  Message m5;
  m5 << "Invalid number of data points specified: every transformed length must be positive";
  if (all_axes) {
    // every size positive: a positive element count (a 0-d input is <op>_c6's)
    m5 << " (input of shape " << ctx.shape_hole(input) << ")";
    ctx.require(fft_tag(ctx, 5), gt(ctx.numel(input), 0), m5);  // <op>_c5
  } else if (!lengths.empty()) {
    std::vector<BoolTerm> positive;
    for (const IntTerm& n : lengths) positive.push_back(gt(n, 0));
    m5 << ", got ";
    append_list(m5, lengths);
    ctx.require(fft_tag(ctx, 5), all_of(positive), m5);  // <op>_c5
  }
  Message m6;
  if (Kind == FftKind::ComplexToComplex) {
    m6 << "ndim must be >= 1: the input of shape " << ctx.shape_hole(input) << " has no axis";
    ctx.require(fft_tag(ctx, 6), ge(rank, 1), m6);  // <op>_c6
  } else {
    m6 << op_short_name(ctx.rule_name()) << " must transform at least one axis";
    ctx.require(fft_tag(ctx, 6), all_axes ? ge(rank, 1) : BoolTerm(!lengths.empty()), m6);  // <op>_c6
  }
  if (ctx.any_refuted()) return unknown_tensor();

  if (all_axes) {
    const Shape& in = input.shape();
    if (Kind == FftKind::ComplexToComplex) return Value::tensor(in);
    dims.emplace();
    if (in.rank_known()) {
      for (std::size_t i = 0; i < in.rank(); ++i) {
        dims->push_back(IntTerm(static_cast<int64_t>(i)));
        idx.push_back(i);
        lengths.push_back(ctx.size(input, static_cast<int64_t>(i)));
      }
    } else {  // only the last axis changes
      dims->push_back(IntTerm(-1));
      idx.push_back(std::nullopt);
      lengths.push_back(ctx.size(input, -1));
    }
  }
  IntTerm lengths_before_halving = lengths.empty() ? IntTerm(0) : lengths.back();
  if (Kind == FftKind::RealToOneSided) lengths.back() = floordiv(lengths.back(), 2) + 1;
  if (Kind == FftKind::OneSidedToReal) {
    std::optional<IntTerm> last_size = size_at(ctx, input, idx.back(), dims->back());
    if (!last_size) return unknown_tensor();
    IntTerm by_default = 2 * (*last_size - 1);
    IntTerm last = last_given ? ite(eq(*last_given, -1), by_default, lengths.back()) : by_default;
    Message m7;
    m7 << "Invalid number of data points (" << last << ") specified for the last transformed axis";
    if (ctx.require(fft_tag(ctx, 7), ge(last, 1), m7) == Status::Refuted) return unknown_tensor();  // <op>_c7
    lengths.back() = last;
  }
  if (s) {  // s cuts or pads the input (the one-sided axis to n // 2 + 1)
    std::vector<IntTerm> targets = lengths;
    if (Kind == FftKind::OneSidedToReal) targets.back() = floordiv(lengths.back(), 2) + 1;
    if (Kind == FftKind::RealToOneSided) targets.back() = lengths_before_halving;
    require_padded_input_nonempty(ctx, fft_tag(ctx, 9), input, idx, axis_sizes, targets);  // <op>_c9
    if (ctx.any_refuted()) return unknown_tensor();
  }
  std::optional<Shape> out = replace_axes(ctx, input, *dims, idx, lengths);
  return out ? Value::tensor(*out) : unknown_tensor();
}

// fftshift / ifftshift(input, dim=None): a roll by half of each axis.
// `<op>_c1` each dim in range (no scalar wrap), `<op>_c2` at least one axis
// (dim=None: every axis of the input; roll's "`shifts` required"). Repeated
// dims are allowed.
Value rule_fftshift(RuleContext& ctx) {
  Arg input = ctx.tensor("input");
  std::string op = op_short_name(ctx.rule_name());
  BoolTerm some_axis = ge(ctx.rank(input), 1);
  if (!ctx.is_none("dim")) {
    std::vector<Arg> dims = ctx.int_or_list(ctx.arg("dim"));
    for (const Arg& d : dims) require_dim(ctx, op + "_c1", input, ctx.int_term(d), /*wrap_scalar=*/false);  // <op>_c1
    some_axis = BoolTerm(!dims.empty());
  }
  Message m;
  m << "`shifts` required: " << op << " of the input of shape " << ctx.shape_hole(input) << " shifts no axis";
  ctx.require(op + "_c2", some_axis, m);  // <op>_c2
  if (ctx.any_refuted()) return unknown_tensor();
  return Value::tensor(input.shape());
}

// fftfreq(n, d=1.0): `fftfreq_c1` n >= 0; the result is [n].
Value rule_fftfreq(RuleContext& ctx) {
  IntTerm n = ctx.int_term(ctx.arg("n"));
  Message m;
  m << "Trying to create tensor with negative dimension " << n;
  if (ctx.require("fftfreq_c1", ge(n, 0), m) == Status::Refuted) return unknown_tensor();  // fftfreq_c1
  return Value::tensor(Shape{n.dim()});
}

// rfftfreq(n, d=1.0): [n / 2 + 1] with C++'s truncating division, so
// `rfftfreq_c1` n >= -3 (rfftfreq(-1) is [1] in PyTorch 1.13, rfftfreq(-4)
// an error). A negative n that is not a constant gives a fresh length.
Value rule_rfftfreq(RuleContext& ctx) {
  IntTerm n = ctx.int_term(ctx.arg("n"));
  Message m;
  m << "Trying to create tensor with negative dimension: rfftfreq(" << n << ") has n / 2 + 1 < 0 elements";
  if (ctx.require("rfftfreq_c1", ge(n, -3), m) == Status::Refuted) return unknown_tensor();  // rfftfreq_c1
  if (std::optional<int64_t> k = n.dim().constant_value()) return Value::tensor(Shape{Dim(*k / 2 + 1)});
  if (ctx.settle(ge(n, 0).pred()) == true) return Value::tensor(Shape{(floordiv(n, 2) + 1).dim()});
  return Value::tensor(Shape{ctx.fresh("rfftfreq")});
}

}  // namespace

void register_fft_rules(RuleRegistry& r) {
  const std::string one_dim = "input, n=None, dim=-1, norm=None, *, out=None";
  r.add("torch.fft.fft", one_dim, rule_fft_1d<FftKind::ComplexToComplex>);
  r.add("torch.fft.ifft", one_dim, rule_fft_1d<FftKind::ComplexToComplex>);
  r.add("torch.fft.rfft", one_dim, rule_fft_1d<FftKind::RealToOneSided>);
  r.add("torch.fft.ihfft", one_dim, rule_fft_1d<FftKind::RealToOneSided>);
  r.add("torch.fft.irfft", one_dim, rule_fft_1d<FftKind::OneSidedToReal>);
  r.add("torch.fft.hfft", one_dim, rule_fft_1d<FftKind::OneSidedToReal>);
  // fft2's dim defaults to (-2, -1): the rule fills it in when it is not given
  const std::string n_dims = "input, s=None, dim=None, norm=None, *, out=None";
  r.add("torch.fft.fft2", n_dims, rule_fft_nd<FftKind::ComplexToComplex, true>);
  r.add("torch.fft.ifft2", n_dims, rule_fft_nd<FftKind::ComplexToComplex, true>);
  r.add("torch.fft.rfft2", n_dims, rule_fft_nd<FftKind::RealToOneSided, true>);
  r.add("torch.fft.ihfft2", n_dims, rule_fft_nd<FftKind::RealToOneSided, true>);
  r.add("torch.fft.irfft2", n_dims, rule_fft_nd<FftKind::OneSidedToReal, true>);
  r.add("torch.fft.hfft2", n_dims, rule_fft_nd<FftKind::OneSidedToReal, true>);
  r.add("torch.fft.fftn", n_dims, rule_fft_nd<FftKind::ComplexToComplex, false>);
  r.add("torch.fft.ifftn", n_dims, rule_fft_nd<FftKind::ComplexToComplex, false>);
  r.add("torch.fft.rfftn", n_dims, rule_fft_nd<FftKind::RealToOneSided, false>);
  r.add("torch.fft.ihfftn", n_dims, rule_fft_nd<FftKind::RealToOneSided, false>);
  r.add("torch.fft.irfftn", n_dims, rule_fft_nd<FftKind::OneSidedToReal, false>);
  r.add("torch.fft.hfftn", n_dims, rule_fft_nd<FftKind::OneSidedToReal, false>);
  r.add("torch.fft.fftshift", "input, dim=None", rule_fftshift);
  r.add("torch.fft.ifftshift", "input, dim=None", rule_fftshift);
  r.add("torch.fft.fftfreq", "n, d=1.0, **options", rule_fftfreq);
  r.add("torch.fft.rfftfreq", "n, d=1.0, **options", rule_rfftfreq);
}

}  // namespace gshape::gradual
