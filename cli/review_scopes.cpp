#include "cli/review_scopes.h"

#include <algorithm>

namespace gshape::cli {

namespace {

// 1-based line of a byte offset of `text`.
class LineOf {
 public:
  explicit LineOf(const std::string& text) {
    starts_.push_back(0);
    for (std::size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(static_cast<uint32_t>(i + 1));
    }
  }
  uint32_t operator()(uint32_t offset) const {
    auto it = std::upper_bound(starts_.begin(), starts_.end(), offset);
    return static_cast<uint32_t>(it - starts_.begin());
  }

 private:
  std::vector<uint32_t> starts_;
};

void collect(const ir::Body& body, const std::string& prefix, const LineOf& line_of, std::vector<Scope>& out);

void collect_stmt(const ir::Stmt* s, const std::string& prefix, const LineOf& line_of, std::vector<Scope>& out) {
  if (s == nullptr) return;
  auto add = [&](const std::string& name, const ir::Body& body) {
    std::string qualified = prefix.empty() ? name : prefix + "." + name;
    uint32_t last = s->loc.end > s->loc.begin ? line_of(s->loc.end - 1) : s->loc.line;
    out.push_back({qualified, s->loc.line, std::max(last, s->loc.line)});
    collect(body, qualified, line_of, out);
  };
  if (const auto* f = ir::dyn_cast<ir::FunctionDef>(s)) return add(f->name, f->body);
  if (const auto* c = ir::dyn_cast<ir::ClassDef>(s)) return add(c->name, c->body);
  // Compound statements hold definitions too (a def under `if TYPE_CHECKING:`).
  if (const auto* i = ir::dyn_cast<ir::If>(s)) {
    collect(i->body, prefix, line_of, out);
    collect(i->orelse, prefix, line_of, out);
  } else if (const auto* loop = ir::dyn_cast<ir::For>(s)) {
    collect(loop->body, prefix, line_of, out);
    collect(loop->orelse, prefix, line_of, out);
  } else if (const auto* w = ir::dyn_cast<ir::While>(s)) {
    collect(w->body, prefix, line_of, out);
    collect(w->orelse, prefix, line_of, out);
  } else if (const auto* with = ir::dyn_cast<ir::With>(s)) {
    collect(with->body, prefix, line_of, out);
  } else if (const auto* t = ir::dyn_cast<ir::Try>(s)) {
    collect(t->body, prefix, line_of, out);
    for (const ir::ExceptHandler& h : t->handlers) collect(h.body, prefix, line_of, out);
    collect(t->orelse, prefix, line_of, out);
    collect(t->finalbody, prefix, line_of, out);
  }
}

void collect(const ir::Body& body, const std::string& prefix, const LineOf& line_of, std::vector<Scope>& out) {
  for (const ir::Stmt* s : body) collect_stmt(s, prefix, line_of, out);
}

}  // namespace

ScopeIndex::ScopeIndex(const ir::Module& module) {
  LineOf line_of(module.file().text());
  collect(module.body, "", line_of, scopes_);
}

const Scope* ScopeIndex::scope_at(uint32_t line) const {
  // Scopes nest, and an inner one comes after its outer one: the last that holds the line is the innermost.
  const Scope* found = nullptr;
  for (const Scope& s : scopes_) {
    if (s.first_line <= line && line <= s.last_line) found = &s;
  }
  return found;
}

}  // namespace gshape::cli
