// Small helpers of the interpreter's object kinds.
#include "gradual/interp_objects.h"

namespace gshape::gradual::interp {

const std::vector<ir::Parameter>& FunctionObject::params() const {
  static const std::vector<ir::Parameter> none;
  if (def) return def->params;
  if (lambda) return lambda->params;
  return none;
}

namespace {
const Value* lookup_in(const ClassObject& cls, const std::string& name, int depth) {
  if (depth > 32) return nullptr;  // a cycle of bases cannot happen in Python; stay safe anyway
  if (const Value* v = cls.attribute(name)) return v;
  for (const Value& base : cls.bases) {
    if (const auto* b = object_as<ClassObject>(base)) {
      if (const Value* v = lookup_in(*b, name, depth + 1)) return v;
    }
  }
  return nullptr;
}
}  // namespace

const Value* ClassObject::lookup(const std::string& name) const { return lookup_in(*this, name, 0); }

Value DatasetObject::sample() const {
  if (item) return *item;
  std::vector<Value> out;
  for (const Value& t : tensors) {
    if (t.is_tensor() && t.shape().rank_known() && t.shape().rank() >= 1) {
      out.push_back(Value::tensor(Shape(std::vector<Dim>(t.shape().dims().begin() + 1, t.shape().dims().end()))));
    } else {
      out.push_back(Value::tensor(Shape::unknown(), false));
    }
  }
  return Value::tuple(std::move(out));
}

std::optional<Dim> DatasetObject::length() const {
  if (item) return size;
  if (tensors.empty()) return std::nullopt;
  const Value& first = tensors.front();
  if (!first.is_tensor() || !first.shape().rank_known() || first.shape().rank() == 0) return std::nullopt;
  return first.shape()[0];
}

const Value* DictObject::find(const std::string& key) const {
  for (const auto& [k, v] : entries) {
    if (k == key) return &v;
  }
  return nullptr;
}

void DictObject::set(const std::string& key, Value v) {
  for (auto& [k, old] : entries) {
    if (k == key) {
      old = std::move(v);
      return;
    }
  }
  entries.emplace_back(key, std::move(v));
}

std::optional<std::string> dict_key(const Value& v) {
  if (v.is_str() && v.as_str()) return "s:" + *v.as_str();
  if (v.is_int() && v.as_int().is_constant()) return "i:" + std::to_string(*v.as_int().constant_value());
  return std::nullopt;
}

bool ChoiceObject::has_none() const {
  for (const Value& v : alternatives)
    if (v.is_none()) return true;
  return false;
}

}  // namespace gshape::gradual::interp
