// Message templates and obligation rendering.
#include "gradual/obligation.h"

#include <set>

#include "frontend/json_writer.h"

namespace gshape::gradual {

Message& Message::operator<<(std::string_view text) {
  if (!pieces_.empty() && !pieces_.back().term && !pieces_.back().shape) {
    pieces_.back().text += text;
  } else {
    pieces_.push_back({std::string(text), std::nullopt, std::nullopt});
  }
  return *this;
}

Message& Message::operator<<(const IntTerm& hole) {
  if (hole.is_literal()) return *this << std::to_string(hole.expr()->value);
  pieces_.push_back({{}, hole, std::nullopt});
  return *this;
}

Message& Message::operator<<(const ShapeHole& hole) {
  pieces_.push_back({{}, std::nullopt, hole});
  return *this;
}

namespace {
std::string escape_braces(const std::string& text) {
  std::string out;
  for (char c : text) {
    out += c;
    if (c == '{' || c == '}') out += c;
  }
  return out;
}
}  // namespace

std::string Message::runtime_template() const {
  std::string out;
  for (const Piece& p : pieces_) {
    if (p.term) {
      if (p.term->expr()->has_opaque) {
        out += escape_braces(p.term->dim().str());
      } else {
        out += '{';
        out += p.term->sexpr();
        out += '}';
      }
    } else if (p.shape) {
      if (p.shape->slot >= 0) {
        out += "{shape ";
        out += std::to_string(p.shape->slot);
        out += '}';
      } else {
        out += escape_braces(p.shape->shape.str());
      }
    } else {
      out += escape_braces(p.text);
    }
  }
  return out;
}

std::string Message::render_static() const {
  SymbolNamingScope names;  // one size, one name across the message
  std::string out;
  for (const Piece& p : pieces_) {
    if (p.term) {
      out += p.term->dim().str();
    } else if (p.shape) {
      out += p.shape->shape.str();
    } else {
      out += p.text;
    }
  }
  return out;
}

std::string Message::render_static(const std::function<std::string(const Dim&)>& dim_text) const {
  SymbolNamingScope names;  // one size, one name across the message
  std::string out;
  for (const Piece& p : pieces_) {
    if (p.term) {
      out += dim_text(p.term->dim());
    } else if (p.shape && p.shape->shape.rank_known()) {
      out += "[";
      const std::vector<Dim>& dims = p.shape->shape.dims();
      for (std::size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + dim_text(dims[i]);
      out += "]";
    } else if (p.shape) {
      out += p.shape->shape.str();
    } else {
      out += p.text;
    }
  }
  return out;
}

std::vector<int> Message::slots() const {
  std::set<int> slots;
  for (const Piece& p : pieces_) {
    if (p.term && !p.term->expr()->has_opaque)
      for (int s : slots_of(p.term->expr())) slots.insert(s);
    if (p.shape && p.shape->slot >= 0) slots.insert(p.shape->slot);
  }
  return {slots.begin(), slots.end()};
}

std::vector<int> Message::shape_slots() const {
  std::set<int> slots;
  for (const Piece& p : pieces_)
    if (p.shape && p.shape->slot >= 0) slots.insert(p.shape->slot);
  return {slots.begin(), slots.end()};
}

const char* status_name(Status s) {
  switch (s) {
    case Status::Proven: return "proven";
    case Status::Refuted: return "refuted";
    case Status::Deferred: return "deferred";
  }
  return "?";
}

bool Obligation::runtime_checkable() const { return !constraint.expr()->has_opaque; }

std::string Obligation::example_str() const {
  std::string out;
  for (const auto& [name, value] : example) {
    if (!out.empty()) out += ", ";
    out += name + " = " + std::to_string(value);
  }
  return out;
}

void write_json(JsonWriter& out, const Obligation& ob) {
  out.begin_object();
  out.field("id", ob.id);
  out.field("path", ob.loc.file ? ob.loc.file->path() : std::string());
  out.field("line", static_cast<uint64_t>(ob.loc.line));
  out.field("column", static_cast<uint64_t>(ob.loc.column));
  out.field("rule", ob.rule);
  out.field("tag", ob.tag);
  out.field("status", status_name(ob.status));
  out.field("constraint", ob.constraint_sexpr());
  out.field("static_constraint", ob.constraint.pred().str());
  out.field("message", ob.render_message());
  out.field("message_template", ob.message_template());
  out.field("runtime_checkable", ob.runtime_checkable());
  out.field("decided_without_z3", ob.decided_without_z3);
  out.field("reason", ob.reason);
  if (!ob.origin.empty()) out.field("origin", ob.origin);
  out.key("slots").begin_array();
  for (const SlotInfo& s : ob.slots) {
    out.begin_object().field("slot", s.slot).field("description", s.description);
    if (s.loc.valid()) {
      out.field("line", static_cast<uint64_t>(s.loc.line)).field("column", static_cast<uint64_t>(s.loc.column));
      out.field("begin", static_cast<uint64_t>(s.loc.begin)).field("end", static_cast<uint64_t>(s.loc.end));
    }
    out.end_object();
  }
  out.end_array();
  out.key("example").begin_object();
  for (const auto& [name, value] : ob.example) out.field(name, value);
  out.end_object();
  out.key("core").begin_array();
  for (const FactRef& f : ob.core) {
    out.begin_object();
    out.field("location", f.loc.str());
    out.field("description", f.description);
    out.end_object();
  }
  out.end_array();
  out.end_object();
}

}  // namespace gshape::gradual
