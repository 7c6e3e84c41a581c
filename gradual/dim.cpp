// Hash-consing, simplification and printing of dimension terms.
#include "gradual/dim.h"

#include <algorithm>
#include <atomic>
#include <limits>
#include <deque>
#include <map>
#include <mutex>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace gshape::gradual {
namespace {

struct SymbolInfo {
  std::string name;
  bool made_by_rule = false;  // a rule's stand-in for an operand it cannot see
};

// Every term ever built lives here for the life of the process: terms are
// small and an analysis builds a few thousand at most.
//
// The index is an open-addressing table of (hash, node) slots probed
// linearly: a lookup, most often a hit (the simplifier rebuilds the same
// terms again and again), compares stored hashes in one or two cache lines
// and touches a node only when its hash matches (a node-based multimap cost
// a cache miss per bucket entry, 5% of a check of the generated benchmark
// project). Nodes keep their creation order (`id`), which nothing here
// depends on the table's layout for.
class TermIndex {
 public:
  TermIndex() : slots_(kInitialSlots) {}
  // The node equal to (op, value, args) of hash `h`, or nullptr.
  const TermNode* find(std::size_t h, TermOp op, int64_t value, const std::vector<const TermNode*>& args) const {
    for (std::size_t i = home(h);; i = (i + 1) & mask()) {
      const Slot& slot = slots_[i];
      if (!slot.node) return nullptr;
      if (slot.hash == h && slot.node->op == op && slot.node->value == value && slot.node->args == args)
        return slot.node;
    }
  }
  // Adds a node not in the table.
  void insert(const TermNode* n) {
    if ((size_ + 1) * 2 > slots_.size()) grow();
    place(n->hash, n);
    ++size_;
  }

 private:
  struct Slot {
    std::size_t hash = 0;
    const TermNode* node = nullptr;
  };
  static constexpr std::size_t kInitialSlots = 1024;  // a power of two
  std::vector<Slot> slots_;
  std::size_t size_ = 0;

  std::size_t mask() const { return slots_.size() - 1; }
  // Fibonacci hashing: hash_of's low bits come from pointers and are poorly spread.
  std::size_t home(std::size_t h) const { return (h * 0x9E3779B97F4A7C15ull >> 20) & mask(); }
  void place(std::size_t h, const TermNode* n) {
    std::size_t i = home(h);
    while (slots_[i].node) i = (i + 1) & mask();
    slots_[i] = {h, n};
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& slot : old)
      if (slot.node) place(slot.hash, slot.node);
  }
};

struct TermTable {
  std::mutex mu;
  std::deque<TermNode> nodes;  // stable addresses
  TermIndex index;
  std::deque<SymbolInfo> symbols;
};

TermTable& table() {
  static TermTable* t = new TermTable();  // never destroyed: nodes outlive static destructors
  return *t;
}

std::size_t hash_of(TermOp op, int64_t value, const std::vector<const TermNode*>& args) {
  std::size_t h = std::hash<int64_t>()(value) * 31 + static_cast<std::size_t>(op);
  for (const TermNode* a : args) h = h * 1000003u ^ std::hash<const void*>()(a);
  return h;
}

const TermNode* intern(TermOp op, int64_t value, std::vector<const TermNode*> args, bool nonneg) {
  std::size_t h = hash_of(op, value, args);
  TermTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  if (const TermNode* n = t.index.find(h, op, value, args)) return n;
  TermNode& n = t.nodes.emplace_back(TermNode{op, nonneg, value, static_cast<uint32_t>(t.nodes.size()), h,
                                              std::move(args)});
  t.index.insert(&n);
  return &n;
}

