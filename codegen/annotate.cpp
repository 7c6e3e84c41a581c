// Writing inferred signatures into a module's source, and the diff.
#include "codegen/annotate.h"

#include <algorithm>
#include <map>

namespace gshape::codegen {

namespace {

using namespace ir;

std::string annotation(const std::string& dims) { return "Shaped[Tensor, \"" + dims + "\"]"; }

// The offset just after the `)` closing `def`'s parameter list, or npos.
std::size_t after_parameters(std::string_view text, const FunctionDef& def) {
  std::size_t i = def.name_loc.end;
  while (i < text.size() && text[i] != '(') ++i;
  int depth = 0;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"' || c == '\'') {  // a string in a default value
      bool triple = text.substr(i, 3) == std::string(3, c);
      std::string_view close = triple ? text.substr(i, 3) : text.substr(i, 1);
      std::size_t end = text.find(close, i + close.size());
      while (!triple && end != std::string_view::npos && text[end - 1] == '\\') end = text.find(close, end + 1);
      if (end == std::string_view::npos) return std::string_view::npos;
      i = end + close.size() - 1;
    } else if (c == '#') {
      while (i < text.size() && text[i] != '\n') ++i;
    } else if (c == '(' || c == '[' || c == '{') {
      ++depth;
    } else if (c == ')' || c == ']' || c == '}') {
      if (--depth == 0) return i + 1;
    }
  }
  return std::string_view::npos;
}

struct Insertion {
  std::size_t offset;
  std::string text;
};

void collect_defs(const Body& body, std::vector<const FunctionDef*>& out) {
  for (const Stmt* s : body) {
    if (const auto* f = dyn_cast<FunctionDef>(s)) {
      out.push_back(f);
      collect_defs(f->body, out);
    } else if (const auto* c = dyn_cast<ClassDef>(s)) {
      collect_defs(c->body, out);
    } else if (const auto* i = dyn_cast<If>(s)) {
      collect_defs(i->body, out);
      collect_defs(i->orelse, out);
    }
  }
}

// Where the import block goes: after a docstring and the `from __future__`
// imports (which must stay first); whether annotations are already postponed.
std::size_t import_offset(std::string_view text, const Module& module, bool& has_future_annotations) {
  std::size_t i = 0;
  const Body& body = module.body;
  if (i < body.size()) {
    const auto* e = dyn_cast<ExprStmt>(body[i]);
    const auto* c = e ? dyn_cast<Constant>(e->value) : nullptr;
    if (c && c->type == Constant::Type::Str) ++i;
  }
  for (; i < body.size(); ++i) {
    const auto* f = dyn_cast<ImportFrom>(body[i]);
    if (!f || f->module != "__future__" || f->level != 0) break;
    for (const ImportAlias& a : f->names) has_future_annotations = has_future_annotations || a.name == "annotations";
  }
  if (i == 0) {
    // before the first statement, at the start of its line
    std::size_t at = body.empty() ? text.size() : body[0]->loc.begin;
    while (at > 0 && text[at - 1] != '\n') --at;
    return at;
  }
  // after the line the previous statement ends on
  std::size_t at = body[i - 1]->loc.end;
  while (at < text.size() && text[at] != '\n') ++at;
  return at < text.size() ? at + 1 : text.size();
}

}  // namespace

