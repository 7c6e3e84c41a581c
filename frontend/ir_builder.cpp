// tree-sitter-python concrete tree → IR. One Builder per file walks the tree
// top-down; node kinds are told apart by the symbol enum of ts_grammar.h and
// fields by cached ids, never by comparing type strings.
//
// Depth: the builder recurses once per IR level, so it stops at kMaxDepth
// levels: the subtree there becomes an Opaque node and the file gets one
// `nesting too deep` warning. The IR it returns is therefore never deeper than
// kMaxDepth, which also bounds every recursive walk over it (ir_dump, analyses).
//
// Syntax: tree-sitter-python accepts a few things CPython's tokenizer rejects
// (an empty block, statements of one block at different indentations); the
// builder reports the first of them as a syntax error and drops the module,
// as for an ERROR node.
#include "frontend/ir_builder.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <tree_sitter/api.h>

#include "frontend/ts_grammar.h"
#include "frontend/ts_literals.h"
#include "frontend/ts_locations.h"
#include "frontend/ts_syntax_error.h"

namespace gshape {

namespace {

using ts::Sym;

// IR levels (statements and expressions nested in one another) the builder
// follows. CPython itself stops at 200 nested parentheses and 100 indentation
// levels, so real programs stay far below. Each level costs at most about
// 1 KiB of stack (-O2: build_expr's frame is kept small, see below), so the
// whole limit fits in 512 KiB; tests run it on a 1 MiB thread stack.
constexpr int kMaxDepth = 400;

// One child of a tree-sitter node, with what the builder needs to dispatch on it.
struct Child {
  TSNode node{};
  Sym sym = Sym::Other;
  TSFieldId field = 0;
  bool named = false;

  bool present() const { return !ts_node_is_null(node); }
};

// The children of one node (comments and line continuations left out), held on
// the builder's shared stack and popped when this goes out of scope. Elements
// are returned by value: building a child pushes more entries, which may move them.
class Children {
 public:
  Children(std::vector<Child>& stack, std::size_t begin) : stack_(stack), begin_(begin), end_(stack.size()) {}
  ~Children() { stack_.resize(begin_); }
  Children(const Children&) = delete;
  Children& operator=(const Children&) = delete;

  std::size_t size() const { return end_ - begin_; }
  Child operator[](std::size_t i) const { return stack_[begin_ + i]; }

  // The first child in `field`; an absent Child (present() false) when there is none.
  Child field(TSFieldId field) const {
    for (std::size_t i = begin_; i < end_; ++i) {
      if (stack_[i].field == field) return stack_[i];
    }
    return {};
  }
  Child first_named() const {
    for (std::size_t i = begin_; i < end_; ++i) {
      if (stack_[i].named) return stack_[i];
    }
    return {};
  }
  std::size_t named_count() const {
    std::size_t n = 0;
    for (std::size_t i = begin_; i < end_; ++i) n += stack_[i].named ? 1 : 0;
    return n;
  }
  bool has(Sym sym) const {
    for (std::size_t i = begin_; i < end_; ++i) {
      if (stack_[i].sym == sym) return true;
    }
    return false;
  }

 private:
  std::vector<Child>& stack_;
  std::size_t begin_;
  std::size_t end_;
};

std::optional<ir::BinOpKind> binop_of(Sym sym) {
  switch (sym) {
    case Sym::TokPlus: case Sym::TokPlusEq: return ir::BinOpKind::Add;
    case Sym::TokMinus: case Sym::TokMinusEq: return ir::BinOpKind::Sub;
    case Sym::TokStar: case Sym::TokStarEq: return ir::BinOpKind::Mult;
    case Sym::TokAt: case Sym::TokAtEq: return ir::BinOpKind::MatMult;
    case Sym::TokSlash: case Sym::TokSlashEq: return ir::BinOpKind::Div;
    case Sym::TokSlashSlash: case Sym::TokSlashSlashEq: return ir::BinOpKind::FloorDiv;
    case Sym::TokPercent: case Sym::TokPercentEq: return ir::BinOpKind::Mod;
    case Sym::TokStarStar: case Sym::TokStarStarEq: return ir::BinOpKind::Pow;
    case Sym::TokLtLt: case Sym::TokLtLtEq: return ir::BinOpKind::LShift;
    case Sym::TokGtGt: case Sym::TokGtGtEq: return ir::BinOpKind::RShift;
    case Sym::TokPipe: case Sym::TokPipeEq: return ir::BinOpKind::BitOr;
    case Sym::TokCaret: case Sym::TokCaretEq: return ir::BinOpKind::BitXor;
    case Sym::TokAmp: case Sym::TokAmpEq: return ir::BinOpKind::BitAnd;
    default: return std::nullopt;
  }
}

std::optional<ir::CmpOpKind> cmpop_of(Sym sym) {
  switch (sym) {
    case Sym::TokEq: return ir::CmpOpKind::Eq;
    case Sym::TokNotEq: case Sym::TokLtGt: return ir::CmpOpKind::NotEq;
    case Sym::TokLt: return ir::CmpOpKind::Lt;
    case Sym::TokLtE: return ir::CmpOpKind::LtE;
    case Sym::TokGt: return ir::CmpOpKind::Gt;
    case Sym::TokGtE: return ir::CmpOpKind::GtE;
    case Sym::TokIs: return ir::CmpOpKind::Is;
    case Sym::TokIsNot: return ir::CmpOpKind::IsNot;
    case Sym::TokIn: return ir::CmpOpKind::In;
    case Sym::TokNotIn: return ir::CmpOpKind::NotIn;
    default: return std::nullopt;
  }
}

bool ends_with_j(std::string_view text) { return !text.empty() && (text.back() == 'j' || text.back() == 'J'); }

class Builder {
 public:
  Builder(const SourceFile& file, ir::Module& module, ts::LocationMap& locations)
      : file_(file), module_(module), grammar_(ts::Grammar::python()), f_(grammar_.fields()),
        locations_(locations) {
    stack_.reserve(256);
  }
  ~Builder() {
    if (cursor_live_) ts_tree_cursor_delete(&cursor_);
  }
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  void build(TSNode root) { build_block(root, module_.body); }

  // Errors found while building. A syntax error (one tree-sitter accepts but
  // CPython rejects) means the module must be dropped; nesting too deep (a
  // warning) does not.
  const std::optional<Diagnostic>& syntax_error() const { return syntax_error_; }
  const std::optional<Diagnostic>& too_deep() const { return too_deep_; }

 private:
  // ------------------------------------------------------------ plumbing

  struct DepthScope {
    int& depth;
    explicit DepthScope(int& d) : depth(++d) {}
    ~DepthScope() { --depth; }
    DepthScope(const DepthScope&) = delete;
    DepthScope& operator=(const DepthScope&) = delete;
  };

  Sym sym(TSNode node) const { return grammar_.sym(ts_node_symbol(node)); }

  Children children(TSNode node) {
    std::size_t begin = stack_.size();
    if (ts_node_is_null(node)) return Children(stack_, begin);
    if (!cursor_live_) {
      cursor_ = ts_tree_cursor_new(node);
      cursor_live_ = true;
    } else {
      ts_tree_cursor_reset(&cursor_, node);
    }
    if (ts_tree_cursor_goto_first_child(&cursor_)) {
      do {
        TSNode child = ts_tree_cursor_current_node(&cursor_);
        Sym s = sym(child);
        if (s == Sym::Comment || s == Sym::LineContinuation) continue;
        stack_.push_back({child, s, ts_tree_cursor_current_field_id(&cursor_), ts_node_is_named(child)});
      } while (ts_tree_cursor_goto_next_sibling(&cursor_));
    }
    return Children(stack_, begin);
  }

  SourceLoc loc(TSNode node) {
    uint32_t begin = ts_node_start_byte(node);
    // Inside a rebuilt chain (misplaced star, misread `type(x).y`), the nodes
    // the grammar starts elsewhere start where Python's do.
    if (rebase_.active && begin == rebase_.from) begin = rebase_.to;
    return locations_.at(begin, ts_node_end_byte(node));
  }
  std::string_view text(TSNode node) const {
    uint32_t begin = ts_node_start_byte(node);
    return std::string_view(file_.text()).substr(begin, ts_node_end_byte(node) - begin);
  }
  template <class T>
  T* make(TSNode node) {
    return module_.make<T>(loc(node));
  }
  // "binary_operator" → "binary operator", for messages.
  static std::string type_words(TSNode node) {
    std::string words = ts_node_type(node);
    for (char& c : words) {
      if (c == '_') c = ' ';
    }
    return words;
  }

