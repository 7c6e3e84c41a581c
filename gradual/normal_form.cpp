// Polynomials over atoms, and conditions read three-valued over them.
#include "gradual/normal_form.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace gshape::gradual {

namespace {

// A polynomial: monomial (atom numbers, sorted, repeated for powers) →
// coefficient; the empty monomial is the constant.
using Monomial = std::vector<uint32_t>;
using Poly = std::map<Monomial, int64_t>;

// The polynomial is too large, or an integer overflows: undecided.
struct GiveUp {};

constexpr std::size_t kMaxMonomials = 256;

int64_t add_checked(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) throw GiveUp{};
  return r;
}
int64_t mul_checked(int64_t a, int64_t b) {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) throw GiveUp{};
  return r;
}
int64_t floor_div(int64_t a, int64_t b) {
  if (b == -1) return mul_checked(a, -1);
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}
int64_t floor_mod(int64_t a, int64_t b) {
  if (b == -1) return 0;
  int64_t r = a % b;
  if (r != 0 && ((r < 0) != (b < 0))) r += b;
  return r;
}

void add_term(Poly& p, const Monomial& m, int64_t c) {
  if (c == 0) return;
  auto [it, fresh] = p.emplace(m, c);
  if (!fresh) {
    it->second = add_checked(it->second, c);
    if (it->second == 0) p.erase(it);
  }
  if (p.size() > kMaxMonomials) throw GiveUp{};
}

Poly constant(int64_t c) {
  Poly p;
  add_term(p, {}, c);
  return p;
}

Poly plus(const Poly& a, const Poly& b, int64_t b_scale = 1) {
  Poly out = a;
  for (const auto& [m, c] : b) add_term(out, m, mul_checked(c, b_scale));
  return out;
}

Poly times(const Poly& a, const Poly& b) {
  if (a.size() * b.size() > kMaxMonomials) throw GiveUp{};
  Poly out;
  for (const auto& [ma, ca] : a)
    for (const auto& [mb, cb] : b) {
      Monomial m;
      m.reserve(ma.size() + mb.size());
      std::merge(ma.begin(), ma.end(), mb.begin(), mb.end(), std::back_inserter(m));
      add_term(out, m, mul_checked(ca, cb));
    }
  return out;
}

std::optional<int64_t> constant_of(const Poly& p) {
  if (p.empty()) return 0;
  if (p.size() == 1 && p.begin()->first.empty()) return p.begin()->second;
  return std::nullopt;
}

// m / d as a monomial when d's atoms are a sub-multiset of m's.
std::optional<Monomial> divide(const Monomial& m, const Monomial& d) {
  Monomial rest;
  std::size_t j = 0;
  for (uint32_t a : m) {
    if (j < d.size() && d[j] == a) {
      ++j;
      continue;
    }
    if (j < d.size() && d[j] < a) return std::nullopt;  // d's atom is missing from m
    rest.push_back(a);
  }
  if (j != d.size()) return std::nullopt;
  return rest;
}

enum class Truth { False, True, Unknown };
Truth negate(Truth t) { return t == Truth::True ? Truth::False : t == Truth::False ? Truth::True : Truth::Unknown; }

}  // namespace

struct NormalForm::Impl {
  // An atom: a symbol, an undecided `ite` (by its term), or an operation
  // on polynomials the polynomials cannot express.
  struct Atom {
    TermOp op;
    const TermNode* node = nullptr;  // Symbol, Ite
    std::vector<Poly> args;          // FloorDiv, Mod, Min, Max
    bool nonneg = false;
  };
  std::vector<Atom> atoms;
  std::map<std::pair<TermOp, std::vector<Poly>>, uint32_t> by_args;
  std::unordered_map<const TermNode*, uint32_t> by_node;
  std::unordered_map<const TermNode*, Poly> polys;     // integer terms read so far
  std::unordered_map<const TermNode*, Truth> truths;  // conditions read so far

