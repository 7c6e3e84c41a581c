// Printing of oracle cases (no libtorch here).
#include "oracle.h"

#include <sstream>

namespace gshape::oracle {

OArg OArg::tensor(std::vector<int64_t> s) {
  OArg a;
  a.kind = Kind::Tensor;
  a.shape = std::move(s);
  return a;
}
OArg OArg::bool_tensor(std::vector<int64_t> s) {
  OArg a = tensor(std::move(s));
  a.kind = Kind::BoolTensor;
  return a;
}
OArg OArg::long_tensor(std::vector<int64_t> s) {
  OArg a = tensor(std::move(s));
  a.kind = Kind::LongTensor;
  return a;
}
OArg OArg::slice(int64_t start, int64_t stop, int64_t step) {
  OArg a;
  a.kind = Kind::Slice;
  a.start = start;
  a.stop = stop;
  a.step = step;
  return a;
}
OArg OArg::ellipsis() {
  OArg a;
  a.kind = Kind::Ellipsis;
  return a;
}
OArg OArg::index(std::vector<OArg> items) {
  OArg a;
  a.kind = Kind::Index;
  a.items = std::move(items);
  return a;
}
OArg OArg::integer(int64_t v) {
  OArg a;
  a.kind = Kind::Int;
  a.i = v;
  return a;
}
OArg OArg::int_list(std::vector<int64_t> v) {
  OArg a;
  a.kind = Kind::IntList;
  a.ints = std::move(v);
  return a;
}
OArg OArg::boolean(bool v) {
  OArg a;
  a.kind = Kind::Bool;
  a.b = v;
  return a;
}
OArg OArg::floating(double v) {
  OArg a;
  a.kind = Kind::Float;
  a.f = v;
  return a;
}
OArg OArg::none() { return OArg(); }
OArg OArg::tensors(std::vector<std::vector<int64_t>> s) {
  OArg a;
  a.kind = Kind::TensorList;
  a.shapes = std::move(s);
  return a;
}

OArg OArg::string(std::string v) {
  OArg a;
  a.kind = Kind::Str;
  a.s = std::move(v);
  return a;
}

std::string shape_str(const std::vector<int64_t>& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + "]";
}

std::string OArg::str() const {
  switch (kind) {
    case Kind::Tensor: return "Tensor" + shape_str(shape);
    case Kind::BoolTensor: return "BoolTensor" + shape_str(shape);
    case Kind::LongTensor: return "LongTensor" + shape_str(shape);
    case Kind::Ellipsis: return "...";
    case Kind::Slice: {
      auto bound = [](int64_t b) { return b == kNoBound ? std::string() : std::to_string(b); };
      return bound(start) + ":" + bound(stop) + (step == 1 ? "" : ":" + std::to_string(step));
    }
    case Kind::Index: {
      std::string out = "[";
      for (std::size_t k = 0; k < items.size(); ++k) out += (k ? ", " : "") + items[k].str();
      return out + "]";
    }
    case Kind::Int: return std::to_string(i);
    case Kind::IntList: return "(" + shape_str(ints).substr(1, shape_str(ints).size() - 2) + ")";
    case Kind::Bool: return b ? "True" : "False";
    case Kind::Float: {
      std::ostringstream o;
      o << f;
      return o.str();
    }
    case Kind::None: return "None";
    case Kind::Str: return "'" + s + "'";
    case Kind::TensorList: {
      std::string out = "[";
      for (std::size_t k = 0; k < shapes.size(); ++k) out += (k ? ", " : "") + ("Tensor" + shape_str(shapes[k]));
      return out + "]";
    }
  }
  return "?";
}

const OArg& OCase::kw(const std::string& name) const {
  static const OArg none;
  for (const auto& [k, v] : kwargs)
    if (k == name) return v;
  return none;
}

bool OCase::has_kw(const std::string& name) const {
  for (const auto& [k, v] : kwargs)
    if (k == name) return true;
  return false;
}

std::string OCase::str() const {
  std::string out = "(";
  for (std::size_t k = 0; k < args.size(); ++k) out += (k ? ", " : "") + args[k].str();
  for (const auto& [k, v] : kwargs) out += (out.size() > 1 ? ", " : "") + k + "=" + v.str();
  return out + ")";
}

}  // namespace gshape::oracle