  [[gnu::noinline]] void report_too_deep(TSNode node) {
    if (too_deep_) return;
    // A limit of the analysis, not an error in the program (CPython may run
    // it): a warning, so the exit status does not call the file wrong.
    too_deep_ = Diagnostic{Severity::Warning, loc(node), {},
                           "nesting too deep (more than " + std::to_string(kMaxDepth) + " levels): the " +
                               type_words(node) +
                               " here and all code nested in it are not analysed, and neither it nor any operation "
                               "holding it is checked at run time",
                           {}, {}};
  }
  void report_syntax_error(const SourceLoc& where, const std::string& what) {
    if (syntax_error_) return;  // the first one in document order
    syntax_error_ = Diagnostic{Severity::Error, where, {}, "syntax error: " + what, {}, {}};
  }
  [[gnu::noinline]] ir::Expr* opaque_expr(TSNode node) {
    auto* opaque = make<ir::OpaqueExpr>(node);
    opaque->what = ts_node_type(node);
    return opaque;
  }
  // The expression at `node`, past the depth limit.
  [[gnu::noinline]] ir::Expr* too_deep_expr(TSNode node) {
    report_too_deep(node);
    auto* opaque = static_cast<ir::OpaqueExpr*>(opaque_expr(node));
    opaque->too_deep = true;
    return opaque;
  }
  [[gnu::noinline]] ir::Stmt* opaque_stmt(TSNode node) {
    auto* opaque = make<ir::OpaqueStmt>(node);
    opaque->what = ts_node_type(node);
    return opaque;
  }

  // ------------------------------------------------------------ statements

  // The statements of a block (or of the module) appended to `body`.
  void build_block(TSNode block, ir::Body& body) {
    if (ts_node_is_null(block)) return;
    Children kids = children(block);
    check_layout(block, kids);
    body.reserve(body.size() + kids.size());
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.named) body.push_back(build_stmt(kid.node));
    }
  }

  // Indentation of a line as Python measures it: columns with tabs to the next
  // multiple of 8, and with tabs as 1 (the two must agree, or it is a TabError).
  struct Indent {
    uint32_t tab8 = 0;
    uint32_t tab1 = 0;
  };

  // Whether the statement at `offset` is the first thing on its line (not after
  // `;` nor on a backslash-continued line); its indentation goes to `indent`.
  bool starts_line(uint32_t offset, Indent& indent) const {
    std::string_view text = file_.text();
    uint32_t begin = offset;
    while (begin > 0 && (text[begin - 1] == ' ' || text[begin - 1] == '\t' || text[begin - 1] == '\f')) --begin;
    bool after_bom = begin == 3 && text.substr(0, 3) == "\xEF\xBB\xBF";
    if (begin > 0 && !after_bom) {
      if (text[begin - 1] != '\n' && text[begin - 1] != '\r') return false;
      uint32_t end_of_previous = begin - 1;
      if (text[end_of_previous] == '\n' && end_of_previous > 0 && text[end_of_previous - 1] == '\r') --end_of_previous;
      if (end_of_previous > 0 && text[end_of_previous - 1] == '\\') return false;  // a continuation line
    }
    indent = {};
    for (uint32_t i = begin; i < offset; ++i) {
      if (text[i] == '\f') {
        indent = {};
      } else {
        indent.tab8 = text[i] == '\t' ? (indent.tab8 / 8 + 1) * 8 : indent.tab8 + 1;
        indent.tab1 += 1;
      }
    }
    return true;
  }

  // Indentation (tabs to multiples of 8) of the line where `node` ends.
  uint32_t last_line_indent(TSNode node) {
    uint32_t end = ts_node_end_byte(node);
    std::string_view line = file_.line_text(locations_.at(end > 0 ? end - 1 : 0, end).line);
    uint32_t columns = 0;
    for (char c : line) {
      if (c == ' ') ++columns;
      else if (c == '\t') columns = (columns / 8 + 1) * 8;
      else if (c == '\f') columns = 0;
      else break;
    }
    return columns;
  }

