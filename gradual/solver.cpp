// Z3 discharge: term translation (floor division semantics), tracked facts,
// scopes, per-query push/pop with a timeout, unsat cores and models.
#include "gradual/solver.h"

#include <memory>

#include <z3++.h>

#include <algorithm>
#include <chrono>
#include <unordered_map>
#include <unordered_set>

#include "gradual/witness.h"

namespace gshape::gradual {

namespace {
struct FactRecord {
  FactRef ref;
  std::size_t depth;
  const TermNode* condition;
  std::vector<const TermNode*> symbols;
};
}  // namespace

struct Solver::Impl {
  explicit Impl(SolverOptions opts) : options(opts) {}

  SolverOptions options;
  // Z3 is created on the first query that needs it: most runs (a file
  // without tensor code, obligations decided by simplification or
  // witnesses) never do, and creating a context costs more than the rest
  // of a small check.
  struct Z3 {
    z3::context ctx;
    z3::solver solver{ctx};
  };
  std::unique_ptr<Z3> z3_;
  Z3& z3() {
    if (!z3_) {
      z3_ = std::make_unique<Z3>();
      apply_limits();
    }
    return *z3_;
  }
  z3::context& ctx() { return z3().ctx; }
  z3::solver& solver() { return z3().solver; }
  SolverStats stats;
  std::size_t depth = 0;
  std::unordered_map<const TermNode*, z3::expr> cache;
  // symbols whose `>= 0` axiom is asserted, with the Z3 scope it lives in
  std::unordered_map<const TermNode*, std::size_t> axioms;
  std::vector<FactRecord> facts;  // index == the number in the indicator name; depths ascend
  std::unordered_map<std::string, std::size_t> fact_by_indicator;
  std::size_t z3_depth = 0;
  std::size_t z3_facts = 0;
  std::unordered_map<const TermNode*, int> assumed;  // condition → how many facts assert it now

  void sync() {
    for (; z3_facts < facts.size(); ++z3_facts) {
      const FactRecord& f = facts[z3_facts];
      for (; z3_depth < f.depth; ++z3_depth) solver().push();
      ensure_axioms(f.condition);
      std::string name = "fact!" + std::to_string(z3_facts);
      solver().add(translate(f.condition), ctx().bool_const(name.c_str()));
    }
  }

  uint64_t last_rlimit = 0;
  // The context's resource counter so far (deterministic for a Z3 build).
  uint64_t rlimit_count() {
    if (!z3_) return last_rlimit;
    z3::stats st = solver().statistics();
    for (unsigned i = 0; i < st.size(); ++i)
      if (st.key(i) == "rlimit count") return st.is_uint(i) ? st.uint_value(i) : static_cast<uint64_t>(st.double_value(i));
    return last_rlimit;
  }

  // A resource limit per check (Z3's deterministic step count), so a
  // verdict never depends on the machine's load; the wall-clock timeout is
  // only a safety net far above what the limit allows.
  void apply_limits() {
    z3::params p(ctx());
    p.set("rlimit", static_cast<unsigned>(std::min<uint64_t>(options.rlimit, 0xffffffffu)));
    p.set("timeout", kSafetyTimeoutMs);
    solver().set(p);
  }
  static constexpr unsigned kSafetyTimeoutMs = 60'000;

  // Python floor division: SMT-LIB `div` floors for a positive divisor; for a
  // negative one floor(a/b) == floor(-a/-b).
  z3::expr floor_div(const z3::expr& a, const z3::expr& b, const TermNode* divisor) {
    if (divisor->op == TermOp::Const) {
      if (divisor->value > 0) return a / b;
      if (divisor->value < 0) return (-a) / (-b);
    }
    return z3::ite(b > 0, a / b, (-a) / (-b));
  }

