// A module's check table: for each site (one instrumented operation), its
// checks, the operand slots the checks read, and per-check counters. Pure
// C++ (no Python, no libtorch): native_module.cpp feeds it operands.
//
// Evaluation of a site, once all its operands are recorded:
//  1. Slots recorded by another activation (a recursive call, another
//     thread) or not at all this time are treated as empty, so a check
//     never mixes operands of two different executions.
//  2. A check whose constraint reads a slot that does not hold the kind of
//     value it needs (no tensor where (size K D) is read, no int where
//     (int K) is read ...) is not evaluable: the analysis guessed wrong
//     about this operation, so it cannot conclude anything. Counted skipped.
//  3. Otherwise the constraint is evaluated with three-valued logic
//     (constraint.h): true passes, false fails, not evaluable is skipped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/constraint.h"
#include "runtime/message_template.h"
#include "runtime/operand.h"

namespace gshape::runtime {

// One check as the rewriter describes it.
struct CheckSpec {
  int64_t line = 0;
  int64_t col = 0;
  std::string tag;
  std::string constraint;
  std::string message;
  // Per slot, the name to show after a failure's message (nullopt: do not
  // show that slot). Absent: show every slot the constraint reads as
  // "operand K".
  std::optional<std::vector<std::optional<std::string>>> slot_names;
};

struct CheckCounters {
  uint64_t runs = 0;      // times the check was reached
  uint64_t failures = 0;  // of those, times the constraint was false
  uint64_t skipped = 0;   // of those, times it was not evaluable
};

// A check compiled from its CheckSpec.
struct Check {
  std::size_t site = 0;
  std::size_t index_in_site = 0;
  CheckSpec spec;
  Expr constraint;
  MessageTemplate message;
  CheckCounters counters;
};

// A malformed check table (its message names path:line:col).
class CheckTableError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class CheckTable {
 public:
  // Parses every constraint and message; throws CheckTableError.
  CheckTable(std::string path, std::vector<std::vector<CheckSpec>> sites);

  const std::string& path() const { return path_; }
  std::size_t site_count() const { return sites_.size(); }
  std::size_t check_count() const { return checks_.size(); }
  const Check& check(std::size_t i) const { return checks_[i]; }

  // Where to record operand `slot` of `site` (site < site_count()); nullptr
  // when no check of the site reads that slot.
  Operand* slot(std::size_t site, std::size_t slot) {
    std::vector<Operand>& slots = sites_[site].slots;
    return slot < slots.size() ? &slots[slot] : nullptr;
  }

  // Evaluates every check of `site` for the activation `frame`, updates the
  // counters, and puts the table-wide indices of the failing checks, in
  // order, into `failed`. The recorded operands stay until clear().
  void evaluate(std::size_t site, const void* frame, std::vector<std::size_t>& failed);
  // `path:line:col: [tag] message (input shape [64, 120], ...)` for a check
  // that just failed, from the operands still recorded.
  std::string failure_message(std::size_t check_index) const;
  // The text of the message alone, holes filled.
  std::string filled_message(std::size_t check_index) const;
  // Forgets the recorded operands of `site`.
  void clear(std::size_t site);

 private:
  struct Site {
    std::size_t first_check = 0;
    std::size_t check_count = 0;
    std::vector<Operand> slots;
  };
  bool readable(const Check& c, const std::vector<Operand>& slots) const;

  std::string path_;
  std::vector<Site> sites_;
  std::vector<Check> checks_;
};

}  // namespace gshape::runtime
