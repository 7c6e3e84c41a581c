// Witness search: candidate assignments, equality propagation, evaluation.
#include "gradual/witness.h"

#include <algorithm>
#include <unordered_map>

namespace gshape::gradual {
namespace {

const int64_t* lookup(const Assignment& values, const TermNode* symbol) {
  for (const auto& [s, v] : values)
    if (s == symbol) return &v;
  return nullptr;
}

// Python floor division and modulo; nullopt for a zero divisor or overflow.
std::optional<int64_t> floor_div(int64_t a, int64_t b) {
  if (b == 0 || (a == INT64_MIN && b == -1)) return std::nullopt;
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
std::optional<int64_t> floor_mod(int64_t a, int64_t b) {
  auto q = floor_div(a, b);
  if (!q) return std::nullopt;
  return a - *q * b;  // |a - q*b| < |b|: cannot overflow
}

// Top-level conjuncts of `c`: an And is split, and so is a negated Or.
void conjuncts(const TermNode* c, std::vector<const TermNode*>& out) {
  if (c->op == TermOp::And) {
    for (const TermNode* a : c->args) conjuncts(a, out);
  } else if (c->op == TermOp::Not && c->args[0]->op == TermOp::Or) {
    for (const TermNode* a : c->args[0]->args) conjuncts((!Pred(a)).node(), out);
  } else {
    out.push_back(c);
  }
}

// xorshift64*: deterministic, so the same query shows the same example.
// A seed from the conditions' structure, symbols numbered by first
// occurrence: the same question gets the same seed (and so the same
// witnesses and failing example) whatever terms the process built before.
// Node ids are creation counters: an analysis unit's examples must not
// depend on which other units were analysed first (gshape check's cache).
uint64_t structural_seed(const std::vector<const TermNode*>& conditions) {
  std::unordered_map<const TermNode*, uint64_t> memo;
  uint64_t symbols = 0;
  auto hash = [&](auto& self, const TermNode* n) -> uint64_t {
    if (auto it = memo.find(n); it != memo.end()) return it->second;
    uint64_t h = 0x100000001b3ull * (static_cast<uint64_t>(n->op) + 1) + (n->nonneg ? 7 : 0);
    if (n->op == TermOp::Symbol) {
      h ^= 0x9E3779B97F4A7C15ull * ++symbols;
    } else {
      h ^= static_cast<uint64_t>(n->value);
      for (const TermNode* a : n->args) h = h * 1000003u ^ self(self, a);
    }
    memo.emplace(n, h);
    return h;
  };
  uint64_t seed = 0x9E3779B97F4A7C15ull;
  for (const TermNode* c : conditions) seed = seed * 1000003u ^ hash(hash, c);
  return seed;
}

struct Rng {
  uint64_t state;
  uint64_t next() {
    state ^= state >> 12;
    state ^= state << 25;
    state ^= state >> 27;
    return state * 2685821657736338717ull;
  }
};

}  // namespace

namespace {

// Values of the compound subterms met so far in one evaluation: a term is a
// DAG, and a chain of broadcasts of unrelated sizes shares each step twice,
// so evaluating it as a tree doubles the work per step.
class EvaluationMemo {
 public:
  const std::optional<int64_t>* find(const TermNode* n) const {
    if (!index_.empty()) {
      auto it = index_.find(n);
      return it == index_.end() ? nullptr : &it->second;
    }
    for (const auto& [node, value] : few_)
      if (node == n) return &value;
    return nullptr;
  }
  void add(const TermNode* n, std::optional<int64_t> v) {
    if (index_.empty() && few_.size() < kFew) {
      few_.emplace_back(n, v);
      return;
    }
    if (index_.empty())
      for (const auto& [node, value] : few_) index_.emplace(node, value);
    index_.emplace(n, v);
  }

