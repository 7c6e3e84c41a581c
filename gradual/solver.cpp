// Z3 discharge: term translation (floor division semantics), scoped facts,
// a one-shot solver per query holding the facts connected to its goal,
// verdicts cached up to renaming of symbols, unsat cores and models.
#include "gradual/solver.h"

#include <memory>

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <functional>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <utility>

#include "gradual/normal_form.h"
#include "gradual/witness.h"

namespace gshape::gradual {

namespace {
struct FactRecord {
  FactRef ref;
  std::size_t depth;
  const TermNode* condition;
  std::vector<const TermNode*> symbols;
};

// A decided query, up to the renaming of its symbols: the goal and the
// conditions of the facts connected to it, written out node by node with
// each symbol numbered by first occurrence (and its name and sign kept, so
// messages read the same). Its verdict depends on nothing else, so a
// function analysed again in another context with fresh sizes of the same
// form asks Z3 once.
class CanonicalQuery {
 public:
  std::string key;
  void add_root(const TermNode* n) {
    key += 'R';
    put(number(n));
  }

 private:
  // node → its number: open addressing on the node's hash, linear probing
  // (built for every decision, most of them answered by the cache; a
  // node-based map cost an allocation per node)
  struct Slot {
    const TermNode* node = nullptr;
    std::size_t number = 0;
  };
  std::vector<Slot> slots_ = std::vector<Slot>(64);
  std::size_t count_ = 0;

  std::size_t home(const TermNode* n) const { return (n->hash * 0x9E3779B97F4A7C15ull >> 20) & (slots_.size() - 1); }
  Slot* find_slot(const TermNode* n) {
    for (std::size_t i = home(n);; i = (i + 1) & (slots_.size() - 1))
      if (!slots_[i].node || slots_[i].node == n) return &slots_[i];
  }
  void remember(const TermNode* n, std::size_t k) {
    if ((count_ + 1) * 2 > slots_.size()) {
      std::vector<Slot> old(slots_.size() * 2);
      old.swap(slots_);
      for (const Slot& s : old)
        if (s.node) *find_slot(s.node) = s;
    }
    *find_slot(n) = {n, k};
    ++count_;
  }

  // bytes, not text: a query's key is built for every decision, most of
  // them answered by the cache
  void put(uint64_t x) {
    for (; x >= 0x80; x >>= 7) key += static_cast<char>(0x80 | (x & 0x7f));
    key += static_cast<char>(x);
  }
  std::size_t number(const TermNode* n) {
    if (Slot* s = find_slot(n); s->node) return s->number;
    // the arguments' numbers (numbering them writes their own entries first)
    constexpr std::size_t kInline = 8;
    std::size_t inline_args[kInline];
    std::vector<std::size_t> many;
    std::size_t* args = inline_args;
    if (n->args.size() > kInline) {
      many.resize(n->args.size());
      args = many.data();
    }
    for (std::size_t i = 0; i < n->args.size(); ++i) args[i] = number(n->args[i]);
    put(static_cast<uint64_t>(n->op));
    if (n->op == TermOp::Symbol) {
      key += n->nonneg ? '+' : '-';
      key += Dim(n).symbol_name();
      key += '\0';
    } else {
      put(static_cast<uint64_t>(n->value));
    }
    put(n->args.size());
    for (std::size_t i = 0; i < n->args.size(); ++i) put(args[i]);
    std::size_t k = count_;
    remember(n, k);
    return k;
  }
};

// The verdict with its core as positions in the query's list of distinct
// fact conditions (mapped back to the facts in that place at the next hit).
struct CachedVerdict {
  Verdict verdict;
  std::vector<std::size_t> core;
  std::shared_ptr<PendingCore::Shared> proof_core = std::make_shared<PendingCore::Shared>();  // once computed
};

// Creation order, not addresses: what Z3 is given (and so its verdict near
// the resource limit) must not depend on where the allocator put a node.
void sort_by_id(std::vector<const TermNode*>& nodes) {
  std::sort(nodes.begin(), nodes.end(), [](const TermNode* a, const TermNode* b) { return a->id < b->id; });
}
}  // namespace

void CheckProfile::add(double secs, uint64_t spent) {
  ++checks;
  seconds += secs;
  units += spent;
  max_units = std::max(max_units, spent);
  std::size_t bucket = 0;
  for (uint64_t bound = 100; bucket + 1 < by_units.size() && spent >= bound; bound *= 10) ++bucket;
  ++by_units[bucket];
}

void CheckProfile::merge(const CheckProfile& other) {
  checks += other.checks;
  seconds += other.seconds;
  units += other.units;
  max_units = std::max(max_units, other.max_units);
  for (std::size_t i = 0; i < by_units.size(); ++i) by_units[i] += other.by_units[i];
}

void Z3Profile::merge(const Z3Profile& other) {
  sat.merge(other.sat);
  unsat.merge(other.unsat);
  unknown.merge(other.unknown);
  cores.merge(other.cores);
}

// Evaluations of a condition for the witness search that starts from the
// latest witnesses' values (the first search, from 1, has 400): it runs
// only when that one found nothing, mostly for queries Z3 proves at once,
// so a larger budget pays only up to here (vit-pytorch: 400 → 1,200 spares
// 27 checks that end unknown at no cost on pytorch-cifar's easy proofs;
// 3,000 costs those 8%).
constexpr unsigned kSeededBudget = 1'200;

// The per-query limit from which the normal form is asked before Z3 (the
// called contexts' 500,000; not the 50,000 and 5,000 of a unit that has
// spent its share, nor the 15,000 of functions nobody calls).
constexpr uint64_t kNormalFormFirstRlimit = 100'000;
// The core of a proof by the normal form is asked of Z3 with this limit (a
// core of a query Z3 proves takes well under it: at most 17,000 units on
// the fetched projects); where Z3 finds none within it, the core is empty,
// since the goal holds for every input (a proof Z3 could not make cost its
// core check the whole limit, 500,000 units, to learn nothing).
constexpr uint64_t kNormalFormCoreRlimit = 50'000;

struct Solver::Impl {
  explicit Impl(SolverOptions opts) : options(opts) {}

