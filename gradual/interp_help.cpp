// help: lines for the classic causes of a refuted obligation (rustc's
// `help:`). Each is attached only after the fix it suggests was tried: the
// rule is applied again, in a solver scope of its own, to the call as the
// fix would make it (the layer built with the other batch_first, the other
// cat dimension, the operand transposed, an axis of size 1 inserted, the
// input contiguous); the help is given only when every obligation of that
// application is then proven. docs/diagnostics.md lists them.
#include <typeinfo>
#include <memory>

#include "gradual/interp.h"

namespace gshape::gradual::interp {

using namespace gshape::ir;

namespace {

std::string last_component(const std::string& name) {
  std::size_t dot = name.rfind('.');
  return dot == std::string::npos ? name : name.substr(dot + 1);
}

bool one_of(const std::string& s, std::initializer_list<const char*> names) {
  for (const char* n : names)
    if (s == n) return true;
  return false;
}

std::string short_module(const std::string& cls) {
  if (cls.rfind("torch.nn.", 0) == 0) return "nn." + cls.substr(9);
  return cls;
}

// An operand of the call: positional index, or a keyword's name.
struct OperandRef {
  int positional = -1;
  std::string keyword;
};

Operand* operand_at(CallSite& call, const OperandRef& r) {
  if (r.positional >= 0) return static_cast<std::size_t>(r.positional) < call.positional.size() ? &call.positional[r.positional] : nullptr;
  for (auto& [k, op] : call.keywords)
    if (k == r.keyword) return &op;
  return nullptr;
}

std::optional<int64_t> constant_int(const Value& v) {
  if (!v.is_int() || !v.as_int().is_constant()) return std::nullopt;
  return v.as_int().constant_value();
}

std::string with_axis(const Shape& s, std::size_t at) {
  std::vector<Dim> dims = s.dims();
  dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(at), Dim(1));
  return Shape(std::move(dims)).str();
}

}  // namespace

bool Interpreter::passes_with(const Rule& rule, const CallSite& call) {
  std::vector<Obligation> scratch;
  solver_->push_scope();
  RuleResult r = apply_rule(rule, call, *solver_, scratch);
  solver_->pop_scope();
  if (!r.modelled || r.refuted) return false;
  for (const Obligation& ob : scratch)
    if (ob.status != Status::Proven) return false;
  return true;
}

void Interpreter::note_reduction(const Rule& rule, const CallSite& call, const Value& result, const Node* site) {
  static const std::set<std::string> reductions = {"sum", "mean", "prod", "amax", "amin", "max", "min", "std", "var",
                                                   "norm", "logsumexp", "median", "nansum", "nanmean", "argmax",
                                                   "argmin", "all", "any", "count_nonzero"};
  if (!site || !site->loc.valid() || call.positional.empty()) return;
  if (rule.name.rfind("torch.", 0) != 0 && rule.name.rfind("Tensor.", 0) != 0) return;
  if (!reductions.count(last_component(rule.name))) return;
  const Value& in = call.positional[0].value;
  if (!in.is_tensor() || !in.shape().rank_known()) return;
  const Value* out = &result;
  if (result.is_sequence() && result.items() && !result.items()->empty()) out = &result.items()->front();
  if (!out->is_tensor() || !out->shape().rank_known() || out->shape().rank() + 1 != in.shape().rank()) return;
  const Value* dim = call.positional.size() > 1 ? &call.positional[1].value : nullptr;
  for (const auto& [k, op] : call.keywords) {
    if (k == "dim") dim = &op.value;
    if (k == "keepdim") return;  // an explicit keepdim: the user chose (a symbolic one is not modelled anyway)
  }
  if (!dim) return;
  const Value* d = dim;
  if (dim->is_sequence() && dim->items() && dim->items()->size() == 1) d = &dim->items()->front();
  std::optional<int64_t> axis = constant_int(*d);
  int64_t rank = static_cast<int64_t>(in.shape().rank());
  if (!axis || *axis < -rank || *axis >= rank) return;
  reductions_[{site->loc.file, site->loc.begin}] = {*axis < 0 ? *axis + rank : *axis, site->loc};
}

