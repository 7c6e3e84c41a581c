// The rule table and rule application.
#include "gradual/rule_registry.h"

#include <set>
#include <stdexcept>

#include "gradual/annotation_pattern.h"
#include "gradual/rules.h"

namespace gshape::gradual {

void RuleRegistry::add(const std::string& name, std::string_view signature, RuleFn fn) {
  rules_[name] = Rule{name, Signature::parse(signature), fn};
}

void RuleRegistry::add_check(const std::string& name, std::string_view signature, RuleFn fn) {
  rules_[name] = Rule{name, Signature::parse(signature), fn, true};
}

const Rule* RuleRegistry::find(std::string_view name) const {
  auto it = rules_.find(name);
  if (it != rules_.end()) return &it->second;
  // a shape annotation's check: its name spells its patterns
  return is_annotation_rule(name) ? annotation_rule(name) : nullptr;
}

std::vector<const Rule*> RuleRegistry::all() const {
  std::vector<const Rule*> out;
  for (const auto& [name, rule] : rules_) out.push_back(&rule);
  return out;
}

const RuleRegistry& RuleRegistry::builtin() {
  // Explicit registration calls (not static registrars): a static library
  // drops object files nothing references, and with them their registrars.
  static const RuleRegistry registry = [] {
    RuleRegistry r;
    register_creation_rules(r);
    register_shape_rules(r);
    register_join_rules(r);
    register_index_rules(r);
    register_reduction_rules(r);
    register_pointwise_rules(r);
    register_linalg_rules(r);
    register_module_rules(r);
    register_nn_conv_rules(r);
    register_nn_unfold_rules(r);
    register_nn_pool_rules(r);
    register_nn_norm_rules(r);
    register_nn_layer_rules(r);
    register_nn_resample_rules(r);
    register_nn_recurrent_rules(r);
    register_nn_attention_rules(r);
    register_nn_loss_rules(r);
    register_python_rules(r);
    register_einops_rules(r);
    register_fft_rules(r);
    return r;
  }();
  return registry;
}

namespace {

// Ops whose result may be laid out non-contiguously even from contiguous
// operands: they return views with other strides.
bool strided_view(const std::string& name) {
  static const std::set<std::string> ops = {
      "transpose", "transpose_", "t", "t_", "T", "mT", "H", "mH", "permute", "movedim", "moveaxis", "swapaxes",
      "swapaxes_", "swapdims", "swapdims_", "expand", "expand_as", "broadcast_to", "broadcast_tensors", "narrow", "select", "unfold",
      "diagonal", "as_strided", "split", "split_with_sizes", "chunk", "unbind", "tensor_split", "hsplit", "vsplit",
      "dsplit", "index_select_view"};
  std::size_t dot = name.rfind('.');
  // a Fourier transform: cuFFT lays a transform along a leading axis out
  // with permuted strides (torch 1.13's _exec_fft), so its result is not
  // known to be contiguous; fftshift is a roll, the frequencies an arange
  if (name.rfind("torch.fft.", 0) == 0) return name.find("shift") == std::string::npos && name.find("freq") == std::string::npos;
  if (name.rfind("Tensor.", 0) != 0 && !(name.rfind("torch.", 0) == 0 && dot == 5)) return false;
  return ops.count(name.substr(dot + 1)) > 0;
}

// Ops that allocate their result: contiguous whatever their operands' layout.
bool fresh_result(const std::string& name) {
  static const std::set<std::string> ops = {
      "Tensor.contiguous", "torch.cat", "torch.concat", "torch.concatenate", "torch.stack", "torch.matmul",
      "Tensor.matmul", "operator.matmul", "torch.mm", "Tensor.mm", "torch.bmm", "Tensor.bmm",
      "torch.nn.functional.linear", "torch.nn.functional.conv1d", "torch.nn.functional.conv2d",
      "torch.nn.functional.conv_transpose2d", "Tensor.repeat", "torch.tile", "Tensor.tile", "torch.flip",
      "Tensor.flip", "torch.roll", "Tensor.roll"};
  static const std::set<std::string> modules = {
      "Linear", "Conv1d", "Conv2d", "ConvTranspose2d", "Embedding", "MultiheadAttention", "LSTM", "GRU", "RNN",
      "BatchNorm1d", "BatchNorm2d", "LayerNorm", "GroupNorm", "MaxPool2d", "AvgPool2d", "AdaptiveAvgPool2d",
      "Upsample", "PixelShuffle", "Bilinear"};
  if (ops.count(name)) return true;
  const std::string prefix = "torch.nn.", suffix = ".forward";
  if (name.rfind(prefix, 0) == 0 && name.size() > prefix.size() + suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    return modules.count(name.substr(prefix.size(), name.size() - prefix.size() - suffix.size())) > 0;
  return false;
}

bool all_contiguous(const Value& v) {
  if (v.is_tensor()) return v.contiguous();
  if (v.is_sequence() && v.items()) {
    for (const Value& item : *v.items())
      if (!all_contiguous(item)) return false;
  }
  return true;
}

bool operands_contiguous(const Operand& op) {
  if (!all_contiguous(op.value)) return false;
  for (const Operand& e : op.elements)
    if (!operands_contiguous(e)) return false;
  return true;
}

Value with_layout(const Value& v, bool contiguous) {
  if (v.is_tensor()) return v.contiguous() == contiguous ? v : v.with_contiguous(contiguous);
  if (v.is_sequence() && v.items()) {
    std::vector<Value> items;
    for (const Value& item : *v.items()) items.push_back(with_layout(item, contiguous));
    return Value::sequence(v.sequence_kind(), std::move(items));
  }
  return v;
}

// The strides of a transpose or permute whose input's strides are known (a
// contiguous tensor of constant sizes has them): a view of it (view_c6) is
// then decided statically, as PyTorch decides it. nullopt otherwise.
std::optional<std::vector<int64_t>> permuted_strides(const std::string& name, const CallSite& call) {
  std::string op = name.substr(name.rfind('.') + 1);
  static const std::set<std::string> ops = {"transpose", "swapaxes", "swapdims", "permute", "t", "T", "mT"};
  if (!ops.count(op) || call.positional.empty()) return std::nullopt;
  const Value& in = call.positional[0].value;
  if (!in.is_tensor()) return std::nullopt;
  std::optional<std::vector<int64_t>> sizes = in.shape().constant_sizes();
  if (!sizes) return std::nullopt;
  std::size_t n = sizes->size();
  std::vector<int64_t> strides;
  if (in.strides()) {
    strides = *in.strides();
  } else if (in.contiguous()) {
    strides.assign(n, 1);
    for (std::size_t i = n; i-- > 1;) strides[i - 1] = strides[i] * std::max<int64_t>((*sizes)[i], 1);
  } else {
    return std::nullopt;
  }
  if (strides.size() != n) return std::nullopt;
  auto constant = [](const Value& v) -> std::optional<int64_t> {
    if (!v.is_int() || !v.as_int().is_constant()) return std::nullopt;
    return v.as_int().constant_value();
  };
  auto axis = [&](std::optional<int64_t> d) -> std::optional<std::size_t> {
    int64_t r = static_cast<int64_t>(n);
    if (!d || *d < -r || *d >= r) return std::nullopt;
    return static_cast<std::size_t>(*d < 0 ? *d + r : *d);
  };
  auto arg = [&](std::size_t pos, std::initializer_list<const char*> keywords) -> std::optional<int64_t> {
    if (pos < call.positional.size()) return constant(call.positional[pos].value);
    for (const auto& [k, v] : call.keywords)
      for (const char* kw : keywords)
        if (k == kw) return constant(v.value);
    return std::nullopt;
  };
  std::vector<std::size_t> perm(n);
  for (std::size_t i = 0; i < n; ++i) perm[i] = i;
  if (op == "transpose" || op == "swapaxes" || op == "swapdims") {
    auto a = axis(arg(1, {"dim0", "axis0"})), b = axis(arg(2, {"dim1", "axis1"}));
    if (!a || !b) return std::nullopt;
    std::swap(perm[*a], perm[*b]);
  } else if (op == "t") {
    if (n > 2) return std::nullopt;
    if (n == 2) std::swap(perm[0], perm[1]);
  } else if (op == "T") {
    std::reverse(perm.begin(), perm.end());
  } else if (op == "mT") {
    if (n < 2) return std::nullopt;
    std::swap(perm[n - 2], perm[n - 1]);
  } else {  // permute(*dims) or permute(dims)
    std::vector<Value> dims;
    const Value* seq = call.positional.size() == 2 && call.positional[1].value.is_sequence() ? &call.positional[1].value : nullptr;
    for (const auto& [k, v] : call.keywords)
      if (k == "dims") seq = &v.value;
    if (seq) {
      if (!seq->items()) return std::nullopt;
      dims = *seq->items();
    } else {
      for (std::size_t i = 1; i < call.positional.size(); ++i) dims.push_back(call.positional[i].value);
    }
    if (dims.size() != n) return std::nullopt;
    std::vector<bool> used(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      auto a = axis(constant(dims[i]));
      if (!a || used[*a]) return std::nullopt;
      used[*a] = true;
      perm[i] = *a;
    }
  }
  std::vector<int64_t> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = strides[perm[i]];
  return out;
}

// The layout a `memory_format=` keyword asks for (`.to`, `.contiguous`,
// `.clone`, `torch.empty`, ...): torch.contiguous_format is contiguous,
// preserve_format (or no keyword) leaves it to the op, any other format
// (channels_last, one held in a variable) is not known to be contiguous.
std::optional<bool> requested_layout(const CallSite& call) {
  for (const auto& [k, op] : call.keywords) {
    if (k != "memory_format") continue;
    auto ends_with = [&](const std::string& suffix) {
      return op.text.size() >= suffix.size() && op.text.compare(op.text.size() - suffix.size(), suffix.size(), suffix) == 0;
    };
    if (ends_with("contiguous_format")) return true;
    if (ends_with("preserve_format")) return std::nullopt;
    return false;
  }
  return std::nullopt;
}

bool any_tensor(const Operand& op) {
  if (op.value.is_tensor() || op.value.is_unknown()) return true;
  if (op.value.is_sequence() && op.value.items())
    for (const Value& item : *op.value.items())
      if (item.is_tensor() || item.is_unknown()) return true;
  for (const Operand& e : op.elements)
    if (any_tensor(e)) return true;
  return false;
}

// The layout of a rule's result (rules compute shapes; layout is the same
// for whole families of ops): a strided view may be non-contiguous, an
// allocating op is contiguous, and any other op keeps its operands' layout
// (element-wise ops follow their input's strides, a view of a transposed
// tensor stays transposed).
Value result_layout(const std::string& name, const CallSite& call, const Value& result) {
  if (std::optional<bool> requested = requested_layout(call)) return with_layout(result, *requested);
  if (strided_view(name)) {
    if (result.is_tensor() && result.shape().constant_sizes()) {
      std::optional<std::vector<int64_t>> strides = permuted_strides(name, call);
      if (strides && strides->size() == result.shape().rank()) return Value::tensor(result.shape(), false, *strides);
    }
    return with_layout(result, false);
  }
  if (fresh_result(name)) return with_layout(result, true);
  bool contiguous = true;
  for (const Operand& op : call.positional) contiguous = contiguous && operands_contiguous(op);
  for (const auto& [k, op] : call.keywords) contiguous = contiguous && operands_contiguous(op);
  return contiguous ? result : with_layout(result, false);
}

}  // namespace

Value channels_last_layout(const std::string& name, const CallSite& call, const Value& result) {
  if (!result.is_tensor() || !result.contiguous()) return result;
  if (result.shape().rank_known() && result.shape().rank() < 4) return result;
  if (requested_layout(call)) return result;  // asked for by the call itself
  // always allocated row-major, whatever the operands' format (checked
  // against PyTorch: matmul, linear, layer_norm and repeat of a
  // channels-last tensor are contiguous)
  static const std::set<std::string> row_major = {
      "Tensor.contiguous", "torch.matmul", "Tensor.matmul", "operator.matmul", "torch.mm", "Tensor.mm", "torch.bmm",
      "Tensor.bmm", "torch.nn.functional.linear", "torch.nn.Linear.forward", "torch.nn.functional.layer_norm",
      "torch.nn.LayerNorm.forward", "Tensor.repeat"};
  if (row_major.count(name)) return result;
  bool from_tensor = false;
  for (const Operand& op : call.positional) from_tensor = from_tensor || any_tensor(op);
  for (const auto& [k, op] : call.keywords) from_tensor = from_tensor || any_tensor(op);
  bool module_call = name.rfind("torch.nn.", 0) == 0 && name.size() > 8 &&
                     name.compare(name.size() - 8, 8, ".forward") == 0;
  return from_tensor || module_call ? with_layout(result, false) : result;
}

namespace {

// Every tensor in `v` with dtype `d`.
Value with_dtype_everywhere(const Value& v, Dtype d) {
  if (v.is_tensor()) return v.dtype() == d ? v : v.with_dtype(d);
  if (v.is_sequence() && v.items()) {
    std::vector<Value> items;
    for (const Value& item : *v.items()) items.push_back(with_dtype_everywhere(item, d));
    return Value::sequence(v.sequence_kind(), std::move(items)).with_cause(v.cause());
  }
  if (v.is_sequence() && v.element())
    return Value::unknown_length(v.sequence_kind(), with_dtype_everywhere(*v.element(), d), v.uniform_items());
  return v;
}

// Whether every leaf of a nested list/tuple is an int (not a bool), or every one a bool.
bool leaves_are(const Value& v, bool want_bool) {
  if (v.is_sequence()) {
    if (!v.items()) return false;
    for (const Value& item : *v.items())
      if (!leaves_are(item, want_bool)) return false;
    return true;
  }
  return want_bool ? v.is_bool() : v.is_int();
}

// The dtype of an op's tensor result, as far as the indexing rules need it
// (Value::dtype): comparisons and logical ops give bool, index-valued ops
// int64, shape ops keep their input's, conversions give theirs. Every other
// result, and any call with a dtype= argument, is Unknown: a dtype a rule
// did not fix is never carried over from an operand.
Dtype result_dtype(const std::string& name, const CallSite& call) {
  for (const auto& [k, op] : call.keywords)
    if (k == "dtype" || k == "out" || k == "out_int32") return Dtype::Unknown;  // bucketize(..., out_int32=True): int32
  std::size_t dot = name.rfind('.');
  std::string prefix = dot == std::string::npos ? "" : name.substr(0, dot);
  std::string op = dot == std::string::npos ? name : name.substr(dot + 1);
  bool tensor_op = prefix == "Tensor" || prefix == "torch";
  auto first = [&]() { return call.positional.empty() ? Dtype::Unknown : call.positional[0].value.dtype(); };
  // every operand a bool tensor or a Python bool (`m1 & m2`, `~m`)
  auto all_bool = [&]() {
    if (call.positional.empty()) return false;
    for (const Operand& o : call.positional)
      if (!(o.value.is_bool() || (o.value.is_tensor() && o.value.dtype() == Dtype::Bool))) return false;
    return true;
  };
  static const std::set<std::string> comparisons = {
      "lt", "le", "gt", "ge", "eq", "ne", "less", "less_equal", "greater", "greater_equal", "not_equal",
      "isnan", "isinf", "isfinite", "isposinf", "isneginf", "isclose", "isin", "isreal", "signbit",
      "logical_and", "logical_or", "logical_xor", "logical_not"};
  static const std::set<std::string> indices = {"argmax", "argmin", "argsort", "nonzero", "argwhere", "randperm",
                                                "randint", "multinomial", "bucketize", "searchsorted"};
  static const std::set<std::string> keep = {"view", "reshape", "flatten", "squeeze", "unsqueeze", "contiguous",
                                             "clone", "detach", "cuda", "cpu", "expand", "expand_as", "permute",
                                             "transpose", "t", "T", "repeat", "ravel", "view_as", "reshape_as",
                                             "flip", "roll", "unflatten", "movedim", "squeeze_", "unsqueeze_"};
  if (prefix == "operator" && comparisons.count(op)) return Dtype::Bool;
  if (prefix == "operator" && (op == "and_" || op == "or_" || op == "xor" || op == "invert"))
    return all_bool() ? Dtype::Bool : Dtype::Unknown;
  if (!tensor_op) return Dtype::Unknown;
  if (comparisons.count(op)) return Dtype::Bool;
  if (op == "bitwise_and" || op == "bitwise_or" || op == "bitwise_xor" || op == "bitwise_not")
    return all_bool() ? Dtype::Bool : Dtype::Unknown;
  if (indices.count(op)) return Dtype::Int64;
  if (op == "arange") {
    for (const Operand& o : call.positional)
      if (!o.value.is_int()) return Dtype::Unknown;
    return call.positional.empty() ? Dtype::Unknown : Dtype::Int64;
  }
  if (prefix == "Tensor" && op == "bool") return Dtype::Bool;
  if (prefix == "Tensor" && op == "long") return Dtype::Int64;
  if (prefix == "Tensor" && op == "byte") return Dtype::Uint8;
  if (prefix == "Tensor" && (op == "float" || op == "double" || op == "half" || op == "int" || op == "bfloat16"))
    return Dtype::Other;
  if (prefix == "torch" && (op == "tensor" || op == "as_tensor") && !call.positional.empty()) {
    const Value& data = call.positional[0].value;
    if (data.is_sequence() && leaves_are(data, true)) return Dtype::Bool;
    if (data.is_sequence() && leaves_are(data, false)) return Dtype::Int64;
    return Dtype::Unknown;
  }
  if (prefix == "torch" && op == "LongTensor") return Dtype::Int64;
  if (prefix == "torch" && op == "BoolTensor") return Dtype::Bool;
  if (keep.count(op)) return first();
  return Dtype::Unknown;
}

}  // namespace

RuleResult apply_rule(const Rule& rule, const CallSite& call, Discharger& solver, std::vector<Obligation>& obligations) {
  RuleResult result;
  Binding binding = bind(rule.signature, call);
  if (!binding.error.empty()) {
    result.modelled = false;
    result.note = binding.error;
    return result;
  }
  RuleContext ctx(rule.name, call, std::move(binding), solver, obligations);
  try {
    result.value = result_layout(rule.name, call, rule.fn(ctx));
    result.value = with_dtype_everywhere(result.value, result_dtype(rule.name, call));
  } catch (const NotModelled& e) {
    result.modelled = false;
    result.note = e.what();
    result.value = Value::unknown();
  } catch (const std::overflow_error& e) {
    result.modelled = false;
    result.note = e.what();
    result.value = Value::unknown();
  }
  result.obligations = ctx.obligation_ids();
  result.refuted = ctx.any_refuted();
  if (!result.refuted) result.advice = ctx.advice();
  return result;
}

}  // namespace gshape::gradual