 private:
  static constexpr std::size_t kFew = 16;  // small terms: a linear scan, no hashing
  std::vector<std::pair<const TermNode*, std::optional<int64_t>>> few_;
  std::unordered_map<const TermNode*, std::optional<int64_t>> index_;
};

std::optional<int64_t> evaluate_node(const TermNode* n, const Assignment& values, EvaluationMemo& memo);

std::optional<int64_t> evaluate_shared(const TermNode* n, const Assignment& values, EvaluationMemo& memo) {
  if (n->args.empty()) return evaluate_node(n, values, memo);
  if (const std::optional<int64_t>* known = memo.find(n)) return *known;
  std::optional<int64_t> v = evaluate_node(n, values, memo);
  memo.add(n, v);
  return v;
}

}  // namespace

std::optional<int64_t> evaluate(const TermNode* n, const Assignment& values) {
  EvaluationMemo memo;
  return evaluate_shared(n, values, memo);
}

namespace {

std::optional<int64_t> evaluate_node(const TermNode* n, const Assignment& values, EvaluationMemo& memo) {
  auto arg = [&](std::size_t i) { return evaluate_shared(n->args[i], values, memo); };
  switch (n->op) {
    case TermOp::Const:
    case TermOp::BoolConst: return n->value;
    case TermOp::Symbol: {
      const int64_t* v = lookup(values, n);
      if (!v) return std::nullopt;
      return *v;
    }
    case TermOp::Add: {
      int64_t s = n->value;
      for (std::size_t i = 0; i < n->args.size(); ++i) {
        auto x = arg(i);
        if (!x || __builtin_add_overflow(s, *x, &s)) return std::nullopt;
      }
      return s;
    }
    case TermOp::Mul: {
      int64_t p = n->value;
      for (std::size_t i = 0; i < n->args.size(); ++i) {
        auto x = arg(i);
        if (!x || __builtin_mul_overflow(p, *x, &p)) return std::nullopt;
      }
      return p;
    }
    case TermOp::FloorDiv:
    case TermOp::Mod: {
      auto a = arg(0), b = arg(1);
      if (!a || !b) return std::nullopt;
      return n->op == TermOp::FloorDiv ? floor_div(*a, *b) : floor_mod(*a, *b);
    }
    case TermOp::Min:
    case TermOp::Max: {
      auto a = arg(0), b = arg(1);
      if (!a || !b) return std::nullopt;
      return n->op == TermOp::Min ? std::min(*a, *b) : std::max(*a, *b);
    }
    case TermOp::Ite: {  // only the taken branch matters (as in Z3)
      auto c = arg(0);
      if (!c) return std::nullopt;
      return *c ? arg(1) : arg(2);
    }
    case TermOp::Eq:
    case TermOp::Lt:
    case TermOp::Le: {
      auto a = arg(0), b = arg(1);
      if (!a || !b) return std::nullopt;
      bool r = n->op == TermOp::Eq ? *a == *b : n->op == TermOp::Lt ? *a < *b : *a <= *b;
      return r ? 1 : 0;
    }
    case TermOp::Not: {
      auto a = arg(0);
      if (!a) return std::nullopt;
      return *a ? 0 : 1;
    }
    case TermOp::And:
    case TermOp::Or: {
      // a deciding operand decides even if another is undefined: Z3 gives
      // an undefined division some value, and it cannot change the result
      bool is_and = n->op == TermOp::And;
      bool undefined = false;
      for (std::size_t i = 0; i < n->args.size(); ++i) {
        auto x = arg(i);
        if (!x) {
          undefined = true;
        } else if ((*x != 0) != is_and) {
          return is_and ? 0 : 1;
        }
      }
      if (undefined) return std::nullopt;
      return is_and ? 1 : 0;
    }
  }
  return std::nullopt;
}

// The parts of one search compiled once: every node of their terms
// numbered children first, so evaluating a part is one pass over an array
// (no memo lookups, no allocation, symbols by index). Each node's value is
// the one evaluate() gives: the operators are functions of their operands'
// values, and an operand evaluate() skips (the branch not taken, the rest
// of a decided `and`) is computed here but not read.
class CompiledParts {
 public:
  explicit CompiledParts(const std::vector<const TermNode*>& parts) {
    std::unordered_map<const TermNode*, uint32_t> index;
    roots_.reserve(parts.size());
    for (const TermNode* p : parts) roots_.push_back(number(p, index));
    // a part's nodes in increasing number are in evaluation order
    std::vector<uint32_t> stamp(nodes_.size(), 0);
    for (std::size_t p = 0; p < parts.size(); ++p) {
      std::vector<uint32_t> mine;
      collect(roots_[p], static_cast<uint32_t>(p + 1), stamp, mine);
      std::sort(mine.begin(), mine.end());
      part_nodes_.push_back(std::move(mine));
    }
    value_.resize(nodes_.size());
    defined_.resize(nodes_.size());
  }