// Checked 64-bit arithmetic: an overflow is not a shape, so the rule that
// built the term gives up (apply_rule turns it into an unknown result).
int64_t checked_add(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw std::overflow_error("dimension arithmetic overflows int64");
  return r;
}
int64_t checked_mul(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw std::overflow_error("dimension arithmetic overflows int64");
  return r;
}
int64_t py_floordiv(int64_t a, int64_t b) {
  if (b == -1) return checked_mul(a, -1);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t py_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

// Small constants and the two booleans are asked for all the time (Dim(0),
// Pred(true), `x + 1`): each is interned the first time, as before (so
// node ids, the creation order, are unchanged), and its node remembered, so
// later requests skip the table and its lock.
constexpr int64_t kCachedConstMin = -64, kCachedConstMax = 1024;
std::atomic<const TermNode*> cached_consts[kCachedConstMax - kCachedConstMin + 1];
std::atomic<const TermNode*> cached_bools[2];

const TermNode* const_node(int64_t v) {
  if (v < kCachedConstMin || v > kCachedConstMax) return intern(TermOp::Const, v, {}, v >= 0);
  std::atomic<const TermNode*>& slot = cached_consts[v - kCachedConstMin];
  if (const TermNode* n = slot.load(std::memory_order_acquire)) return n;
  const TermNode* n = intern(TermOp::Const, v, {}, v >= 0);
  slot.store(n, std::memory_order_release);
  return n;
}
const TermNode* bool_node(bool v) {
  std::atomic<const TermNode*>& slot = cached_bools[v ? 1 : 0];
  if (const TermNode* n = slot.load(std::memory_order_acquire)) return n;
  const TermNode* n = intern(TermOp::BoolConst, v ? 1 : 0, {}, false);
  slot.store(n, std::memory_order_release);
  return n;
}

bool by_id(const TermNode* a, const TermNode* b) { return a->id < b->id; }

// ---- monomials: coefficient * base, base = product of non-constant factors

struct Mono {
  int64_t coef;
  const TermNode* base;  // a single factor, or a Mul with coefficient 1
};

Mono split_mono(const TermNode* t) {
  if (t->op != TermOp::Mul) return {1, t};
  if (t->value == 1) return {1, t};
  if (t->args.size() == 1) return {t->value, t->args[0]};
  bool nonneg = std::all_of(t->args.begin(), t->args.end(), [](const TermNode* f) { return f->nonneg; });
  return {t->value, intern(TermOp::Mul, 1, t->args, nonneg)};
}

const TermNode* make_mul(int64_t coef, std::vector<const TermNode*> factors) {
  if (coef == 0) return const_node(0);
  if (factors.empty()) return const_node(coef);
  std::sort(factors.begin(), factors.end(), by_id);
  if (coef == 1 && factors.size() == 1) return factors[0];
  bool nonneg = coef >= 0 && std::all_of(factors.begin(), factors.end(), [](const TermNode* f) { return f->nonneg; });
  return intern(TermOp::Mul, coef, std::move(factors), nonneg);
}

const TermNode* make_mono(int64_t coef, const TermNode* base) {
  if (coef == 0) return const_node(0);
  if (base->op == TermOp::Mul) return make_mul(checked_mul(coef, base->value), base->args);
  return make_mul(coef, {base});
}

// Sum of offset and coefficient-weighted bases, like terms already combined.
const TermNode* make_add(int64_t offset, const std::map<const TermNode*, int64_t>& terms) {
  std::vector<std::pair<const TermNode*, int64_t>> kept;
  for (const auto& [base, coef] : terms)
    if (coef != 0) kept.emplace_back(base, coef);
  std::sort(kept.begin(), kept.end(), [](const auto& a, const auto& b) { return a.first->id < b.first->id; });
  if (kept.empty()) return const_node(offset);
  if (kept.size() == 1 && offset == 0) return make_mono(kept[0].second, kept[0].first);
  std::vector<const TermNode*> monos;
  bool nonneg = offset >= 0;
  for (const auto& [base, coef] : kept) {
    const TermNode* m = make_mono(coef, base);
    nonneg = nonneg && m->nonneg;
    monos.push_back(m);
  }
  return intern(TermOp::Add, offset, std::move(monos), nonneg);
}

void collect_sum(const TermNode* t, int64_t scale, int64_t& offset, std::map<const TermNode*, int64_t>& terms) {
  if (t->op == TermOp::Const) {
    offset = checked_add(offset, checked_mul(scale, t->value));
  } else if (t->op == TermOp::Add) {
    offset = checked_add(offset, checked_mul(scale, t->value));
    for (const TermNode* m : t->args) collect_sum(m, scale, offset, terms);
  } else {
    Mono m = split_mono(t);
    int64_t& c = terms[m.base];
    c = checked_add(c, checked_mul(scale, m.coef));
  }
}

const TermNode* add_nodes(const TermNode* a, const TermNode* b, int64_t b_scale) {
  int64_t offset = 0;
  std::map<const TermNode*, int64_t> terms;
  collect_sum(a, 1, offset, terms);
  collect_sum(b, b_scale, offset, terms);
  return make_add(offset, terms);
}

const TermNode* scale_node(const TermNode* t, int64_t c) {
  if (c == 1) return t;
  if (t->op == TermOp::Const) return const_node(checked_mul(t->value, c));
  if (t->op == TermOp::Add) {
    int64_t offset = 0;
    std::map<const TermNode*, int64_t> terms;
    collect_sum(t, c, offset, terms);
    return make_add(offset, terms);
  }
  if (t->op == TermOp::Mul) return make_mul(checked_mul(t->value, c), t->args);
  return make_mul(c, {t});
}

const TermNode* mul_nodes(const TermNode* a, const TermNode* b) {
  if (a->op == TermOp::Const) return scale_node(b, a->value);
  if (b->op == TermOp::Const) return scale_node(a, b->value);
  int64_t coef = 1;
  std::vector<const TermNode*> factors;
  for (const TermNode* t : {a, b}) {
    if (t->op == TermOp::Mul) {
      coef = checked_mul(coef, t->value);
      factors.insert(factors.end(), t->args.begin(), t->args.end());
    } else {
      factors.push_back(t);
    }
  }
  return make_mul(coef, std::move(factors));
}

// Factors of a (coefficient, multiset of factors) view of t.
std::pair<int64_t, std::vector<const TermNode*>> factors_of(const TermNode* t) {
  if (t->op == TermOp::Const) return {t->value, {}};
  if (t->op == TermOp::Mul) return {t->value, t->args};
  return {1, {t}};
}

// If b's factors are a sub-multiset of a's and b's coefficient divides a's,
// the quotient a/b; otherwise nullptr.
const TermNode* cancel_factors(const TermNode* a, const TermNode* b) {
  auto [ca, fa] = factors_of(a);
  auto [cb, fb] = factors_of(b);
  if (cb == 0 || ca % cb != 0) return nullptr;
  for (const TermNode* f : fb) {
    auto it = std::find(fa.begin(), fa.end(), f);
    if (it == fa.end()) return nullptr;
    fa.erase(it);
  }
  return make_mul(ca / cb, std::move(fa));
}

}  // namespace

