// Sliding blocks: F.unfold / nn.Unfold (im2col: an image to the columns of
// its k×k patches) and F.fold / nn.Fold (col2im: the columns summed back
// into an image), as torch 1.13's im2col_shape_check and col2im_shape_check.
#include "gradual/rules_nn.h"

namespace gshape::gradual {
namespace {

// kernel_size, dilation, padding and stride, two of each (`_pair`).
struct BlockParams {
  std::vector<IntTerm> kernel, dilation, padding, stride;
};

// `_pair(a)`: an int twice, or a sequence of two. A sequence of another
// length reaches the operator, which refuses it: `<tag>` (nullopt then).
std::optional<std::vector<IntTerm>> pair_of(RuleContext& ctx, const Arg& a, const std::string& name,
                                            const std::string& tag) {
  if (a.value.is_sequence() && a.value.items() && a.value.items()->size() != 2) {
    Message m;
    m << "It is expected " << name << " equals to 2, but got size " << std::to_string(a.value.items()->size());
    ctx.require(tag, false, m);
    return std::nullopt;
  }
  return int_tuple(ctx, a, 2);
}

// The four parameters from `args` (the call's, or the module's attributes);
// `<op>_c0` each is an int or a pair.
std::optional<BlockParams> block_params(RuleContext& ctx, const std::string& op, const Arg& kernel, const Arg& dilation,
                                        const Arg& padding, const Arg& stride) {
  auto k = pair_of(ctx, kernel, "kernel_size", op + "_c0");
  auto d = k ? pair_of(ctx, dilation, "dilation", op + "_c0") : std::nullopt;
  auto p = d ? pair_of(ctx, padding, "padding", op + "_c0") : std::nullopt;
  auto s = p ? pair_of(ctx, stride, "stride", op + "_c0") : std::nullopt;
  if (!s) return std::nullopt;
  return BlockParams{*k, *d, *p, *s};
}

// A module's attribute as an argument (nn.Unfold keeps what it was given).
Arg field(const Arg& module, const std::string& name) {
  const Value* v = module_field(module, name);
  if (!v) throw NotModelled("the module has no '" + name + "'");
  return Arg::of(*v, "self." + name);
}

std::optional<BlockParams> module_block_params(RuleContext& ctx, const std::string& op, const Arg& module) {
  return block_params(ctx, op, field(module, "kernel_size"), field(module, "dilation"), field(module, "padding"),
                      field(module, "stride"));
}

// `<op>_c1` kernel > 0, `<op>_c2` dilation > 0, `<op>_c3` padding >= 0,
// `<op>_c4` stride > 0 (both axes each). False when one is refuted.
bool check_block_params(RuleContext& ctx, const std::string& op, const BlockParams& p) {
  struct Part {
    const char* name;
    const std::vector<IntTerm>& terms;
    bool nonneg;
    const char* what;
  };
  const Part parts[] = {{"kernel size", p.kernel, false, "kernel"},
                        {"dilation", p.dilation, false, "dilation"},
                        {"padding", p.padding, true, "pad"},
                        {"stride", p.stride, false, "stride"}};
  int k = 1;
  for (const Part& part : parts) {
    Message m;
    m << part.name << " should be " << (part.nonneg ? "non-negative" : "greater than zero") << ", but got "
      << part.what << "_height: " << part.terms[0] << " " << part.what << "_width: " << part.terms[1];
    BoolTerm c = part.nonneg ? ge(part.terms[0], 0) && ge(part.terms[1], 0) : gt(part.terms[0], 0) && gt(part.terms[1], 0);
    if (ctx.require(op + "_c" + std::to_string(k++), c, m) == Status::Refuted) return false;  // _c1.._c4
  }
  return true;
}

// The number of blocks along an axis of `size`: floor division, as div_rtn.
IntTerm blocks(const IntTerm& size, const IntTerm& k, const IntTerm& d, const IntTerm& p, const IntTerm& s) {
  return floordiv(size + 2 * p - (d * (k - 1) + 1), s) + 1;
}

// im2col: `im2col_c0` pairs (block_params), `im2col_c1`–`c4` the parameters, `im2col_c5` a 3-d (unbatched) or
// 4-d input, `im2col_c6` its channel and spatial sizes non-zero, `im2col_c7`
// at least one block along each spatial axis. [N, C*kh*kw, Lh*Lw], or
// without N for a 3-d input.
Value unfold(RuleContext& ctx, const Arg& input, const BlockParams& p, const std::string& what) {
  if (!check_block_params(ctx, "im2col", p)) return unknown_tensor();  // im2col_c1..c4
  IntTerm r = ctx.rank(input);
  Message m5;
  m5 << what << ": expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero dimensions "
     << "for input, but got: " << ctx.shape_hole(input);
  if (ctx.require("im2col_c5", eq(r, 3) || eq(r, 4), m5) == Status::Refuted) return unknown_tensor();  // im2col_c5
  IntTerm c = ctx.size(input, -3), h = ctx.size(input, -2), w = ctx.size(input, -1);
  if (ctx.require("im2col_c6", ne(c, 0) && ne(h, 0) && ne(w, 0), m5) == Status::Refuted) return unknown_tensor();  // im2col_c6
  IntTerm lh = blocks(h, p.kernel[0], p.dilation[0], p.padding[0], p.stride[0]);
  IntTerm lw = blocks(w, p.kernel[1], p.dilation[1], p.padding[1], p.stride[1]);
  Message m7;
  m7 << "Given input with spatial size (" << h << ", " << w << "), kernel_size=(" << p.kernel[0] << ", " << p.kernel[1]
     << "), dilation=(" << p.dilation[0] << ", " << p.dilation[1] << "), padding=(" << p.padding[0] << ", "
     << p.padding[1] << "), calculated shape of the array of sliding blocks as (" << lh << ", " << lw
     << "), but its components must be at least one.";
  if (ctx.require("im2col_c7", ge(lh, 1) && ge(lw, 1), m7) == Status::Refuted) return unknown_tensor();  // im2col_c7
  if (!input.shape().rank_known()) return unknown_tensor();
  std::vector<Dim> out;
  if (input.shape().rank() == 4) out.push_back(ctx.size(input, 0).dim());
  out.push_back((c * p.kernel[0] * p.kernel[1]).dim());
  out.push_back((lh * lw).dim());
  return Value::tensor(Shape(std::move(out)));
}

// col2im: `col2im_c0` pairs, `col2im_c1`–`c4` the parameters, `col2im_c5` a 2-d (unbatched)
// or 3-d input, `col2im_c6` its column and length sizes non-zero,
// `col2im_c7` the columns divisible by kh*kw, `col2im_c8` the length is the
// number of blocks the output size holds, `col2im_c9` at least one block
// along each axis. [N, C/(kh*kw), oh, ow], or without N for a 2-d input.
Value fold(RuleContext& ctx, const Arg& input, const std::vector<IntTerm>& size, const BlockParams& p,
           const std::string& what) {
  if (!check_block_params(ctx, "col2im", p)) return unknown_tensor();  // col2im_c1..c4
  IntTerm r = ctx.rank(input);
  Message m5;
  m5 << what << ": expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and non-zero dimensions "
     << "for input, but got: " << ctx.shape_hole(input);
  if (ctx.require("col2im_c5", eq(r, 2) || eq(r, 3), m5) == Status::Refuted) return unknown_tensor();  // col2im_c5
  IntTerm c = ctx.size(input, -2), length = ctx.size(input, -1);
  if (ctx.require("col2im_c6", ne(c, 0) && ne(length, 0), m5) == Status::Refuted) return unknown_tensor();  // col2im_c6
  IntTerm kk = p.kernel[0] * p.kernel[1];
  Message m7;
  m7 << "Expected size of input's dimension 1 to be divisible by the product of kernel_size, but got input.size(1)="
     << c << " and kernel_size=(" << p.kernel[0] << ", " << p.kernel[1] << ").";
  if (ctx.require("col2im_c7", eq(mod(c, kk), 0), m7) == Status::Refuted) return unknown_tensor();  // col2im_c7
  IntTerm lh = blocks(size[0], p.kernel[0], p.dilation[0], p.padding[0], p.stride[0]);
  IntTerm lw = blocks(size[1], p.kernel[1], p.dilation[1], p.padding[1], p.stride[1]);
  Message m8;
  m8 << "Given output_size=(" << size[0] << ", " << size[1] << "), kernel_size=(" << p.kernel[0] << ", " << p.kernel[1]
     << "), expected size of input's dimension 2 to match the calculated number of sliding blocks " << lh << " * "
     << lw << " = " << lh * lw << ", but got input.size(2)=" << length << ".";
  if (ctx.require("col2im_c8", eq(length, lh * lw), m8) == Status::Refuted) return unknown_tensor();  // col2im_c8
  Message m9;
  m9 << "Given output_size=(" << size[0] << ", " << size[1] << "), calculated shape of the array of sliding blocks as ("
     << lh << ", " << lw << "), which is too small (non-positive)";
  if (ctx.require("col2im_c9", ge(lh, 1) && ge(lw, 1), m9) == Status::Refuted) return unknown_tensor();  // col2im_c9
  if (!input.shape().rank_known()) return unknown_tensor();
  std::vector<Dim> out;
  if (input.shape().rank() == 3) out.push_back(ctx.size(input, 0).dim());
  out.push_back(exact_div(c.dim(), kk.dim()));
  out.push_back(size[0].dim());
  out.push_back(size[1].dim());
  return Value::tensor(Shape(std::move(out)));
}

Value rule_f_unfold(RuleContext& ctx) {
  auto p = block_params(ctx, "im2col", ctx.arg("kernel_size"), ctx.arg("dilation"), ctx.arg("padding"), ctx.arg("stride"));
  return p ? unfold(ctx, ctx.tensor("input"), *p, "unfold") : unknown_tensor();
}

// nn.Unfold and nn.Fold keep their arguments as given; the operator checks
// them when the module runs.
Value keep_arguments(RuleContext& ctx, const std::string& cls, const std::vector<std::string>& names) {
  auto obj = new_module(cls);
  for (const std::string& n : names) obj->attributes[n] = ctx.arg(n).value;
  return Value::object(obj);
}

Value rule_unfold_init(RuleContext& ctx) {
  return keep_arguments(ctx, "torch.nn.Unfold", {"kernel_size", "dilation", "padding", "stride"});
}

Value rule_unfold_forward(RuleContext& ctx) {
  auto p = module_block_params(ctx, "im2col", ctx.arg("self"));
  return p ? unfold(ctx, ctx.tensor("input"), *p, "nn.Unfold") : unknown_tensor();
}

Value rule_f_fold(RuleContext& ctx) {
  auto size = pair_of(ctx, ctx.arg("output_size"), "output_size", "col2im_c0");
  auto p = size ? block_params(ctx, "col2im", ctx.arg("kernel_size"), ctx.arg("dilation"), ctx.arg("padding"),
                               ctx.arg("stride"))
                : std::nullopt;
  return p ? fold(ctx, ctx.tensor("input"), *size, *p, "fold") : unknown_tensor();
}

Value rule_fold_init(RuleContext& ctx) {
  return keep_arguments(ctx, "torch.nn.Fold", {"output_size", "kernel_size", "dilation", "padding", "stride"});
}

Value rule_fold_forward(RuleContext& ctx) {
  Arg module = ctx.arg("self");
  auto size = pair_of(ctx, field(module, "output_size"), "output_size", "col2im_c0");
  auto p = size ? module_block_params(ctx, "col2im", module) : std::nullopt;
  return p ? fold(ctx, ctx.tensor("input"), *size, *p, "nn.Fold") : unknown_tensor();
}

}  // namespace

void register_nn_unfold_rules(RuleRegistry& r) {
  r.add("torch.nn.functional.unfold", "input, kernel_size, dilation=1, padding=0, stride=1", rule_f_unfold);
  r.add("torch.nn.Unfold", "kernel_size, dilation=1, padding=0, stride=1", rule_unfold_init);
  r.add("torch.nn.Unfold.forward", "self, input", rule_unfold_forward);
  r.add("torch.nn.functional.fold", "input, output_size, kernel_size, dilation=1, padding=0, stride=1", rule_f_fold);
  r.add("torch.nn.Fold", "output_size, kernel_size, dilation=1, padding=0, stride=1", rule_fold_init);
  r.add("torch.nn.Fold.forward", "self, input", rule_fold_forward);
}

}  // namespace gshape::gradual
