// Internal to the nn rules (rules_nn_*.cpp): module objects and their
// hyperparameters, the int-or-tuple arguments of construction (`_pair`),
// and message pieces the families share.
//
// A construction rule (`torch.nn.Conv2d`) checks what Python's constructor
// checks and returns an ObjectValue whose attributes are the hyperparameters
// (ints as Int values, per-axis ones as tuples, flags as Bools, strings as
// Strs) and the parameter tensors (`weight`, `bias`). The forward rule
// (`torch.nn.Conv2d.forward`, the module in slot 0) reads them back: a
// constant is a literal in the constraint, a symbolic int attribute is
// `(attr 0 name)` (read from the module at run time), a symbolic item of a
// tuple attribute is known statically only.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gradual/rules.h"

namespace gshape::gradual {

// ---- construction

// A new module object of class `cls` ("torch.nn.Conv2d").
std::shared_ptr<ObjectValue> new_module(const std::string& cls);

// Python's `_single/_pair/_triple`: an int repeated n times, or a sequence of
// exactly n ints; each as a term over the call's operands. An unknown value
// gives n fresh (static-only) symbols; a sequence of another length, or a
// value that is neither, is not modelled.
std::vector<IntTerm> int_tuple(RuleContext& ctx, const Arg& a, std::size_t n);
// The attribute value of a per-axis hyperparameter: a tuple of Ints.
Value tuple_value(const std::vector<IntTerm>& terms);
// A float argument when it is a constant (int or float), else nullopt.
std::optional<double> float_constant(const Arg& a);
// A string argument when it is a constant, else nullopt.
std::optional<std::string> str_constant(const Arg& a);

// ---- forward: reading the module in `module`

// The attribute of the module object, or nullptr.
const Value* module_field(const Arg& module, const std::string& name);
// An int hyperparameter: a literal when constant, `(attr K name)` when the
// module has a slot, else known statically only.
IntTerm module_int(RuleContext& ctx, const Arg& module, const std::string& name);
// Training mode: a constant when the program's module says so, else read at
// run time (the analysis does not follow model.train()/eval()).
BoolTerm training_of(RuleContext& ctx, const Arg& module);
// F.dropout1d / nn.Dropout1d: `dropout1d_c1`, a 2-D or 3-D input.
void require_dropout1d_rank(RuleContext& ctx, const Arg& input);
// Feature dropout (F.dropout2d/3d, feature_alpha_dropout, nn.Dropout2d/3d):
// `feature_dropout_c1`, at least `min_rank` dimensions when `training`.
void require_feature_dropout_rank(RuleContext& ctx, const Arg& input, int min_rank, const BoolTerm& training);
// A per-axis hyperparameter stored as a tuple: literal items, or items
// known statically only. Not modelled when the attribute is not a tuple.
std::vector<IntTerm> module_ints(const Arg& module, const std::string& name);
// A flag (batch_first, ceil_mode) that must be constant to know the result.
bool module_flag(const Arg& module, const std::string& name);
// A constant string attribute (mode, reduction), or nullopt.
std::optional<std::string> module_str(const Arg& module, const std::string& name);
// The module object itself; not modelled when the value is not an object.
const ObjectValue& module_object(const Arg& module);

// A condition the solver decides under the facts (true/false literal), or
// the condition itself when it cannot: lets results fold after checks
// (after conv2d_c2 assumed channels == 4, "channels == 0" is false).
BoolTerm settle(RuleContext& ctx, const BoolTerm& c);

// ---- messages

// `(a, b)` (one item: `a`) inside a message.
void append_tuple(Message& m, const std::vector<IntTerm>& terms);
// A float as Python prints it: `1.5`, `0.1`, `2.0`.
std::string float_text(double v);
// `a x b` (PyTorch's way of printing per-axis sizes).
void append_by(Message& m, const std::vector<IntTerm>& terms);

// ---- reductions of losses

// The reduction of a loss: 'none' | 'mean' | 'sum' (and 'batchmean' for
// kl_div), from `reduction` or, when either legacy flag is given, from
// size_average/reduce as Python's _Reduction does. `reduction_c1`: the
// string is one of those. Not modelled when it is not a constant.
std::string loss_reduction(RuleContext& ctx, const Arg& reduction, const Arg& size_average, const Arg& reduce,
                           bool batchmean_ok = false);

}  // namespace gshape::gradual