// ------------------------------------------------------------------ Dim / Pred

Dim::Dim(int64_t value) : node_(const_node(value)) {}

Dim Dim::symbol(const std::string& name, bool nonneg) {
  TermTable& t = table();
  int64_t id;
  {
    std::lock_guard<std::mutex> lock(t.mu);
    id = static_cast<int64_t>(t.symbols.size());
    t.symbols.push_back({name, false});
  }
  return Dim(intern(TermOp::Symbol, id, {}, nonneg));
}

Dim Dim::rule_symbol(const std::string& name, bool nonneg) {
  Dim d = symbol(name, nonneg);
  TermTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  t.symbols[static_cast<std::size_t>(d.node_->value)].made_by_rule = true;
  return d;
}

std::size_t symbol_count() {
  TermTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.symbols.size();
}

Dim fresh_like(const Dim& s) {
  return s.made_by_rule() ? Dim::rule_symbol(s.symbol_name(), s.nonneg()) : Dim::symbol(s.symbol_name(), s.nonneg());
}

namespace {

// One term rebuilt bottom-up through the simplifying constructors, each
// symbol `rename` maps replaced; `done` shares the rebuilt subterms.
const TermNode* rename_node(const TermNode* n, const std::function<std::optional<Dim>(const Dim&)>& rename,
                           std::unordered_map<const TermNode*, const TermNode*>& done) {
  if (n->op == TermOp::Const || n->op == TermOp::BoolConst) return n;
  auto it = done.find(n);
  if (it != done.end()) return it->second;
  const TermNode* out = n;
  if (n->op == TermOp::Symbol) {
    if (std::optional<Dim> r = rename(Dim(n))) out = r->node();
  } else {
    std::vector<const TermNode*> args;
    bool changed = false;
    for (const TermNode* a : n->args) {
      args.push_back(rename_node(a, rename, done));
      changed = changed || args.back() != a;
    }
    if (changed) {
      auto d = [&](std::size_t i) { return Dim(args[i]); };
      auto p = [&](std::size_t i) { return Pred(args[i]); };
      switch (n->op) {
        case TermOp::Add: {
          Dim r(n->value);
          for (std::size_t i = 0; i < args.size(); ++i) r = r + d(i);
          out = r.node();
          break;
        }
        case TermOp::Mul: {
          Dim r(n->value);
          for (std::size_t i = 0; i < args.size(); ++i) r = r * d(i);
          out = r.node();
          break;
        }
        case TermOp::FloorDiv: out = floordiv(d(0), d(1)).node(); break;
        case TermOp::Mod: out = mod(d(0), d(1)).node(); break;
        case TermOp::Min: out = min(d(0), d(1)).node(); break;
        case TermOp::Max: out = max(d(0), d(1)).node(); break;
        case TermOp::Ite: out = Dim::ite(p(0), d(1), d(2)).node(); break;
        case TermOp::Eq: out = eq(d(0), d(1)).node(); break;
        case TermOp::Lt: out = lt(d(0), d(1)).node(); break;
        case TermOp::Le: out = le(d(0), d(1)).node(); break;
        case TermOp::Not: out = (!p(0)).node(); break;
        case TermOp::And:
        case TermOp::Or: {
          std::vector<Pred> ps;
          for (std::size_t i = 0; i < args.size(); ++i) ps.push_back(p(i));
          out = (n->op == TermOp::And ? all_of(ps) : any_of(ps)).node();
          break;
        }
        default: break;
      }
    }
  }
  done.emplace(n, out);
  return out;
}

}  // namespace

Dim rename_symbols(const Dim& d, const std::function<std::optional<Dim>(const Dim&)>& rename) {
  std::unordered_map<const TermNode*, const TermNode*> done;
  return Dim(rename_node(d.node(), rename, done));
}

Pred rename_symbols(const Pred& p, const std::function<std::optional<Dim>(const Dim&)>& rename) {
  std::unordered_map<const TermNode*, const TermNode*> done;
  return Pred(rename_node(p.node(), rename, done));
}

bool Dim::made_by_rule() const {
  if (!is_symbol()) return false;
  TermTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.symbols[static_cast<std::size_t>(node_->value)].made_by_rule;
}