AnnotatedSource annotate_source(std::string_view text, const Module& module,
                                const std::vector<gradual::InferredSignature>& signatures) {
  AnnotatedSource out;
  std::map<const FunctionDef*, const gradual::InferredSignature*> by_def;
  for (const gradual::InferredSignature& s : signatures) by_def[s.def] = &s;
  std::vector<const FunctionDef*> defs;
  collect_defs(module.body, defs);
  std::vector<Insertion> edits;
  for (const FunctionDef* def : defs) {
    auto it = by_def.find(def);
    if (it == by_def.end()) continue;
    const gradual::InferredSignature& sig = *it->second;
    for (std::size_t i = 0; i < def->params.size() && i < sig.params.size(); ++i) {
      const Parameter& p = def->params[i];
      if (!sig.params[i] || p.annotation) continue;
      std::size_t name_end = p.loc.begin + p.name.size();
      if (text.substr(p.loc.begin, p.name.size()) != p.name) continue;  // not where the name is expected
      std::string ann = ": " + annotation(*sig.params[i]);
      if (p.default_value && name_end < text.size() && text[name_end] == '=') {
        edits.push_back({name_end, ann + " "});
        if (name_end + 1 < text.size() && text[name_end + 1] != ' ') edits.push_back({name_end + 1, " "});
      } else {
        edits.push_back({name_end, ann});
      }
      ++out.annotations;
    }
    if (sig.returns && !def->returns) {
      std::size_t close = after_parameters(text, *def);
      if (close != std::string_view::npos) {
        edits.push_back({close, " -> " + annotation(*sig.returns)});
        ++out.annotations;
      }
    }
  }
  if (edits.empty()) {
    out.text = std::string(text);
    return out;
  }
  bool has_future = false;
  std::size_t imports = import_offset(text, module, has_future);
  std::string block = has_future ? "" : "from __future__ import annotations\n";
  block += "from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:  # written by gshape annotate\n"
           "    from jaxtyping import Shaped\n    from torch import Tensor\n\n";
  if (imports > 0 && imports <= text.size() && text[imports - 1] != '\n') block = "\n" + block;
  edits.push_back({imports, block});
  std::stable_sort(edits.begin(), edits.end(), [](const Insertion& a, const Insertion& b) { return a.offset < b.offset; });
  std::size_t copied = 0;
  for (const Insertion& e : edits) {
    out.text.append(text.substr(copied, e.offset - copied));
    out.text += e.text;
    copied = e.offset;
  }
  out.text.append(text.substr(copied));
  return out;
}

namespace {

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t nl = text.find('\n', start);
    std::size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(start, end - start));
    start = end;
  }
  return lines;
}

}  // namespace

std::string unified_diff(const std::string& path, std::string_view before, std::string_view after) {
  if (before == after) return {};
  std::vector<std::string_view> a = split_lines(before), b = split_lines(after);
  // annotate only inserts lines and changes lines in place: a greedy walk
  // that looks a few lines ahead for an insertion aligns them
  struct Op {
    char kind;  // ' ', '-', '+'
    std::string_view line;
  };
  std::vector<Op> ops;
  std::size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (i < a.size() && j < b.size() && a[i] == b[j]) {
      ops.push_back({' ', a[i++]});
      ++j;
      continue;
    }
    std::size_t ahead = 0;
    for (std::size_t k = 1; k <= 16 && i < a.size() && j + k < b.size(); ++k)
      if (b[j + k] == a[i]) {
        ahead = k;
        break;
      }
    if (ahead) {
      for (std::size_t k = 0; k < ahead; ++k) ops.push_back({'+', b[j++]});
      continue;
    }
    if (i < a.size()) ops.push_back({'-', a[i++]});
    if (j < b.size()) ops.push_back({'+', b[j++]});
  }
  std::string out = "--- a/" + path + "\n+++ b/" + path + "\n";
  constexpr std::size_t kContext = 3;
  std::size_t n = ops.size();
  std::size_t k = 0;
  while (k < n) {
    while (k < n && ops[k].kind == ' ') ++k;
    if (k == n) break;
    std::size_t start = k >= kContext ? k - kContext : 0;
    std::size_t end = k;  // one past the last change of the hunk
    std::size_t scan = k;
    while (scan < n) {
      if (ops[scan].kind != ' ') {
        end = scan + 1;
        ++scan;
        continue;
      }
      std::size_t run = scan;
      while (run < n && ops[run].kind == ' ') ++run;
      if (run == n || run - scan > 2 * kContext) break;
      scan = run;
    }
    std::size_t stop = std::min(n, end + kContext);
    std::size_t old_start = 1, new_start = 1;
    for (std::size_t x = 0; x < start; ++x) {
      old_start += ops[x].kind != '+';
      new_start += ops[x].kind != '-';
    }
    std::size_t old_count = 0, new_count = 0;
    for (std::size_t x = start; x < stop; ++x) {
      old_count += ops[x].kind != '+';
      new_count += ops[x].kind != '-';
    }
    out += "@@ -" + std::to_string(old_count ? old_start : old_start - 1) + "," + std::to_string(old_count) + " +" +
           std::to_string(new_count ? new_start : new_start - 1) + "," + std::to_string(new_count) + " @@\n";
    for (std::size_t x = start; x < stop; ++x) {
      out += ops[x].kind;
      out += ops[x].line;
      if (ops[x].line.empty() || ops[x].line.back() != '\n') out += "\n\\ No newline at end of file\n";
    }
    k = stop;
  }
  return out;
}

}  // namespace gshape::codegen
