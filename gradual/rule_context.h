// What a rule works with: its bound arguments, terms over them (each an
// s-expression for the runtime paired with its static value), and `require`,
// which turns a condition into a discharged obligation at the call site.
#pragma once

#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gradual/call.h"
#include "gradual/constraint.h"
#include "gradual/obligation.h"
#include "gradual/signature.h"
#include "gradual/discharger.h"

namespace gshape::gradual {

// Thrown by a rule (or its argument accessors) when the call uses a form the
// rule does not model (a dtype where a size is expected, a symbolic keepdim,
// a list of unknown length, ...). apply_rule turns it into an unknown result:
// never a static error.
class NotModelled : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// An argument as a rule sees it: its value and how the runtime reaches it.
struct Arg {
  Value value;
  int slot = -1;          // its own operand slot
  int parent_slot = -1;   // otherwise: item `index` of the sequence in parent_slot
  int64_t index = 0;
  std::string role;       // "input", "tensors[1]", "shape[0]": used in messages
  const Operand* operand = nullptr;  // the call-site operand, when there is one
  bool provided = true;   // false: the parameter's default

  // A value the rule makes up itself (a default it fills in): no slot.
  static Arg of(Value v, std::string role) {
    Arg a;
    a.value = std::move(v);
    a.role = std::move(role);
    return a;
  }
  bool is_tensor() const { return value.is_tensor(); }
  bool is_none() const { return value.is_none(); }
  const Shape& shape() const { return value.shape(); }
};

// A warning a rule gives about a call PyTorch runs without error but that
// certainly computes something else than meant (a loss whose input and
// target broadcast to a larger shape). No obligation: never a run-time
// check, never an error.
struct Advice {
  std::string tag;      // "loss_broadcast_c1"
  std::string message;  // rendered with the static shapes
};

class RuleContext final : public OperandEnv {
 public:
  RuleContext(std::string rule_name, const CallSite& call, Binding binding, Discharger& solver,
              std::vector<Obligation>& out);

  const CallSite& call() const { return call_; }
  const std::string& rule_name() const { return rule_name_; }

  // ---- arguments (the parameter names of the rule's signature)
  Arg arg(std::string_view param) const;
  bool provided(std::string_view param) const;
  bool is_none(std::string_view param) const { return arg(param).is_none(); }
  // A tensor argument; an unknown value becomes a tensor of unknown rank.
  Arg tensor(std::string_view param) const;
  Arg as_tensor(const Arg& a) const;
  // Elements of a sequence argument (each keeps its slot or item path).
  std::vector<Arg> elements(const Arg& seq) const;
  // A `*size`-style parameter: `f(2, 3)`, `f((2, 3))`, `f([2, 3])` and
  // `f(torch.Size)` all give the two int arguments.
  std::vector<Arg> int_list(std::string_view param) const;
  // An int or a sequence of ints as a list (dim=1 or dim=(0, 1)).
  std::vector<Arg> int_or_list(const Arg& a) const;
  // A bool argument that must be a constant (keepdim=True); NotModelled otherwise.
  bool bool_constant(std::string_view param) const;
  // A flag that changes no shape rule (bias=, elementwise_affine=): its
  // constant value, or nullopt when it is not known (the module is kept).
  std::optional<bool> bool_flag(std::string_view param) const;
  bool is_int(const Arg& a) const { return a.value.is_int() || a.value.is_bool(); }
  // The keyword arguments a `**name` parameter absorbed (einops' axis
  // lengths), in call order, each named after its keyword.
  std::vector<Arg> extra_keywords() const;

  // ---- terms over arguments
  IntTerm int_term(const Arg& a);                 // an int argument (unknown → fresh symbol)
  IntTerm size(const Arg& tensor, int64_t d);     // (size K D)
  IntTerm rank(const Arg& tensor);                // (dim K)
  IntTerm numel(const Arg& tensor);               // (numel K)
  IntTerm len(const Arg& seq);                    // (len K)
  // Every axis of a known-rank tensor: size(t, 0) ... size(t, r-1).
  std::vector<IntTerm> sizes(const Arg& tensor);
  ShapeHole shape_hole(const Arg& tensor) const { return {tensor.slot, tensor.shape()}; }

  // ---- obligations
  // Emits and discharges the obligation `tag: c` at the call site.
  Status require(const std::string& tag, const BoolTerm& c, const Message& message);
  // Decides `p` under the facts (no obligation): true, false or unknown.
  std::optional<bool> query(const Pred& p);
  // The same, under a small budget: to pick the branch of a result size
  // that the obligations just emitted have settled (Discharger::settle).
  std::optional<bool> settle(const Pred& p);
  // A fresh symbol for something the rule cannot know (a result size).
  Dim fresh(const std::string& name, bool nonneg = true);
  bool any_refuted() const { return refuted_; }
  // Gives the advice `tag: message` when `certain` holds under the facts
  // (the solver proves it); otherwise nothing.
  void advise(const std::string& tag, const Pred& certain, const Message& message);
  const std::vector<Advice>& advice() const { return advice_; }
  // Names slot `slot` in what obligations say about their operands (a rule
  // whose operands are not its signature's, like an annotation's check).
  void set_role(int slot, std::string role) { roles_[slot] = std::move(role); }
  const std::vector<int>& obligation_ids() const { return emitted_; }

  // ---- OperandEnv: static values of accessors, by slot
  Dim size(int slot, int64_t d) override;
  Dim rank(int slot) override;
  Dim numel(int slot) override;
  Dim int_value(int slot) override;
  Dim len(int slot) override;
  Dim item(int slot, int64_t index) override;
  Dim attr(int slot, const std::string& name) override;

 private:
  Dim cached_fresh(const std::string& key, const std::string& display, bool nonneg);
  // `memo`: the sizes already named for the variable the operand is (a rule
  // reuses them and adds to them), or null.
  Dim static_size(const Value& v, const std::string& key, const std::string& role, int64_t d, UnknownShapeMemo* memo);
  Dim static_rank(const Value& v, const std::string& key, const std::string& role, UnknownShapeMemo* memo);
  static UnknownShapeMemo* memo_of(const Operand& op);
  Dim static_numel(const Value& v, const std::string& key, const std::string& role);
  Dim static_int(const Value& v, const std::string& key, const std::string& role);
  Dim static_len(const Value& v, const std::string& key, const std::string& role);
  void index_operand(const Operand& op, const std::string& role);
  std::string key_of(const Arg& a) const;
  // What a size invented for `a` is named after: the argument as written
  // when it is a name (Operand::text), else the rule's parameter.
  std::string shown_as(const Arg& a) const;

  std::string rule_name_;
  const CallSite& call_;
  Binding binding_;
  Discharger& solver_;
  std::vector<Obligation>& out_;
  std::map<int, const Operand*> by_slot_;
  std::map<int, std::string> roles_;
  std::unordered_map<std::string, Dim> fresh_;
  std::vector<int> emitted_;
  bool refuted_ = false;
  std::vector<Advice> advice_;
};

}  // namespace gshape::gradual