const std::string& Dim::symbol_name() const {
  static const std::string empty;
  if (!is_symbol()) return empty;
  TermTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.symbols[static_cast<std::size_t>(node_->value)].name;
}

std::optional<int64_t> Dim::constant_value() const {
  if (is_constant()) return node_->value;
  return std::nullopt;
}

Pred::Pred(bool value) : node_(bool_node(value)) {}

std::optional<bool> Pred::constant_value() const {
  if (is_constant()) return node_->value != 0;
  return std::nullopt;
}

// ------------------------------------------------------------------ arithmetic

Dim operator+(const Dim& a, const Dim& b) { return Dim(add_nodes(a.node(), b.node(), 1)); }
Dim operator-(const Dim& a, const Dim& b) { return Dim(add_nodes(a.node(), b.node(), -1)); }
Dim operator-(const Dim& a) { return Dim(scale_node(a.node(), -1)); }
Dim operator*(const Dim& a, const Dim& b) { return Dim(mul_nodes(a.node(), b.node())); }

Dim floordiv(const Dim& a, const Dim& b) {
  auto ca = a.constant_value();
  auto cb = b.constant_value();
  if (cb && *cb == 0)  // undefined (Python raises); kept symbolic, rules guard it
    return Dim(intern(TermOp::FloorDiv, 0, {a.node(), b.node()}, false));
  if (ca && cb) return Dim(py_floordiv(*ca, *cb));
  if (cb && *cb == 1) return a;
  if (cb && *cb == -1) return -a;
  if (ca && *ca == 0) return Dim(0);
  if (cb && *cb > 0) {
    int64_t c = *cb;
    const TermNode* n = a.node();
    if (n->op == TermOp::Mul && n->value % c == 0) return Dim(make_mul(n->value / c, n->args));
    if (n->op == TermOp::Add) {
      // floor((c*X + k) / c) == X + floor(k / c) for integer X
      bool divisible = std::all_of(n->args.begin(), n->args.end(),
                                   [c](const TermNode* m) { return split_mono(m).coef % c == 0; });
      if (divisible) {
        Dim result = py_floordiv(n->value, c);
        for (const TermNode* m : n->args) {
          Mono mono = split_mono(m);
          result = result + Dim(make_mono(mono.coef / c, mono.base));
        }
        return result;
      }
    }
    if (n->op == TermOp::FloorDiv) {  // (x // c1) // c2 == x // (c1*c2) for positive constants
      auto c1 = Dim(n->args[1]).constant_value();
      if (c1 && *c1 > 0) return floordiv(Dim(n->args[0]), Dim(checked_mul(*c1, c)));
    }
  }
  bool nonneg = a.nonneg() && b.nonneg();
  return Dim(intern(TermOp::FloorDiv, 0, {a.node(), b.node()}, nonneg));
}

Dim mod(const Dim& a, const Dim& b) {
  auto ca = a.constant_value();
  auto cb = b.constant_value();
  if (cb && *cb == 0) return Dim(intern(TermOp::Mod, 0, {a.node(), b.node()}, false));
  if (ca && cb) return Dim(py_mod(*ca, *cb));
  if (cb && (*cb == 1 || *cb == -1)) return Dim(0);
  if (a == b) return Dim(0);
  const TermNode* n = a.node();
  if (cb && *cb > 0) {
    int64_t c = *cb;
    if (n->op == TermOp::Mul && n->value % c == 0) return Dim(0);
    if (n->op == TermOp::Add) {
      // (c*X + Y) % c == Y % c: drop monomials the divisor divides
      bool changed = py_mod(n->value, c) != n->value;
      int64_t offset = py_mod(n->value, c);
      std::map<const TermNode*, int64_t> terms;
      for (const TermNode* m : n->args) {
        Mono mono = split_mono(m);
        if (mono.coef % c == 0) {
          changed = true;
        } else {
          terms[mono.base] += mono.coef;
        }
      }
      if (changed) return mod(Dim(make_add(offset, terms)), b);
    }
  }
  // X*b % b == 0 (b non-zero: rules check divisors before dividing)
  if (!cb && cancel_factors(n, b.node()) != nullptr) return Dim(0);
  bool nonneg = (cb && *cb > 0) || (a.nonneg() && b.nonneg());
  return Dim(intern(TermOp::Mod, 0, {a.node(), b.node()}, nonneg));
}

Dim exact_div(const Dim& a, const Dim& b) {
  if (a == b && !b.is_constant()) return Dim(1);
  if (auto cb = b.constant_value(); cb && *cb != 0) {
    if (a.is_constant()) return floordiv(a, b);
    return floordiv(a, b);  // constant divisors are handled by floordiv's simplifications
  }
  if (const TermNode* q = cancel_factors(a.node(), b.node())) return Dim(q);
  return floordiv(a, b);
}

