// A module's check table: its instrumented sites, the operands recorded for
// each, a verdict cache, and per-site counters. Plain C++ (no Python):
// native_module.cpp records operands into it and asks it to evaluate a site.
//
// Evaluating a site runs its rule (rule_check.h) on the recorded operands.
// Operands recorded by another activation (a recursive call between stash
// and check, another thread) count as not recorded, so a check never mixes
// two executions. A rule's verdict depends only on the operands' summaries,
// so the verdict of a summary seen before is taken from the cache: in a
// training loop, where the same shapes come back at every step, a check
// costs the recording and one hash lookup.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "runtime/rule_check.h"

namespace gshape::runtime {

// One site as the rewriter describes it.
struct SiteSpec {
  int64_t line = 0;  // where failures point (1-based; col in code points)
  int64_t col = 0;
  std::string rule;  // the rule's qualified name; empty: the callee (a Callee slot) decides
  std::vector<ArgSpec> args;  // one per slot
};

struct SiteCounters {
  uint64_t runs = 0;      // evaluations of the site
  uint64_t failures = 0;  // of those, evaluations that raised
  uint64_t skipped = 0;   // of those, evaluations no rule could decide
  uint64_t no_rule = 0;   // of those, evaluations whose callee has no rule
  uint64_t cached = 0;    // of those, verdicts taken from the cache
  std::map<std::string, uint64_t> failed_tags;  // tag → failures
  std::map<const gradual::Rule*, uint64_t> rules;  // rule that ran → evaluations
};

// A malformed table (its message names path and site).
class SiteTableError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

class SiteTable {
 public:
  // Resolves every named rule; throws SiteTableError for an unknown one or a
  // site without operands.
  SiteTable(std::string path, std::vector<SiteSpec> sites);

  const std::string& path() const { return path_; }
  std::size_t site_count() const { return sites_.size(); }
  const SiteSpec& spec(std::size_t site) const { return sites_[site].spec; }
  const SiteCounters& counters(std::size_t site) const { return sites_[site].counters; }
  // N for an unpacking into N names (`operator.unpackN`), else 0.
  std::size_t unpack_count(std::size_t site) const { return sites_[site].unpack_count; }

  // Where operand `slot` of `site` goes, stamped with the recording
  // activation; nullptr for a slot the site does not have.
  Observed* record(std::size_t site, std::size_t slot, const void* frame);
  // The slot's kind (Callee ...), or nullptr.
  const ArgSpec* arg(std::size_t site, std::size_t slot) const;
  // For a Callee slot: the rule the callee resolved to (nullptr: none) and
  // whether the slot's summary is a receiver (a module, a method's tensor).
  void set_callee(std::size_t site, const gradual::Rule* rule, bool receiver);

  // Evaluates `site` for the activation `frame`; the result stays valid until
  // the next evaluation of any site. Forgets the recorded operands.
  const RuleRun& evaluate(std::size_t site, const void* frame);

 private:
  struct Site {
    SiteSpec spec;
    const gradual::Rule* rule = nullptr;  // the named rule
    bool is_operator = false;             // a Python operator: checked only when a tensor takes part
    bool sequence_operand = false;        // ... or its first operand is a torch.Size or holds tensors
    std::size_t unpack_count = 0;         // operator.unpackN: N
    std::vector<Observed> slots;
    std::vector<const void*> frames;
    const gradual::Rule* callee_rule = nullptr;
    bool callee_receiver = false;
    int callee_slot = -1;
    std::unordered_map<std::string, RuleRun> cache;
    SiteCounters counters;
  };

  std::string path_;
  std::vector<Site> sites_;
  std::string key_;  // scratch, reused
  RuleRun scratch_;
};

}  // namespace gshape::runtime
