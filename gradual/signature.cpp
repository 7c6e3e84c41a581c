// Parsing rule signatures and binding call arguments to them (Python's rules:
// positionals fill regular parameters in order, then *args; keywords by name).
#include "gradual/signature.h"

#include <charconv>
#include <stdexcept>

namespace gshape::gradual {
namespace {

std::string trim(std::string_view s) {
  std::size_t b = s.find_first_not_of(" \t");
  std::size_t e = s.find_last_not_of(" \t");
  return b == std::string_view::npos ? std::string() : std::string(s.substr(b, e - b + 1));
}

Value parse_default(const std::string& text) {
  if (text == "None") return Value::none();
  if (text == "True") return Value::boolean(Pred(true));
  if (text == "False") return Value::boolean(Pred(false));
  if (text.size() >= 2 && (text.front() == '\'' || text.front() == '"')) return Value::string(text.substr(1, text.size() - 2));
  int64_t i = 0;
  auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), i);
  if (ec == std::errc() && ptr == text.data() + text.size()) return Value::integer(Dim(i));
  try {
    std::size_t used = 0;
    double d = std::stod(text, &used);
    if (used == text.size()) return Value::floating(d);
  } catch (const std::exception&) {
  }
  throw std::invalid_argument("bad default value '" + text + "' in a rule signature");
}

}  // namespace

Signature Signature::parse(std::string_view text) {
  Signature sig;
  sig.text_ = std::string(text);
  bool keyword_only = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    std::string part = trim(text.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    start = comma == std::string_view::npos ? text.size() + 1 : comma + 1;
    if (part.empty()) continue;
    Param p;
    if (part == "*") {
      keyword_only = true;
      continue;
    }
    if (part.rfind("**", 0) == 0) {
      p.kind = Param::Kind::VarKeywords;
      p.name = part.substr(2);
    } else if (part[0] == '*') {
      p.kind = Param::Kind::VarArgs;
      p.name = part.substr(1);
      keyword_only = true;
    } else {
      p.kind = keyword_only ? Param::Kind::KeywordOnly : Param::Kind::Regular;
      std::size_t eq = part.find('=');
      p.name = trim(part.substr(0, eq));
      if (eq != std::string::npos) {
        p.has_default = true;
        p.default_value = parse_default(trim(part.substr(eq + 1)));
      }
    }
    if (p.name.empty()) throw std::invalid_argument("empty parameter name in rule signature '" + sig.text_ + "'");
    sig.params_.push_back(std::move(p));
  }
  return sig;
}

Binding bind(const Signature& sig, const CallSite& call) {
  Binding b;
  const auto& params = sig.params();
  std::size_t next = 0;  // next positional operand
  const Param* varkw = nullptr;
  for (const Param& p : params) {
    if (p.kind == Param::Kind::VarKeywords) varkw = &p;
  }
  for (const Param& p : params) {
    if (p.kind == Param::Kind::Regular && next < call.positional.size()) {
      b.params[p.name] = {call.positional[next++], true};
    } else if (p.kind == Param::Kind::VarArgs) {
      Operand rest;
      std::vector<Value> values;
      for (; next < call.positional.size(); ++next) {
        rest.elements.push_back(call.positional[next]);
        values.push_back(call.positional[next].value);
      }
      rest.value = Value::tuple(std::move(values));
      bool given = !rest.elements.empty();
      b.params[p.name] = {std::move(rest), given};
    }
  }
  if (next < call.positional.size()) {
    b.error = "too many positional arguments";
    return b;
  }
  for (const auto& [name, operand] : call.keywords) {
    const Param* target = nullptr;
    for (const Param& p : params)
      if (p.name == name && p.kind != Param::Kind::VarKeywords) target = &p;
    if (!target) {
      if (varkw) continue;  // absorbed (dtype=, device=, ...): no shape meaning
      b.error = "unexpected keyword argument '" + name + "'";
      return b;
    }
    auto it = b.params.find(name);
    if (target->kind == Param::Kind::VarArgs) {
      if (it != b.params.end() && it->second.provided) {
        b.error = "argument '" + name + "' given twice";
        return b;
      }
      Operand one;
      one.elements.push_back(operand);
      one.value = Value::tuple({operand.value});
      b.params[name] = {std::move(one), true};
      continue;
    }
    if (it != b.params.end() && it->second.provided) {
      b.error = "argument '" + name + "' given twice";
      return b;
    }
    b.params[name] = {operand, true};
  }
  for (const Param& p : params) {
    if (p.kind == Param::Kind::VarKeywords || b.params.count(p.name)) continue;
    if (!p.has_default) {
      b.error = "missing argument '" + p.name + "'";
      return b;
    }
    b.params[p.name] = {Operand(p.default_value), false};
  }
  return b;
}

}  // namespace gshape::gradual