namespace {
Dim min_max(const Dim& a, const Dim& b, bool is_min) {
  if (a == b) return a;
  Dim diff = a - b;  // a - b
  if (auto c = diff.constant_value()) return (*c <= 0) == is_min ? a : b;
  if (diff.nonneg()) return is_min ? b : a;      // a >= b
  if ((-diff).nonneg()) return is_min ? a : b;   // b >= a
  const TermNode* x = a.node();
  const TermNode* y = b.node();
  if (y->id < x->id) std::swap(x, y);
  bool nonneg = is_min ? (x->nonneg && y->nonneg) : (x->nonneg || y->nonneg);
  return Dim(intern(is_min ? TermOp::Min : TermOp::Max, 0, {x, y}, nonneg));
}
}  // namespace

Dim min(const Dim& a, const Dim& b) { return min_max(a, b, true); }
Dim max(const Dim& a, const Dim& b) { return min_max(a, b, false); }
Dim abs(const Dim& a) {
  if (a.nonneg()) return a;
  if (auto c = a.constant_value()) return Dim(*c < 0 ? checked_mul(*c, -1) : *c);
  return Dim::ite(lt(a, 0), -a, a);
}

Dim Dim::ite(const Pred& cond, const Dim& then_dim, const Dim& else_dim) {
  if (auto c = cond.constant_value()) return *c ? then_dim : else_dim;
  if (then_dim == else_dim) return then_dim;
  const TermNode* p = cond.node();
  if (p->op == TermOp::Eq) {
    // under x == y both are equal, so ite(x == y, x, y) is y and ite(x == y, y, x) is x
    Dim x(p->args[0]), y(p->args[1]);
    if ((then_dim == x && else_dim == y) || (then_dim == y && else_dim == x)) return else_dim;
    // ite(s == k, e, s) is s when e is k at s = k: `min(16, T) if T == 1 else T` is T
    for (int side = 0; side < 2; ++side) {
      Dim s(p->args[side]), k(p->args[1 - side]);
      if (!s.is_symbol() || !k.is_constant() || else_dim != s) continue;
      Dim at = rename_symbols(then_dim, [&](const Dim& sym) { return sym == s ? std::optional<Dim>(k) : std::nullopt; });
      if (at == k) return s;
    }
  }
  bool nonneg = then_dim.nonneg() && else_dim.nonneg();
  return Dim(intern(TermOp::Ite, 0, {cond.node(), then_dim.node(), else_dim.node()}, nonneg));
}

Dim product(const std::vector<Dim>& dims) {
  Dim p = 1;
  for (const Dim& d : dims) p = p * d;
  return p;
}
Dim sum(const std::vector<Dim>& dims) {
  Dim s = 0;
  for (const Dim& d : dims) s = s + d;
  return s;
}

// ------------------------------------------------------------------ conditions

Pred eq(const Dim& a, const Dim& b) {
  if (a == b) return Pred(true);
  Dim diff = a - b;
  if (auto c = diff.constant_value()) return Pred(*c == 0);
  if ((diff - 1).nonneg() || (-diff - 1).nonneg()) return Pred(false);
  // canonical operand order: by id, constants last (`B == 3`)
  const TermNode* x = a.node();
  const TermNode* y = b.node();
  auto key = [](const TermNode* n) { return std::make_pair(n->op == TermOp::Const, n->id); };
  if (key(y) < key(x)) std::swap(x, y);
  return Pred(intern(TermOp::Eq, 0, {x, y}, false));
}

Pred ne(const Dim& a, const Dim& b) { return !eq(a, b); }

Pred lt(const Dim& a, const Dim& b) {
  Dim d = b - a;  // a < b  <=>  d >= 1
  if (auto c = d.constant_value()) return Pred(*c >= 1);
  if ((d - 1).nonneg()) return Pred(true);
  if ((-d).nonneg()) return Pred(false);
  return Pred(intern(TermOp::Lt, 0, {a.node(), b.node()}, false));
}

Pred le(const Dim& a, const Dim& b) {
  Dim d = b - a;  // a <= b  <=>  d >= 0
  if (auto c = d.constant_value()) return Pred(*c >= 0);
  if (d.nonneg()) return Pred(true);
  if ((-d - 1).nonneg()) return Pred(false);
  return Pred(intern(TermOp::Le, 0, {a.node(), b.node()}, false));
}

Pred gt(const Dim& a, const Dim& b) { return lt(b, a); }
Pred ge(const Dim& a, const Dim& b) { return le(b, a); }

