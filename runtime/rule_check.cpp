// Running an operator's rule on observed operands.
#include "runtime/rule_check.h"

#include <algorithm>
#include <exception>
#include <memory>
#include <set>

#include "gradual/annotation_pattern.h"
#include "gradual/concrete_discharger.h"

namespace gshape::runtime {

using gradual::Value;

Value to_value(const Observed& o) {
  switch (o.kind) {
    case ObservedKind::Tensor:
      return Value::tensor(gradual::Shape::of_constants(o.dims), o.contiguous, o.strides)
          .with_dtype(static_cast<gradual::Dtype>(o.dtype));
    case ObservedKind::Int: return Value::integer(gradual::Dim(o.value));
    case ObservedKind::Bool: return Value::boolean(gradual::Pred(o.value != 0));
    case ObservedKind::Float: return Value::floating(o.real);
    case ObservedKind::Str: return Value::string(o.text);
    case ObservedKind::None: return Value::none();
    case ObservedKind::Tuple:
    case ObservedKind::List:
    case ObservedKind::Size: {
      gradual::SequenceKind kind = o.kind == ObservedKind::List   ? gradual::SequenceKind::List
                                   : o.kind == ObservedKind::Size ? gradual::SequenceKind::Size
                                                                  : gradual::SequenceKind::Tuple;
      if (!o.items_kept) return Value::unknown_length(kind, Value::unknown());
      std::vector<Value> items;
      items.reserve(o.items.size());
      for (const Observed& i : o.items) items.push_back(to_value(i));
      return Value::sequence(kind, std::move(items));
    }
    case ObservedKind::Module: {
      const Observed& m = o.module ? *o.module : o;
      auto obj = std::make_shared<gradual::ObjectValue>(m.text);
      for (std::size_t i = 0; i < m.items.size() && i < m.names.size(); ++i)
        obj->attributes[m.names[i]] = to_value(m.items[i]);
      return Value::object(std::move(obj));
    }
    case ObservedKind::Other:
      if (o.text == "slice" || o.text == "ellipsis") {
        auto obj = std::make_shared<gradual::ObjectValue>("builtins." + o.text);
        if (o.items.size() == 3) {
          obj->attributes["start"] = to_value(o.items[0]);
          obj->attributes["stop"] = to_value(o.items[1]);
          obj->attributes["step"] = to_value(o.items[2]);
        }
        return Value::object(std::move(obj));
      }
      return Value::unknown();
    case ObservedKind::Dict:
    case ObservedKind::Unset: return Value::unknown();
  }
  return Value::unknown();
}

namespace {

// The operands a failed obligation read, as `input shape [4, 400]`, leaving
// out those whose shape the message already prints.
std::string describe_operands(const gradual::Obligation& ob, const std::vector<const Observed*>& by_slot) {
  std::vector<int> shown = ob.message.shape_slots();
  std::string out;
  for (const gradual::SlotInfo& s : ob.slots) {
    if (s.slot < 0 || static_cast<std::size_t>(s.slot) >= by_slot.size() || !by_slot[s.slot]) continue;
    if (std::find(shown.begin(), shown.end(), s.slot) != shown.end()) continue;
    const Observed& o = *by_slot[s.slot];
    if (o.kind == ObservedKind::Module) continue;  // the message names the module and its sizes
    std::string name = s.description.empty() ? "operand " + std::to_string(s.slot) : s.description;
    out += (out.empty() ? "" : ", ") + name + " " + o.describe();
  }
  return out;
}

}  // namespace

RuleRun run_rule(const gradual::Rule& rule, const Observed* receiver, int receiver_slot,
                 const std::vector<ArgSpec>& args, const std::vector<Observed>& slots) {
  RuleRun run;
  try {
    gradual::CallSite call;
    call.name = rule.name;
    bool annotation = gradual::is_annotation_rule(rule.name);
    std::vector<const Observed*> by_slot(std::max<std::size_t>(slots.size(), receiver_slot + 1), nullptr);
    if (receiver) {
      call.positional.emplace_back(to_value(*receiver), receiver_slot);
      by_slot[receiver_slot] = receiver;
    }
    for (std::size_t k = 0; k < args.size() && k < slots.size(); ++k) {
      const Observed& o = slots[k];
      int slot = static_cast<int>(k);
      switch (args[k].kind) {
        case ArgSpec::Kind::Callee: break;
        case ArgSpec::Kind::Positional:
          // an annotation admits tensors only: an object no rule knows (a
          // NumPy array) is that object there, not an unknown value
          if (annotation && (o.kind == ObservedKind::Other || o.kind == ObservedKind::Dict))
            call.positional.emplace_back(
                Value::object(std::make_shared<gradual::ObjectValue>(o.kind == ObservedKind::Dict ? "dict" : o.text.empty() ? "object" : o.text)), slot);
          else
            call.positional.emplace_back(to_value(o), slot);
          by_slot[k] = &o;
          break;
        case ArgSpec::Kind::Keyword:
          call.keywords.emplace_back(args[k].keyword, gradual::Operand(to_value(o), slot));
          by_slot[k] = &o;
          break;
        case ArgSpec::Kind::Star:
          if (!o.is_sequence() || !o.items_kept) {
            run.note = "a *argument whose items were not recorded";
            return run;
          }
          for (const Observed& item : o.items) call.positional.emplace_back(to_value(item), -1);
          break;
        case ArgSpec::Kind::DoubleStar:
          if (o.kind != ObservedKind::Dict || !o.items_kept) {
            run.note = "a **argument whose items were not recorded";
            return run;
          }
          for (std::size_t i = 0; i < o.items.size() && i < o.names.size(); ++i)
            call.keywords.emplace_back(o.names[i], gradual::Operand(to_value(o.items[i]), -1));
          break;
      }
    }
    gradual::ConcreteDischarger discharger;
    std::vector<gradual::Obligation> obligations;
    gradual::RuleResult result = gradual::apply_rule(rule, call, discharger, obligations);
    bool undecided = false;
    for (const gradual::Obligation& ob : obligations) {
      if (ob.status == gradual::Status::Refuted) {
        run.failures.push_back(
            {ob.tag, ob.render_message(), ob.constraint_sexpr(), describe_operands(ob, by_slot)});
      } else if (ob.status == gradual::Status::Deferred) {
        undecided = true;
      }
    }
    if (!run.failures.empty()) {
      run.verdict = RuleRun::Verdict::Failed;
    } else if (!result.modelled) {
      run.note = result.note;
    } else if (undecided) {
      run.note = "a condition depends on a size the rule cannot know";
    } else {
      run.verdict = RuleRun::Verdict::Passed;
    }
  } catch (const std::exception& e) {
    run = RuleRun{};
    run.note = e.what();
  }
  return run;
}

}  // namespace gshape::runtime