  z3::expr translate(const TermNode* n) {
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
        std::string name = Dim(n).symbol_name() + "!" + std::to_string(n->value);
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
        if (divisor->op == TermOp::Const && divisor->value > 0) return z3::mod(arg(0), arg(1));
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

  // Every size symbol in `n` gets its `>= 0` axiom at the current scope.
  void ensure_axioms(const TermNode* n) {
    for (const Dim& s : symbols_of(n)) {
      if (!s.nonneg() || axioms.count(s.node())) continue;
      solver().add(translate(s.node()) >= 0);
      axioms.emplace(s.node(), z3_depth);
    }
  }

  struct CheckResult {
    z3::check_result result;
    std::string reason_unknown;
  };

  // One check of facts ∧ `extra`, in its own push/pop.
  template <class OnResult>
  CheckResult check_with(const z3::expr& extra, OnResult&& on_result) {
    solver().push();
    CheckResult r{z3::unknown, {}};
    try {
      solver().add(extra);
      auto start = std::chrono::steady_clock::now();
      r.result = solver().check();
      double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      uint64_t units = rlimit_count();
      stats.rlimit_units += units - last_rlimit;
      last_rlimit = units;
      ++stats.z3_checks;
      stats.z3_seconds += secs;
      if (secs > stats.max_check_seconds) stats.max_check_seconds = secs;
      if (r.result == z3::unknown) {
        ++stats.z3_unknown;
        r.reason_unknown = solver().reason_unknown();
      }
      on_result(r.result);
    } catch (const z3::exception& e) {
      r.result = z3::unknown;
      r.reason_unknown = std::string("solver error: ") + e.msg();
    }
    solver().pop();
    return r;
  }

  std::vector<FactRef> core() {
    std::vector<FactRef> out;
    z3::expr_vector c = solver().unsat_core();
    for (unsigned i = 0; i < c.size(); ++i) {
      auto it = fact_by_indicator.find(c[i].to_string());
      if (it != fact_by_indicator.end() && it->second < facts.size()) out.push_back(facts[it->second].ref);
    }
    return out;
  }

  std::vector<std::pair<std::string, int64_t>> model_of(const std::vector<Dim>& symbols) {
    std::vector<std::pair<std::string, int64_t>> out;
    z3::model m = solver().get_model();
    for (const Dim& s : symbols) {
      int64_t v = 0;
      z3::expr value = m.eval(translate(s.node()), true);
      if (value.is_numeral_i64(v)) out.emplace_back(s.symbol_name(), v);
    }
    return out;
  }

  // The facts that share a symbol with `goal`, transitively (and every
  // fact without symbols: a false one makes the path dead). The others
  // cannot make a witness of the goal's symbols fail.
  std::vector<const TermNode*> connected_facts(const TermNode* goal) {
    std::unordered_set<const TermNode*> reached;
    for (const Dim& s : symbols_of(goal)) reached.insert(s.node());
    std::vector<bool> taken(facts.size(), false);
    std::vector<const TermNode*> out;
    for (bool grew = true; grew;) {
      grew = false;
      for (std::size_t i = 0; i < facts.size(); ++i) {
        if (taken[i]) continue;
        const FactRecord& f = facts[i];
        bool shares = f.symbols.empty() ||
                      std::any_of(f.symbols.begin(), f.symbols.end(), [&](const TermNode* s) { return reached.count(s); });
        if (!shares) continue;
        taken[i] = true;
        grew = true;
        out.push_back(f.condition);
        reached.insert(f.symbols.begin(), f.symbols.end());
      }
    }
    return out;
  }

  Verdict decide(const Pred& c) {
    Verdict v;
    if (auto k = c.constant_value()) {
      v.status = *k ? Status::Proven : Status::Refuted;
      v.without_z3 = true;
      return v;
    }
    std::vector<Dim> symbols = symbols_of(c.node());
    // Concrete witnesses first: one for facts ∧ ¬c (so c is not proven, and
    // it is the failing example) and one for facts ∧ c (so it is not
    // refuted) make it deferred without asking Z3.
    bool not_proven = false;
    if (options.witnesses) {
      std::vector<const TermNode*> conditions{(!c).node()};
      for (const TermNode* f : connected_facts(c.node())) conditions.push_back(f);
      if (auto failing = find_witness(conditions)) {
        not_proven = true;
        v.example = example_of(*failing, symbols);
        conditions[0] = c.node();
        if (find_witness(conditions)) {
          v.status = Status::Deferred;
          v.reason = unknown_reason(symbols);
          v.by_witness = true;
          return v;
        }
      }
    }
    sync();
    ensure_axioms(c.node());
    z3::expr goal = translate(c.node());

    // facts ∧ ¬c unsatisfiable → proven; otherwise its model is a failing example
    CheckResult negated{z3::sat, {}};
    if (!not_proven) {
      negated = check_with(!goal, [&](z3::check_result r) {
        if (r == z3::unsat) v.core = core();
        if (r == z3::sat) v.example = model_of(symbols);
      });
    }
    if (negated.result == z3::unsat) {
      v.status = Status::Proven;
      return v;
    }
    // facts ∧ c unsatisfiable → refuted
    std::vector<FactRef> refuting_core;
    CheckResult positive = check_with(goal, [&](z3::check_result r) {
      if (r == z3::unsat) refuting_core = core();
    });
    if (positive.result == z3::unsat) {
      v.status = Status::Refuted;
      v.core = std::move(refuting_core);
      v.example.clear();
      return v;
    }
    v.status = Status::Deferred;
    if (negated.result == z3::unknown || positive.result == z3::unknown) {
      const std::string& why = negated.result == z3::unknown ? negated.reason_unknown : positive.reason_unknown;
      v.reason = "the solver could not decide it (" + (why.empty() ? std::string("unknown") : why) + ")";
    } else {
      v.reason = unknown_reason(symbols);
    }
    return v;
  }

  static std::vector<std::pair<std::string, int64_t>> example_of(const Assignment& witness,
                                                                 const std::vector<Dim>& symbols) {
    std::vector<std::pair<std::string, int64_t>> out;
    for (const Dim& s : symbols)
      for (const auto& [node, value] : witness)
        if (node == s.node()) out.emplace_back(s.symbol_name(), value);
    return out;
  }

  static std::string unknown_reason(const std::vector<Dim>& symbols) {
    if (symbols.empty()) return "the facts do not decide it";
    std::string names;
    for (std::size_t i = 0; i < symbols.size() && i < 4; ++i) {
      if (i) names += ", ";
      names += symbols[i].symbol_name();
    }
    if (symbols.size() > 4) names += ", ...";
    return names + (symbols.size() == 1 ? " is unknown" : " are unknown");
  }

  void add_fact(const Pred& fact, const SourceLoc& loc, std::string description) {
    if (fact.is_true()) return;
    fact_by_indicator["fact!" + std::to_string(facts.size())] = facts.size();
    std::vector<const TermNode*> symbols;
    for (const Dim& s : symbols_of(fact.node())) symbols.push_back(s.node());
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
    s.fact_by_indicator.erase("fact!" + std::to_string(s.facts.size() - 1));
    auto a = s.assumed.find(s.facts.back().condition);
    if (a != s.assumed.end() && --a->second == 0) s.assumed.erase(a);
    s.facts.pop_back();
  }
  if (s.z3_depth > s.depth) {
    s.solver().pop(static_cast<unsigned>(s.z3_depth - s.depth));
    s.z3_depth = s.depth;
    for (auto it = s.axioms.begin(); it != s.axioms.end();) {
      it = it->second > s.z3_depth ? s.axioms.erase(it) : std::next(it);
    }
  }
  s.z3_facts = std::min(s.z3_facts, s.facts.size());
}

std::size_t Solver::scope_depth() const { return impl_->depth; }

std::vector<const TermNode*> Solver::scoped_facts() const {
  std::vector<const TermNode*> out;
  for (auto it = impl_->facts.rbegin(); it != impl_->facts.rend() && it->depth > 0; ++it) out.push_back(it->condition);
  std::sort(out.begin(), out.end());
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
  impl_->sync();
  auto r = impl_->check_with(impl_->ctx().bool_val(true), [](z3::check_result) {});
  return r.result != z3::unsat;
}

Verdict Solver::decide(const Pred& c) { return impl_->decide(c); }

void Solver::discharge(Obligation& ob) {
  Verdict v = impl_->decide(ob.constraint.pred());
  ob.status = v.status;
  ob.reason = std::move(v.reason);
  ob.example = std::move(v.example);
  ob.core = std::move(v.core);
  ob.decided_without_z3 = v.without_z3;
  SolverStats& st = impl_->stats;
  ++st.obligations;
  ob.decided_by_witness = v.by_witness;
  if (v.without_z3) ++st.decided_without_z3;
  if (v.by_witness) ++st.decided_by_witness;
  if (ob.status == Status::Proven) ++st.proven;
  if (ob.status == Status::Refuted) ++st.refuted;
  if (ob.status == Status::Deferred) ++st.deferred;
  // A refuted constraint is not assumed: it would make every later query vacuous.
  if (ob.status != Status::Refuted) impl_->add_fact(ob.constraint.pred(), ob.loc, ob.tag + " (checked here)");
}

std::optional<bool> Solver::query(const Pred& c) {
  Verdict v = impl_->decide(c);
  if (v.status == Status::Proven) return true;
  if (v.status == Status::Refuted) return false;
  return std::nullopt;
}

void Solver::set_rlimit(uint64_t units) {
  impl_->options.rlimit = units;
  if (impl_->z3_) impl_->apply_limits();  // else applied when Z3 is created
}

const SolverStats& Solver::stats() const { return impl_->stats; }

}  // namespace gshape::gradual
