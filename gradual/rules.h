// Internal to the rules: the registration function of each rules_*.cpp file
// and the helpers rules share (dim wrapping, broadcasting, reductions, sizes).
// Every helper emits its obligations with the tag the caller passes, so the
// tag written in docs/rules.md is the one the diagnostic prints.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "gradual/rule_context.h"
#include "gradual/rule_registry.h"

namespace gshape::gradual {

void register_creation_rules(RuleRegistry& r);
void register_shape_rules(RuleRegistry& r);
void register_join_rules(RuleRegistry& r);
void register_index_rules(RuleRegistry& r);
void register_reduction_rules(RuleRegistry& r);
void register_pointwise_rules(RuleRegistry& r);
void register_linalg_rules(RuleRegistry& r);
void register_module_rules(RuleRegistry& r);
// the nn families (rules_nn_*.cpp)
void register_nn_conv_rules(RuleRegistry& r);
void register_nn_unfold_rules(RuleRegistry& r);
void register_nn_pool_rules(RuleRegistry& r);
void register_nn_norm_rules(RuleRegistry& r);
void register_nn_layer_rules(RuleRegistry& r);
void register_nn_resample_rules(RuleRegistry& r);
void register_nn_recurrent_rules(RuleRegistry& r);
void register_nn_attention_rules(RuleRegistry& r);
void register_nn_loss_rules(RuleRegistry& r);
void register_python_rules(RuleRegistry& r);
void register_einops_rules(RuleRegistry& r);
void register_fft_rules(RuleRegistry& r);

// The short op name for messages: "torch.nn.functional.softmax" → "softmax",
// "Tensor.view" → "view", "torch.nn.Linear.forward" → "Linear".
std::string op_short_name(const std::string& rule_name);

// A tensor of unknown rank: the result when the rule cannot say more.
// A tensor a rule cannot compute: shape and layout unknown.
inline Value unknown_tensor() { return Value::tensor(Shape::unknown(), false); }

// `dim` must be in range for `t` (PyTorch's maybe_wrap_dim): with bound
// b = max(rank + extra, 1) when wrap_scalar (rank + extra otherwise),
// `-b <= dim < b`. Emits `tag`. Returns the wrapped index when the rank and
// dim are static constants and the obligation was not refuted.
std::optional<std::size_t> require_dim(RuleContext& ctx, const std::string& tag, const Arg& t, const IntTerm& dim,
                                       bool wrap_scalar = true, int64_t extra = 0);

// input.flatten(start, end) with torch.flatten's constraints (flatten_c1-c3);
// shared by torch.flatten / Tensor.flatten and nn.Flatten's forward.
Value flatten_dims(RuleContext& ctx, const Arg& input, const IntTerm& start, const IntTerm& end);

// Broadcasts size lists aligned from the right, emitting `tag` on each pair
// of axes (`a == b or a == 1 or b == 1`). Returns the result axes.
std::vector<IntTerm> broadcast_terms(RuleContext& ctx, const std::string& tag, const std::vector<IntTerm>& a,
                                     const std::vector<IntTerm>& b);
// Size terms of a known-rank tensor indexed from the end ((size K -1) ...),
// in axis order: what broadcasting aligns.
std::vector<IntTerm> sizes_from_end(RuleContext& ctx, const Arg& t);
// Broadcast result of two operands (tensors or scalars); unknown rank when a
// tensor's rank is unknown (no obligation then: the axes cannot be listed).
Shape broadcast_args(RuleContext& ctx, const std::string& tag, const Arg& a, const Arg& b);
// `other` must broadcast to exactly `self`'s shape (in-place ops, masks):
// other's rank <= self's and each of other's axes is self's or 1.
void require_broadcastable_to(RuleContext& ctx, const std::string& tag, const Arg& self, const Arg& other);

// Each argument as an int term (a `*size` list, a list of dims).
std::vector<IntTerm> int_terms(RuleContext& ctx, const std::vector<Arg>& args);

// The size of `t` at `dim`, given require_dim's answer `idx`: by the wrapped
// index when static, by the dim itself when the rank is unknown and the dim
// a literal (the runtime reads it through the dim); nullopt otherwise.
std::optional<IntTerm> size_at(RuleContext& ctx, const Arg& t, std::optional<std::size_t> idx, const IntTerm& dim);
// The same as torch's ensure_nonempty_size reads it: 1 for a 0-d tensor.
std::optional<IntTerm> nonempty_size_at(RuleContext& ctx, const Arg& t, std::optional<std::size_t> idx,
                                        const IntTerm& dim);

// `in` with the size at `axis` replaced by `d`.
Shape with_axis(const Shape& in, std::size_t axis, const Dim& d);

Shape shape_of_terms(const std::vector<IntTerm>& terms);
// `[{(int 1)}, -1]`-style rendering of a size list inside a message.
void append_list(Message& m, const std::vector<IntTerm>& terms);

// A reduction over `dims` (empty: every axis), with keepdim. Emits
// `range_tag` for each dim and `distinct_tag` when a dim repeats.
// Unknown rank (or a symbolic dim) gives an unknown-rank result.
Shape reduce_shape(RuleContext& ctx, const std::string& range_tag, const std::string& distinct_tag, const Arg& t,
                   const std::vector<Arg>& dims, bool keepdim);

// view/reshape's size inference (at::infer_size), tags numbered from
// `first` (n = first): at most one -1 (`<prefix>_c<n>`), every size >= -1
// (`_c<n+1>`), with -1 the product of the other sizes is positive
// (`_c<n+2>`) and divides numel (`_c<n+3>`), without -1 the product equals
// numel (`_c<n+4>`). Returns the result shape.
Shape infer_view_shape(RuleContext& ctx, const std::string& prefix, int first, const IntTerm& numel,
                       const std::vector<IntTerm>& sizes);

}  // namespace gshape::gradual
