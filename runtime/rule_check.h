// The run-time check of one site: the operator's own rule (gradual/rules_*),
// run on the operands' actual sizes. The analysis runs the same rule on
// abstract operands, so a run-time check is exactly the operator's
// precondition on the values at hand — never a formula specialised to the
// contexts the analysis saw — and a failure's message is computed from the
// values that failed. Plain C++ (no Python): python_observe.h supplies the
// operands.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "gradual/rule_registry.h"
#include "runtime/observed.h"

namespace gshape::runtime {

// How one operand slot of a site is passed to the call.
struct ArgSpec {
  enum class Kind : uint8_t {
    Callee,      // the called object itself (resolved to a rule at run time)
    Positional,
    Keyword,     // `keyword=value`
    Star,        // `*value`
    DoubleStar,  // `**value`
  };
  Kind kind = Kind::Positional;
  std::string keyword;
};

struct Failure {
  std::string tag;         // "linear_c1"
  std::string message;     // with the actual sizes
  std::string constraint;  // the constraint as an s-expression
  std::string operands;    // "input shape [4, 400]": the operands it read
};

struct RuleRun {
  enum class Verdict : uint8_t {
    Passed,   // every obligation holds
    Failed,   // an obligation is violated: `failures`
    Skipped,  // the rule could not decide (a form it does not model, a value
              // of a kind it does not know): nothing is concluded
  };
  Verdict verdict = Verdict::Skipped;
  std::vector<Failure> failures;
  std::string note;  // Skipped: why
};

// Runs `rule` with `receiver` (a forward's module or a method's tensor; null
// when there is none) as its first positional argument, then the site's
// arguments: slot k holds the operand passed as args[k] (a Callee slot is not
// an argument). Slot numbers in messages are these k; `receiver_slot` is the
// receiver's. Never throws.
RuleRun run_rule(const gradual::Rule& rule, const Observed* receiver, int receiver_slot,
                 const std::vector<ArgSpec>& args, const std::vector<Observed>& slots);

// The analysis' value for an observed operand (constants everywhere).
gradual::Value to_value(const Observed& o);

}  // namespace gshape::runtime