namespace {
Pred junction(const std::vector<Pred>& preds, bool is_and) {
  TermOp op = is_and ? TermOp::And : TermOp::Or;
  std::vector<const TermNode*> args;
  std::vector<const TermNode*> stack;
  for (auto it = preds.rbegin(); it != preds.rend(); ++it) stack.push_back(it->node());
  while (!stack.empty()) {
    const TermNode* p = stack.back();
    stack.pop_back();
    if (p->op == op) {
      for (auto it = p->args.rbegin(); it != p->args.rend(); ++it) stack.push_back(*it);
      continue;
    }
    if (p->op == TermOp::BoolConst) {
      if ((p->value != 0) != is_and) return Pred(!is_and);  // false in and / true in or
      continue;
    }
    args.push_back(p);
  }
  std::sort(args.begin(), args.end(), by_id);
  args.erase(std::unique(args.begin(), args.end()), args.end());
  std::unordered_set<const TermNode*> present(args.begin(), args.end());
  for (const TermNode* p : args)
    if (p->op == TermOp::Not && present.count(p->args[0])) return Pred(!is_and);  // p and not p
  if (args.empty()) return Pred(is_and);
  if (args.size() == 1) return Pred(args[0]);
  return Pred(intern(op, 0, std::move(args), false));
}
}  // namespace

Pred operator&&(const Pred& a, const Pred& b) { return junction({a, b}, true); }
Pred operator||(const Pred& a, const Pred& b) { return junction({a, b}, false); }
Pred all_of(const std::vector<Pred>& preds) { return junction(preds, true); }
Pred any_of(const std::vector<Pred>& preds) { return junction(preds, false); }
Pred implies(const Pred& a, const Pred& b) { return !a || b; }

Pred operator!(const Pred& a) {
  const TermNode* n = a.node();
  switch (n->op) {
    case TermOp::BoolConst: return Pred(n->value == 0);
    case TermOp::Not: return Pred(n->args[0]);
    case TermOp::Lt: return le(Dim(n->args[1]), Dim(n->args[0]));
    case TermOp::Le: return lt(Dim(n->args[1]), Dim(n->args[0]));
    default: return Pred(intern(TermOp::Not, 0, {n}, false));
  }
}

// ------------------------------------------------------------------ inspection

std::vector<Dim> symbols_of(const TermNode* node) {
  // compound nodes visited (a DAG: shared subterms once); a linear scan
  // while there are few, most terms being small, then a hash set
  constexpr std::size_t kFew = 32;
  std::vector<const TermNode*> few;
  std::unordered_set<const TermNode*> many;
  auto first_visit = [&](const TermNode* n) {
    if (many.empty()) {
      if (std::find(few.begin(), few.end(), n) != few.end()) return false;
      if (few.size() < kFew) {
        few.push_back(n);
        return true;
      }
      many.insert(few.begin(), few.end());
    }
    return many.insert(n).second;
  };
  std::vector<const TermNode*> found;
  std::vector<const TermNode*> stack{node};
  while (!stack.empty()) {
    const TermNode* n = stack.back();
    stack.pop_back();
    if (n->op == TermOp::Symbol) {
      found.push_back(n);
      continue;
    }
    if (n->args.empty() || !first_visit(n)) continue;  // a constant, or seen
    for (const TermNode* a : n->args) stack.push_back(a);
  }
  std::sort(found.begin(), found.end(), by_id);
  found.erase(std::unique(found.begin(), found.end()), found.end());
  std::vector<Dim> out;
  out.reserve(found.size());
  for (const TermNode* n : found) out.emplace_back(n);
  return out;
}

std::size_t interned_term_count() {
  TermTable& t = table();
  std::lock_guard<std::mutex> lock(t.mu);
  return t.nodes.size();
}

// ------------------------------------------------------------------ printing

// Names given in the outermost open SymbolNamingScope (none: each term alone).
struct SymbolNames {
  std::unordered_map<const TermNode*, std::string> given;
  std::unordered_map<std::string, int> uses;

  const std::string& name_of(const TermNode* symbol) {
    auto it = given.find(symbol);
    if (it != given.end()) return it->second;
    const std::string& base = Dim(symbol).symbol_name();
    int n = ++uses[base];
    return given.emplace(symbol, n == 1 ? base : base + "#" + std::to_string(n)).first->second;
  }
};

namespace {

thread_local SymbolNames* open_scope = nullptr;
std::atomic<bool> full_terms_on{false};

// Full printing of a term the cap would cut: the compound parts it shares
// in several places, each printed once as `_K` and defined after the term.
struct SharedParts {
  std::unordered_set<const TermNode*> named;           // the parts to name
  std::unordered_map<const TermNode*, std::string> names;  // given so far
  std::vector<std::string> definitions;               // "_1 = ...", inner ones first
};

// Where a term is printed: the text, its cap and the symbols' names.
struct Printer {
  std::string text;
  std::size_t cap = kMaxPrintedTerm;
  bool cut = false;                // a part printed as `…`
  SharedParts* shared = nullptr;   // full printing (no cap)
  SymbolNames* local = nullptr;    // the names when no scope is open