void Interpreter::attach_help(const Rule& rule, const CallSite& call, std::size_t first) {
  std::set<std::string> refuted;
  for (std::size_t i = first; i < raw_.size(); ++i)
    if (raw_[i].status == Status::Refuted) refuted.insert(raw_[i].tag);
  if (refuted.empty()) return;
  std::vector<DiagnosticNote> helps;
  const std::string& name = rule.name;
  auto text_of = [&](const Operand& op, const char* fallback) {
    std::string t = source_text(op.loc, 30);
    return t.empty() ? std::string(fallback) : "`" + t + "`";
  };

  // batch_first: the recurrent layer or attention built with the other layout
  // fits (not for an empty sequence, <rnn>_c6: a batch of 0 is no fix)
  bool recurrent = one_of(name, {"torch.nn.LSTM.forward", "torch.nn.GRU.forward", "torch.nn.RNN.forward"});
  bool empty_sequence = false;
  for (const std::string& tag : refuted) empty_sequence = empty_sequence || (recurrent && tag.size() > 3 && tag.compare(tag.size() - 3, 3, "_c6") == 0);
  if ((recurrent || name == "torch.nn.MultiheadAttention.forward") && !empty_sequence &&
      !call.positional.empty() && call.positional[0].value.is_object()) {
    const std::shared_ptr<ObjectValue>& obj = call.positional[0].value.as_object();
    const Value* flag = obj ? obj->attribute("batch_first") : nullptr;
    if (flag && flag->is_bool() && flag->as_bool().is_constant() && typeid(*obj) == typeid(ObjectValue)) {
      bool batch_first = flag->as_bool().is_true();
      auto other = std::make_shared<ObjectValue>(*obj);
      other->attributes["batch_first"] = Value::boolean(Pred(!batch_first));
      CallSite fixed = call;
      fixed.positional[0].value = Value::object(other);
      if (passes_with(rule, fixed)) {
        bool mha = name == "torch.nn.MultiheadAttention.forward";
        std::string layer = short_module(obj->class_name);
        std::string what = mha ? "query, key and value" : "its input";
        std::string feature = mha ? "embed" : "feature";
        std::string as_is = batch_first ? "(batch, seq, " + feature + ")" : "(seq, batch, " + feature + ")";
        std::string fits = batch_first ? "(seq, batch, " + feature + ")" : "(batch, seq, " + feature + ")";
        std::string text = layer + " reads " + what + " as " + as_is + " since batch_first=" +
                           (batch_first ? "True" : "False") + ", and the shapes fit " + fits + ": " +
                           (batch_first ? "build it without batch_first=True (or transpose the input)"
                                        : "build it with batch_first=True");
        if (const SourceLoc* made = created_at(obj.get())) text += " where it is built (line " + std::to_string(made->line) + ")";
        helps.push_back(DiagnosticNote::help("batch_first", text));
      }
    }
  }

  // cat: the tensors agree on every axis but the one along which they should be joined
  if (one_of(name, {"torch.cat", "torch.concat", "torch.concatenate"}) && refuted.count("cat_c5")) {
    const Operand* tensors = call.positional.empty() ? nullptr : &call.positional[0];
    const Value* dim_value = call.positional.size() > 1 ? &call.positional[1].value : nullptr;
    for (const auto& [k, op] : call.keywords) {
      if (k == "tensors") tensors = &op;
      if (k == "dim") dim_value = &op.value;
    }
    std::optional<int64_t> dim = dim_value ? constant_int(*dim_value) : std::optional<int64_t>(0);
    const Value* first_tensor = nullptr;
    if (tensors && tensors->value.is_sequence() && tensors->value.items())
      for (const Value& t : *tensors->value.items())
        if (t.is_tensor() && t.shape().rank_known() && t.shape().rank() > 0) {
          first_tensor = &t;
          break;
        }
    if (dim && first_tensor) {
      int64_t rank = static_cast<int64_t>(first_tensor->shape().rank());
      int64_t current = *dim < 0 ? *dim + rank : *dim;
      for (int64_t d = 0; d < rank; ++d) {
        if (d == current) continue;
        CallSite fixed = call;
        fixed.positional.resize(1);
        fixed.positional[0] = *tensors;
        std::vector<std::pair<std::string, Operand>> kws;
        for (const auto& kw : call.keywords)
          if (kw.first != "dim" && kw.first != "tensors") kws.push_back(kw);
        kws.emplace_back("dim", Operand(Value::integer(Dim(d)), -1));
        fixed.keywords = std::move(kws);
        if (passes_with(rule, fixed)) {
          helps.push_back(DiagnosticNote::help(
              "cat_dim", "the tensors' sizes agree on every axis but " + std::to_string(d) +
                             ": to join them along it, pass dim=" + std::to_string(d)));
          break;
        }
      }
    }
  }

  // a transposed weight: the second operand of a matrix product fits with its last two axes swapped
  if (one_of(name, {"torch.matmul", "Tensor.matmul", "operator.matmul", "torch.mm", "Tensor.mm", "torch.bmm",
                    "Tensor.bmm", "torch.nn.functional.linear"})) {
    OperandRef ref{1, {}};
    if (call.positional.size() < 2) {
      for (const auto& [k, op] : call.keywords)
        if (one_of(k, {"weight", "other", "mat2"})) ref = {-1, k};
    }
    CallSite fixed = call;
    Operand* w = operand_at(fixed, ref);
    if (w && w->value.is_tensor() && w->value.shape().rank_known() && w->value.shape().rank() >= 2) {
      std::vector<Dim> dims = w->value.shape().dims();
      std::size_t r = dims.size();
      if (!(dims[r - 1] == dims[r - 2])) {
        Shape before = w->value.shape();
        std::swap(dims[r - 1], dims[r - 2]);
        Shape after(dims);
        w->value = Value::tensor(after);
        if (passes_with(rule, fixed)) {
          std::string t = text_of(*w, "the second operand");
          std::string how = r == 2 ? (t[0] == '`' ? "`" + t.substr(1, t.size() - 2) + ".T`" : "its .T")
                                   : (t[0] == '`' ? "`" + t.substr(1, t.size() - 2) + ".transpose(-2, -1)`" : "its .transpose(-2, -1)");
          std::string text = name == "torch.nn.functional.linear"
                                 ? "F.linear takes the weight as (out_features, in_features); " + t + " of shape " +
                                       before.str() + " looks transposed: " + how + " (" + after.str() + ") would fit"
                                 : t + " of shape " + before.str() + " looks transposed: " + how + " (" + after.str() +
                                       ") would fit";
          helps.push_back(DiagnosticNote::help("transposed_weight", text));
        }
      }
    }
  }

  // broadcasting off by an axis: keepdim on the reduction that dropped it, or unsqueeze
  if (refuted.count("broadcast_c1") || refuted.count("masked_fill_c1") || refuted.count("inplace_c1") ||
      refuted.count("where_c1")) {
    std::vector<OperandRef> refs;
    for (std::size_t i = 0; i < call.positional.size(); ++i) refs.push_back({static_cast<int>(i), {}});
    for (const auto& kw : call.keywords) refs.push_back({-1, kw.first});
    std::size_t max_rank = 0;
    Shape widest;
    for (const OperandRef& r : refs) {
      const Operand* op = operand_at(const_cast<CallSite&>(call), r);
      if (op && op->value.is_tensor() && op->value.shape().rank_known() && op->value.shape().rank() > max_rank) {
        max_rank = op->value.shape().rank();
        widest = op->value.shape();
      }
    }
    bool found = false;
    for (const OperandRef& r : refs) {
      if (found) break;
      const Operand* op = operand_at(const_cast<CallSite&>(call), r);
      if (!op || !op->value.is_tensor() || !op->value.shape().rank_known()) continue;
      const Shape& s = op->value.shape();
      if (s.rank() == 0 || s.rank() >= max_rank) continue;
      for (std::size_t p = 1; p <= s.rank() && !found; ++p) {
        CallSite fixed = call;
        std::vector<Dim> dims = s.dims();
        dims.insert(dims.begin() + static_cast<std::ptrdiff_t>(p), Dim(1));
        operand_at(fixed, r)->value = Value::tensor(Shape(dims), op->value.contiguous());
        if (!passes_with(rule, fixed)) continue;
        found = true;
        std::string t = text_of(*op, "an operand");
        // where the operand came from: a reduction that dropped axis p?
        const Expr* e = op->slot >= 0 && static_cast<std::size_t>(op->slot) < slot_exprs_.size()
                            ? slot_exprs_[static_cast<std::size_t>(op->slot)] : nullptr;
        SourceLoc origin = e ? e->loc : SourceLoc{};
        if (const auto* n = e ? dyn_cast<Name>(e) : nullptr)
          if (Binding* b = find_binding(n->id)) origin = b->origin;
        auto red = origin.valid() ? reductions_.find({origin.file, origin.begin}) : reductions_.end();
        if (red != reductions_.end() && red->second.first == static_cast<int64_t>(p)) {
          helps.push_back(DiagnosticNote::help(
              "keepdim", t + " (" + s.str() + ") lost axis " + std::to_string(p) + " in the reduction at line " +
                             std::to_string(red->second.second.line) + ": with keepdim=True there it is " +
                             with_axis(s, p) + " and broadcasts against " + widest.str()));
        } else {
          std::string call_text = t[0] == '`' ? "`" + t.substr(1, t.size() - 2) + ".unsqueeze(" + std::to_string(p) + ")`"
                                              : "unsqueeze(" + std::to_string(p) + ")";
          helps.push_back(DiagnosticNote::help(
              "unsqueeze", t + " (" + s.str() + ") is aligned with " + widest.str() +
                               " from the last axis; " + call_text + " (" + with_axis(s, p) + ") would broadcast"));
        }
      }
    }
  }

  // a view of a tensor whose strides do not allow it
  if (name == "Tensor.view" && refuted.size() == 1 && refuted.count("view_c6") && !call.positional.empty() &&
      call.positional[0].value.is_tensor()) {
    CallSite fixed = call;
    fixed.positional[0].value = Value::tensor(call.positional[0].value.shape(), true);
    if (passes_with(rule, fixed)) {
      std::string t = text_of(call.positional[0], "the input");
      helps.push_back(DiagnosticNote::help(
          "contiguous", t + " is not contiguous (a transpose or permute changes the strides, not the memory): "
                            "call .contiguous() before .view(...), or use .reshape(...)"));
    }
  }

  if (helps.empty()) return;
  for (std::size_t i = first; i < raw_.size(); ++i) {
    if (raw_[i].status != Status::Refuted) continue;
    for (const DiagnosticNote& h : helps) raw_info_[i].notes.push_back(h);
  }
}

