// The libtorch oracle's shared vocabulary (no libtorch header here): a test
// case is a list of Python-like arguments; the torch side runs the real op
// on it, the rule side runs gshape's rule, and the outcomes are compared.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace gshape::oracle {

struct OArg {
  // LongTensor, Slice, Ellipsis: items of an Index (a tuple of index items,
  // as Python passes `x[a, b]`).
  enum class Kind { Tensor, BoolTensor, Int, IntList, Bool, Float, None, TensorList, Str, LongTensor, Slice, Ellipsis, Index };
  Kind kind = Kind::None;
  std::vector<int64_t> shape;               // Tensor, BoolTensor
  int64_t i = 0;                            // Int
  std::vector<int64_t> ints;                // IntList
  bool b = false;                           // Bool
  double f = 0;                             // Float
  std::vector<std::vector<int64_t>> shapes;  // TensorList
  std::string s;                            // Str
  std::vector<OArg> items;                  // Index
  // Slice: start and stop (kNoBound: None), step
  static constexpr int64_t kNoBound = INT64_MIN;
  int64_t start = kNoBound, stop = kNoBound, step = 1;

  static OArg tensor(std::vector<int64_t> s);
  static OArg bool_tensor(std::vector<int64_t> s);
  static OArg integer(int64_t v);
  static OArg int_list(std::vector<int64_t> v);
  static OArg boolean(bool v);
  static OArg floating(double v);
  static OArg none();
  static OArg tensors(std::vector<std::vector<int64_t>> s);
  static OArg string(std::string v);
  static OArg long_tensor(std::vector<int64_t> s);
  static OArg slice(int64_t start = kNoBound, int64_t stop = kNoBound, int64_t step = 1);
  static OArg ellipsis();
  static OArg index(std::vector<OArg> items);
  std::string str() const;
};

struct OCase {
  std::vector<OArg> args;
  std::vector<std::pair<std::string, OArg>> kwargs;
  const OArg& kw(const std::string& name) const;  // None when absent
  bool has_kw(const std::string& name) const;
  std::string str() const;
};

// What happened: an error, or the result shapes (one per result tensor).
struct Outcome {
  bool threw = false;
  std::string error;
  std::vector<std::vector<int64_t>> shapes;
};

std::string shape_str(const std::vector<int64_t>& s);

// Runs the real libtorch op named `op` (oracle_torch.cpp, the only file
// that includes libtorch headers). Throws std::invalid_argument for an op
// it does not know.
Outcome run_torch(const std::string& op, const OCase& c);

}  // namespace gshape::oracle
