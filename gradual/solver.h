// The Z3 discharge engine: one incremental solver per analysis unit.
//
// Facts (path conditions, asserts, earlier obligations, ranges) are tracked
// assertions, each with the SourceLoc that produced it, so an unsat core maps
// back to source lines. Scopes (push_scope/pop_scope) follow branches. Each
// query runs in its own push/pop with a resource limit (rlimit, not a
// wall-clock timeout: verdicts never depend on load); a Z3 `unknown` (limit,
// nonlinear arithmetic) makes an obligation deferred with the reason, never a
// crash. Obligations whose term simplifies to a constant skip Z3 entirely.
// Every size symbol is >= 0 (added automatically the first time it is seen).
// z3++.h is included only by solver.cpp.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "frontend/source.h"
#include "gradual/dim.h"
#include "gradual/discharger.h"
#include "gradual/obligation.h"

namespace gshape::gradual {

struct SolverOptions {
  // Z3 resource units per check (deterministic for a Z3 build; about 2-3
  // thousand a millisecond here): a check that needs more ends unknown.
  uint64_t rlimit = 500'000;
  bool witnesses = true;      // try concrete witnesses before Z3 (witness.h)
};

// Z3 checks of one outcome: how many, their time and resource units, and
// how the units spread (`check --verbose`): a check that ends unknown has
// spent its whole limit, the others show what a decision needs.
struct CheckProfile {
  uint64_t checks = 0;
  double seconds = 0;
  uint64_t units = 0;
  uint64_t max_units = 0;
  std::array<uint64_t, 5> by_units{};  // checks that spent < 100, < 1,000, < 10,000, < 100,000, more units
  void add(double secs, uint64_t spent);
  void merge(const CheckProfile& other);
};
struct Z3Profile {
  CheckProfile sat, unsat, unknown;
  CheckProfile cores;  // the second solver's checks for unsat cores (not in z3_checks nor z3_seconds)
  void merge(const Z3Profile& other);
};

struct SolverStats {
  uint64_t obligations = 0;          // discharged through discharge()
  uint64_t proven = 0, refuted = 0, deferred = 0;
  uint64_t decided_without_z3 = 0;   // obligations whose term was a constant
  uint64_t decided_by_witness = 0;   // deferred by concrete witnesses, no Z3 check
  uint64_t decided_by_normal_form = 0;  // proven by the normal form of its terms (normal_form.h), no Z3 check
  uint64_t z3_checks = 0;            // individual Z3 check() calls
  uint64_t z3_unknown = 0;           // checks that returned unknown (resource limit, nonlinear, ...)
  double z3_seconds = 0;             // total time inside check()
  uint64_t rlimit_units = 0;         // Z3's deterministic resource count spent in check()
  double max_check_seconds = 0;
  uint64_t cache_hits = 0;           // queries answered by an earlier identical one
  uint64_t proofs_skipped = 0;       // obligations only checked not to be refuted (set_proof_filter)
  Z3Profile profile;
  // Time inside check() and Z3 checks per file, as attributed by
  // Solver::attribute_to (the file of the statement the analysis executes).
  struct FileTime {
    double seconds = 0;
    uint64_t checks = 0;
  };
  std::unordered_map<const SourceFile*, FileTime> by_file;
};

// A proof's core, to be computed (or a decision, Obligation::skipped_facts):
// the facts the proof had (distinct conditions with their references and
// fact numbers), the goal it proved and the resource limit it had.
struct PendingCore {
  const TermNode* goal = nullptr;  // c, proven: the core is that of facts ∧ ¬c
  std::vector<const TermNode*> conditions;
  std::vector<FactRef> refs;
  std::vector<std::size_t> numbers;  // the facts' numbers then (Z3's names of their indicators)
  std::vector<const TermNode*> symbols;
  uint64_t rlimit = 0;
  // Proven by the normal form (normal_form.h): the goal holds for every
  // input, so where Z3 finds no core, the core is empty (not every fact).
  bool holds_alone = false;
  // Shared by the proofs of one query up to renaming (the verdict cache's
  // entry): the core, as positions in `conditions`, once one of them asked.
  struct Shared {
    bool known = false;
    std::vector<std::size_t> positions;
  };
  std::shared_ptr<Shared> shared;
};

// The outcome of deciding one condition under the current facts.
struct Verdict {
  Status status = Status::Deferred;
  std::string reason;                                    // deferred: why
  std::vector<std::pair<std::string, int64_t>> example;  // deferred: a failing assignment
  std::vector<FactRef> core;                             // refuted: facts used
  std::shared_ptr<const PendingCore> pending_core;       // proven by Z3: the facts used, to be computed
  bool without_z3 = false;
  bool by_witness = false;  // deferred because witnesses for c and for ¬c were found
  bool by_normal_form = false;  // proven by the normal form (normal_form.h), not by Z3
};

class Solver final : public Discharger {
 public:
  explicit Solver(SolverOptions options = {});
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  // Scoped facts: a branch pushes, adds its condition, pops at the join.
  void push_scope();
  void pop_scope();
  std::size_t scope_depth() const;
  // The conditions of the facts a scope added (branch conditions, and what
  // was checked since): facts outside every scope are never dropped. What
  // was proven under them holds again wherever assumes(them) (the
  // interpreter's memo of calls relies on this).
  std::vector<const TermNode*> scoped_facts() const;
  bool assumes(const std::vector<const TermNode*>& conditions) const;