  // What CPython's tokenizer rejects but tree-sitter-python accepts: an empty
  // block, and statements of one block at different indentations.
  [[gnu::noinline]] void check_layout(TSNode block, const Children& kids) {
    if (syntax_error_) return;
    bool is_module = sym(block) == Sym::Module;
    bool has_statement = false;
    bool have_expected = is_module;
    Indent expected;  // the module's statements start at column 0
    TSNode previous{};
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      has_statement = true;
      TSNode before = previous;
      previous = kid.node;
      Indent indent;
      if (!starts_line(ts_node_start_byte(kid.node), indent)) continue;
      if (!have_expected) {
        expected = indent;
        have_expected = true;
        continue;
      }
      if (indent.tab8 == expected.tab8 && indent.tab1 == expected.tab1) continue;
      const char* what = "inconsistent use of tabs and spaces in indentation";
      if (indent.tab8 < expected.tab8 || (indent.tab8 > expected.tab8 && !ts_node_is_null(before) &&
                                          indent.tab8 < last_line_indent(before))) {
        what = "unindent does not match any outer indentation level";  // a dedent that stops between levels
      } else if (indent.tab8 > expected.tab8) {
        what = "unexpected indent";
      }
      report_syntax_error(loc(kid.node), what);
      return;
    }
    if (!is_module && !has_statement) report_empty_block(block);
  }

  // The node whose child `node` is, found from the root (tree-sitter 0.20's
  // ts_node_parent misses the zero-width block of `def f():` with no body).
  static TSNode parent_of(TSNode node) {
    TSNode at = ts_tree_root_node(node.tree);
    uint32_t begin = ts_node_start_byte(node);
    for (;;) {
      TSNode next{};
      for (uint32_t i = 0, n = ts_node_child_count(at); i < n; ++i) {
        TSNode child = ts_node_child(at, i);
        if (ts_node_eq(child, node)) return at;
        if (ts_node_start_byte(child) <= begin && begin <= ts_node_end_byte(child) && ts_node_child_count(child) > 0) {
          next = child;  // the last that holds it: a zero-width block sits at its owner's end
        }
      }
      if (ts_node_is_null(next)) return TSNode{};
      at = next;
    }
  }

  // CPython's words for a block header with nothing indented under it
  // ("expected an indented block after 'if' statement on line 3"), at the
  // next token (or at the block when the file ends first).
  [[gnu::noinline]] void report_empty_block(TSNode block) {
    TSNode owner = parent_of(block);
    std::string after;
    if (!ts_node_is_null(owner)) {
      std::string_view type = ts_node_type(owner);
      if (type == "function_definition") after = "function definition";
      else if (type == "class_definition") after = "class definition";
      else if (type == "except_group_clause") after = "'except*' statement";
      else if (auto end = type.find('_'); end != std::string_view::npos) after = "'" + std::string(type.substr(0, end)) + "' statement";
    }
    std::string what = "expected an indented block";
    if (!after.empty()) {
      what += " after " + after + " on line " + std::to_string(loc(owner).line);
    }
    std::string_view text = file_.text();
    uint32_t at = ts_node_end_byte(block);
    while (at < text.size()) {
      char c = text[at];
      if (c == ' ' || c == '\t' || c == '\f' || c == '\n' || c == '\r') {
        ++at;
      } else if (c == '#') {
        while (at < text.size() && text[at] != '\n' && text[at] != '\r') ++at;
      } else {
        break;
      }
    }
    report_syntax_error(at < text.size() ? locations_.at(at, at + 1) : loc(block), what);
  }

  ir::Stmt* build_stmt(TSNode node) {
    if (depth_ >= kMaxDepth) {
      report_too_deep(node);
      return opaque_stmt(node);
    }
    DepthScope scope(depth_);
    switch (sym(node)) {
      case Sym::ExpressionStatement: return build_expression_statement(node);
      case Sym::ImportStatement: return build_import(node);
      case Sym::ImportFromStatement:
      case Sym::FutureImportStatement: return build_import_from(node);
      case Sym::ReturnStatement: return build_return(node);
      case Sym::DeleteStatement: return build_delete(node);
      case Sym::RaiseStatement: return build_raise(node);
      case Sym::AssertStatement: return build_assert(node);
      case Sym::PassStatement: return make<ir::Pass>(node);
      case Sym::BreakStatement: return make<ir::Break>(node);
      case Sym::ContinueStatement: return make<ir::Continue>(node);
      case Sym::GlobalStatement: return build_names<ir::Global>(node);
      case Sym::NonlocalStatement: return build_names<ir::Nonlocal>(node);
      case Sym::IfStatement: return build_if(node);
      case Sym::ForStatement: return build_for(node);
      case Sym::WhileStatement: return build_while(node);
      case Sym::TryStatement: return build_try(node);
      case Sym::WithStatement: return build_with(node);
      case Sym::FunctionDefinition: return build_function(node, node, {});
      case Sym::ClassDefinition: return build_class(node, {});
      case Sym::DecoratedDefinition: return build_decorated(node);
      case Sym::TypeAliasStatement: return build_type_alias(node);
      default: return opaque_stmt(node);  // match, type alias, print and exec statements, ...
    }
  }

  [[gnu::noinline]] ir::Stmt* build_expression_statement(TSNode node) {
    Children kids = children(node);
    if (kids.named_count() == 1) {
      Child only = kids.first_named();
      if (only.sym == Sym::Assignment) return build_assignment(node, only.node);
      if (only.sym == Sym::AugmentedAssignment) return build_aug_assignment(node, only.node);
    }
    auto* stmt = make<ir::ExprStmt>(node);
    stmt->value = kids.named_count() == 1 ? build_expr(kids.first_named().node) : build_bare_tuple(kids, node);
    return stmt;
  }

  // a = b = value, or target: annotation [= value].
  [[gnu::noinline]] ir::Stmt* build_assignment(TSNode stmt_node, TSNode assignment) {
    TSNode left{}, type{}, right{};
    read_assignment(assignment, left, type, right);
    if (!ts_node_is_null(type)) {
      if (!ts_node_is_null(right) && (sym(right) == Sym::Assignment || sym(right) == Sym::AugmentedAssignment)) {
        return opaque_stmt(stmt_node);  // `x: T = y = v` is not Python
      }
      auto* stmt = make<ir::AnnAssign>(stmt_node);
      stmt->target = build_expr(left);
      stmt->annotation = build_expr(type);
      if (!ts_node_is_null(right)) stmt->value = build_expr(right);
      return stmt;
    }
    auto* stmt = make<ir::Assign>(stmt_node);
    stmt->targets.push_back(build_expr(left));
    // Chained targets nest to the right in the tree: walk them in a loop.
    while (!ts_node_is_null(right) && sym(right) == Sym::Assignment) {
      read_assignment(right, left, type, right);
      if (!ts_node_is_null(type)) return opaque_stmt(stmt_node);  // `a = b: T = v` is not Python
      stmt->targets.push_back(build_expr(left));
    }
    if (ts_node_is_null(right) || sym(right) == Sym::AugmentedAssignment) return opaque_stmt(stmt_node);
    stmt->value = build_expr(right);
    return stmt;
  }

  void read_assignment(TSNode assignment, TSNode& left, TSNode& type, TSNode& right) {
    Children kids = children(assignment);
    left = kids.field(f_.left).node;
    type = kids.field(f_.type).node;
    right = kids.field(f_.right).node;
  }

  [[gnu::noinline]] ir::Stmt* build_aug_assignment(TSNode stmt_node, TSNode assignment) {
    Children kids = children(assignment);
    Child right = kids.field(f_.right);
    std::optional<ir::BinOpKind> op = binop_of(kids.field(f_.op).sym);
    if (!op || !right.present() || right.sym == Sym::Assignment || right.sym == Sym::AugmentedAssignment) {
      return opaque_stmt(stmt_node);
    }
    auto* stmt = make<ir::AugAssign>(stmt_node);
    stmt->op = *op;
    stmt->target = build_expr(kids.field(f_.left).node);
    stmt->value = build_expr(right.node);
    return stmt;
  }

  // "a.b.c" from a dotted_name (identifiers joined, whitespace ignored).
  [[gnu::noinline]] std::string dotted_name(TSNode node) {
    if (sym(node) == Sym::Identifier) return std::string(text(node));
    std::string name;
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      if (!name.empty()) name += '.';
      name += text(kid.node);
    }
    return name;
  }

  [[gnu::noinline]] ir::ImportAlias import_alias(TSNode node) {
    ir::ImportAlias alias;
    alias.loc = loc(node);
    if (sym(node) == Sym::AliasedImport) {
      Children kids = children(node);
      alias.name = dotted_name(kids.field(f_.name).node);
      Child as = kids.field(f_.alias);
      if (as.present()) alias.asname = text(as.node);
    } else {
      alias.name = dotted_name(node);
    }
    return alias;
  }

  [[gnu::noinline]] ir::Stmt* build_import(TSNode node) {
    auto* stmt = make<ir::Import>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.field == f_.name) stmt->names.push_back(import_alias(kid.node));
    }
    return stmt;
  }

  [[gnu::noinline]] ir::Stmt* build_import_from(TSNode node) {
    auto* stmt = make<ir::ImportFrom>(node);
    Children kids = children(node);
    if (sym(node) == Sym::FutureImportStatement) stmt->module = "__future__";
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.field == f_.module_name) {
        if (kid.sym == Sym::RelativeImport) {
          Children parts = children(kid.node);
          for (std::size_t k = 0; k < parts.size(); ++k) {
            Child part = parts[k];
            if (part.sym == Sym::ImportPrefix) {
              for (char c : text(part.node)) stmt->level += c == '.' ? 1 : 0;
            } else if (part.named) {
              stmt->module = dotted_name(part.node);
            }
          }
        } else {
          stmt->module = dotted_name(kid.node);
        }
      } else if (kid.field == f_.name) {
        stmt->names.push_back(import_alias(kid.node));
      } else if (kid.sym == Sym::WildcardImport) {
        ir::ImportAlias star;
        star.name = "*";
        star.loc = loc(kid.node);
        stmt->names.push_back(std::move(star));
      }
    }
    return stmt;
  }

  [[gnu::noinline]] ir::Stmt* build_return(TSNode node) {
    auto* stmt = make<ir::Return>(node);
    Children kids = children(node);
    Child value = kids.first_named();
    if (value.present()) stmt->value = build_expr(value.node);
    return stmt;
  }

  [[gnu::noinline]] ir::Stmt* build_delete(TSNode node) {
    auto* stmt = make<ir::Delete>(node);
    Children kids = children(node);
    Child target = kids.first_named();
    if (!target.present()) return stmt;
    if (target.sym == Sym::ExpressionList) {  // `del a, b`: two targets, not a tuple
      Children elements = children(target.node);
      for (std::size_t i = 0; i < elements.size(); ++i) {
        Child element = elements[i];
        if (element.named) stmt->targets.push_back(build_expr(element.node));
      }
    } else {
      stmt->targets.push_back(build_expr(target.node));
    }
    return stmt;
  }

  [[gnu::noinline]] ir::Stmt* build_raise(TSNode node) {
    auto* stmt = make<ir::Raise>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      if (kid.field == f_.cause) stmt->cause = build_expr(kid.node);
      else if (stmt->exc == nullptr) stmt->exc = build_expr(kid.node);
    }
    return stmt;
  }

  [[gnu::noinline]] ir::Stmt* build_assert(TSNode node) {
    auto* stmt = make<ir::Assert>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      if (stmt->test == nullptr) stmt->test = build_expr(kid.node);
      else if (stmt->msg == nullptr) stmt->msg = build_expr(kid.node);
    }
    return stmt;
  }

  template <class T>
  [[gnu::noinline]] ir::Stmt* build_names(TSNode node) {
    auto* stmt = make<T>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.sym == Sym::Identifier) stmt->names.emplace_back(text(kid.node));
    }
    return stmt;
  }

  [[gnu::noinline]] ir::Stmt* build_if(TSNode node) {
    auto* stmt = make<ir::If>(node);
    Children kids = children(node);
    stmt->test = build_expr(kids.field(f_.condition).node);
    build_block(kids.field(f_.consequence).node, stmt->body);
    // Each elif is an If alone in the previous one's orelse: one IR level deeper.
    ir::If* current = stmt;
    int saved_depth = depth_;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.field != f_.alternative) continue;
      if (kid.sym == Sym::ElifClause) {
        if (depth_ >= kMaxDepth) {
          report_too_deep(kid.node);
          // The rest of the chain (this elif to the end of the statement) is one opaque node.
          auto* rest = module_.make<ir::OpaqueStmt>(
              locations_.at(ts_node_start_byte(kid.node), ts_node_end_byte(node)));
          rest->what = ts_node_type(kid.node);
          current->orelse.push_back(rest);
          break;
        }
        ++depth_;
        Children clause = children(kid.node);
        auto* elif = make<ir::If>(kid.node);
        elif->test = build_expr(clause.field(f_.condition).node);
        build_block(clause.field(f_.consequence).node, elif->body);
        current->orelse.push_back(elif);
        current = elif;
      } else if (kid.sym == Sym::ElseClause) {
        build_else(kid.node, current->orelse);
      }
    }
    depth_ = saved_depth;
    return stmt;
  }

  [[gnu::noinline]] void build_else(TSNode else_clause, ir::Body& orelse) {
    Children kids = children(else_clause);
    Child body = kids.field(f_.body);
    if (body.present()) build_block(body.node, orelse);
  }

  [[gnu::noinline]] ir::Stmt* build_for(TSNode node) {
    auto* stmt = make<ir::For>(node);
    Children kids = children(node);
    stmt->is_async = kids.has(Sym::TokAsync);
    stmt->target = build_expr(kids.field(f_.left).node);
    stmt->iter = build_expr(kids.field(f_.right).node);
    build_block(kids.field(f_.body).node, stmt->body);
    Child alternative = kids.field(f_.alternative);
    if (alternative.present()) build_else(alternative.node, stmt->orelse);
    return stmt;
  }

  [[gnu::noinline]] ir::Stmt* build_while(TSNode node) {
    auto* stmt = make<ir::While>(node);
    Children kids = children(node);
    stmt->test = build_expr(kids.field(f_.condition).node);
    build_block(kids.field(f_.body).node, stmt->body);
    Child alternative = kids.field(f_.alternative);
    if (alternative.present()) build_else(alternative.node, stmt->orelse);
    return stmt;
  }

  [[gnu::noinline]] ir::Stmt* build_try(TSNode node) {
    auto* stmt = make<ir::Try>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.field == f_.body) {
        build_block(kid.node, stmt->body);
      } else if (kid.sym == Sym::ExceptClause || kid.sym == Sym::ExceptGroupClause) {
        stmt->handlers.push_back(build_handler(kid));
      } else if (kid.sym == Sym::ElseClause) {
        build_else(kid.node, stmt->orelse);
      } else if (kid.sym == Sym::FinallyClause) {
        Children clause = children(kid.node);
        for (std::size_t k = 0; k < clause.size(); ++k) {
          Child part = clause[k];
          if (part.sym == Sym::Block) build_block(part.node, stmt->finalbody);
        }
      }
    }
    return stmt;
  }

  [[gnu::noinline]] ir::ExceptHandler build_handler(Child clause_child) {
    ir::ExceptHandler handler;
    handler.loc = loc(clause_child.node);
    handler.is_star = clause_child.sym == Sym::ExceptGroupClause;
    Children kids = children(clause_child.node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      if (kid.sym == Sym::Block) {
        build_block(kid.node, handler.body);
      } else if (kid.field == f_.alias) {  // the old `except E, e` form
        handler.name = text(kid.node);
      } else if (kid.sym == Sym::AsPattern) {  // except E as e
        Children parts = children(kid.node);
        for (std::size_t k = 0; k < parts.size(); ++k) {
          Child part = parts[k];
          if (!part.named) continue;
          if (part.field == f_.alias) handler.name = text(unwrap(part.node));
          else if (handler.type == nullptr) handler.type = build_expr(part.node);
        }
      } else if (handler.type == nullptr) {
        handler.type = build_expr(kid.node);
      }
    }
    return handler;
  }

  [[gnu::noinline]] ir::Stmt* build_with(TSNode node) {
    auto* stmt = make<ir::With>(node);
    Children kids = children(node);
    stmt->is_async = kids.has(Sym::TokAsync);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.field == f_.body) {
        build_block(kid.node, stmt->body);
      } else if (kid.sym == Sym::WithClause) {
        Children items = children(kid.node);
        for (std::size_t k = 0; k < items.size(); ++k) {
          Child item = items[k];
          if (item.sym == Sym::WithItem) stmt->items.push_back(build_with_item(item.node));
        }
      }
    }
    return stmt;
  }

  [[gnu::noinline]] ir::WithItem build_with_item(TSNode node) {
    ir::WithItem item;
    Children kids = children(node);
    Child value = kids.field(f_.value);
    if (!value.present()) value = kids.first_named();
    if (value.sym == Sym::AsPattern) {
      Children parts = children(value.node);
      for (std::size_t i = 0; i < parts.size(); ++i) {
        Child part = parts[i];
        if (!part.named) continue;
        if (part.field == f_.alias) item.target = build_expr(part.node);
        else if (item.context == nullptr) item.context = build_expr(part.node);
      }
    } else if (value.present()) {
      item.context = build_expr(value.node);
    }
    return item;
  }

  [[gnu::noinline]] ir::Stmt* build_decorated(TSNode node) {
    Children kids = children(node);
    std::vector<ir::Expr*> decorators;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.sym != Sym::Decorator) continue;
      Children parts = children(kid.node);
      Child expr = parts.first_named();
      decorators.push_back(expr.present() ? build_expr(expr.node) : opaque_expr(kid.node));
    }
    Child definition = kids.field(f_.definition);
    if (definition.sym == Sym::FunctionDefinition) return build_function(definition.node, node, std::move(decorators));
    if (definition.sym == Sym::ClassDefinition) return build_class(definition.node, std::move(decorators));
    return opaque_stmt(node);
  }

  // `type X = ...` (PEP 695) is not modelled. But tree-sitter-python also reads
  // `type(obj).attr = value` as a type alias of `(obj).attr`; Python requires a
  // plain name after `type`, so that is an assignment to an attribute (or
  // subscript) of the call type(obj): rebuilt here.
  [[gnu::noinline]] ir::Stmt* build_type_alias(TSNode node) {
    Children kids = children(node);
    TSNode keyword = kids.size() > 0 ? kids[0].node : TSNode{};
    TSNode target = unwrap(kids.field(f_.left).node);
    TSNode value = kids.field(f_.right).node;
    Sym target_sym = sym(target);
    if (ts_node_is_null(keyword) || ts_node_is_null(value) ||
        (target_sym != Sym::Attribute && target_sym != Sym::Subscript && target_sym != Sym::Call)) {
      return opaque_stmt(node);  // a real type alias (or nothing we can read)
    }
    TSNode bottom = target;  // down the chain to the parentheses right after `type`
    for (;;) {
      Children parts = children(bottom);
      Sym s = sym(bottom);
      TSNode next = s == Sym::Attribute ? parts.field(f_.object).node
                    : s == Sym::Call    ? parts.field(f_.function).node
                                        : parts.field(f_.value).node;
      Sym next_sym = sym(next);
      if (next_sym == Sym::ParenthesizedExpression || next_sym == Sym::Tuple) {
        bottom = next;
        break;
      }
      if (next_sym != Sym::Attribute && next_sym != Sym::Subscript && next_sym != Sym::Call) return opaque_stmt(node);
      bottom = next;
    }
    auto* assign = make<ir::Assign>(node);
    Rebase saved = rebase_;
    TSNode saved_call = type_call_;
    rebase_ = {ts_node_start_byte(bottom), ts_node_start_byte(keyword)};  // the chain starts at `type`
    type_call_ = bottom;
    type_keyword_ = keyword;
    assign->targets.push_back(build_expr(target));
    rebase_ = saved;
    type_call_ = saved_call;
    assign->value = build_expr(value);
    return assign;
  }

  // The `(obj)` of a misread `type(obj).attr = v`: the call type(obj).
  [[gnu::noinline]] ir::Expr* build_type_call(TSNode parens) {
    auto* call = module_.make<ir::Call>(locations_.at(ts_node_start_byte(type_keyword_), ts_node_end_byte(parens)));
    auto* func = module_.make<ir::Name>(locations_.of(type_keyword_));
    func->id = "type";
    call->func = func;
    Rebase saved = rebase_;
    rebase_ = {};
    auto add = [&](TSNode arg_node) {
      ir::Argument arg;
      arg.loc = locations_.of(arg_node);
      if (sym(arg_node) == Sym::ListSplat) {
        arg.type = ir::Argument::Type::Star;
        Children parts = children(arg_node);
        arg.value = build_expr(parts.first_named().node);
      } else {
        arg.value = build_expr(arg_node);
      }
      call->args.push_back(std::move(arg));
    };
    Children kids = children(parens);
    if (sym(parens) == Sym::Tuple) {  // type(a, b, c)
      for (std::size_t i = 0; i < kids.size(); ++i) {
        if (kids[i].named) add(kids[i].node);
      }
    } else if (kids.first_named().present()) {
      add(kids.first_named().node);
    }
    rebase_ = saved;
    return call;
  }

  // `opaque_node` is what an unsupported def becomes (the decorated definition when decorated).
  [[gnu::noinline]] ir::Stmt* build_function(TSNode node, TSNode opaque_node, std::vector<ir::Expr*> decorators) {
    auto* stmt = make<ir::FunctionDef>(node);
    Children kids = children(node);
    stmt->is_async = kids.has(Sym::TokAsync);
    Child name = kids.field(f_.name);
    stmt->name = text(name.node);
    stmt->name_loc = loc(name.node);
    stmt->decorators = std::move(decorators);
    Child params = kids.field(f_.parameters);
    if (params.present() && !build_parameters(params.node, stmt->params)) {
      return opaque_stmt(opaque_node);  // Python 2 tuple parameters: not Python 3
    }
    Child returns = kids.field(f_.return_type);
    if (returns.present()) stmt->returns = build_expr(returns.node);
    function_stack_.push_back(stmt);
    build_block(kids.field(f_.body).node, stmt->body);
    function_stack_.pop_back();
    return stmt;
  }

  [[gnu::noinline]] ir::Stmt* build_class(TSNode node, std::vector<ir::Expr*> decorators) {
    auto* stmt = make<ir::ClassDef>(node);
    Children kids = children(node);
    Child name = kids.field(f_.name);
    stmt->name = text(name.node);
    stmt->name_loc = loc(name.node);
    stmt->decorators = std::move(decorators);
    Child bases = kids.field(f_.superclasses);
    if (bases.present()) build_arguments(bases.node, stmt->bases);
    build_block(kids.field(f_.body).node, stmt->body);
    return stmt;
  }

  // The parameters of a def or lambda. False for a form the IR cannot hold.
  [[gnu::noinline]] bool build_parameters(TSNode node, std::vector<ir::Parameter>& params) {
    Children kids = children(node);
    bool keyword_only = false;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      if (kid.sym == Sym::PositionalSeparator) {
        for (ir::Parameter& p : params) {
          if (p.type == ir::Parameter::Type::Regular) p.type = ir::Parameter::Type::PositionalOnly;
        }
        continue;
      }
      if (kid.sym == Sym::KeywordSeparator) {
        keyword_only = true;
        continue;
      }
      ir::Parameter param;
      param.loc = loc(kid.node);
      TSNode name{};
      switch (kid.sym) {
        case Sym::Identifier:
        case Sym::ListSplatPattern:
        case Sym::DictionarySplatPattern: name = kid.node; break;
        case Sym::DefaultParameter:
        case Sym::TypedParameter:
        case Sym::TypedDefaultParameter: {
          Children parts = children(kid.node);
          for (std::size_t k = 0; k < parts.size(); ++k) {
            Child part = parts[k];
            if (!part.named) continue;
            if (part.field == f_.type) param.annotation = build_expr(part.node);
            else if (part.field == f_.value) param.default_value = build_expr(part.node);
            else if (ts_node_is_null(name)) name = part.node;
          }
          break;
        }
        default: return false;
      }
      if (ts_node_is_null(name)) return false;
      Sym name_sym = sym(name);
      if (name_sym == Sym::ListSplatPattern || name_sym == Sym::DictionarySplatPattern) {
        param.type = name_sym == Sym::ListSplatPattern ? ir::Parameter::Type::VarArgs
                                                       : ir::Parameter::Type::VarKeywords;
        Children parts = children(name);
        name = parts.first_named().node;
        if (ts_node_is_null(name)) return false;
        name_sym = sym(name);
      } else if (keyword_only) {
        param.type = ir::Parameter::Type::KeywordOnly;
      }
      if (name_sym != Sym::Identifier) return false;
      param.name = text(name);
      if (param.type == ir::Parameter::Type::VarArgs) keyword_only = true;
      params.push_back(std::move(param));
    }
    return true;
  }

  // Call arguments or class bases.
  [[gnu::noinline]] void build_arguments(TSNode node, std::vector<ir::Argument>& args) {
    Children kids = children(node);
    args.reserve(kids.size());
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      ir::Argument arg;
      arg.loc = loc(kid.node);
      if (kid.sym == Sym::KeywordArgument) {
        Children parts = children(kid.node);
        arg.type = ir::Argument::Type::Keyword;
        arg.name = text(parts.field(f_.name).node);
        arg.value = build_expr(parts.field(f_.value).node);
      } else if (kid.sym == Sym::ListSplat || kid.sym == Sym::DictionarySplat) {
        Children parts = children(kid.node);
        arg.type = kid.sym == Sym::ListSplat ? ir::Argument::Type::Star : ir::Argument::Type::DoubleStar;
        arg.value = build_expr(parts.first_named().node);
      } else {
        arg.value = build_expr(kid.node);
        // `f(*a.b())` can come as a chain with the star at its bottom (see
        // build_misplaced_star): it is still a star argument.
        if (kid.sym != Sym::ParenthesizedExpression && ir::isa<ir::Starred>(arg.value)) {
          arg.type = ir::Argument::Type::Star;
          arg.value = ir::cast<ir::Starred>(arg.value)->value;
        }
      }
      args.push_back(std::move(arg));
    }
  }

  // ------------------------------------------------------------ expressions

  // Parentheses and the grammar's wrapper nodes have no IR node of their own.
  [[gnu::noinline]] TSNode unwrap(TSNode node) {
    for (;;) {
      Sym s = sym(node);
      if (s != Sym::ParenthesizedExpression && s != Sym::Type && s != Sym::AsPatternTarget &&
          s != Sym::ParenthesizedListSplat) {
        return node;
      }
      Children kids = children(node);
      Child inner = kids.first_named();
      if (!inner.present()) return node;
      node = inner.node;
    }
  }

  // Dispatches on the node's kind. Every case is its own (not inlined)
  // function so this frame stays small: it is on the stack once per IR level.
  ir::Expr* build_expr(TSNode node) {
    if (ts_node_is_null(node)) return nullptr;
    if (!ts_node_is_null(type_call_) && ts_node_eq(node, type_call_)) return build_type_call(node);
    node = unwrap(node);
    if (depth_ >= kMaxDepth) return too_deep_expr(node);
    DepthScope scope(depth_);
    switch (sym(node)) {
      case Sym::Identifier: return build_name(node);
      case Sym::Integer:
      case Sym::Float: return build_number(node);
      case Sym::True: return build_keyword_constant(node, ir::Constant::Type::True);
      case Sym::False: return build_keyword_constant(node, ir::Constant::Type::False);
      case Sym::None: return build_keyword_constant(node, ir::Constant::Type::None);
      case Sym::Ellipsis: return build_keyword_constant(node, ir::Constant::Type::Ellipsis);
      case Sym::String:
      case Sym::ConcatenatedString: return build_string(node);
      case Sym::Attribute: return build_attribute(node);
      case Sym::Subscript: return build_subscript(node);
      case Sym::Slice: return build_slice(node);
      case Sym::Call: return build_call(node);
      case Sym::BinaryOperator: return build_binop(node);
      case Sym::UnaryOperator:
      case Sym::NotOperator: return build_unary(node);
      case Sym::ComparisonOperator: return build_compare(node);
      case Sym::BooleanOperator: return build_boolop(node);
      case Sym::ConditionalExpression: return build_ifexp(node);
      case Sym::Lambda: return build_lambda(node);
      case Sym::ListComprehension: return build_comprehension<ir::ListComp>(node);
      case Sym::SetComprehension: return build_comprehension<ir::SetComp>(node);
      case Sym::GeneratorExpression: return build_comprehension<ir::GeneratorExp>(node);
      case Sym::DictionaryComprehension: return build_dict_comprehension(node);
      case Sym::List:
      case Sym::ListPattern: return build_sequence<ir::List>(node);
      case Sym::Set: return build_sequence<ir::Set>(node);
      case Sym::Tuple:
      case Sym::TuplePattern: return build_tuple(node);
      case Sym::ExpressionList:
      case Sym::PatternList: return build_bare_tuple(node);
      case Sym::Dictionary: return build_dict(node);
      case Sym::ListSplat:
      case Sym::ListSplatPattern: return build_starred(node);
      case Sym::NamedExpression: return build_named_expr(node);
      case Sym::Await: return build_await(node);
      case Sym::Yield: return build_yield(node);
      case Sym::GenericType: return build_generic_type(node);
      case Sym::UnionType: return build_union_type(node);
      case Sym::MemberType: return build_member_type(node);
      case Sym::ConstrainedType: return build_constrained_type(node);
      case Sym::SplatType: return build_splat_type(node);
      default: return opaque_expr(node);  // as_pattern outside with/except, match patterns, ...
    }
  }

  [[gnu::noinline]] ir::Expr* build_name(TSNode node) {
    auto* name = make<ir::Name>(node);
    name->id = text(node);
    return name;
  }

  [[gnu::noinline]] ir::Expr* build_tuple(TSNode node) {
    if (sym(node) == Sym::TuplePattern) {  // `(x) = v` and `for (x) in v`: parentheses, not a tuple
      Children kids = children(node);
      if (kids.named_count() == 1 && !kids.has(Sym::TokComma)) return build_expr(kids.first_named().node);
    }
    auto* tuple = build_sequence<ir::Tuple>(node);
    tuple->parenthesized = true;
    return tuple;
  }

  [[gnu::noinline]] ir::Expr* build_bare_tuple(TSNode node) {
    Children kids = children(node);
    return build_bare_tuple(kids, node);
  }

  [[gnu::noinline]] ir::Expr* build_starred(TSNode node) {
    Children kids = children(node);
    // The bottom of a misplaced star (see build_misplaced_star): just its operand.
    if (ts_node_eq(node, star_bottom_)) return build_expr(kids.first_named().node);
    auto* starred = make<ir::Starred>(node);
    starred->value = build_expr(kids.first_named().node);
    return starred;
  }

  // In a bare tuple, tree-sitter-python reads `*a.f(x)` as (*a).f(x): the star
  // lands at the bottom of the attribute/call/subscript chain. Python stars the
  // whole chain. A chain whose text starts with `*` is rebuilt as Starred(chain).
  bool misplaced_star(TSNode node) const {
    uint32_t begin = ts_node_start_byte(node);
    bool in_rebuilt_chain = !ts_node_is_null(star_top_) && begin == ts_node_start_byte(star_top_);
    return begin < file_.text().size() && file_.text()[begin] == '*' && !in_rebuilt_chain;
  }

  [[gnu::noinline]] ir::Expr* build_misplaced_star(TSNode node) {
    TSNode bottom = node;
    for (;;) {  // down the object / function / value links to the list_splat
      Children kids = children(bottom);
      Sym s = sym(bottom);
      TSNode next = s == Sym::Attribute ? kids.field(f_.object).node
                    : s == Sym::Call    ? kids.field(f_.function).node
                                        : kids.field(f_.value).node;
      if (ts_node_is_null(next)) return opaque_expr(node);
      Sym next_sym = sym(next);
      if (next_sym == Sym::ListSplat) {
        bottom = next;
        break;
      }
      if (next_sym != Sym::Attribute && next_sym != Sym::Call && next_sym != Sym::Subscript) return opaque_expr(node);
      bottom = next;
    }
    auto* starred = make<ir::Starred>(node);
    TSNode saved_top = star_top_, saved_bottom = star_bottom_;
    Rebase saved_rebase = rebase_;
    {
      Children parts = children(bottom);
      Child operand = parts.first_named();
      if (!operand.present()) return opaque_expr(node);
      rebase_ = {ts_node_start_byte(node), ts_node_start_byte(operand.node)};  // the chain starts after the star
    }
    star_top_ = node;
    star_bottom_ = bottom;
    {
      DepthScope scope(depth_);  // the Starred is one more level
      starred->value = depth_ >= kMaxDepth ? too_deep_expr(node) : build_expr(node);
    }
    star_top_ = saved_top;
    star_bottom_ = saved_bottom;
    rebase_ = saved_rebase;
    return starred;
  }

  [[gnu::noinline]] ir::Expr* build_named_expr(TSNode node) {
    auto* named = make<ir::NamedExpr>(node);
    Children kids = children(node);
    named->target = build_expr(kids.field(f_.name).node);
    named->value = build_expr(kids.field(f_.value).node);
    return named;
  }

  // tree-sitter-python reads `await x ** 2` as await (x ** 2); Python as
  // (await x) ** 2 (await binds tighter than **): regroup that one case.
  [[gnu::noinline]] ir::Expr* build_await(TSNode node) {
    Children kids = children(node);
    Child value = kids.first_named();
    if (value.sym == Sym::BinaryOperator) {
      Children parts = children(value.node);
      Child op = parts.field(f_.op);
      if (op.sym == Sym::TokStarStar) {
        TSNode left = parts.field(f_.left).node;
        auto* power = make<ir::BinOp>(node);
        power->op = ir::BinOpKind::Pow;
        power->op_loc = loc(op.node);
        auto* await = module_.make<ir::Await>(locations_.at(ts_node_start_byte(node), ts_node_end_byte(left)));
        await->value = build_expr(left);
        power->left = await;
        power->right = build_expr(parts.field(f_.right).node);
        return power;
      }
    }
    auto* await = make<ir::Await>(node);
    await->value = build_expr(value.node);
    return await;
  }

  [[gnu::noinline]] ir::Expr* build_yield(TSNode node) {
    auto* yield = make<ir::Yield>(node);
    if (!function_stack_.empty() && function_stack_.back()) function_stack_.back()->is_generator = true;
    Children kids = children(node);
    yield->is_from = kids.has(Sym::TokFrom);
    Child value = kids.first_named();
    if (value.present()) yield->value = build_expr(value.node);
    return yield;
  }

  [[gnu::noinline]] ir::Expr* build_splat_type(TSNode node) {
    Children kids = children(node);
    if (kids.has(Sym::TokStarStar)) return opaque_expr(node);  // **P exists only in type parameter lists
    auto* starred = make<ir::Starred>(node);
    starred->value = build_expr(kids.first_named().node);
    return starred;
  }

  [[gnu::noinline]] ir::Expr* build_keyword_constant(TSNode node, ir::Constant::Type type) {
    auto* constant = make<ir::Constant>(node);
    constant->type = type;
    constant->text = text(node);
    return constant;
  }

  [[gnu::noinline]] ir::Expr* build_number(TSNode node) {
    auto* constant = make<ir::Constant>(node);
    std::string_view written = text(node);
    constant->text = written;
    if (ends_with_j(written)) {
      constant->type = ir::Constant::Type::Complex;
      constant->float_value = ts::parse_float_literal(written.substr(0, written.size() - 1));
    } else if (sym(node) == Sym::Float) {
      constant->type = ir::Constant::Type::Float;
      constant->float_value = ts::parse_float_literal(written);
    } else {
      constant->type = ir::Constant::Type::Int;
      constant->int_value = ts::parse_int_literal(written);
    }
    return constant;
  }

  // A string, or implicitly concatenated strings: one Constant (or FString).
  [[gnu::noinline]] ir::Expr* build_string(TSNode node) {
    // The parts: the node itself, or the strings of a concatenation.
    std::vector<TSNode> parts;
    if (sym(node) == Sym::ConcatenatedString) {
      Children kids = children(node);
      for (std::size_t i = 0; i < kids.size(); ++i) {
        if (kids[i].sym == Sym::String) parts.push_back(kids[i].node);
      }
    } else {
      parts.push_back(node);
    }
    bool any_formatted = false;
    std::size_t bytes_parts = 0;
    std::vector<ts::StringPrefix> prefixes;
    prefixes.reserve(parts.size());
    for (TSNode part : parts) {
      Children kids = children(part);
      Child start = kids.size() > 0 ? kids[0] : Child{};
      ts::StringPrefix prefix = start.sym == Sym::StringStart ? ts::parse_string_prefix(text(start.node))
                                                              : ts::StringPrefix{};
      any_formatted = any_formatted || prefix.formatted;
      bytes_parts += prefix.bytes ? 1 : 0;
      prefixes.push_back(prefix);
    }
    if (any_formatted) {
      auto* fstring = make<ir::FString>(node);
      fstring->text = text(node);
      for (std::size_t i = 0; i < parts.size(); ++i) {
        if (prefixes[i].formatted) collect_interpolations(parts[i], fstring->values);
      }
      return fstring;
    }
    if (bytes_parts != 0 && bytes_parts != parts.size()) return opaque_expr(node);  // str + bytes: not Python 3
    auto* constant = make<ir::Constant>(node);
    constant->type = bytes_parts != 0 ? ir::Constant::Type::Bytes : ir::Constant::Type::Str;
    constant->text = text(node);
    for (std::size_t i = 0; i < parts.size(); ++i) {
      Children kids = children(parts[i]);
      if (kids.size() < 2) continue;
      // The body ends where the closing quotes start: string_end may also hold
      // the backslashes that end a raw string (r"\\" has string_end `\\"`).
      std::string_view start = text(kids[0].node);
      std::size_t quotes = start.size() - start.find_first_of("'\"");
      uint32_t body_begin = ts_node_end_byte(kids[0].node);
      uint32_t body_end = ts_node_end_byte(kids[kids.size() - 1].node);
      if (body_end < body_begin + quotes) continue;
      body_end -= static_cast<uint32_t>(quotes);
      ts::decode_string_body(std::string_view(file_.text()).substr(body_begin, body_end - body_begin), prefixes[i],
                             constant->str_value);
    }
    return constant;
  }

  // The {…} expressions of an f-string, including those nested in format specs.
  [[gnu::noinline]] void collect_interpolations(TSNode node, std::vector<ir::Expr*>& values) {
    if (depth_ >= kMaxDepth) {
      values.push_back(too_deep_expr(node));
      return;
    }
    DepthScope scope(depth_);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.sym == Sym::Interpolation || kid.sym == Sym::FormatExpression) {
        Children parts = children(kid.node);
        for (std::size_t k = 0; k < parts.size(); ++k) {
          Child part = parts[k];
          if (part.field == f_.expression) values.push_back(build_expr(part.node));
          else if (part.field == f_.format_specifier) collect_interpolations(part.node, values);
        }
      }
    }
  }

  [[gnu::noinline]] ir::Expr* build_attribute(TSNode node) {
    if (misplaced_star(node)) return build_misplaced_star(node);
    auto* attribute = make<ir::Attribute>(node);
    Children kids = children(node);
    attribute->value = build_expr(kids.field(f_.object).node);
    Child name = kids.field(f_.attribute);
    attribute->attr = text(name.node);
    attribute->attr_loc = loc(name.node);
    return attribute;
  }

  [[gnu::noinline]] ir::Expr* build_subscript(TSNode node) {
    if (misplaced_star(node)) return build_misplaced_star(node);
    auto* subscript = make<ir::Subscript>(node);
    Children kids = children(node);
    subscript->value = build_expr(kids.field(f_.value).node);
    std::size_t index_count = 0;
    TSNode first{}, last{};
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.field != f_.subscript) continue;
      if (index_count++ == 0) first = kid.node;
      last = kid.node;
    }
    if (index_count == 1 && !kids.has(Sym::TokComma) && sym(first) != Sym::ListSplat) {
      subscript->index = build_expr(first);
      return subscript;
    }
    // x[a, b:c], x[a,] and x[*a] (PEP 646): the index is a tuple without parentheses.
    auto* tuple = index_count > 0 ? module_.make<ir::Tuple>(locations_.span(first, last)) : make<ir::Tuple>(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.field == f_.subscript) tuple->elts.push_back(build_expr(kid.node));
    }
    subscript->index = tuple;
    return subscript;
  }

  // lower:upper:step, each part optional: the colons tell which is which.
  [[gnu::noinline]] ir::Expr* build_slice(TSNode node) {
    auto* slice = make<ir::Slice>(node);
    Children kids = children(node);
    int part = 0;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.sym == Sym::TokColon) {
        ++part;
      } else if (kid.named) {
        ir::Expr* value = build_expr(kid.node);
        if (part == 0) slice->lower = value;
        else if (part == 1) slice->upper = value;
        else slice->step = value;
      }
    }
    return slice;
  }

  [[gnu::noinline]] ir::Expr* build_call(TSNode node) {
    if (misplaced_star(node)) return build_misplaced_star(node);
    auto* call = make<ir::Call>(node);
    Children kids = children(node);
    call->func = build_expr(kids.field(f_.function).node);
    Child args = kids.field(f_.arguments);
    if (args.sym == Sym::GeneratorExpression) {  // f(x for x in y): the generator is the one argument
      ir::Argument arg;
      arg.loc = loc(args.node);
      arg.value = build_expr(args.node);
      call->args.push_back(std::move(arg));
    } else if (args.present()) {
      build_arguments(args.node, call->args);
    }
    return call;
  }

  [[gnu::noinline]] ir::Expr* build_binop(TSNode node) {
    Children kids = children(node);
    Child op = kids.field(f_.op);
    if (op.sym == Sym::TokAmp || op.sym == Sym::TokCaret) return build_bitwise_run(node);
    std::optional<ir::BinOpKind> kind = binop_of(op.sym);
    if (!kind) return opaque_expr(node);
    auto* binop = make<ir::BinOp>(node);
    binop->op = *kind;
    binop->op_loc = loc(op.node);
    binop->left = build_expr(kids.field(f_.left).node);
    binop->right = build_expr(kids.field(f_.right).node);
    return binop;
  }

  // tree-sitter-python 0.23.6 ranks `^` above `&`; Python binds `&` tighter
  // (a ^ b & c is a ^ (b & c)). An unparenthesized run of `&` and `^` is
  // therefore read as operands and operators in source order and regrouped
  // here: `&` terms first, then `^` between them, both left-associative.
  [[gnu::noinline]] ir::Expr* build_bitwise_run(TSNode node) {
    struct Item {
      TSNode node;
      bool is_operator;
    };
    std::vector<Item> items;    // operand, operator, operand, ... in source order
    std::vector<Item> pending{{node, false}};
    while (!pending.empty()) {  // in-order walk without recursion
      Item item = pending.back();
      pending.pop_back();
      if (!item.is_operator && sym(item.node) == Sym::BinaryOperator) {
        Children kids = children(item.node);
        Child op = kids.field(f_.op);
        if (op.sym == Sym::TokAmp || op.sym == Sym::TokCaret) {
          pending.push_back({kids.field(f_.right).node, false});
          pending.push_back({op.node, true});
          pending.push_back({kids.field(f_.left).node, false});
          continue;
        }
      }
      items.push_back(item);
    }
    std::size_t operators = items.size() / 2;
    if (depth_ + static_cast<int>(operators) >= kMaxDepth) {  // the regrouped chain would nest too deep
      return too_deep_expr(node);
    }
    auto combine = [&](ir::Expr* left, TSNode op, ir::Expr* right, TSNode first, TSNode last) {
      auto* binop = module_.make<ir::BinOp>(locations_.span(first, last));
      binop->op = sym(op) == Sym::TokAmp ? ir::BinOpKind::BitAnd : ir::BinOpKind::BitXor;
      binop->op_loc = loc(op);
      binop->left = left;
      binop->right = right;
      return binop;
    };
    // Operands sit up to `operators` levels below this node once regrouped.
    int saved_depth = depth_;
    depth_ += static_cast<int>(operators);
    // xor_value ^ ... ^ (and_value & ... & operand): fold as we go.
    ir::Expr* xor_value = nullptr;
    TSNode xor_op{}, xor_first{};
    ir::Expr* and_value = build_expr(items[0].node);
    TSNode and_first = items[0].node;
    for (std::size_t i = 1; i + 1 < items.size(); i += 2) {
      TSNode op = items[i].node;
      TSNode operand = items[i + 1].node;
      if (sym(op) == Sym::TokAmp) {
        and_value = combine(and_value, op, build_expr(operand), and_first, operand);
        continue;
      }
      // `^`: the `&` term so far is complete.
      xor_value = xor_value == nullptr ? and_value
                                       : combine(xor_value, xor_op, and_value, xor_first, items[i - 1].node);
      if (ts_node_is_null(xor_first)) xor_first = and_first;
      xor_op = op;
      and_value = build_expr(operand);
      and_first = operand;
    }
    depth_ = saved_depth;
    if (xor_value == nullptr) return and_value;
    return combine(xor_value, xor_op, and_value, xor_first, items.back().node);
  }

  [[gnu::noinline]] ir::Expr* build_unary(TSNode node) {
    Children kids = children(node);
    auto* unary = make<ir::UnaryOp>(node);
    if (sym(node) == Sym::NotOperator) {
      unary->op = ir::UnaryOpKind::Not;
    } else {
      switch (kids.field(f_.op).sym) {
        case Sym::TokMinus: unary->op = ir::UnaryOpKind::Neg; break;
        case Sym::TokPlus: unary->op = ir::UnaryOpKind::Pos; break;
        case Sym::TokTilde: unary->op = ir::UnaryOpKind::Invert; break;
        default: return opaque_expr(node);
      }
    }
    unary->operand = build_expr(kids.field(f_.argument).node);
    return unary;
  }

  // a < b <= c: operands and operator tokens alternate among the children.
  [[gnu::noinline]] ir::Expr* build_compare(TSNode node) {
    auto* compare = make<ir::Compare>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.field == f_.operators) {
        std::optional<ir::CmpOpKind> op = cmpop_of(kid.sym);
        if (!op) return opaque_expr(node);
        compare->ops.push_back(*op);
      } else if (kid.named) {
        ir::Expr* operand = build_expr(kid.node);
        if (compare->left == nullptr) compare->left = operand;
        else compare->comparators.push_back(operand);
      }
    }
    if (compare->ops.size() != compare->comparators.size()) return opaque_expr(node);
    return compare;
  }

  // a and b and c is one BoolOp, as in CPython; the tree nests it to the left.
  [[gnu::noinline]] ir::Expr* build_boolop(TSNode node) {
    Sym op = Sym::Other;
    std::vector<TSNode> rights;
    TSNode current = node;
    TSNode leftmost{};
    for (;;) {
      Children kids = children(current);
      Sym current_op = kids.field(f_.op).sym;
      if (op == Sym::Other) op = current_op;
      if (current_op != op) {  // a differently-operated left operand stays one value
        leftmost = current;
        break;
      }
      rights.push_back(kids.field(f_.right).node);
      TSNode left = kids.field(f_.left).node;
      if (sym(left) != Sym::BooleanOperator) {
        leftmost = left;
        break;
      }
      current = left;
    }
    auto* boolop = make<ir::BoolOp>(node);
    boolop->op = op == Sym::TokOr ? ir::BoolOp::Op::Or : ir::BoolOp::Op::And;
    boolop->values.reserve(rights.size() + 1);
    boolop->values.push_back(build_expr(leftmost));
    for (auto it = rights.rbegin(); it != rights.rend(); ++it) boolop->values.push_back(build_expr(*it));
    return boolop;
  }

  // body if test else orelse
  [[gnu::noinline]] ir::Expr* build_ifexp(TSNode node) {
    auto* ifexp = make<ir::IfExp>(node);
    Children kids = children(node);
    int index = 0;
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      ir::Expr* value = build_expr(kid.node);
      if (index == 0) ifexp->body = value;
      else if (index == 1) ifexp->test = value;
      else ifexp->orelse = value;
      ++index;
    }
    return ifexp;
  }

  [[gnu::noinline]] ir::Expr* build_lambda(TSNode node) {
    auto* lambda = make<ir::Lambda>(node);
    Children kids = children(node);
    Child params = kids.field(f_.parameters);
    if (params.present() && !build_parameters(params.node, lambda->params)) return opaque_expr(node);
    function_stack_.push_back(nullptr);  // a yield in a lambda makes the lambda a generator, not the def
    lambda->body = build_expr(kids.field(f_.body).node);
    function_stack_.pop_back();
    return lambda;
  }

  // The for/if clauses of a comprehension, in order.
  [[gnu::noinline]] void build_generators(const Children& kids, std::vector<ir::Comprehension>& generators) {
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.sym == Sym::ForInClause) {
        ir::Comprehension generator;
        generator.loc = loc(kid.node);
        Children parts = children(kid.node);
        generator.is_async = parts.has(Sym::TokAsync);
        generator.target = build_expr(parts.field(f_.left).node);
        std::size_t rights = 0;
        for (std::size_t k = 0; k < parts.size(); ++k) rights += parts[k].field == f_.right && parts[k].named ? 1 : 0;
        if (rights == 1) {
          generator.iter = build_expr(parts.field(f_.right).node);
        } else if (rights == 0) {
          generator.iter = opaque_expr(kid.node);
        } else {  // `for x in a, b` (Python 2): the iterable is a tuple
          TSNode first{}, last{};
          for (std::size_t k = 0; k < parts.size(); ++k) {
            if (parts[k].field != f_.right) continue;
            if (ts_node_is_null(first)) first = parts[k].node;
            last = parts[k].node;
          }
          auto* tuple = module_.make<ir::Tuple>(locations_.span(first, last));
          for (std::size_t k = 0; k < parts.size(); ++k) {
            if (parts[k].field == f_.right && parts[k].named) tuple->elts.push_back(build_expr(parts[k].node));
          }
          generator.iter = tuple;
        }
        generators.push_back(std::move(generator));
      } else if (kid.sym == Sym::IfClause && !generators.empty()) {
        Children parts = children(kid.node);
        generators.back().ifs.push_back(build_expr(parts.first_named().node));
      }
    }
  }

  template <class T>
  [[gnu::noinline]] ir::Expr* build_comprehension(TSNode node) {
    auto* comprehension = make<T>(node);
    Children kids = children(node);
    comprehension->elt = build_expr(kids.field(f_.body).node);
    build_generators(kids, comprehension->generators);
    return comprehension;
  }

  [[gnu::noinline]] ir::Expr* build_dict_comprehension(TSNode node) {
    auto* comprehension = make<ir::DictComp>(node);
    Children kids = children(node);
    Child pair = kids.field(f_.body);
    if (pair.sym != Sym::Pair) return opaque_expr(node);
    {
      Children parts = children(pair.node);
      comprehension->key = build_expr(parts.field(f_.key).node);
      comprehension->value = build_expr(parts.field(f_.value).node);
    }
    build_generators(kids, comprehension->generators);
    return comprehension;
  }

  template <class T>
  [[gnu::noinline]] T* build_sequence(TSNode node) {
    auto* sequence = make<T>(node);
    Children kids = children(node);
    sequence->elts.reserve(kids.size());
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.named) sequence->elts.push_back(build_expr(kid.node));
    }
    return sequence;
  }

  // A tuple written without parentheses (`1, 2`), from the named children of
  // `kids`; it spans them (or `owner`, should there be none).
  [[gnu::noinline]] ir::Tuple* build_bare_tuple(const Children& kids, TSNode owner) {
    TSNode first{}, last{};
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (!kids[i].named) continue;
      if (ts_node_is_null(first)) first = kids[i].node;
      last = kids[i].node;
    }
    auto* tuple = module_.make<ir::Tuple>(ts_node_is_null(first) ? loc(owner) : locations_.span(first, last));
    for (std::size_t i = 0; i < kids.size(); ++i) {
      if (kids[i].named) tuple->elts.push_back(build_expr(kids[i].node));
    }
    return tuple;
  }

  [[gnu::noinline]] ir::Expr* build_dict(TSNode node) {
    auto* dict = make<ir::Dict>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.sym == Sym::Pair) {
        Children parts = children(kid.node);
        dict->keys.push_back(build_expr(parts.field(f_.key).node));
        dict->values.push_back(build_expr(parts.field(f_.value).node));
      } else if (kid.sym == Sym::DictionarySplat) {
        Children parts = children(kid.node);
        dict->keys.push_back(nullptr);
        dict->values.push_back(build_expr(parts.first_named().node));
      } else if (kid.named) {
        dict->keys.push_back(nullptr);
        dict->values.push_back(opaque_expr(kid.node));
      }
    }
    return dict;
  }

  // Annotation forms the grammar parses as types rather than expressions.

  // `type` wrapping `*Ts`: a one-element index that is a tuple, as x[*a] is.
  bool is_splat_type(TSNode node) { return sym(unwrap(node)) == Sym::SplatType; }

  // List[int], Dict[str, int] → Subscript
  [[gnu::noinline]] ir::Expr* build_generic_type(TSNode node) {
    auto* subscript = make<ir::Subscript>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.sym == Sym::TypeParameter) {
        Children params = children(kid.node);
        if (params.named_count() == 1 && !params.has(Sym::TokComma) && !is_splat_type(params.first_named().node)) {
          subscript->index = build_expr(params.first_named().node);
        } else {
          subscript->index = build_bare_tuple(params, kid.node);
        }
      } else if (kid.named && subscript->value == nullptr) {
        subscript->value = build_expr(kid.node);
      }
    }
    return subscript;
  }

  // int | None → BinOp |
  [[gnu::noinline]] ir::Expr* build_union_type(TSNode node) {
    auto* binop = make<ir::BinOp>(node);
    binop->op = ir::BinOpKind::BitOr;
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (kid.sym == Sym::TokPipe) binop->op_loc = loc(kid.node);
      else if (kid.named && binop->left == nullptr) binop->left = build_expr(kid.node);
      else if (kid.named) binop->right = build_expr(kid.node);
    }
    return binop;
  }

  // T[int].x → Attribute
  [[gnu::noinline]] ir::Expr* build_member_type(TSNode node) {
    auto* attribute = make<ir::Attribute>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      if (attribute->value == nullptr) {
        attribute->value = build_expr(kid.node);
      } else {
        attribute->attr = text(kid.node);
        attribute->attr_loc = loc(kid.node);
      }
    }
    return attribute;
  }

  // x[1:2] inside an annotation → Slice
  [[gnu::noinline]] ir::Expr* build_constrained_type(TSNode node) {
    auto* slice = make<ir::Slice>(node);
    Children kids = children(node);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      Child kid = kids[i];
      if (!kid.named) continue;
      if (slice->lower == nullptr) slice->lower = build_expr(kid.node);
      else slice->upper = build_expr(kid.node);
    }
    return slice;
  }

  const SourceFile& file_;
  ir::Module& module_;
  const ts::Grammar& grammar_;
  const ts::Fields& f_;
  ts::LocationMap& locations_;
  TSTreeCursor cursor_{};
  bool cursor_live_ = false;
  std::vector<Child> stack_;
  int depth_ = 0;
  std::vector<ir::FunctionDef*> function_stack_;  // the defs being built (nullptr: a lambda)
  TSNode star_top_{};     // the chain build_misplaced_star is rebuilding
  TSNode star_bottom_{};  // and the list_splat at its bottom
  TSNode type_call_{};    // the `(obj)` build_type_alias turns into type(obj)
  TSNode type_keyword_{};
  // While a chain is rebuilt: nodes starting at byte `from` start at `to`.
  struct Rebase {
    uint32_t from = 0;
    uint32_t to = 0;
    bool active = false;
    Rebase() = default;
    Rebase(uint32_t f, uint32_t t) : from(f), to(t), active(true) {}
  };
  Rebase rebase_;
  std::optional<Diagnostic> too_deep_;
  std::optional<Diagnostic> syntax_error_;
};