  std::optional<int64_t> evaluate(std::size_t part, const Assignment& values) {
    for (uint32_t k : part_nodes_[part]) defined_[k] = compute(k, values, value_[k]);
    return value(roots_[part]);
  }

  // The value operand `i` of the part's root had in the part's last evaluation.
  std::optional<int64_t> operand_value(std::size_t part, std::size_t i) const {
    return value(args_[arg_begin_[roots_[part]] + i]);
  }

  // The symbols of a part, as symbols_of gives them (by creation).
  std::vector<const TermNode*> symbols(std::size_t part) const {
    std::vector<const TermNode*> out;
    for (uint32_t k : part_nodes_[part])
      if (nodes_[k]->op == TermOp::Symbol) out.push_back(nodes_[k]);
    std::sort(out.begin(), out.end(), [](const TermNode* a, const TermNode* b) { return a->id < b->id; });
    return out;
  }

  // Symbol nodes are read from these positions of the assignment.
  void bind(const std::vector<Dim>& symbols) {
    std::unordered_map<const TermNode*, int32_t> position;
    for (std::size_t i = 0; i < symbols.size(); ++i) position.emplace(symbols[i].node(), static_cast<int32_t>(i));
    for (std::size_t k = 0; k < nodes_.size(); ++k) {
      auto it = nodes_[k]->op == TermOp::Symbol ? position.find(nodes_[k]) : position.end();
      slot_[k] = it == position.end() ? -1 : it->second;
    }
  }

  // The constants of a part's terms (every part's with SIZE_MAX), as
  // collect_constants finds them, in no particular order.
  void constants(std::size_t part, std::vector<int64_t>& out) const {
    auto add = [&](uint32_t k) {
      const TermNode* n = nodes_[k];
      if (n->op == TermOp::Const) out.push_back(n->value);
      if (n->op == TermOp::Add && n->value != 0) out.push_back(-n->value);
    };
    if (part == SIZE_MAX) {
      for (uint32_t k = 0; k < nodes_.size(); ++k) add(k);
    } else {
      for (uint32_t k : part_nodes_[part]) add(k);
    }
  }

 private:
  std::vector<const TermNode*> nodes_;
  std::vector<uint32_t> arg_begin_;  // per node: its operands in args_ [arg_begin_[k], arg_begin_[k + 1])
  std::vector<uint32_t> args_;
  std::vector<int32_t> slot_;        // per node: its symbol's index in the assignment, or -1
  std::vector<uint32_t> roots_;
  std::vector<std::vector<uint32_t>> part_nodes_;
  std::vector<int64_t> value_;
  std::vector<char> defined_;