  uint32_t atom_of_node(const TermNode* n, bool nonneg) {
    auto [it, fresh] = by_node.emplace(n, static_cast<uint32_t>(atoms.size()));
    if (fresh) atoms.push_back({n->op, n, {}, nonneg});
    return it->second;
  }
  uint32_t atom_of(TermOp op, std::vector<Poly> args) {
    auto key = std::make_pair(op, args);
    auto it = by_args.find(key);
    if (it != by_args.end()) return it->second;
    bool nonneg = false;
    switch (op) {
      case TermOp::FloorDiv: nonneg = nonneg_poly(args[0]) && nonneg_poly(args[1]); break;
      case TermOp::Mod: nonneg = nonneg_poly(args[1]); break;  // Python: the divisor's sign (non-zero)
      case TermOp::Min: nonneg = nonneg_poly(args[0]) && nonneg_poly(args[1]); break;
      case TermOp::Max: nonneg = nonneg_poly(args[0]) || nonneg_poly(args[1]); break;
      default: break;
    }
    uint32_t k = static_cast<uint32_t>(atoms.size());
    atoms.push_back({op, nullptr, std::move(args), nonneg});
    by_args.emplace(std::move(key), k);
    return k;
  }
  static Poly atom_poly(uint32_t a) {
    Poly p;
    p.emplace(Monomial{a}, 1);
    return p;
  }

  // >= 0 for every value of the symbols: a non-negative constant, and
  // monomials with non-negative coefficients whose atoms of odd power are >= 0.
  bool nonneg_poly(const Poly& p) const {
    for (const auto& [m, c] : p) {
      if (c < 0) return false;
      for (std::size_t i = 0; i < m.size();) {
        std::size_t j = i;
        while (j < m.size() && m[j] == m[i]) ++j;
        if ((j - i) % 2 == 1 && !atoms[m[i]].nonneg) return false;
        i = j;
      }
    }
    return true;
  }

  // X and Q with p == X + Q*d (Q the monomials of p that d's single
  // monomial divides, coefficient included); nullopt when d is not one monomial.
  std::optional<std::pair<Poly, Poly>> split_multiple(const Poly& p, const Poly& d) {
    if (d.size() != 1) return std::nullopt;
    const auto& [dm, dc] = *d.begin();
    Poly x, q;
    for (const auto& [m, c] : p) {
      std::optional<Monomial> rest = c % dc == 0 ? divide(m, dm) : std::nullopt;
      if (rest) add_term(q, *rest, c / dc);
      else add_term(x, m, c);
    }
    return std::make_pair(std::move(x), std::move(q));
  }

  Poly floordiv(const Poly& a, const Poly& b) {
    std::optional<int64_t> cb = constant_of(b);
    if (cb && *cb == 0) throw GiveUp{};  // undefined
    if (cb) {
      // (c*X + k) // c == X + k//c
      int64_t k = 0;
      Poly x;
      bool divisible = true;
      for (const auto& [m, c] : a) {
        if (m.empty()) k = c;
        else if (c % *cb != 0) divisible = false;
        else add_term(x, m, c / *cb);
      }
      if (divisible) return plus(x, constant(floor_div(k, *cb)));
      return atom_poly(atom_of(TermOp::FloorDiv, {a, b}));
    }
    if (auto split = split_multiple(a, b)) {
      auto& [x, q] = *split;
      if (x.empty()) return q;
      return plus(atom_poly(atom_of(TermOp::FloorDiv, {x, b})), q);
    }
    if (a == b) return constant(1);
    return atom_poly(atom_of(TermOp::FloorDiv, {a, b}));
  }

  Poly mod(const Poly& a, const Poly& b) {
    std::optional<int64_t> cb = constant_of(b);
    if (cb && *cb == 0) throw GiveUp{};
    if (cb) {
      if (*cb == 1 || *cb == -1) return {};
      // (c*X + Y) % c == Y % c
      Poly y;
      for (const auto& [m, c] : a)
        if (!m.empty() && c % *cb != 0) add_term(y, m, c);
      int64_t k = 0;
      if (auto it = a.find(Monomial{}); it != a.end()) k = it->second;
      if (y.empty()) return constant(floor_mod(k, *cb));
      add_term(y, {}, floor_mod(k, *cb));
      return atom_poly(atom_of(TermOp::Mod, {y, b}));
    }
    if (auto split = split_multiple(a, b)) {
      const Poly& x = split->first;
      if (x.empty()) return {};
      return atom_poly(atom_of(TermOp::Mod, {x, b}));
    }
    if (a == b) return {};
    return atom_poly(atom_of(TermOp::Mod, {a, b}));
  }