  SolverOptions options;
  // Z3 is created on the first query that needs it: most runs (a file
  // without tensor code, obligations decided by simplification or
  // witnesses) never do, and creating a context costs more than the rest
  // of a small check.
  std::unique_ptr<z3::context> z3_;
  z3::context& ctx() {
    if (!z3_) z3_ = std::make_unique<z3::context>();
    return *z3_;
  }
  SolverStats stats;
  std::size_t depth = 0;
  const SourceFile* attributed = nullptr;  // the file Z3 time is counted for
  std::unordered_map<const TermNode*, z3::expr> cache;
  std::unordered_map<const TermNode*, std::size_t> symbol_numbers;  // Z3 names of size symbols
  std::vector<FactRecord> facts;  // index == the number in the indicator name; depths ascend
  std::unordered_map<const TermNode*, int> assumed;  // condition → how many facts assert it now
  std::unordered_map<const TermNode*, std::vector<std::size_t>> facts_of_symbol;  // the facts naming it, by number
  std::vector<std::size_t> symbol_free_facts;  // facts without symbols, by number
  std::unordered_map<std::string, CachedVerdict> verdicts;
  std::unordered_map<std::string, bool> side_answers;  // proves(): resource limit and query → proven
  std::function<bool(const Obligation&)> proof_wanted;
  // The values of the latest witnesses, symbol by symbol: a witness of
  // facts ∧ c satisfies the facts once c is assumed, so the search for the
  // next query's witness of facts ∧ c' may start there (witness_of).
  std::unordered_map<const TermNode*, int64_t> last_values;
  // Whether `conditions` (facts ∧ c, c first) have a witness: the plain search, then
  // one from the latest witnesses' values, which finds what the facts make
  // hard to reach from 1 (a chain of nonlinear equalities).
  bool has_witness(const std::vector<const TermNode*>& conditions) {
    std::optional<Assignment> w = find_witness(conditions);
    if (!w && !last_values.empty()) w = find_witness(conditions, kSeededBudget, &last_values);
    if (w)
      for (const auto& [node, value] : *w) last_values[node] = value;
    return w.has_value();
  }

  z3::expr indicator(std::size_t fact) {
    std::string name = "fact!" + std::to_string(fact);
    return ctx().bool_const(name.c_str());
  }

  uint64_t last_rlimit = 0;
  // The resource units a solver spent (deterministic for a Z3 build).
  static uint64_t rlimit_count(z3::solver& solver) {
    z3::stats st = solver.statistics();
    for (unsigned i = 0; i < st.size(); ++i)
      if (st.key(i) == "rlimit count") return st.is_uint(i) ? st.uint_value(i) : static_cast<uint64_t>(st.double_value(i));
    return 0;
  }

