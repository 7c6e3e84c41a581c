// Joining a function's call samples into jaxtyping dimension strings.
#include "gradual/signature_inference.h"

#include <cctype>
#include <set>

namespace gshape::gradual {

namespace {

using namespace ir;

bool is_identifier(const std::string& s) {
  static const std::set<std::string> keywords = {
      "False", "None",   "True",    "and",      "as",   "assert", "async",  "await", "break", "class", "continue",
      "def",   "del",    "elif",    "else",     "except", "finally", "for", "from",  "global", "if",   "import",
      "in",    "is",     "lambda",  "nonlocal", "not",  "or",     "pass",   "raise", "return", "try",  "while",
      "with",  "yield"};
  if (s.empty() || s[0] == '_' || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (char c : s)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_') return false;
  return !keywords.count(s);
}

// `p.shape`, `p.size()`: the parameter's name, else "".
std::string shape_of_param(const Expr* e) {
  if (const auto* a = dyn_cast<Attribute>(e); a && a->attr == "shape") {
    if (const auto* n = dyn_cast<Name>(a->value)) return n->id;
  }
  if (const auto* c = dyn_cast<Call>(e); c && c->args.empty()) {
    if (const auto* a = dyn_cast<Attribute>(c->func); a && a->attr == "size")
      if (const auto* n = dyn_cast<Name>(a->value)) return n->id;
  }
  return {};
}

// `p.shape[k]`, `p.size(k)` with a literal k: (parameter, k).
std::optional<std::pair<std::string, int64_t>> axis_of_param(const Expr* e) {
  auto literal = [](const Expr* x) -> std::optional<int64_t> {
    if (const auto* c = dyn_cast<Constant>(x); c && c->type == Constant::Type::Int) return c->int_value;
    return std::nullopt;
  };
  if (const auto* s = dyn_cast<Subscript>(e)) {
    std::string p = shape_of_param(s->value);
    if (auto k = literal(s->index); k && !p.empty() && dyn_cast<Attribute>(s->value)) return std::make_pair(p, *k);
  }
  if (const auto* c = dyn_cast<Call>(e); c && c->args.size() == 1) {
    if (const auto* a = dyn_cast<Attribute>(c->func); a && a->attr == "size")
      if (const auto* n = dyn_cast<Name>(a->value))
        if (auto k = literal(c->args[0].value)) return std::make_pair(n->id, *k);
  }
  return std::nullopt;
}

// The names the function's own statements give to its parameters' axes:
// (parameter, axis from the front or, negative, from the back) → name.
std::map<std::pair<std::string, int64_t>, std::string> code_names(const FunctionDef& def) {
  std::map<std::pair<std::string, int64_t>, std::string> out;
  for (const Stmt* s : def.body) {
    const auto* a = dyn_cast<Assign>(s);
    if (!a || a->targets.size() != 1) continue;
    if (const auto* t = dyn_cast<Tuple>(a->targets[0])) {
      std::string p = shape_of_param(a->value);
      if (p.empty()) continue;
      for (std::size_t k = 0; k < t->elts.size(); ++k)
        if (const auto* n = dyn_cast<Name>(t->elts[k])) out.emplace(std::make_pair(p, static_cast<int64_t>(k)), n->id);
    } else if (const auto* n = dyn_cast<Name>(a->targets[0])) {
      if (auto axis = axis_of_param(a->value)) out.emplace(*axis, n->id);
    }
  }
  return out;
}

// The shapes of one position (a parameter or the result) in every sample,
// when it is a tensor of the same known rank in all of them.
std::optional<std::vector<const Shape*>> same_rank(const std::vector<const Value*>& values) {
  std::vector<const Shape*> out;
  for (const Value* v : values) {
    if (!v->is_tensor() || !v->shape().rank_known()) return std::nullopt;
    if (!out.empty() && out.front()->rank() != v->shape().rank()) return std::nullopt;
    out.push_back(&v->shape());
  }
  if (out.empty()) return std::nullopt;
  return out;
}

}  // namespace

InferredSignature infer_signature(const FunctionDef& def, const std::vector<SignatureSample>& samples) {
  InferredSignature sig;
  sig.def = &def;
  sig.params.assign(def.params.size(), std::nullopt);
  if (samples.empty()) return sig;
  // positions: the parameters to write (no annotation of their own), then the result
  struct Position {
    int param = -1;  // -1: the result
    std::vector<const Shape*> shapes;
  };
  std::vector<Position> positions;
  for (std::size_t i = 0; i < def.params.size(); ++i) {
    const Parameter& p = def.params[i];
    if (p.annotation || p.type == Parameter::Type::VarArgs || p.type == Parameter::Type::VarKeywords) continue;
    std::vector<const Value*> values;
    for (const SignatureSample& s : samples) values.push_back(i < s.params.size() ? &s.params[i] : nullptr);
    bool all = true;
    for (const Value* v : values) all = all && v;
    if (!all) continue;
    if (auto shapes = same_rank(values)) positions.push_back({static_cast<int>(i), std::move(*shapes)});
  }
  if (!def.returns) {
    std::vector<const Value*> values;
    for (const SignatureSample& s : samples) values.push_back(&s.result);
    if (auto shapes = same_rank(values)) positions.push_back({-1, std::move(*shapes)});
  }
  if (positions.empty()) return sig;

  std::map<std::pair<std::string, int64_t>, std::string> from_code = code_names(def);
  // group the axes whose sizes agree in every sample
  std::map<std::vector<const void*>, std::string> group_name;
  std::set<std::string> used;
  auto name_group = [&](const Position& pos, std::size_t axis) -> std::string {
    std::vector<const void*> key;
    for (const Shape* s : pos.shapes) key.push_back(s->dims()[axis].node());
    auto it = group_name.find(key);
    if (it != group_name.end()) return it->second;
    std::string name;
    if (pos.param >= 0) {
      const std::string& p = def.params[static_cast<std::size_t>(pos.param)].name;
      int64_t rank = static_cast<int64_t>(pos.shapes.front()->rank());
      for (int64_t k : {static_cast<int64_t>(axis), static_cast<int64_t>(axis) - rank}) {
        auto c = from_code.find({p, k});
        if (c != from_code.end() && is_identifier(c->second) && !used.count(c->second)) name = c->second;
      }
    }
    if (name.empty()) {
      std::string display = pos.shapes.front()->dims()[axis].str();
      bool same = true;
      for (const Shape* s : pos.shapes) same = same && s->dims()[axis].str() == display;
      if (same && is_identifier(display) && !used.count(display)) name = display;
    }
    for (int n = 0; name.empty(); ++n)
      if (!used.count("d" + std::to_string(n))) name = "d" + std::to_string(n);
    used.insert(name);
    group_name.emplace(std::move(key), name);
    return name;
  };
  // the names the code gives to parameters' axes come first (even for a size
  // that is the same in every call: `B, T, C = x.size()` reads better than
  // `8 16 32`), and a result axis of the same sizes takes the same name
  auto key_of = [](const Position& pos, std::size_t axis) {
    std::vector<const void*> key;
    for (const Shape* s : pos.shapes) key.push_back(s->dims()[axis].node());
    return key;
  };
  for (const Position& pos : positions) {
    if (pos.param < 0) continue;
    const std::string& p = def.params[static_cast<std::size_t>(pos.param)].name;
    int64_t rank = static_cast<int64_t>(pos.shapes.front()->rank());
    for (std::size_t axis = 0; axis < pos.shapes.front()->rank(); ++axis) {
      for (int64_t k : {static_cast<int64_t>(axis), static_cast<int64_t>(axis) - rank}) {
        auto c = from_code.find({p, k});
        if (c == from_code.end() || !is_identifier(c->second) || used.count(c->second)) continue;
        if (group_name.emplace(key_of(pos, axis), c->second).second) used.insert(c->second);
      }
    }
  }
  // The leading axis of a module's forward (rank 2 or more) is its batch:
  // the size the calls the analysis saw happen to use (`m(torch.randn(3, 4))`)
  // is not one the module requires, so it gets a name, shared by the
  // parameters and the result whose leading sizes agree (an outside user's
  // report: "3 4" -> "3 2" made every other batch size an error).
  std::map<std::vector<const void*>, std::string> batch_name;
  auto batch_group = [&](const Position& pos) {
    std::vector<const void*> key = key_of(pos, 0);
    auto it = batch_name.find(key);
    if (it != batch_name.end()) return it->second;
    std::string name = "batch";
    for (int n = 2; used.count(name); ++n) name = "batch" + std::to_string(n);
    used.insert(name);
    return batch_name.emplace(std::move(key), name).first->second;
  };
  for (const Position& pos : positions) {
    std::string dims;
    for (std::size_t axis = 0; axis < pos.shapes.front()->rank(); ++axis) {
      // the same constant in every call: that integer
      const Dim& first = pos.shapes.front()->dims()[axis];
      bool constant = first.is_constant();
      for (const Shape* s : pos.shapes) constant = constant && s->dims()[axis] == first;
      int64_t value = constant ? first.constant_value().value_or(-1) : -1;
      bool batch = def.name == "forward" && axis == 0 && pos.shapes.front()->rank() >= 2;
      if (!dims.empty()) dims += ' ';
      auto named = group_name.find(key_of(pos, axis));
      if (named != group_name.end()) dims += named->second;
      else if (batch && value >= 0) dims += batch_group(pos);
      else dims += value >= 0 ? std::to_string(value) : name_group(pos, axis);
    }
    if (pos.param >= 0) sig.params[static_cast<std::size_t>(pos.param)] = dims;
    else sig.returns = dims;
  }
  return sig;
}

}  // namespace gshape::gradual
