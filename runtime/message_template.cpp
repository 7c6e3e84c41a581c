#include "runtime/message_template.h"

#include <algorithm>

namespace gshape::runtime {

namespace {

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

std::string_view trim(std::string_view s, std::size_t& offset) {
  while (!s.empty() && is_blank(s.front())) {
    s.remove_prefix(1);
    ++offset;
  }
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

// `{shape K}`: returns true and sets `slot` when `hole` has that form.
bool parse_shape_hole(std::string_view hole, std::size_t offset, std::size_t& slot) {
  constexpr std::string_view kWord = "shape";
  if (hole.substr(0, kWord.size()) != kWord || hole.size() == kWord.size() || !is_blank(hole[kWord.size()]))
    return false;
  std::string_view rest = hole.substr(kWord.size());
  std::size_t rest_offset = offset + kWord.size();
  rest = trim(rest, rest_offset);
  int64_t k = -1;
  bool digits = !rest.empty() && std::all_of(rest.begin(), rest.end(), [](char c) { return c >= '0' && c <= '9'; });
  if (digits && rest.size() <= 3) k = std::stoll(std::string(rest));
  if (k < 0 || k > kMaxSlot)
    throw ConstraintSyntaxError("{shape K} needs a slot number 0.." + std::to_string(kMaxSlot) + ", not '" +
                                    std::string(rest) + "' at offset " + std::to_string(rest_offset),
                                rest_offset);
  slot = static_cast<std::size_t>(k);
  return true;
}

void append_int(std::string& out, int64_t v) { out += std::to_string(v); }

void append_items(std::string& out, const Operand& operand, char open, char close) {
  out += open;
  for (std::size_t i = 0; i < static_cast<std::size_t>(operand.length); ++i) {
    if (i > 0) out += ", ";
    if (i >= operand.dims.size()) {  // items past kMaxRecordedItems were not kept
      out += "...";
      break;
    }
    if (operand.kind == OperandKind::Tensor || operand.item_is_int[i]) {
      append_int(out, operand.dims[i]);
    } else {
      out += '?';
    }
  }
  if (open == '(' && operand.length == 1) out += ',';  // Python's (7,)
  out += close;
}

}  // namespace

MessageTemplate MessageTemplate::parse(std::string_view text) {
  MessageTemplate m;
  std::string literal;
  auto flush = [&] {
    if (!literal.empty()) m.parts_.push_back(Part{PartKind::Literal, std::move(literal), 0});
    literal.clear();
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '}') {
      if (i + 1 < text.size() && text[i + 1] == '}') {
        literal += '}';
        ++i;
        continue;
      }
      throw ConstraintSyntaxError("single '}' (write '}}' for a brace) at offset " + std::to_string(i), i);
    }
    if (c != '{') {
      literal += c;
      continue;
    }
    if (i + 1 < text.size() && text[i + 1] == '{') {
      literal += '{';
      ++i;
      continue;
    }
    std::size_t close = text.find('}', i + 1);
    if (close == std::string_view::npos)
      throw ConstraintSyntaxError("'{' without a closing '}' at offset " + std::to_string(i), i);
    std::size_t offset = i + 1;
    std::string_view hole = trim(text.substr(i + 1, close - i - 1), offset);
    if (hole.empty()) throw ConstraintSyntaxError("empty hole '{}' at offset " + std::to_string(i), i);
    flush();
    std::size_t slot = 0;
    if (parse_shape_hole(hole, offset, slot)) {
      m.parts_.push_back(Part{PartKind::Shape, {}, slot});
      m.slot_count_ = std::max(m.slot_count_, slot + 1);
    } else {
      try {
        m.holes_.push_back(Expr::parse(hole));
      } catch (const ConstraintSyntaxError& e) {
        // Re-anchor the error at its place in the whole message.
        std::size_t at = offset + e.offset();
        throw ConstraintSyntaxError("in hole {" + std::string(hole) + "}: " + e.what() +
                                        " (offset " + std::to_string(at) + " in the message)",
                                    at);
      }
      m.parts_.push_back(Part{PartKind::Expression, {}, m.holes_.size() - 1});
      m.slot_count_ = std::max(m.slot_count_, m.holes_.back().slot_count());
    }
    i = close;
  }
  flush();
  return m;
}

void MessageTemplate::render(std::string& out, const Operand* operands, std::size_t count) const {
  for (const Part& part : parts_) {
    switch (part.kind) {
      case PartKind::Literal: out += part.literal; break;
      case PartKind::Shape:
        if (part.index < count) {
          append_shape(out, operands[part.index]);
        } else {
          out += '?';
        }
        break;
      case PartKind::Expression: {
        const Expr& e = holes_[part.index];
        Value v = e.evaluate(operands, count);
        if (!v.known) {
          out += '?';
        } else if (e.is_condition()) {
          out += v.v != 0 ? "true" : "false";
        } else {
          append_int(out, v.v);
        }
        break;
      }
    }
  }
}

void append_shape(std::string& out, const Operand& operand) {
  if (operand.is_shape()) {
    append_items(out, operand, '[', ']');
  } else if (operand.is_int()) {
    append_int(out, operand.value);
  } else {
    out += '?';
  }
}

void append_description(std::string& out, std::string_view name, const Operand& operand) {
  out += name;
  switch (operand.kind) {
    case OperandKind::Tensor:
    case OperandKind::Size:
      out += " shape ";
      append_items(out, operand, '[', ']');
      break;
    case OperandKind::Tuple: out += " = "; append_items(out, operand, '(', ')'); break;
    case OperandKind::List: out += " = "; append_items(out, operand, '[', ']'); break;
    case OperandKind::Int: out += " = "; append_int(out, operand.value); break;
    case OperandKind::Bool: out += operand.value != 0 ? " = True" : " = False"; break;
    case OperandKind::Other: out += " is not a tensor, int or sequence"; break;
    case OperandKind::Unset: out += " has no recorded value"; break;
  }
}

}  // namespace gshape::runtime