  std::size_t size() const { return text.size(); }
  Printer& operator+=(const std::string& s) {
    text += s;
    return *this;
  }
  Printer& operator+=(const char* s) {
    text += s;
    return *this;
  }
  Printer& operator+=(char c) {
    text += c;
    return *this;
  }
  const std::string& name_of(const TermNode* symbol) {
    return (open_scope ? *open_scope : *local).name_of(symbol);
  }
};

bool is_leaf(const TermNode* n) {
  return n->op == TermOp::Const || n->op == TermOp::Symbol || n->op == TermOp::BoolConst;
}

// The compound parts of `root` worth a name: reached more than once when the
// term is read as a tree, and of four nodes or more as printed, its named
// parts counting one (`a + 1` and `_1 == 1` are shorter written out).
void choose_shared_parts(const TermNode* root, SharedParts& parts) {
  std::vector<const TermNode*> order;  // post-order: arguments first
  std::unordered_set<const TermNode*> seen{root};
  std::vector<std::pair<const TermNode*, std::size_t>> stack{{root, 0}};
  while (!stack.empty()) {
    auto& [n, next] = stack.back();
    if (next < n->args.size()) {
      const TermNode* a = n->args[next++];
      if (seen.insert(a).second) stack.push_back({a, 0});
    } else {
      order.push_back(n);
      stack.pop_back();
    }
  }
  std::unordered_map<const TermNode*, int> uses{{root, 1}};  // saturated at 2
  for (auto it = order.rbegin(); it != order.rend(); ++it)
    for (const TermNode* a : (*it)->args) uses[a] = std::min(2, uses[a] + uses[*it]);
  // the nodes each prints as, its named parts counting one (saturated)
  std::unordered_map<const TermNode*, uint64_t> printed_size;
  for (const TermNode* n : order) {
    uint64_t size = 1;
    for (const TermNode* a : n->args) size = std::min<uint64_t>(size + printed_size[a], 1u << 20);
    if (n != root && !is_leaf(n) && uses[n] >= 2 && size >= 4) {
      parts.named.insert(n);
      size = 1;
    }
    printed_size[n] = size;
  }
}

}  // namespace

SymbolNamingScope::SymbolNamingScope() {
  if (!open_scope) {
    names_ = std::make_unique<SymbolNames>();
    open_scope = names_.get();
  }
}

SymbolNamingScope::~SymbolNamingScope() {
  if (names_) open_scope = nullptr;
}