  Poly poly(const TermNode* n) {
    if (auto it = polys.find(n); it != polys.end()) return it->second;
    Poly p = poly_uncached(n);
    polys.emplace(n, p);
    return p;
  }

  Poly poly_uncached(const TermNode* n) {
    switch (n->op) {
      case TermOp::Const: return constant(n->value);
      case TermOp::Symbol: return atom_poly(atom_of_node(n, n->nonneg));
      case TermOp::Add: {
        Poly p = constant(n->value);
        for (const TermNode* a : n->args) p = plus(p, poly(a));
        return p;
      }
      case TermOp::Mul: {
        Poly p = constant(n->value);
        for (const TermNode* a : n->args) p = times(p, poly(a));
        return p;
      }
      case TermOp::FloorDiv: return floordiv(poly(n->args[0]), poly(n->args[1]));
      case TermOp::Mod: return mod(poly(n->args[0]), poly(n->args[1]));
      case TermOp::Min:
      case TermOp::Max: {
        Poly a = poly(n->args[0]), b = poly(n->args[1]);
        Poly d = plus(a, b, -1);
        bool is_min = n->op == TermOp::Min;
        if (nonneg_poly(d)) return is_min ? b : a;                // a >= b
        if (nonneg_poly(plus({}, d, -1))) return is_min ? a : b;  // b >= a
        if (b < a) std::swap(a, b);
        return atom_poly(atom_of(n->op, {a, b}));
      }
      case TermOp::Ite: {
        Truth t = truth(n->args[0]);
        if (t == Truth::True) return poly(n->args[1]);
        if (t == Truth::False) return poly(n->args[2]);
        return atom_poly(atom_of_node(n, n->nonneg));
      }
      default: throw GiveUp{};  // a condition where a size belongs
    }
  }

  Truth truth(const TermNode* n) {
    if (auto it = truths.find(n); it != truths.end()) return it->second;
    Truth t;
    try {
      t = truth_uncached(n);
    } catch (const GiveUp&) {
      t = Truth::Unknown;
    }
    truths.emplace(n, t);
    return t;
  }

  Truth truth_uncached(const TermNode* n) {
    switch (n->op) {
      case TermOp::BoolConst: return n->value != 0 ? Truth::True : Truth::False;
      case TermOp::Eq: {
        Poly d = plus(poly(n->args[0]), poly(n->args[1]), -1);
        if (d.empty()) return Truth::True;
        if (constant_of(d)) return Truth::False;
        // d >= 1 or d <= -1
        if (nonneg_poly(plus(d, constant(-1))) || nonneg_poly(plus(constant(-1), d, -1))) return Truth::False;
        return Truth::Unknown;
      }
      case TermOp::Lt:
      case TermOp::Le: {
        // a < b: b - a >= 1; a <= b: b - a >= 0
        Poly d = plus(poly(n->args[1]), poly(n->args[0]), -1);
        if (n->op == TermOp::Lt) d = plus(d, constant(-1));
        if (nonneg_poly(d)) return Truth::True;
        if (nonneg_poly(plus(constant(-1), d, -1))) return Truth::False;  // d <= -1
        return Truth::Unknown;
      }
      case TermOp::Not: return negate(truth(n->args[0]));
      case TermOp::And:
      case TermOp::Or: {
        // and: false if one is, true if all are; or: the dual
        Truth absorbing = n->op == TermOp::And ? Truth::False : Truth::True;
        Truth out = negate(absorbing);
        for (const TermNode* a : n->args) {
          Truth t = truth(a);
          if (t == absorbing) return absorbing;
          if (t == Truth::Unknown) out = Truth::Unknown;
        }
        return out;
      }
      default: return Truth::Unknown;
    }
  }
};

NormalForm::NormalForm() : impl_(std::make_unique<Impl>()) {}
NormalForm::~NormalForm() = default;

std::optional<bool> NormalForm::decide(const Pred& c) {
  Truth t = impl_->truth(c.node());
  if (t == Truth::Unknown) return std::nullopt;
  return t == Truth::True;
}

}  // namespace gshape::gradual