  uint32_t number(const TermNode* n, std::unordered_map<const TermNode*, uint32_t>& index) {
    if (auto it = index.find(n); it != index.end()) return it->second;
    std::vector<uint32_t> operands;
    operands.reserve(n->args.size());
    for (const TermNode* a : n->args) operands.push_back(number(a, index));
    uint32_t k = static_cast<uint32_t>(nodes_.size());
    nodes_.push_back(n);
    if (arg_begin_.empty()) arg_begin_.push_back(0);
    args_.insert(args_.end(), operands.begin(), operands.end());
    arg_begin_.push_back(static_cast<uint32_t>(args_.size()));
    slot_.push_back(-1);
    index.emplace(n, k);
    return k;
  }

  std::optional<int64_t> value(uint32_t k) const {
    if (!defined_[k]) return std::nullopt;
    return value_[k];
  }

  void collect(uint32_t k, uint32_t mark, std::vector<uint32_t>& stamp, std::vector<uint32_t>& out) {
    if (stamp[k] == mark) return;
    stamp[k] = mark;
    out.push_back(k);
    for (uint32_t i = arg_begin_[k]; i < arg_begin_[k + 1]; ++i) collect(args_[i], mark, stamp, out);
  }

  // The value of node k from its operands' (already computed); false when undefined.
  bool compute(uint32_t k, const Assignment& values, int64_t& out) {
    const TermNode* n = nodes_[k];
    const uint32_t* a = args_.data() + arg_begin_[k];
    std::size_t count = arg_begin_[k + 1] - arg_begin_[k];
    auto def = [&](std::size_t i) { return defined_[a[i]] != 0; };
    auto val = [&](std::size_t i) { return value_[a[i]]; };
    switch (n->op) {
      case TermOp::Const:
      case TermOp::BoolConst: out = n->value; return true;
      case TermOp::Symbol: {
        int32_t slot = slot_[k];
        if (slot < 0 || static_cast<std::size_t>(slot) >= values.size() || values[static_cast<std::size_t>(slot)].first != n) {
          const int64_t* v = lookup(values, n);
          if (!v) return false;
          out = *v;
          return true;
        }
        out = values[static_cast<std::size_t>(slot)].second;
        return true;
      }
      case TermOp::Add:
      case TermOp::Mul: {
        int64_t r = n->value;
        for (std::size_t i = 0; i < count; ++i) {
          if (!def(i)) return false;
          if (n->op == TermOp::Add ? __builtin_add_overflow(r, val(i), &r) : __builtin_mul_overflow(r, val(i), &r))
            return false;
        }
        out = r;
        return true;
      }
      case TermOp::FloorDiv:
      case TermOp::Mod: {
        if (!def(0) || !def(1)) return false;
        auto r = n->op == TermOp::FloorDiv ? floor_div(val(0), val(1)) : floor_mod(val(0), val(1));
        if (!r) return false;
        out = *r;
        return true;
      }
      case TermOp::Min:
      case TermOp::Max:
        if (!def(0) || !def(1)) return false;
        out = n->op == TermOp::Min ? std::min(val(0), val(1)) : std::max(val(0), val(1));
        return true;
      case TermOp::Ite: {
        if (!def(0)) return false;
        std::size_t taken = val(0) ? 1 : 2;
        if (!def(taken)) return false;
        out = val(taken);
        return true;
      }
      case TermOp::Eq:
      case TermOp::Lt:
      case TermOp::Le: {
        if (!def(0) || !def(1)) return false;
        bool r = n->op == TermOp::Eq ? val(0) == val(1) : n->op == TermOp::Lt ? val(0) < val(1) : val(0) <= val(1);
        out = r ? 1 : 0;
        return true;
      }
      case TermOp::Not:
        if (!def(0)) return false;
        out = val(0) ? 0 : 1;
        return true;
      case TermOp::And:
      case TermOp::Or: {
        bool is_and = n->op == TermOp::And;
        bool undefined = false;
        for (std::size_t i = 0; i < count; ++i) {
          if (!def(i)) {
            undefined = true;
          } else if ((val(i) != 0) != is_and) {
            out = is_and ? 0 : 1;
            return true;
          }
        }
        if (undefined) return false;
        out = is_and ? 1 : 0;
        return true;
      }
    }
    return false;
  }
};

}  // namespace

std::optional<Assignment> find_witness(const std::vector<const TermNode*>& conditions, unsigned budget,
                                       const std::unordered_map<const TermNode*, int64_t>* seed) {
  // The conditions' top-level conjuncts are scored one by one, so a move
  // that satisfies one conjunct of `a == -1 and b == -1` counts as progress.
  std::vector<const TermNode*> parts;
  for (const TermNode* c : conditions) conjuncts(c, parts);

  CompiledParts compiled(parts);
  std::vector<Dim> symbols;
  std::vector<std::vector<std::size_t>> parts_of;  // symbol index → parts reading it
  std::vector<std::vector<std::size_t>> symbols_in;  // part → symbol indices
  {
    std::unordered_map<const TermNode*, std::size_t> index;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      symbols_in.emplace_back();
      for (const TermNode* s : compiled.symbols(p)) {
        auto [it, fresh] = index.emplace(s, symbols.size());
        if (fresh) {
          symbols.emplace_back(s);
          parts_of.emplace_back();
        }
        parts_of[it->second].push_back(p);
        symbols_in[p].push_back(it->second);
      }
    }
  }
  compiled.bind(symbols);
  Assignment values;
  for (const Dim& s : symbols) values.emplace_back(s.node(), 1);