namespace {

// Precedence: 1 sums, 2 products/divisions, 3 atoms (Python's ordering).
int int_prec(const TermNode* n) {
  switch (n->op) {
    case TermOp::Add: return 1;
    case TermOp::Mul: return n->value == -1 && n->args.size() == 1 ? 3 : 2;
    case TermOp::FloorDiv:
    case TermOp::Mod: return 2;
    default: return 3;
  }
}

void print_int(Printer& out, const TermNode* n);
void print_bool(Printer& out, const TermNode* n, int min_prec);
void print_int_in_full(Printer& out, const TermNode* n);
void print_bool_in_full(Printer& out, const TermNode* n, int min_prec);

// A shared part in full printing: its name, defined (after the term) on first use.
void print_named(Printer& out, const TermNode* n) {
  SharedParts& parts = *out.shared;
  auto it = parts.names.find(n);
  if (it == parts.names.end()) {
    Printer def;
    def.cap = std::numeric_limits<std::size_t>::max();
    def.shared = out.shared;
    def.local = out.local;
    if (n->is_bool()) print_bool_in_full(def, n, 1);
    else print_int_in_full(def, n);
    std::string name = "_" + std::to_string(parts.definitions.size() + 1);
    parts.definitions.push_back(name + " = " + def.text);
    it = parts.names.emplace(n, name).first;
  }
  out += it->second;
}

void print_paren(Printer& out, const TermNode* n, int min_prec) {
  if (int_prec(n) < min_prec) {
    out += '(';
    print_int(out, n);
    out += ')';
  } else {
    print_int(out, n);
  }
}

// coef*f1*f2... with |coef| printed (the caller prints the sign when asked).
void print_product(Printer& out, int64_t coef, const std::vector<const TermNode*>& factors, bool print_sign) {
  if (print_sign && coef < 0) {
    out += '-';
  }
  int64_t mag = coef < 0 ? -coef : coef;
  bool first = true;
  if (mag != 1 || factors.empty()) {
    out += std::to_string(mag);
    first = false;
  }
  for (const TermNode* f : factors) {
    if (!first) out += '*';
    // `a//b*c` reads as (a//b)*c in Python, but `-a//b` as (-a)//b: after a
    // minus sign a leading quotient keeps its parentheses (`-(-n//2)`)
    const bool after_minus = first && print_sign && coef < 0;
    bool needs_paren = int_prec(f) < 3 && !(first && !after_minus && int_prec(f) == 2 && f->op != TermOp::Mul);
    if (needs_paren) {
      out += '(';
      print_int(out, f);
      out += ')';
    } else {
      print_int(out, f);
    }
    first = false;
  }
}

// A compound term that starts past the cap prints as `…` (a long chain of
// broadcasts of unrelated sizes nests a case split per step: printed as a
// tree, the term doubles each time). The terms open at the cap still close,
// so the text ends within a few times the cap, and what it shows is exact.
void print_int(Printer& out, const TermNode* n) {
  if (out.shared && out.shared->named.count(n)) return print_named(out, n);
  if (n->op == TermOp::Const || n->op == TermOp::Symbol || out.size() < out.cap) return print_int_in_full(out, n);
  out.cut = true;
  out += kCutMark.data();
}

void print_int_in_full(Printer& out, const TermNode* n) {
  switch (n->op) {
    case TermOp::Const: out += std::to_string(n->value); return;
    case TermOp::Symbol: out += out.name_of(n); return;
    case TermOp::Mul: print_product(out, n->value, n->args, true); return;
    case TermOp::Add: {
      bool first = true;
      for (const TermNode* m : n->args) {
        auto [coef, factors] = factors_of(m);
        if (first) {
          print_product(out, coef, factors, true);
        } else {
          out += coef < 0 ? " - " : " + ";
          print_product(out, coef, factors, false);
        }
        first = false;
      }
      if (n->value > 0) out += " + " + std::to_string(n->value);
      if (n->value < 0) out += " - " + std::to_string(0 - static_cast<uint64_t>(n->value));
      return;
    }
    case TermOp::FloorDiv:
    case TermOp::Mod:
      print_paren(out, n->args[0], 2);
      out += n->op == TermOp::FloorDiv ? "//" : "%";
      print_paren(out, n->args[1], 3);
      return;
    case TermOp::Min:
    case TermOp::Max:
      out += n->op == TermOp::Min ? "min(" : "max(";
      print_int(out, n->args[0]);
      out += ", ";
      print_int(out, n->args[1]);
      out += ')';
      return;
    case TermOp::Ite:
      out += '(';
      print_int(out, n->args[1]);
      out += " if ";
      print_bool(out, n->args[0], 1);
      out += " else ";
      print_int(out, n->args[2]);
      out += ')';
      return;
    default: print_bool(out, n, 1); return;
  }
}

// Precedence: 1 or, 2 and, 3 not, 4 comparisons.
int bool_prec(const TermNode* n) {
  switch (n->op) {
    case TermOp::Or: return 1;
    case TermOp::And: return 2;
    case TermOp::Not: return n->args[0]->op == TermOp::Eq ? 4 : 3;
    default: return 4;
  }
}

void print_cmp(Printer& out, const TermNode* a, const char* op, const TermNode* b) {
  print_int(out, a);
  out += op;
  print_int(out, b);
}

void print_bool(Printer& out, const TermNode* n, int min_prec) {
  if (out.shared && out.shared->named.count(n)) return print_named(out, n);
  if (!n->is_bool() || n->op == TermOp::BoolConst || out.size() < out.cap) return print_bool_in_full(out, n, min_prec);
  out.cut = true;
  out += kCutMark.data();
}

void print_bool_in_full(Printer& out, const TermNode* n, int min_prec) {
  bool paren = bool_prec(n) < min_prec;
  if (paren) out += '(';
  switch (n->op) {
    case TermOp::BoolConst: out += n->value ? "True" : "False"; break;
    case TermOp::Eq: print_cmp(out, n->args[0], " == ", n->args[1]); break;
    case TermOp::Lt: print_cmp(out, n->args[0], " < ", n->args[1]); break;
    case TermOp::Le: print_cmp(out, n->args[0], " <= ", n->args[1]); break;
    case TermOp::Not:
      if (n->args[0]->op == TermOp::Eq) {
        print_cmp(out, n->args[0]->args[0], " != ", n->args[0]->args[1]);
      } else {
        out += "not ";
        print_bool(out, n->args[0], 3);
      }
      break;
    case TermOp::And:
    case TermOp::Or: {
      bool first = true;
      int prec = bool_prec(n);
      for (const TermNode* a : n->args) {
        if (!first) out += n->op == TermOp::And ? " and " : " or ";
        print_bool(out, a, prec + 1);
        first = false;
      }
      break;
    }
    default: print_int(out, n); break;
  }
  if (paren) out += ')';
}

}  // namespace

namespace {

// A term within the cap; beyond it cut, or in full with --full-terms.
std::string print_term(const TermNode* n, bool as_bool) {
  SymbolNames names;
  Printer out;
  out.local = &names;
  auto print = [&](Printer& p) {
    if (as_bool) print_bool(p, n, 1);
    else print_int(p, n);
  };
  print(out);
  if (!out.cut || !full_terms_on.load(std::memory_order_relaxed)) return std::move(out.text);
  SharedParts parts;
  choose_shared_parts(n, parts);
  Printer full;
  full.cap = std::numeric_limits<std::size_t>::max();
  full.shared = &parts;
  full.local = &names;
  print(full);
  for (std::size_t i = 0; i < parts.definitions.size(); ++i) full.text += (i ? "; " : " where ") + parts.definitions[i];
  return std::move(full.text);
}

}  // namespace

void set_full_terms(bool on) { full_terms_on.store(on, std::memory_order_relaxed); }
bool full_terms() { return full_terms_on.load(std::memory_order_relaxed); }

std::string Dim::str() const { return print_term(node_, false); }

std::string Pred::str() const { return print_term(node_, true); }

}  // namespace gshape::gradual
