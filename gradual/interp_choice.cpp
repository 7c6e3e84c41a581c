// Values that are one of a few objects (ChoiceObject, made where control flow
// joins two different objects): a call, an attribute read, a truth test or an
// `is None` applies to each alternative, under the branch condition that
// selects it when that is known, and the results are joined.
#include "gradual/interp.h"

namespace gshape::gradual::interp {

Value Interpreter::over_choice(const ChoiceObject& choice, const std::function<Value(const Value&)>& apply,
                               const std::string& path) {
  const std::vector<Value>& alts = choice.alternatives;
  // a None alternative is left out: calling it or reading from it raises
  std::vector<Value> results;
  std::vector<bool> first_side;
  for (std::size_t i = 0; i < alts.size(); ++i) {
    if (alts[i].is_none()) continue;
    // each alternative in its own scope: what one checks is not a fact for the other
    SolverScope scope(*solver_);
    if (choice.condition && alts.size() == 2)
      add_fact(i == 0 ? *choice.condition : !*choice.condition, {}, "the alternative taken");
    results.push_back(apply(alts[i]));
    first_side.push_back(i == 0);
  }
  if (results.empty()) return Value::unknown();
  if (results.size() == 2 && choice.condition) {
    JoinOptions join;
    join.condition = *choice.condition;
    join.proves = [this](const Pred& q) { return solver_->settle(q) == true; };
    return join_values(results[0], results[1], join, path);
  }
  Value out = results.front();
  for (std::size_t i = 1; i < results.size(); ++i) out = join_values(out, results[i], {}, path);
  return out;
}

std::optional<Pred> Interpreter::choice_truth(const ChoiceObject& choice) {
  std::vector<Pred> truths;
  for (const Value& alt : choice.alternatives) {
    std::optional<Pred> t = truth(alt);
    if (!t || !t->is_constant()) return std::nullopt;
    truths.push_back(*t);
  }
  bool all_same = true;
  for (const Pred& t : truths) all_same = all_same && t == truths.front();
  if (all_same) return truths.front();
  if (choice.condition && truths.size() == 2) return truths[0].is_true() ? *choice.condition : !*choice.condition;
  return std::nullopt;
}

std::optional<Pred> Interpreter::choice_is_none(const ChoiceObject& choice) {
  if (!choice.has_none()) return Pred(false);
  if (choice.condition && choice.alternatives.size() == 2)
    return choice.alternatives[0].is_none() ? *choice.condition : !*choice.condition;
  return std::nullopt;
}

}  // namespace gshape::gradual::interp
