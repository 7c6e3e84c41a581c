// Observed operands: their cache key and their description in messages.
#include "runtime/observed.h"

#include <cstring>
#include <sstream>

namespace gshape::runtime {

namespace {

void put_int(std::string& key, int64_t v) {
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  key.append(bytes, sizeof v);
}

void put_text(std::string& key, const std::string& s) {
  put_int(key, static_cast<int64_t>(s.size()));
  key += s;
}

std::string float_text(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  std::string s = out.str();
  if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
  return s;
}

std::string item_text(const Observed& o) {
  switch (o.kind) {
    case ObservedKind::Int: return std::to_string(o.value);
    case ObservedKind::Bool: return o.value ? "True" : "False";
    case ObservedKind::Float: return float_text(o.real);
    case ObservedKind::Str: return "'" + o.text + "'";
    case ObservedKind::None: return "None";
    case ObservedKind::Tensor: return "tensor of shape " + shape_text(o.dims);
    case ObservedKind::Tuple:
    case ObservedKind::List:
    case ObservedKind::Size: {
      std::string s = o.kind == ObservedKind::List ? "[" : o.kind == ObservedKind::Size ? "torch.Size([" : "(";
      for (std::size_t i = 0; i < o.items.size(); ++i) s += (i ? ", " : "") + item_text(o.items[i]);
      if (!o.items_kept) s += ", ...";
      if (o.kind == ObservedKind::Tuple && o.items.size() == 1) s += ",";
      s += o.kind == ObservedKind::List ? "]" : o.kind == ObservedKind::Size ? "])" : ")";
      return s;
    }
    case ObservedKind::Module: return "an " + (o.module ? o.module->text : o.text);
    case ObservedKind::Dict: return "a dict";
    case ObservedKind::Unset: return "not recorded";
    case ObservedKind::Other: return "a value of another kind";
  }
  return "?";
}

}  // namespace

std::string shape_text(const std::vector<int64_t>& dims) {
  std::string s = "[";
  for (std::size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

void Observed::append_key(std::string& key) const {
  key += static_cast<char>(kind);
  switch (kind) {
    case ObservedKind::Tensor:
      put_int(key, static_cast<int64_t>(dims.size()));
      for (int64_t d : dims) put_int(key, d);
      key += contiguous ? 'c' : 's';
      key += static_cast<char>('0' + dtype);
      if (!contiguous)
        for (int64_t s : strides) put_int(key, s);
      break;
    case ObservedKind::Int:
    case ObservedKind::Bool: put_int(key, value); break;
    case ObservedKind::Float: {
      int64_t bits = 0;
      std::memcpy(&bits, &real, sizeof bits);
      put_int(key, bits);
      break;
    }
    case ObservedKind::Str: put_text(key, text); break;
    case ObservedKind::Module:
      if (module) {  // a snapshot's id stands for its whole content
        put_int(key, value);
        break;
      }
      [[fallthrough]];
    case ObservedKind::Tuple:
    case ObservedKind::List:
    case ObservedKind::Size:
    case ObservedKind::Dict:
      put_text(key, text);
      put_int(key, length);
      key += items_kept ? '1' : '0';
      put_int(key, static_cast<int64_t>(items.size()));
      for (std::size_t i = 0; i < items.size(); ++i) {
        if (i < names.size()) put_text(key, names[i]);
        items[i].append_key(key);
      }
      break;
    case ObservedKind::Other:
      put_text(key, text);
      for (const Observed& i : items) i.append_key(key);  // a slice's bounds
      break;
    case ObservedKind::Unset:
    case ObservedKind::None: break;
  }
}

std::string Observed::describe() const {
  switch (kind) {
    case ObservedKind::Tensor: return "shape " + shape_text(dims);
    case ObservedKind::Size: {
      std::vector<int64_t> sizes;
      for (const Observed& i : items) sizes.push_back(i.value);
      return "shape " + shape_text(sizes);
    }
    case ObservedKind::Unset: return "has no recorded value";
    case ObservedKind::Other: return "is not a tensor, number or sequence";
    case ObservedKind::Module: return "is " + item_text(*this);
    case ObservedKind::Dict: return "is a dict";
    default: return "= " + item_text(*this);
  }
}

}  // namespace gshape::runtime