  unsigned evaluations = 0;
  auto part_holds = [&](std::size_t p) {
    ++evaluations;
    auto v = compiled.evaluate(p, values);
    return v && *v != 0;
  };
  std::vector<char> holds(parts.size(), 0);
  auto recount = [&]() {
    std::size_t violated = 0;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      holds[p] = part_holds(p);
      if (!holds[p]) ++violated;
    }
    return violated;
  };
  if (symbols.empty()) return recount() == 0 ? std::optional<Assignment>(values) : std::nullopt;

  // `s == term` conjuncts give s a candidate value: the term's, under the
  // other symbols' current values
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> defining(symbols.size());  // (part, operand)
  for (std::size_t p = 0; p < parts.size(); ++p) {
    if (parts[p]->op != TermOp::Eq) continue;
    for (std::size_t side = 0; side < 2; ++side) {
      const TermNode* s = parts[p]->args[side];
      if (s->op != TermOp::Symbol) continue;
      for (std::size_t i = 0; i < symbols.size(); ++i)
        if (symbols[i].node() == s) defining[i].emplace_back(p, 1 - side);
    }
  }

  // candidate values: small sizes, the conditions' own constants and their
  // neighbours (bounds such as `k <= 5` are decided at 5 and 6)
  std::vector<int64_t> pool{0, 1, 2, 3, 4, 5, 6, 8, 12, 16, -1, -2};
  {
    std::vector<int64_t> constants;
    compiled.constants(SIZE_MAX, constants);
    for (int64_t k : constants)
      for (int64_t d : {int64_t{-1}, int64_t{0}, int64_t{1}})
        if (k > INT64_MIN + 1 && k < INT64_MAX - 1) pool.push_back(k + d);
  }
  std::sort(pool.begin(), pool.end());
  pool.erase(std::unique(pool.begin(), pool.end()), pool.end());

  Rng rng{structural_seed(conditions) | 1};