  // Asserts `fact` (tracked: it can appear in unsat cores as `description`
  // at `loc`). A constant-true fact is dropped.
  void add_fact(const Pred& fact, const SourceLoc& loc, std::string description) override;
  // False when the facts are known to be contradictory (dead path).
  bool consistent();

  // Decides `c` under the facts without assuming it.
  Verdict decide(const Pred& c);
  // The sizes of `c` (ranks excepted) when `c` holds only if one of them is
  // 0 under the facts; empty otherwise (Obligation::zero_only).
  std::vector<std::string> sizes_it_needs_at_zero(const Pred& c);
  // Decides the obligation (fills status, reason, example, core), then, unless
  // it was refuted, assumes its constraint as a fact: the runtime check will
  // have enforced it, so later obligations are decided under it.
  void discharge(Obligation& ob) override;
  // Convenience for rules and the interpreter: true when `c` holds under the
  // facts, false when it cannot hold, nullopt otherwise.
  std::optional<bool> query(const Pred& c) override;
  // query under a small budget and without the verdict cache (a side
  // question: a result shape's condition, never an obligation's verdict).
  std::optional<bool> settle(const Pred& c) override;

  // Which obligations need a proof: for the others (`wanted` false: an
  // earlier analysis of the same site already defers the same check, so
  // whether this one is proven changes nothing printed) discharge checks
  // only that it is not refuted; the proof, most often a nonlinear query
  // that ends unknown after the whole resource limit, is skipped.
  void set_proof_filter(std::function<bool(const Obligation&)> wanted);
  // Decides an obligation whose proof was skipped, under the facts it had
  // then (Obligation::skipped_facts), as discharge would have.
  void resolve_skipped(Obligation& ob);

  // The unsat core of a proof (an obligation's pending_core): a check of its
  // own, so asked only for the obligations printed. Where Z3 finds none,
  // every fact the proof had.
  std::vector<FactRef> core_of(const PendingCore& pending);

  // The file Z3 time is counted for from now on (SolverStats::by_file);
  // returns the previous one.
  const SourceFile* attribute_to(const SourceFile* file);

  void set_rlimit(uint64_t units);
  const SolverStats& stats() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  // decide() into the obligation's fields (status, reason, example, core, zero_only)
  void decide_into(Obligation& ob);
};

}  // namespace gshape::gradual