  // A resource limit per check (Z3's deterministic step count), so a
  // verdict never depends on the machine's load. No wall-clock timeout, not
  // even as a safety net far above what the limit allows: Z3 arms a timer
  // thread for every check that has one, which cost more than the check
  // itself on most of our (small) queries.
  void apply_limits(z3::solver& solver) {
    z3::params p(ctx());
    p.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(options.rlimit, 0xffffffffu)));
    solver.set(p);
  }

  // Python floor division: SMT-LIB `div` floors for a positive divisor; for a
  // negative one floor(a/b) == floor(-a/-b).
  // A divisor that cannot be negative (sizes, their sums and products)
  // needs no case split: for 0 both forms are undefined in Python, and the
  // ite made most nonlinear queries unknown.
  z3::expr floor_div(const z3::expr& a, const z3::expr& b, const TermNode* divisor) {
    if (divisor->op == TermOp::Const && divisor->value < 0) return (-a) / (-b);
    if (divisor->nonneg) return a / b;
    return z3::ite(b > 0, a / b, (-a) / (-b));
  }

  // Terms a Z3 check would have translated when the normal form decided
  // its query instead, translated before the next term: Z3 names symbols
  // and numbers terms in the order they are first translated, and what a
  // later check spends depends on that order.
  std::vector<const TermNode*> deferred_translations;
  void flush_deferred_translations() {
    std::vector<const TermNode*> pending;
    pending.swap(deferred_translations);
    for (const TermNode* n : pending) (void)translate(n);
  }

  z3::expr translate(const TermNode* n) {
    if (!deferred_translations.empty()) flush_deferred_translations();
    auto it = cache.find(n);
    if (it != cache.end()) return it->second;
    z3::expr e = translate_uncached(n);
    cache.emplace(n, e);
    return e;
  }

  z3::expr translate_uncached(const TermNode* n) {
    auto arg = [&](std::size_t i) { return translate(n->args[i]); };
    switch (n->op) {
      case TermOp::Const: return ctx().int_val(static_cast<int64_t>(n->value));
      case TermOp::Symbol: {
        // numbered in this solver's order of first use, not by the symbol's
        // process-wide number: the same query gets the same Z3 names (and so
        // the same models and cores) whatever was analysed before it
        auto [number, fresh] = symbol_numbers.emplace(n, symbol_numbers.size());
        std::string name = Dim(n).symbol_name() + "!" + std::to_string(number->second);
        return ctx().int_const(name.c_str());
      }
      case TermOp::Add: {
        z3::expr s = ctx().int_val(static_cast<int64_t>(n->value));
        for (std::size_t i = 0; i < n->args.size(); ++i) s = s + arg(i);
        return s;
      }
      case TermOp::Mul: {
        z3::expr p = arg(0);
        for (std::size_t i = 1; i < n->args.size(); ++i) p = p * arg(i);
        if (n->value != 1) p = ctx().int_val(static_cast<int64_t>(n->value)) * p;
        return p;
      }
      case TermOp::FloorDiv: return floor_div(arg(0), arg(1), n->args[1]);
      case TermOp::Mod: {
        const TermNode* divisor = n->args[1];
        if (divisor->nonneg) return z3::mod(arg(0), arg(1));
        z3::expr a = arg(0), b = arg(1);
        return a - b * floor_div(a, b, divisor);
      }
      case TermOp::Min: return z3::ite(arg(0) <= arg(1), arg(0), arg(1));
      case TermOp::Max: return z3::ite(arg(0) >= arg(1), arg(0), arg(1));
      case TermOp::Ite: return z3::ite(arg(0), arg(1), arg(2));
      case TermOp::BoolConst: return ctx().bool_val(n->value != 0);
      case TermOp::Eq: return arg(0) == arg(1);
      case TermOp::Lt: return arg(0) < arg(1);
      case TermOp::Le: return arg(0) <= arg(1);
      case TermOp::Not: return !arg(0);
      case TermOp::And:
      case TermOp::Or: {
        z3::expr_vector v(ctx());
        for (std::size_t i = 0; i < n->args.size(); ++i) v.push_back(arg(i));
        return n->op == TermOp::And ? z3::mk_and(v) : z3::mk_or(v);
      }
    }
    return ctx().bool_val(true);
  }

  struct CheckResult {
    z3::check_result result;
    std::string reason_unknown;
  };
  // refutation_only(): query and limit → whether facts ∧ c was satisfiable
  // (a witness counts as sat), for the decision that may follow
  std::unordered_map<std::string, CheckResult> refutable;

  // One check of the facts numbered `assumed` ∧ `extra` (whose symbols are
  // `symbols`), in a solver of its own holding only them. Z3's incremental
  // solver (push/pop over every fact of the analysis) slows down as the
  // analysis goes on, by ten times and more per resource unit on a large
  // project; a one-shot solver that first solves equations away (most
  // facts are `a == b*c`) decides the same queries faster. Its cost to
  // create is well under a millisecond, and the verdict cache keeps the
  // number of checks small.
  z3::solver one_shot_solver() {
    z3::context& c = ctx();
    z3::solver solver = (z3::tactic(c, "simplify") & z3::tactic(c, "propagate-values") & z3::tactic(c, "solve-eqs") &
                         z3::tactic(c, "simplify") & z3::tactic(c, "smt"))
                            .mk_solver();
    apply_limits(solver);
    return solver;
  }

  template <class OnResult>
  CheckResult check_with(const z3::expr& extra, const std::vector<const TermNode*>& symbols,
                         const std::vector<std::size_t>& assumed, OnResult&& on_result) {
    CheckResult r{z3::unknown, {}};
    try {
      z3::solver solver = one_shot_solver();
      add_axioms(solver, symbols);
      for (std::size_t i : assumed) solver.add(translate(facts[i].condition));
      solver.add(extra);
      auto start = std::chrono::steady_clock::now();
      r.result = solver.check();
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      uint64_t spent = count_units(solver);
      (r.result == z3::sat ? stats.profile.sat : r.result == z3::unsat ? stats.profile.unsat : stats.profile.unknown)
          .add(secs, spent);
      ++stats.z3_checks;
      stats.z3_seconds += secs;
      SolverStats::FileTime& file = stats.by_file[attributed];
      file.seconds += secs;
      ++file.checks;
      if (secs > stats.max_check_seconds) stats.max_check_seconds = secs;
      if (r.result == z3::unknown) {
        ++stats.z3_unknown;
        r.reason_unknown = solver.reason_unknown();
      }
      on_result(solver, r.result);
    } catch (const z3::exception& e) {
      r.result = z3::unknown;
      r.reason_unknown = std::string("solver error: ") + e.msg();
    }
    return r;
  }

  void add_axioms(z3::solver& solver, const std::vector<const TermNode*>& symbols) {
    for (const TermNode* s : symbols)
      if (Dim(s).nonneg()) solver.add(translate(s) >= 0);
  }

  // The units the check just made spent (and counts them).
  uint64_t count_units(z3::solver& solver) {
    uint64_t units = rlimit_count(solver);  // the context's counter
    uint64_t spent = units - last_rlimit;
    stats.rlimit_units += spent;
    last_rlimit = units;
    return spent;
  }

  // The facts among `assumed` that an unsat check of `extra` needs (an
  // unsat core): asked of Z3's plain solver with one indicator per fact,
  // after the one-shot solver found the check unsat. Cores only explain a
  // verdict, so where Z3 cannot find one, every fact is named.
  std::vector<std::size_t> core_of(const z3::expr& extra, const std::vector<const TermNode*>& symbols,
                                   const std::vector<std::size_t>& assumed) {
    std::vector<const TermNode*> conditions;
    for (std::size_t i : assumed) conditions.push_back(facts[i].condition);
    std::vector<std::size_t> out;
    for (std::size_t k : core_positions(extra, symbols, conditions, assumed)) out.push_back(assumed[k]);
    return out;
  }

  // The same for `conditions`, the facts numbered `numbers` (their
  // indicators' names), by position in them.
  std::vector<std::size_t> core_positions(const z3::expr& extra, const std::vector<const TermNode*>& symbols,
                                          const std::vector<const TermNode*>& conditions,
                                          const std::vector<std::size_t>& numbers, bool none_if_unknown = false) {
    std::vector<std::size_t> all(none_if_unknown ? 0 : conditions.size());
    for (std::size_t k = 0; k < all.size(); ++k) all[k] = k;
    if (conditions.empty()) return {};
    try {
      z3::solver solver(ctx(), z3::solver::simple());
      apply_limits(solver);
      add_axioms(solver, symbols);
      z3::expr_vector indicators(ctx());
      std::unordered_map<std::string, std::size_t> position;
      for (std::size_t k = 0; k < conditions.size(); ++k) {
        z3::expr ind = indicator(numbers[k]);
        position.emplace(ind.to_string(), k);
        solver.add(z3::implies(ind, translate(conditions[k])));
        indicators.push_back(ind);
      }
      solver.add(extra);
      auto start = std::chrono::steady_clock::now();
      z3::check_result r = solver.check(indicators);
      stats.profile.cores.add(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count(),
                              count_units(solver));
      if (r == z3::unsat) {
        std::vector<std::size_t> out;
        z3::expr_vector c = solver.unsat_core();
        for (unsigned i = 0; i < c.size(); ++i) {
          auto it = position.find(c[i].to_string());
          if (it != position.end()) out.push_back(it->second);
        }
        return out;
      }
    } catch (const z3::exception&) {
    }
    return all;
  }

  std::vector<std::pair<std::string, int64_t>> model_of(z3::solver& solver, const std::vector<Dim>& symbols,
                                                        const std::vector<std::string>& names) {
    std::vector<std::pair<std::string, int64_t>> out;
    z3::model m = solver.get_model();
    for (std::size_t i = 0; i < symbols.size(); ++i) {
      int64_t v = 0;
      z3::expr value = m.eval(translate(symbols[i].node()), true);
      if (value.is_numeral_i64(v)) out.emplace_back(names[i], v);
    }
    return out;
  }

  // The facts that share a symbol with `goal`, transitively (and every
  // fact without symbols: a false one makes the path dead), by number.
  // The others cannot change whether the goal holds: they constrain other
  // symbols only, so any model of the connected ones extends to them
  // unless they are contradictory on their own (a dead path, where
  // leaving them out only loses a vacuous proof).
  std::vector<std::size_t> connected_facts(const TermNode* goal) {
    // In the order of passes over the facts by number, each taking the
    // facts that share a symbol reached so far (the order Z3 gets them in),
    // but each pass visits only the facts a newly reached symbol names.
    std::unordered_set<const TermNode*> reached;
    std::vector<char> taken(facts.size(), 0), queued(facts.size(), 0);
    std::priority_queue<std::size_t, std::vector<std::size_t>, std::greater<>> pass;  // this pass, ahead of the scan
    std::vector<std::size_t> next;                                                   // behind it: the next pass
    std::size_t scan = 0;
    auto reach = [&](const TermNode* symbol) {
      if (!reached.insert(symbol).second) return;
      auto it = facts_of_symbol.find(symbol);
      if (it == facts_of_symbol.end()) return;
      for (std::size_t f : it->second) {
        if (taken[f] || queued[f]) continue;
        queued[f] = 1;
        if (f >= scan) pass.push(f);
        else next.push_back(f);
      }
    };
    for (std::size_t f : symbol_free_facts) {
      queued[f] = 1;
      pass.push(f);
    }
    for (const Dim& s : symbols_of(goal)) reach(s.node());
    std::vector<std::size_t> out;
    while (!pass.empty()) {
      std::size_t f = pass.top();
      pass.pop();
      taken[f] = 1;
      out.push_back(f);
      scan = f + 1;
      for (const TermNode* s : facts[f].symbols) reach(s);
      if (pass.empty() && !next.empty()) {
        scan = 0;
        for (std::size_t g : next) pass.push(g);
        next.clear();
      }
    }
    return out;
  }

  // `proof_core`: a proof's facts are kept for core_of (an obligation's;
  // the interpreter's own questions print no core).
  // The facts among `connected` with distinct conditions, in the order they were added.
  std::vector<std::size_t> distinct_conditions(const std::vector<std::size_t>& connected) const {
    std::vector<std::size_t> distinct;
    std::unordered_set<const TermNode*> seen;
    for (std::size_t f : connected)
      if (seen.insert(facts[f].condition).second) distinct.push_back(f);
    return distinct;
  }

  // `c` under those facts, up to renaming: the key of the verdict cache.
  CanonicalQuery query_under(const Pred& c, const std::vector<std::size_t>& distinct) const {
    CanonicalQuery query;
    query.add_root(c.node());
    for (std::size_t f : distinct) query.add_root(facts[f].condition);
    return query;
  }

  Verdict decide(const Pred& c, bool proof_core = true) {
    if (auto k = c.constant_value()) {
      Verdict v;
      v.status = *k ? Status::Proven : Status::Refuted;
      v.without_z3 = true;
      return v;
    }
    std::vector<std::size_t> connected = connected_facts(c.node());
    std::vector<std::size_t> distinct = distinct_conditions(connected);
    CanonicalQuery query = query_under(c, distinct);
    auto hit = verdicts.find(query.key);
    if (hit != verdicts.end()) {
      ++stats.cache_hits;
      return with_core(hit->second.verdict, hit->second.core, proof_core ? hit->second.proof_core : nullptr, c, distinct);
    }
    // With a large limit, a query Z3 gives up on costs its whole limit (a
    // fifth of a second and more): the normal form is asked first there.
    // With the small limits (functions nobody calls, a unit that has spent
    // its share) it is asked only where Z3 gave up (decide_uncached).
    if (options.rlimit >= kNormalFormFirstRlimit && normal_form.decide(c) == std::optional<bool>(true)) {
      ++stats.decided_by_normal_form;
      Verdict v;
      v.status = Status::Proven;
      v.by_normal_form = true;
      defer_translations_of(c, connected);
      CachedVerdict cached{v, {}};
      Verdict out = with_core(v, cached.core, proof_core ? cached.proof_core : nullptr, c, distinct);
      verdicts.emplace(std::move(query.key), std::move(cached));
      return out;
    }
    std::vector<std::size_t> core_facts;
    Verdict v = decide_uncached(c, connected, core_facts, query.key);
    CachedVerdict cached{v, {}};
    for (std::size_t f : core_facts)
      for (std::size_t i = 0; i < distinct.size(); ++i)
        if (facts[distinct[i]].condition == facts[f].condition) {
          cached.core.push_back(i);
          break;
        }
    Verdict out = with_core(v, cached.core, proof_core ? cached.proof_core : nullptr, c, distinct);
    verdicts.emplace(std::move(query.key), std::move(cached));
    return out;
  }

  // The facts `c` is decided under, when facts ∧ c is satisfiable (so `c`
  // is not refuted): a witness, or Z3, says so. Nothing when `c` needs the
  // whole decision: a constant, a query decided before (the cache answers),
  // or facts ∧ c unsatisfiable (refuted, or proven on a dead path).
  std::shared_ptr<const PendingCore> refutation_only(const Pred& c) {
    if (c.constant_value()) return nullptr;
    std::vector<std::size_t> connected = connected_facts(c.node());
    std::vector<std::size_t> distinct = distinct_conditions(connected);
    CanonicalQuery query = query_under(c, distinct);
    if (verdicts.count(query.key)) return nullptr;
    query.key += 'L' + std::to_string(options.rlimit);  // Z3's answer depends on it
    auto known = refutable.find(query.key);
    if (known == refutable.end()) {
      CheckResult positive{z3::sat, {}};
      std::vector<const TermNode*> conditions{c.node()};
      for (std::size_t f : connected) conditions.push_back(facts[f].condition);
      if (!(options.witnesses && has_witness(conditions))) {
        std::vector<const TermNode*> all_symbols;
        for (const Dim& d : symbols_of(c.node())) all_symbols.push_back(d.node());
        for (std::size_t f : connected) all_symbols.insert(all_symbols.end(), facts[f].symbols.begin(), facts[f].symbols.end());
        sort_by_id(all_symbols);
        all_symbols.erase(std::unique(all_symbols.begin(), all_symbols.end()), all_symbols.end());
        positive = check_with(translate(c.node()), all_symbols, connected, [](z3::solver&, z3::check_result) {});
      }
      known = refutable.emplace(std::move(query.key), std::move(positive)).first;
    }
    if (known->second.result == z3::unsat) return nullptr;
    auto out = std::make_shared<PendingCore>();
    out->goal = c.node();
    for (std::size_t f : distinct) {
      out->conditions.push_back(facts[f].condition);
      out->refs.push_back(facts[f].ref);
      out->numbers.push_back(f);
    }
    out->rlimit = options.rlimit;
    return out;
  }

  // Whether the facts prove `c`, and nothing else: a concrete witness of
  // facts ∧ ¬c answers no without Z3, and Z3 is asked only facts ∧ ¬c (no
  // core, no model, no refutation check). For side questions whose "no" is
  // the common answer (Solver::sizes_it_needs_at_zero).
  bool proves(const Pred& c) {
    if (auto k = c.constant_value()) return *k;
    // one of the facts itself (`s >= 0` of a hyperparameter a rule checked)
    if (assumed.count(c.node())) return true;
    std::vector<std::size_t> connected = connected_facts(c.node());
    // asked again in each context a function is analysed in, of fresh
    // symbols: answered once per query up to renaming (and per limit)
    CanonicalQuery query;
    query.key = std::to_string(options.rlimit) + ';';
    query.add_root(c.node());
    std::unordered_set<const TermNode*> seen;
    for (std::size_t f : connected)
      if (seen.insert(facts[f].condition).second) query.add_root(facts[f].condition);
    auto hit = side_answers.find(query.key);
    if (hit != side_answers.end()) {
      ++stats.cache_hits;
      return hit->second;
    }
    bool answer = proves_uncached(c, connected);
    side_answers.emplace(std::move(query.key), answer);
    return answer;
  }

  bool proves_uncached(const Pred& c, const std::vector<std::size_t>& connected) {
    std::vector<const TermNode*> conditions{(!c).node()};
    for (std::size_t f : connected) conditions.push_back(facts[f].condition);
    if (options.witnesses && find_witness(conditions)) return false;
    std::vector<const TermNode*> all_symbols;
    for (const Dim& d : symbols_of(c.node())) all_symbols.push_back(d.node());
    for (std::size_t f : connected) all_symbols.insert(all_symbols.end(), facts[f].symbols.begin(), facts[f].symbols.end());
    sort_by_id(all_symbols);
    all_symbols.erase(std::unique(all_symbols.begin(), all_symbols.end()), all_symbols.end());
    CheckResult r = check_with(!translate(c.node()), all_symbols, connected, [](z3::solver&, z3::check_result) {});
    return r.result == z3::unsat;
  }

  // `v` with its core: a refutation's, the facts at those positions of
  // `distinct`; a proof's, those facts kept for Solver::core_of (most proofs
  // are never printed: their functions are analysed in several contexts,
  // or they answer the interpreter's own questions).
  Verdict with_core(Verdict v, const std::vector<std::size_t>& core, const std::shared_ptr<PendingCore::Shared>& shared,
                    const Pred& c, const std::vector<std::size_t>& distinct) {
    v.core.clear();
    for (std::size_t i : core) v.core.push_back(facts[distinct[i]].ref);
    if (v.status == Status::Proven && !v.without_z3 && !distinct.empty() && shared) {
      auto pending = std::make_shared<PendingCore>();
      pending->goal = c.node();
      for (std::size_t f : distinct) {
        pending->conditions.push_back(facts[f].condition);
        pending->refs.push_back(facts[f].ref);
        pending->numbers.push_back(f);
        pending->symbols.insert(pending->symbols.end(), facts[f].symbols.begin(), facts[f].symbols.end());
      }
      for (const Dim& d : symbols_of(c.node())) pending->symbols.push_back(d.node());
      sort_by_id(pending->symbols);
      pending->symbols.erase(std::unique(pending->symbols.begin(), pending->symbols.end()), pending->symbols.end());
      pending->rlimit = options.rlimit;
      pending->holds_alone = v.by_normal_form;
      pending->shared = shared;
      v.pending_core = std::move(pending);
    }
    return v;
  }

  Verdict decide_uncached(const Pred& c, const std::vector<std::size_t>& connected, std::vector<std::size_t>& core_facts,
                          const std::string& key) {
    Verdict v;
    std::vector<Dim> symbols = symbols_of(c.node());
    std::vector<std::string> names = names_in(c, symbols);
    // Concrete witnesses first: one for facts ∧ ¬c (so c is not proven, and
    // it is the failing example) and one for facts ∧ c (so it is not
    // refuted) make it deferred without asking Z3.
    bool not_proven = false;
    bool satisfiable = false;  // a witness of facts ∧ c: not refuted
    std::vector<const TermNode*> conditions;
    if (options.witnesses) {
      conditions.push_back((!c).node());
      for (std::size_t f : connected) conditions.push_back(facts[f].condition);
      std::optional<Assignment> failing = find_witness(conditions);
      if (!failing && !last_values.empty()) failing = find_witness(conditions, kSeededBudget, &last_values);
      if (failing) {
        for (const auto& [node, value] : *failing) last_values[node] = value;
        not_proven = true;
        v.example = example_of(*failing, symbols, names);
        conditions[0] = c.node();
        if (has_witness(conditions)) {
          v.status = Status::Deferred;
          v.reason = unknown_reason(names);
          v.by_witness = true;
          return v;
        }
      }
    }
    z3::expr goal = translate(c.node());
    std::vector<const TermNode*> all_symbols;
    for (const Dim& d : symbols) all_symbols.push_back(d.node());
    for (std::size_t f : connected) all_symbols.insert(all_symbols.end(), facts[f].symbols.begin(), facts[f].symbols.end());
    sort_by_id(all_symbols);
    all_symbols.erase(std::unique(all_symbols.begin(), all_symbols.end()), all_symbols.end());

    // facts ∧ ¬c unsatisfiable → proven; otherwise its model is a failing example
    CheckResult negated{z3::sat, {}};
    if (!not_proven) {
      negated = check_with(!goal, all_symbols, connected, [&](z3::solver& solver, z3::check_result r) {
        if (r == z3::sat) v.example = model_of(solver, symbols, names);
      });
    }
    if (negated.result == z3::unsat) {
      v.status = Status::Proven;
      return v;
    }
    // Where Z3 gave up on the proof, the normal form of the terms may still
    // show that `c` holds for every value (`(H - K)//K + 1 == H//K`, products
    // multiplied out): proven, and the refutation check, which would most
    // often spend its whole limit too, is not asked. Only after Z3: every
    // query Z3 decides is decided as before, by the same checks.
    if (negated.result == z3::unknown && normal_form.decide(c) == std::optional<bool>(true)) {
      ++stats.decided_by_normal_form;
      v.status = Status::Proven;
      v.by_normal_form = true;
      v.example.clear();
      return v;
    }
    // facts ∧ c unsatisfiable → refuted. Not when a witness satisfies facts ∧ c
    // (looked for here when none was looked for above): Z3 would spend a
    // check to learn it, and on a nonlinear query its whole limit.
    // (refutation_only may have asked it already: a skipped proof decided now)
    auto known = refutable.find(key + 'L' + std::to_string(options.rlimit));
    bool asked = known != refutable.end() && known->second.result != z3::unsat;
    if (options.witnesses && !not_proven && !asked) {
      conditions[0] = c.node();
      satisfiable = has_witness(conditions);
    }
    std::vector<std::size_t> refuting_core;
    CheckResult positive{z3::sat, {}};
    if (asked) {
      positive = known->second;
    } else if (!satisfiable) {
      positive = check_with(goal, all_symbols, connected, [&](z3::solver&, z3::check_result r) {
        if (r == z3::unsat) refuting_core = core_of(goal, all_symbols, connected);
      });
    }
    if (positive.result == z3::unsat) {
      v.status = Status::Refuted;
      core_facts = std::move(refuting_core);
      v.example.clear();
      return v;
    }
    v.status = Status::Deferred;
    if (negated.result == z3::unknown || positive.result == z3::unknown) {
      const std::string& why = negated.result == z3::unknown ? negated.reason_unknown : positive.reason_unknown;
      v.reason = "the solver could not decide it (" + (why.empty() ? std::string("unknown") : why) + ")";
    } else {
      v.reason = unknown_reason(names);
    }
    return v;
  }

  NormalForm normal_form;  // decides some queries Z3 gives up on (normal_form.h)
  // What decide_uncached's proof of `c` would translate, in its order: the
  // goal, the sizes' axioms, the facts (check_with).
  void defer_translations_of(const Pred& c, const std::vector<std::size_t>& connected) {
    std::vector<const TermNode*> all_symbols;
    for (const Dim& d : symbols_of(c.node())) all_symbols.push_back(d.node());
    for (std::size_t f : connected) all_symbols.insert(all_symbols.end(), facts[f].symbols.begin(), facts[f].symbols.end());
    sort_by_id(all_symbols);
    all_symbols.erase(std::unique(all_symbols.begin(), all_symbols.end()), all_symbols.end());
    deferred_translations.push_back(c.node());
    for (const TermNode* s : all_symbols)
      if (s->nonneg) deferred_translations.push_back(s);
    for (std::size_t f : connected) deferred_translations.push_back(facts[f].condition);
  }

  // The symbols' names as the constraint prints them: two sizes of one name
  // are `batch` and `batch#2` there, and so in the reason and the example
  // ("batch, batch are unknown" named neither apart).
  static std::vector<std::string> names_in(const Pred& c, const std::vector<Dim>& symbols) {
    std::vector<std::string> out;
    out.reserve(symbols.size());
    bool repeated = false;
    std::unordered_set<std::string> seen;
    for (const Dim& s : symbols) repeated = !seen.insert(s.symbol_name()).second || repeated;
    if (!repeated) {
      for (const Dim& s : symbols) out.push_back(s.symbol_name());
      return out;
    }
    SymbolNamingScope scope;
    (void)c.str();  // names in the order the constraint prints them
    for (const Dim& s : symbols) out.push_back(s.str());
    return out;
  }

  static std::vector<std::pair<std::string, int64_t>> example_of(const Assignment& witness,
                                                                 const std::vector<Dim>& symbols,
                                                                 const std::vector<std::string>& names) {
    std::vector<std::pair<std::string, int64_t>> out;
    for (std::size_t i = 0; i < symbols.size(); ++i)
      for (const auto& [node, value] : witness)
        if (node == symbols[i].node()) out.emplace_back(names[i], value);
    return out;
  }

  static std::string unknown_reason(const std::vector<std::string>& symbols) {
    if (symbols.empty()) return "the facts do not decide it";
    std::string names;
    for (std::size_t i = 0; i < symbols.size() && i < 4; ++i) {
      if (i) names += ", ";
      names += symbols[i];
    }
    if (symbols.size() > 4) names += ", ...";
    return names + (symbols.size() == 1 ? " is unknown" : " are unknown");
  }

  // A condition already assumed is not added again: the fact holding it is
  // in this scope or an outer one, so it outlives the new one, and the
  // first fact of a condition is the one cores name anyway. A loop or a
  // call analysed again re-checks the same terms, and each copy would cost
  // every later query that reaches it (witness search, canonical key, Z3's
  // assertions): on minGPT, 1,800 connected facts with 92 distinct.
  void add_fact(const Pred& fact, const SourceLoc& loc, std::string description) {
    if (fact.is_true() || assumed.count(fact.node())) return;
    std::vector<const TermNode*> symbols;
    for (const Dim& s : symbols_of(fact.node())) symbols.push_back(s.node());
    for (const TermNode* s : symbols) facts_of_symbol[s].push_back(facts.size());
    if (symbols.empty()) symbol_free_facts.push_back(facts.size());
    facts.push_back({{loc, std::move(description)}, depth, fact.node(), std::move(symbols)});
    ++assumed[fact.node()];
  }
};

