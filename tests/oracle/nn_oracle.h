// The nn oracle's vocabulary: a case is a module construction plus a call
// (or a function call) with Python-like arguments; PyTorch runs it in
// /usr/bin/python3 (nn_oracle.py: the modules' own Python code, then
// libtorch), gshape runs the construction and forward rules, and the
// outcomes are compared. No libtorch header here.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace gshape::oracle::nn {

// A Python argument.
struct NArg {
  enum class Kind { Tensor, LongTensor, BoolTensor, Int, Float, Bool, None, Str, Tuple };
  Kind kind = Kind::None;
  std::vector<int64_t> shape;  // tensors
  int64_t i = 0;
  double f = 0;
  bool b = false;
  std::string s;
  std::vector<NArg> items;  // Tuple

  std::string python() const;  // `T(2, 3)`, `LT(4)`, `(3, 3)`, `'mean'`, `0.5`
};

NArg T(std::vector<int64_t> shape);
NArg LT(std::vector<int64_t> shape);  // int64 (indices, class targets)
NArg BT(std::vector<int64_t> shape);
NArg I(int64_t v);
NArg F(double v);
NArg B(bool v);
NArg None();
NArg S(std::string v);
NArg Tup(std::vector<NArg> items);
NArg Ints(const std::vector<int64_t>& v);  // a tuple of ints

struct NCall {
  std::vector<NArg> args;
  std::vector<std::pair<std::string, NArg>> kwargs;
  std::string python() const;  // `16, 32, 3, stride=2`
};

// A module case: construction `init`, then the module called on `call`.
// A function case: `call` only.
struct NCase {
  NCall init;
  NCall call;
};

// What happened: an error, or the result shapes (nullopt for a None result).
struct NOutcome {
  bool threw = false;
  std::string error;
  std::vector<std::optional<std::vector<int64_t>>> shapes;
  // gshape's run-time check of the same case against PyTorch: "agree" or
  // "disagree: ..." (empty when the runtime was not built).
  std::string runtime;
};

std::string shapes_str(const std::vector<std::optional<std::vector<int64_t>>>& shapes);

// Seeded random choices for generators.
struct Rng {
  std::mt19937_64 g;
  explicit Rng(uint64_t seed) : g(seed) {}
  int64_t range(int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(g); }
  bool chance(double p) { return std::bernoulli_distribution(p)(g); }
  double real(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(g); }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[static_cast<std::size_t>(range(0, static_cast<int64_t>(v.size()) - 1))]; }
  // Usually `v`, sometimes one off (the error boundary), rarely 0.
  int64_t near(int64_t v, double off = 0.15) {
    if (chance(off)) return v + (chance(0.5) ? 1 : -1);
    return v;
  }
};

struct NSuite {
  std::string target;  // Python: `nn.Conv2d` (a module) or `F.conv2d`
  std::string rule;    // registry key: construction `torch.nn.Conv2d` (forward: + ".forward") or the function's
  std::function<NCase(Rng&)> gen;
  bool can_fail = true;  // the generator must reach both errors and successes
  bool module() const { return target.rfind("nn.", 0) == 0; }
};

// Runs every case through nn_oracle.py in one Python process.
std::vector<NOutcome> run_python(const std::vector<std::pair<std::string, NCase>>& cases, std::string* error);

// The suites of each family (nn_suites_*.cpp).
std::vector<NSuite> conv_suites();
std::vector<NSuite> pool_suites();
std::vector<NSuite> norm_suites();
std::vector<NSuite> layer_suites();
std::vector<NSuite> resample_suites();
std::vector<NSuite> recurrent_suites();
std::vector<NSuite> attention_suites();
std::vector<NSuite> loss_suites();

}  // namespace gshape::oracle::nn