  // When no single change helps (`1 < (a == -1) + (b == -1)` needs both),
  // every combination of the part's symbols over its own constants and
  // their neighbours: the first that makes the part hold is taken.
  auto joint_move = [&](std::size_t target) {
    const std::vector<std::size_t>& syms = symbols_in[target];
    if (syms.size() < 2 || syms.size() > 3) return false;
    std::vector<int64_t> local{0, 1, 2};
    std::vector<int64_t> constants;
    compiled.constants(target, constants);
    for (int64_t k : constants)
      for (int64_t d : {int64_t{-1}, int64_t{0}, int64_t{1}})
        if (k > INT64_MIN + 1 && k < INT64_MAX - 1) local.push_back(k + d);
    std::sort(local.begin(), local.end());
    local.erase(std::unique(local.begin(), local.end()), local.end());
    if (local.size() > 7) local.resize(7);
    std::vector<int64_t> old;
    for (std::size_t i : syms) old.push_back(values[i].second);
    std::size_t combos = 1;
    for (std::size_t k = 0; k < syms.size(); ++k) combos *= local.size();
    for (std::size_t combo = 0; combo < combos && evaluations < budget; ++combo) {
      std::size_t rest = combo;
      bool allowed = true;
      for (std::size_t k = 0; k < syms.size(); ++k) {
        int64_t v = local[rest % local.size()];
        rest /= local.size();
        if (symbols[syms[k]].nonneg() && v < 0) allowed = false;
        values[syms[k]].second = v;
      }
      if (allowed && part_holds(target)) return true;
    }
    for (std::size_t k = 0; k < syms.size(); ++k) values[syms[k]].second = old[k];
    return false;
  };

  // Min-conflicts local search from a few starting points (all sizes 1:
  // broadcasting and size-1 conditions hold there; all different:
  // inequalities hold there), within a budget of part evaluations so that
  // a query with no witness (a provable one) costs little before Z3.
  for (int start = 0; evaluations < budget; ++start) {
    for (std::size_t i = 0; i < symbols.size(); ++i)
      values[i].second = start == 0 ? 1 : start == 1 ? static_cast<int64_t>(i) + 2
                                                     : pool[rng.next() % pool.size()];
    if (start == 0 && seed)
      for (std::size_t i = 0; i < symbols.size(); ++i)
        if (auto it = seed->find(symbols[i].node()); it != seed->end()) values[i].second = it->second;
    for (std::size_t i = 0; i < symbols.size(); ++i)
      if (symbols[i].nonneg() && values[i].second < 0) values[i].second = -values[i].second;
    std::size_t violated = recount();
    for (int step = 0; violated > 0 && step < 12 && evaluations < budget; ++step) {
      // a violated part, then the single-symbol change to it that leaves
      // the fewest parts violated
      std::vector<std::size_t> bad;
      for (std::size_t p = 0; p < parts.size(); ++p)
        if (!holds[p]) bad.push_back(p);
      std::size_t target = bad[rng.next() % bad.size()];
      std::size_t best_symbol = SIZE_MAX;
      int64_t best_value = 0;
      long best_delta = 1;  // must not get worse
      for (std::size_t i : symbols_in[target]) {
        int64_t old = values[i].second;
        std::vector<int64_t> candidates = pool;
        for (const auto& [part, operand] : defining[i]) {
          // the other side's value under the current values (evaluating the part computes it)
          compiled.evaluate(part, values);
          if (auto v = compiled.operand_value(part, operand)) candidates.push_back(*v);
        }
        for (int64_t v : candidates) {
          if (v == old || (symbols[i].nonneg() && v < 0)) continue;
          values[i].second = v;
          long delta = 0;
          for (std::size_t p : parts_of[i]) delta += static_cast<long>(holds[p]) - static_cast<long>(part_holds(p));
          if (delta < best_delta || (delta == best_delta && best_symbol != SIZE_MAX && (rng.next() & 1))) {
            best_delta = delta;
            best_symbol = i;
            best_value = v;
          }
        }
        values[i].second = old;
      }
      if (best_delta >= 0 && joint_move(target)) {
        violated = recount();
        continue;
      }
      if (best_symbol == SIZE_MAX) break;  // stuck: restart
      values[best_symbol].second = best_value;
      for (std::size_t p : parts_of[best_symbol]) holds[p] = part_holds(p);
      violated = static_cast<std::size_t>(std::count(holds.begin(), holds.end(), 0));
    }
    if (violated == 0) return values;
  }
  return std::nullopt;
}

}  // namespace gshape::gradual
