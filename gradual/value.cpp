// Abstract value constructors and debug printing.
#include "gradual/value.h"

#include <sstream>

namespace gshape::gradual {

const char* cause_kind_name(UnknownCause::Kind kind) {
  switch (kind) {
    case UnknownCause::Kind::RunTimeData: return "run-time data";
    case UnknownCause::Kind::Error: return "earlier error";
    case UnknownCause::Kind::NoRule: return "no rule";
    case UnknownCause::Kind::Unresolved: return "callee not resolved";
    case UnknownCause::Kind::Layers: return "layers not listed";
    case UnknownCause::Kind::Library: return "library not modelled";
  }
  return "";
}

Value Value::none() {
  Value v;
  v.kind_ = ValueKind::None;
  return v;
}

Value Value::boolean(const Pred& p) {
  Value v;
  v.kind_ = ValueKind::Bool;
  v.pred_ = p;
  return v;
}

Value Value::integer(const Dim& d) {
  Value v;
  v.kind_ = ValueKind::Int;
  v.dim_ = d;
  return v;
}

Value Value::unknown_int(const Dim& d) {
  Value v;
  v.dim_ = d;
  v.int_hint_ = true;
  return v;
}

std::optional<Dim> Value::int_view() const {
  if (kind_ == ValueKind::Int || (kind_ == ValueKind::Unknown && int_hint_)) return dim_;
  return std::nullopt;
}

Value Value::floating(std::optional<double> f) {
  Value v;
  v.kind_ = ValueKind::Float;
  v.float_ = f;
  return v;
}

Value Value::string(std::optional<std::string> s) {
  Value v;
  v.kind_ = ValueKind::Str;
  v.str_ = std::move(s);
  return v;
}

Value Value::tensor(Shape shape) {
  Value v;
  v.kind_ = ValueKind::Tensor;
  v.shape_ = std::move(shape);
  return v;
}

Value Value::tensor(Shape shape, bool contiguous, std::vector<int64_t> strides) {
  Value v = tensor(std::move(shape));
  v.contiguous_ = contiguous;
  if (!strides.empty() || (v.shape_.rank_known() && v.shape_.rank() == 0))
    v.strides_ = std::make_shared<const std::vector<int64_t>>(std::move(strides));
  return v;
}

Value Value::with_contiguous(bool contiguous) const {
  Value v = *this;
  v.contiguous_ = contiguous;
  if (!contiguous) v.strides_.reset();
  return v;
}

Value Value::with_may_be(std::vector<const void*> storages) const {
  Value v = *this;
  v.may_be_ = std::make_shared<const std::vector<const void*>>(std::move(storages));
  return v;
}

Value Value::with_dtype(Dtype dtype) const {
  Value v = *this;
  v.dtype_ = dtype;
  return v;
}

Value Value::sequence(SequenceKind kind, std::vector<Value> items) {
  Value v;
  v.kind_ = ValueKind::Sequence;
  v.seq_kind_ = kind;
  v.items_ = std::make_shared<const std::vector<Value>>(std::move(items));
  return v;
}

Value Value::size_of(const Shape& shape) {
  if (!shape.rank_known()) return unknown_length(SequenceKind::Size, integer(Dim::symbol("size")));
  std::vector<Value> items;
  for (const Dim& d : shape.dims()) items.push_back(integer(d));
  return sequence(SequenceKind::Size, std::move(items));
}

Value Value::unknown_length(SequenceKind kind, Value element, bool uniform) {
  Value v;
  v.kind_ = ValueKind::Sequence;
  v.seq_kind_ = kind;
  v.uniform_ = uniform;
  v.element_ = std::make_shared<const Value>(std::move(element));
  return v;
}

Value Value::object(std::shared_ptr<ObjectValue> obj) {
  Value v;
  v.kind_ = ValueKind::Object;
  v.object_ = std::move(obj);
  return v;
}

std::string Value::str() const {
  switch (kind_) {
    case ValueKind::Unknown: return "?";
    case ValueKind::None: return "None";
    case ValueKind::Bool: return pred_.str();
    case ValueKind::Int: return dim_.str();
    case ValueKind::Float: {
      if (!float_) return "float";
      std::ostringstream out;
      out << *float_;
      return out.str();
    }
    case ValueKind::Str: return str_ ? "'" + *str_ + "'" : "str";
    case ValueKind::Tensor: return "Tensor" + shape_.str();
    case ValueKind::Object: return object_ ? "<" + object_->class_name + ">" : "<object>";
    case ValueKind::Sequence: {
      const char* open = seq_kind_ == SequenceKind::List ? "[" : seq_kind_ == SequenceKind::Size ? "torch.Size([" : "(";
      const char* close = seq_kind_ == SequenceKind::List ? "]" : seq_kind_ == SequenceKind::Size ? "])" : ")";
      std::string out = open;
      if (!items_) {
        out += element_ ? element_->str() : "?";
        out += ", ...";
      } else {
        for (std::size_t i = 0; i < items_->size(); ++i) {
          if (i) out += ", ";
          out += (*items_)[i].str();
        }
        if (items_->size() == 1 && seq_kind_ == SequenceKind::Tuple) out += ",";
      }
      return out + close;
    }
  }
  return "?";
}

const Value* ObjectValue::attribute(const std::string& name) const {
  auto it = attributes.find(name);
  return it == attributes.end() ? nullptr : &it->second;
}

}  // namespace gshape::gradual