// Deletes the tree when the build ends, however it ends.
struct TreeOwner {
  TSTree* tree;
  ~TreeOwner() {
    if (tree != nullptr) ts_tree_delete(tree);
  }
};

}  // namespace

std::unique_ptr<ir::Module> build_module(const SourceFile& file, DiagnosticSink& diags) {
  std::string error;
  TSParser* parser = ts::thread_parser(&error);
  if (parser == nullptr) {
    diags.file_error(file.path(), "cannot parse Python: " + error);
    return nullptr;
  }
  if (file.text().size() >= UINT32_MAX) {
    diags.file_error(file.path(), "file too large to parse (4 GiB or more)");
    return nullptr;
  }
  // tree-sitter-python does not end a line at a lone '\r' (old Mac files);
  // Python does. Parse a copy where each lone '\r' is a '\n': same length,
  // so every byte offset still points into the original text.
  const std::string& text = file.text();
  std::string normalized;
  std::size_t cr = text.find('\r');
  while (cr != std::string::npos) {
    if (cr + 1 >= text.size() || text[cr + 1] != '\n') {
      if (normalized.empty()) normalized = text;
      normalized[cr] = '\n';
    }
    cr = text.find('\r', cr + 1);
  }
  const std::string& parsed = normalized.empty() ? text : normalized;
  TreeOwner owner{ts_parser_parse_string(parser, nullptr, parsed.data(), static_cast<uint32_t>(parsed.size()))};
  if (owner.tree == nullptr) {
    ts_parser_reset(parser);
    diags.file_error(file.path(), "tree-sitter could not parse this file");
    return nullptr;
  }
  TSNode root = ts_tree_root_node(owner.tree);
  ts::LocationMap locations(file);
  if (ts::report_syntax_error(root, file, locations, diags)) return nullptr;

  auto module = std::make_unique<ir::Module>(&file);
  Builder builder(file, *module, locations);
  builder.build(root);
  if (builder.syntax_error()) {
    diags.report(*builder.syntax_error());
    return nullptr;
  }
  if (builder.too_deep()) diags.report(*builder.too_deep());
  return module;
}

}  // namespace gshape