Solver::Solver(SolverOptions options) : impl_(std::make_unique<Impl>(options)) {}
Solver::~Solver() = default;

void Solver::push_scope() { ++impl_->depth; }

void Solver::pop_scope() {
  Impl& s = *impl_;
  if (s.depth == 0) return;
  --s.depth;
  while (!s.facts.empty() && s.facts.back().depth > s.depth) {
    auto a = s.assumed.find(s.facts.back().condition);
    if (a != s.assumed.end() && --a->second == 0) s.assumed.erase(a);
    for (const TermNode* symbol : s.facts.back().symbols) {
      auto it = s.facts_of_symbol.find(symbol);
      it->second.pop_back();
      if (it->second.empty()) s.facts_of_symbol.erase(it);
    }
    if (!s.symbol_free_facts.empty() && s.symbol_free_facts.back() == s.facts.size() - 1) s.symbol_free_facts.pop_back();
    s.facts.pop_back();
  }
}

std::size_t Solver::scope_depth() const { return impl_->depth; }

std::vector<const TermNode*> Solver::scoped_facts() const {
  std::vector<const TermNode*> out;
  for (auto it = impl_->facts.rbegin(); it != impl_->facts.rend() && it->depth > 0; ++it) out.push_back(it->condition);
  sort_by_id(out);
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool Solver::assumes(const std::vector<const TermNode*>& conditions) const {
  for (const TermNode* c : conditions)
    if (!impl_->assumed.count(c)) return false;
  return true;
}

void Solver::add_fact(const Pred& fact, const SourceLoc& loc, std::string description) {
  impl_->add_fact(fact, loc, std::move(description));
}

bool Solver::consistent() {
  Impl& s = *impl_;
  std::vector<std::size_t> all(s.facts.size());
  std::vector<const TermNode*> symbols;
  for (std::size_t i = 0; i < all.size(); ++i) {
    all[i] = i;
    symbols.insert(symbols.end(), s.facts[i].symbols.begin(), s.facts[i].symbols.end());
  }
  sort_by_id(symbols);
  symbols.erase(std::unique(symbols.begin(), symbols.end()), symbols.end());
  auto r = s.check_with(s.ctx().bool_val(true), symbols, all, [](z3::solver&, z3::check_result) {});
  return r.result != z3::unsat;
}

Verdict Solver::decide(const Pred& c) { return impl_->decide(c); }

namespace {
// A side question gets a small deterministic budget, then the caller's is back.
struct SideQuestionBudget {
  SideQuestionBudget(uint64_t& rlimit, uint64_t units) : rlimit(rlimit), saved(rlimit) {
    rlimit = std::min<uint64_t>(saved, units);
  }
  ~SideQuestionBudget() { rlimit = saved; }
  uint64_t& rlimit;
  uint64_t saved;
};
}  // namespace

// Z3 resource units for the question whether a deferred check holds only at
// size 0 (as much as a simple linear query needs; a hard one stays deferred).
constexpr uint64_t kZeroOnlyRlimit = 5'000;

std::vector<std::string> Solver::sizes_it_needs_at_zero(const Pred& c) {
  // the sizes in c the program names (ranks excepted: a check may want a 0-d
  // tensor); c holds
  // only at 0 when the facts, every one of them >= 1, and c are unsatisfiable
  std::vector<std::string> names;
  Pred positive(true);
  const std::vector<Dim> symbols = symbols_of(c.node());
  for (const Dim& s : symbols)
    if (s.made_by_rule()) return {};
  SideQuestionBudget budget(impl_->options.rlimit, kZeroOnlyRlimit);
  for (const Dim& s : symbols) {
    const std::string& name = s.symbol_name();
    if (name.size() >= 5 && name.compare(name.size() - 5, 5, "dim()") == 0) continue;
    if (name.find("layout") != std::string::npos) continue;  // view_c6's contiguity code, not a size
    // sizes the program names (a hyperparameter, `x.size(0)`, `B`) only: a
    // rule's stand-in for what it could not see (`in_features` of an
    // unknown) makes the question moot
    if (s.made_by_rule()) return {};
    // a size, or a hyperparameter a checked requirement made non-negative
    if (!s.nonneg() && !impl_->proves(ge(s, Dim(0)))) continue;
    positive = positive && ge(s, Dim(1));
    names.push_back(name);
  }
  if (names.empty() || !impl_->proves(!(positive && c))) return {};
  return names;
}

void Solver::set_proof_filter(std::function<bool(const Obligation&)> wanted) { impl_->proof_wanted = std::move(wanted); }

void Solver::discharge(Obligation& ob) {
  Impl& s = *impl_;
  if (s.proof_wanted && !s.proof_wanted(ob)) {
    if (auto facts = s.refutation_only(ob.constraint.pred())) {
      // not refuted; proven or not is left open
      ob.status = Status::Deferred;
      ob.proof_skipped = true;
      ob.skipped_facts = std::move(facts);
      ++s.stats.obligations;
      ++s.stats.proofs_skipped;
      s.add_fact(ob.constraint.pred(), ob.loc, ob.tag + " (checked here)");
      return;
    }
  }
  decide_into(ob);
  // A refuted constraint is not assumed: it would make every later query vacuous.
  if (ob.status != Status::Refuted) s.add_fact(ob.constraint.pred(), ob.loc, ob.tag + " (checked here)");
}

void Solver::resolve_skipped(Obligation& ob) {
  if (!ob.proof_skipped || !ob.skipped_facts) {
    ob.proof_skipped = false;
    return;
  }
  Impl& s = *impl_;
  std::shared_ptr<const PendingCore> facts = std::move(ob.skipped_facts);
  ob.proof_skipped = false;
  --s.stats.proofs_skipped;
  --s.stats.obligations;
  // the facts it had, in a scope of their own, and the limit it had
  // (its Z3 time counts for its file, as if decided where it was)
  struct Restore {
    Solver& solver;
    uint64_t& rlimit;
    uint64_t saved;
    const SourceFile* file;
    ~Restore() {
      solver.pop_scope();
      rlimit = saved;
      solver.attribute_to(file);
    }
  };
  push_scope();
  Restore restore{*this, s.options.rlimit, std::exchange(s.options.rlimit, facts->rlimit), attribute_to(ob.loc.file)};
  for (std::size_t k = 0; k < facts->conditions.size(); ++k)
    s.add_fact(Pred(facts->conditions[k]), facts->refs[k].loc, facts->refs[k].description);
  decide_into(ob);
}

void Solver::decide_into(Obligation& ob) {
  Verdict v = impl_->decide(ob.constraint.pred());
  ob.status = v.status;
  ob.reason = std::move(v.reason);
  ob.example = std::move(v.example);
  ob.core = std::move(v.core);
  ob.pending_core = std::move(v.pending_core);
  ob.decided_without_z3 = v.without_z3;
  SolverStats& st = impl_->stats;
  ++st.obligations;
  ob.decided_by_witness = v.by_witness;
  if (v.without_z3) ++st.decided_without_z3;
  if (v.by_witness) ++st.decided_by_witness;
  if (ob.status == Status::Proven) ++st.proven;
  if (ob.status == Status::Refuted) ++st.refuted;
  if (ob.status == Status::Deferred) ++st.deferred;
  // (not when Z3 gave up on the check itself: the side question is as hard)
  if (ob.status == Status::Deferred && ob.reason.rfind("the solver could not decide", 0) != 0)
    ob.zero_only = sizes_it_needs_at_zero(ob.constraint.pred());
}

std::optional<bool> Solver::query(const Pred& c) {
  Verdict v = impl_->decide(c, false);
  if (v.status == Status::Proven) return true;
  if (v.status == Status::Refuted) return false;
  return std::nullopt;
}

// Z3 resource units for settling a condition inside a result shape (the
// same order as the size-0 question: what a simple query needs).
constexpr uint64_t kSettleRlimit = 5'000;

std::optional<bool> Solver::settle(const Pred& c) {
  if (auto k = c.constant_value()) return *k;
  SideQuestionBudget budget(impl_->options.rlimit, kSettleRlimit);
  if (impl_->proves(c)) return true;
  if (impl_->proves(!c)) return false;
  return std::nullopt;
}

std::vector<FactRef> Solver::core_of(const PendingCore& pending) {
  Impl& s = *impl_;
  // the limit the proof had, not this moment's
  struct Restore {
    uint64_t& rlimit;
    uint64_t saved;
    ~Restore() { rlimit = saved; }
  } restore{s.options.rlimit,
             std::exchange(s.options.rlimit, pending.holds_alone ? std::min(pending.rlimit, kNormalFormCoreRlimit)
                                                                 : pending.rlimit)};
  // one core per query up to renaming, as the verdict: the positions carry over
  PendingCore::Shared computed;
  PendingCore::Shared& core = pending.shared ? *pending.shared : computed;
  if (!core.known) {
    core.positions = s.core_positions(!s.translate(pending.goal), pending.symbols, pending.conditions, pending.numbers,
                                      pending.holds_alone);
    core.known = true;
  }
  std::vector<FactRef> out;
  for (std::size_t k : core.positions) out.push_back(pending.refs[k]);
  return out;
}

const SourceFile* Solver::attribute_to(const SourceFile* file) { return std::exchange(impl_->attributed, file); }

void Solver::set_rlimit(uint64_t units) {
  impl_->options.rlimit = units;  // applied to each check's solver
}

const SolverStats& Solver::stats() const { return impl_->stats; }

}  // namespace gshape::gradual