// ------------------------------------------------------------------ loss_broadcast_c2

namespace {

bool contains_any(const std::string& text, std::initializer_list<const char*> parts) {
  for (const char* p : parts)
    if (text.find(p) != std::string::npos) return true;
  return false;
}

// An axis of size 1 written on purpose: `x[:, None]`, `x.unsqueeze(1)`, a
// view or reshape, an expand; the broadcast is then meant (pairwise sums,
// differences or products).
bool made_a_column(const std::string& text) {
  return contains_any(text, {"None", "unsqueeze", "newaxis", "view", "reshape", "expand", "[..., ", "outer"});
}

}  // namespace

void Interpreter::note_outer_broadcast(const Rule& rule, const CallSite& call, const Value& result, const Node* site) {
  if (!site || !site->loc.valid()) return;
  const std::pair<const SourceFile*, uint32_t> key{site->loc.file, site->loc.begin};
  // the expression an operand stands for: itself, or what its name was bound to
  auto origin_of = [&](const Operand& op) {
    const Expr* e = op.slot >= 0 && static_cast<std::size_t>(op.slot) < slot_exprs_.size()
                        ? slot_exprs_[static_cast<std::size_t>(op.slot)] : nullptr;
    SourceLoc origin = e ? e->loc : op.loc;
    if (const auto* n = e ? dyn_cast<Name>(e) : nullptr)
      if (Binding* b = find_binding(n->id)) origin = b->origin;
    return origin;
  };
  // an operand holding the [N, N] result: the op it comes from
  auto broadcast_of = [&](const Operand& op) -> std::shared_ptr<const OuterBroadcast> {
    if (!op.value.is_tensor()) return nullptr;
    SourceLoc origin = origin_of(op);
    if (!origin.valid()) return nullptr;
    auto it = outer_broadcasts_.find({origin.file, origin.begin});
    if (it == outer_broadcasts_.end() || op.value.shape().str() != it->second->result) return nullptr;
    return it->second;
  };
  std::vector<const Operand*> tensors;
  for (const Operand& op : call.positional)
    if (op.value.is_tensor()) tensors.push_back(&op);
  for (const auto& kw : call.keywords)
    if (kw.second.value.is_tensor()) tensors.push_back(&kw.second);
  const std::string& name = rule.name;
  const std::string op_name = last_component(name);
  const bool torch_op = name.rfind("torch.", 0) == 0 || name.rfind("Tensor.", 0) == 0;

  // a consumer: a mean or sum of every element, or a loss
  bool dims_given = call.positional.size() > 1;
  for (const auto& kw : call.keywords) dims_given = dims_given || kw.first == "dim" || kw.first == "axis";
  const bool full_reduction = torch_op && !dims_given && one_of(op_name, {"mean", "sum", "nanmean", "nansum"}) &&
                              name.rfind("torch.nn.", 0) != 0;
  const bool loss = name.find("loss") != std::string::npos || name.find("Loss.") != std::string::npos;
  if (full_reduction || loss) {
    for (const Operand* op : tensors) {
      std::shared_ptr<const OuterBroadcast> b = broadcast_of(*op);
      if (!b || !recording_) continue;
      bool seen = false;
      for (const Diagnostic& d : advice_)
        seen = seen || (d.loc.file == b->op.file && d.loc.begin == b->op.begin && d.tag == "loss_broadcast_c2");
      if (seen) continue;
      std::string what = loss ? "the loss" : "the " + op_name;
      Diagnostic d{Severity::Warning, b->op, {},
                   b->text + ", larger than both, and the result feeds " + what + " at line " +
                       std::to_string(call.loc.line) + ": every element of one is paired with every element of the other",
                   "loss_broadcast_c2", {}};
      d.notes.push_back({call.loc, "the " + b->result + " result is " + (loss ? "the loss' input here" : "reduced here")});
      d.notes.push_back(DiagnosticNote::help("squeeze", b->help));
      advice_.push_back(std::move(d));
    }
    return;
  }

  outer_broadcasts_.erase(key);
  if (!result.is_tensor() || !result.shape().rank_known()) return;
  // an op of the [N, N] result alone that keeps its shape (`d ** 2`, `d.abs()`, `0.5 * d`) carries it on
  if (tensors.size() == 1) {
    std::shared_ptr<const OuterBroadcast> b = broadcast_of(*tensors.front());
    if (b && result.shape().str() == b->result) outer_broadcasts_[key] = b;
    return;
  }
  // an element-wise op of [N, 1] and [N] with N > 1: [N, N]
  static const std::set<std::string> elementwise = {
      "operator.add", "operator.sub", "operator.mul", "operator.truediv", "torch.add", "torch.sub", "torch.subtract",
      "torch.mul", "torch.multiply", "torch.div", "torch.divide", "torch.true_divide", "Tensor.add", "Tensor.sub",
      "Tensor.subtract", "Tensor.mul", "Tensor.multiply", "Tensor.div", "Tensor.divide", "Tensor.true_divide"};
  if (!elementwise.count(name) || call.positional.size() < 2 || !call.positional[0].value.is_tensor() ||
      !call.positional[1].value.is_tensor())
    return;
  for (int column_at : {0, 1}) {
    const Operand& column = call.positional[static_cast<std::size_t>(column_at)];
    const Operand& vector = call.positional[static_cast<std::size_t>(1 - column_at)];
    const Shape& c = column.value.shape();
    const Shape& v = vector.value.shape();
    if (!c.rank_known() || !v.rank_known() || c.rank() != 2 || v.rank() != 1) continue;
    if (!result.shape().rank_known() || result.shape().rank() != 2) continue;
    // certainly [N, 1] against [N], N > 1 (the sizes the program names)
    Pred certain = eq(c[1], Dim(1)) && eq(c[0], v[0]) && gt(v[0], Dim(1));
    if (!certain.is_true() && (certain.is_false() || solver_->query(certain) != std::optional<bool>(true))) continue;
    std::string column_text = source_text(column.loc, 30);
    std::string vector_text = source_text(vector.loc, 30);
    SourceLoc column_origin = origin_of(column);
    std::string column_made = column_origin.valid() ? source_text(column_origin, 200) : std::string();
    // a column made on purpose, or two views of one tensor: a pairwise table is meant
    if (column_text.empty() || vector_text.empty() || made_a_column(column_text) || made_a_column(column_made)) continue;
    if (column_text == vector_text) continue;
    std::string op_text = source_text(call.loc, 40);
    auto out = std::make_shared<OuterBroadcast>();
    out->op = call.loc;
    out->result = result.shape().str();
    out->text = (op_text.empty() ? std::string("this element-wise op") : "`" + op_text + "`") + ": `" + column_text +
                "` of shape " + c.str() + " and `" + vector_text + "` of shape " + v.str() + " broadcast to " + out->result;
    out->help = "`" + column_text + ".squeeze(1)` has shape " + v.str() + ", as `" + vector_text + "` (or `" +
                vector_text + ".unsqueeze(1)` has shape " + c.str() + ", as `" + column_text + "`)";
    outer_broadcasts_[key] = std::move(out);
    return;
  }
}

}  // namespace gshape::gradual::interp
