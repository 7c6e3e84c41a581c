// The IR: a Python AST close to CPython's `ast` module, built from
// tree-sitter-python's concrete tree. Every node carries a SourceLoc.
// Anything the IR does not model becomes an Opaque node that keeps its
// location and the tree-sitter node type, so nothing is silently dropped.
//
// Ownership: a Module owns all of its nodes (an arena of unique_ptrs);
// nodes refer to each other with raw pointers. Optional children are nullptr.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "frontend/source.h"

namespace gshape::ir {

enum class Kind : uint8_t {
  // expressions
  Name, Constant, FString, Attribute, Subscript, Slice, Call, BinOp, UnaryOp, Compare, BoolOp,
  IfExp, Lambda, ListComp, SetComp, DictComp, GeneratorExp, List, Tuple, Set, Dict, Starred,
  NamedExpr, Await, Yield, OpaqueExpr,
  // statements
  Import, ImportFrom, FunctionDef, ClassDef, Assign, AugAssign, AnnAssign, ExprStmt, If, For,
  While, With, Try, Return, Raise, Assert, Pass, Break, Continue, Global, Nonlocal, Delete,
  OpaqueStmt,
};
const char* kind_name(Kind k);

struct Node {
  Kind kind;
  SourceLoc loc;
  explicit Node(Kind k) : kind(k) {}
  virtual ~Node() = default;
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
};

struct Expr : Node { using Node::Node; };
struct Stmt : Node { using Node::Node; };
using Body = std::vector<Stmt*>;

// LLVM-style casts on the kind tag: isa<T>(n), cast<T>(n) (checked), dyn_cast<T>(n).
template <class T> bool isa(const Node* n) { return n && n->kind == T::kKind; }
template <class T> T* dyn_cast(Node* n) { return isa<T>(n) ? static_cast<T*>(n) : nullptr; }
template <class T> const T* dyn_cast(const Node* n) { return isa<T>(n) ? static_cast<const T*>(n) : nullptr; }
template <class T> T* cast(Node* n) { return static_cast<T*>(n); }
template <class T> const T* cast(const Node* n) { return static_cast<const T*>(n); }

// ---------------------------------------------------------------- expressions

struct Name : Expr {
  static constexpr Kind kKind = Kind::Name;
  Name() : Expr(kKind) {}
  std::string id;
};

// A literal. `text` is the literal as written in the source.
struct Constant : Expr {
  static constexpr Kind kKind = Kind::Constant;
  enum class Type : uint8_t { Int, Float, Complex, Str, Bytes, True, False, None, Ellipsis };
  Constant() : Expr(kKind) {}
  Type type = Type::None;
  std::string text;
  // Int: the value when it fits in int64 (hex, octal, binary, underscores handled).
  std::optional<int64_t> int_value;
  // Float / Complex (imaginary part): the numeric value.
  double float_value = 0.0;
  // Str / Bytes: the decoded contents (escapes resolved, implicit concatenation joined).
  std::string str_value;
};

// An f-string: its literal text pieces are dropped; the interpolated
// expressions are kept (they are evaluated, so the analysis must see them).
struct FString : Expr {
  static constexpr Kind kKind = Kind::FString;
  FString() : Expr(kKind) {}
  std::string text;             // as written
  std::vector<Expr*> values;    // the {…} expressions in order
};

struct Attribute : Expr {
  static constexpr Kind kKind = Kind::Attribute;
  Attribute() : Expr(kKind) {}
  Expr* value = nullptr;
  std::string attr;
  SourceLoc attr_loc;  // location of the attribute name itself
};

// value[index]; a multi-element index `x[a, b:c]` is a Tuple whose elements
// may be Slices; `x[...]` is a Constant Ellipsis; `x[None]` a Constant None.
struct Subscript : Expr {
  static constexpr Kind kKind = Kind::Subscript;
  Subscript() : Expr(kKind) {}
  Expr* value = nullptr;
  Expr* index = nullptr;
};

// lower:upper:step inside a subscript; missing bounds are nullptr.
struct Slice : Expr {
  static constexpr Kind kKind = Kind::Slice;
  Slice() : Expr(kKind) {}
  Expr* lower = nullptr;
  Expr* upper = nullptr;
  Expr* step = nullptr;
};

// One argument of a call (or of a class's base list).
struct Argument {
  enum class Type : uint8_t { Positional, Keyword, Star, DoubleStar };
  Type type = Type::Positional;
  std::string name;  // Keyword only
  Expr* value = nullptr;
  SourceLoc loc;
};

struct Call : Expr {
  static constexpr Kind kKind = Kind::Call;
  Call() : Expr(kKind) {}
  Expr* func = nullptr;
  std::vector<Argument> args;  // in source order
};

// Where a diagnostic or a run-time check names a site: a method call
// continued on a later line (`(torch.tril(m)` then `.view(...))`) at its
// method's name, the line Python 3.11's traceback shows; any other node at
// its start. The byte range stays the node's.
SourceLoc reported_loc(const Node* n);

enum class BinOpKind : uint8_t { Add, Sub, Mult, MatMult, Div, FloorDiv, Mod, Pow, LShift, RShift, BitOr, BitXor, BitAnd };
const char* binop_symbol(BinOpKind k);  // "+", "@", "//", ...

struct BinOp : Expr {
  static constexpr Kind kKind = Kind::BinOp;
  BinOp() : Expr(kKind) {}
  BinOpKind op = BinOpKind::Add;
  Expr* left = nullptr;
  Expr* right = nullptr;
  SourceLoc op_loc;  // location of the operator token
};

enum class UnaryOpKind : uint8_t { Neg, Pos, Invert, Not };
const char* unaryop_symbol(UnaryOpKind k);

struct UnaryOp : Expr {
  static constexpr Kind kKind = Kind::UnaryOp;
  UnaryOp() : Expr(kKind) {}
  UnaryOpKind op = UnaryOpKind::Neg;
  Expr* operand = nullptr;
};

enum class CmpOpKind : uint8_t { Eq, NotEq, Lt, LtE, Gt, GtE, Is, IsNot, In, NotIn };
const char* cmpop_symbol(CmpOpKind k);
// A comparison of values (== != < <= > >=), which tensors broadcast; not `is` or `in`.
inline bool is_comparison(CmpOpKind k) { return k <= CmpOpKind::GtE; }

// a < b <= c: left = a, ops = [<, <=], comparators = [b, c].
struct Compare : Expr {
  static constexpr Kind kKind = Kind::Compare;
  Compare() : Expr(kKind) {}
  Expr* left = nullptr;
  std::vector<CmpOpKind> ops;
  std::vector<Expr*> comparators;
};

// a and b and c: one BoolOp with three values.
struct BoolOp : Expr {
  static constexpr Kind kKind = Kind::BoolOp;
  enum class Op : uint8_t { And, Or };
  BoolOp() : Expr(kKind) {}
  Op op = Op::And;
  std::vector<Expr*> values;
};

struct IfExp : Expr {
  static constexpr Kind kKind = Kind::IfExp;
  IfExp() : Expr(kKind) {}
  Expr* test = nullptr;
  Expr* body = nullptr;
  Expr* orelse = nullptr;
};

// A parameter of a def or lambda.
struct Parameter {
  enum class Type : uint8_t { PositionalOnly, Regular, VarArgs, KeywordOnly, VarKeywords };
  Type type = Type::Regular;
  std::string name;
  Expr* annotation = nullptr;
  Expr* default_value = nullptr;
  SourceLoc loc;
};

struct Lambda : Expr {
  static constexpr Kind kKind = Kind::Lambda;
  Lambda() : Expr(kKind) {}
  std::vector<Parameter> params;
  Expr* body = nullptr;
};

// `for target in iter if cond…` inside a comprehension.
struct Comprehension {
  Expr* target = nullptr;
  Expr* iter = nullptr;
  std::vector<Expr*> ifs;
  bool is_async = false;
  SourceLoc loc;
};

// ListComp, SetComp and GeneratorExp share one shape: elt + generators.
struct ComprehensionExpr : Expr {
  using Expr::Expr;
  Expr* elt = nullptr;
  std::vector<Comprehension> generators;
};
struct ListComp : ComprehensionExpr {
  static constexpr Kind kKind = Kind::ListComp;
  ListComp() : ComprehensionExpr(kKind) {}
};
struct SetComp : ComprehensionExpr {
  static constexpr Kind kKind = Kind::SetComp;
  SetComp() : ComprehensionExpr(kKind) {}
};
struct GeneratorExp : ComprehensionExpr {
  static constexpr Kind kKind = Kind::GeneratorExp;
  GeneratorExp() : ComprehensionExpr(kKind) {}
};
struct DictComp : Expr {
  static constexpr Kind kKind = Kind::DictComp;
  DictComp() : Expr(kKind) {}
  Expr* key = nullptr;
  Expr* value = nullptr;
  std::vector<Comprehension> generators;
};

// List, Tuple and Set: a sequence of elements (which may be Starred).
struct SequenceExpr : Expr {
  using Expr::Expr;
  std::vector<Expr*> elts;
};
struct List : SequenceExpr {
  static constexpr Kind kKind = Kind::List;
  List() : SequenceExpr(kKind) {}
};
struct Tuple : SequenceExpr {
  static constexpr Kind kKind = Kind::Tuple;
  Tuple() : SequenceExpr(kKind) {}
  bool parenthesized = false;
};
struct Set : SequenceExpr {
  static constexpr Kind kKind = Kind::Set;
  Set() : SequenceExpr(kKind) {}
};

// {k: v, **d}: keys[i] is nullptr for a `**d` entry.
struct Dict : Expr {
  static constexpr Kind kKind = Kind::Dict;
  Dict() : Expr(kKind) {}
  std::vector<Expr*> keys;
  std::vector<Expr*> values;
};

// *value in a list, tuple, set or assignment target.
struct Starred : Expr {
  static constexpr Kind kKind = Kind::Starred;
  Starred() : Expr(kKind) {}
  Expr* value = nullptr;
};

// target := value
struct NamedExpr : Expr {
  static constexpr Kind kKind = Kind::NamedExpr;
  NamedExpr() : Expr(kKind) {}
  Expr* target = nullptr;
  Expr* value = nullptr;
};

struct Await : Expr {
  static constexpr Kind kKind = Kind::Await;
  Await() : Expr(kKind) {}
  Expr* value = nullptr;
};

// yield value / yield from value; value may be nullptr for a bare `yield`.
struct Yield : Expr {
  static constexpr Kind kKind = Kind::Yield;
  Yield() : Expr(kKind) {}
  Expr* value = nullptr;
  bool is_from = false;
};

// An expression the IR does not model; `what` is the tree-sitter node type.
struct OpaqueExpr : Expr {
  static constexpr Kind kKind = Kind::OpaqueExpr;
  OpaqueExpr() : Expr(kKind) {}
  std::string what;
  // Cut by the builder's depth limit: the code here nests deeper than the
  // IR follows, so how deep it goes (and how close to CPython's own limits)
  // is unknown. The rewriter never wraps it (codegen/nesting_budget.h).
  bool too_deep = false;
};

// ---------------------------------------------------------------- statements

struct ImportAlias {
  std::string name;    // dotted: "torch.nn"; "*" for `from x import *`
  std::string asname;  // empty when absent
  SourceLoc loc;
};

// import a.b as c, d
struct Import : Stmt {
  static constexpr Kind kKind = Kind::Import;
  Import() : Stmt(kKind) {}
  std::vector<ImportAlias> names;
};

// from ..a.b import c as d: module = "a.b", level = 2.
struct ImportFrom : Stmt {
  static constexpr Kind kKind = Kind::ImportFrom;
  ImportFrom() : Stmt(kKind) {}
  std::string module;  // empty for `from . import x`
  int level = 0;       // number of leading dots
  std::vector<ImportAlias> names;
};

struct FunctionDef : Stmt {
  static constexpr Kind kKind = Kind::FunctionDef;
  FunctionDef() : Stmt(kKind) {}
  std::string name;
  SourceLoc name_loc;
  std::vector<Expr*> decorators;
  std::vector<Parameter> params;
  Expr* returns = nullptr;
  Body body;
  bool is_async = false;
  bool is_generator = false;  // a yield in its own body (not in a nested def or lambda)
};

struct ClassDef : Stmt {
  static constexpr Kind kKind = Kind::ClassDef;
  ClassDef() : Stmt(kKind) {}
  std::string name;
  SourceLoc name_loc;
  std::vector<Expr*> decorators;
  std::vector<Argument> bases;  // positional bases and keywords (metaclass=…)
  Body body;
};

// t1 = t2 = value: targets = [t1, t2].
struct Assign : Stmt {
  static constexpr Kind kKind = Kind::Assign;
  Assign() : Stmt(kKind) {}
  std::vector<Expr*> targets;
  Expr* value = nullptr;
};

struct AugAssign : Stmt {
  static constexpr Kind kKind = Kind::AugAssign;
  AugAssign() : Stmt(kKind) {}
  Expr* target = nullptr;
  BinOpKind op = BinOpKind::Add;
  Expr* value = nullptr;
};

// target: annotation [= value]
struct AnnAssign : Stmt {
  static constexpr Kind kKind = Kind::AnnAssign;
  AnnAssign() : Stmt(kKind) {}
  Expr* target = nullptr;
  Expr* annotation = nullptr;
  Expr* value = nullptr;
};

struct ExprStmt : Stmt {
  static constexpr Kind kKind = Kind::ExprStmt;
  ExprStmt() : Stmt(kKind) {}
  Expr* value = nullptr;
};

// `elif` is an If nested alone in orelse (its loc is the elif clause).
struct If : Stmt {
  static constexpr Kind kKind = Kind::If;
  If() : Stmt(kKind) {}
  Expr* test = nullptr;
  Body body;
  Body orelse;
};

struct For : Stmt {
  static constexpr Kind kKind = Kind::For;
  For() : Stmt(kKind) {}
  Expr* target = nullptr;
  Expr* iter = nullptr;
  Body body;
  Body orelse;
  bool is_async = false;
};

struct While : Stmt {
  static constexpr Kind kKind = Kind::While;
  While() : Stmt(kKind) {}
  Expr* test = nullptr;
  Body body;
  Body orelse;
};

struct WithItem {
  Expr* context = nullptr;
  Expr* target = nullptr;  // the `as` target, or nullptr
};

struct With : Stmt {
  static constexpr Kind kKind = Kind::With;
  With() : Stmt(kKind) {}
  std::vector<WithItem> items;
  Body body;
  bool is_async = false;
};

struct ExceptHandler {
  Expr* type = nullptr;  // nullptr for a bare `except:`
  std::string name;      // `as name`, empty when absent
  Body body;
  bool is_star = false;  // except*
  SourceLoc loc;
};

struct Try : Stmt {
  static constexpr Kind kKind = Kind::Try;
  Try() : Stmt(kKind) {}
  Body body;
  std::vector<ExceptHandler> handlers;
  Body orelse;
  Body finalbody;
};

struct Return : Stmt {
  static constexpr Kind kKind = Kind::Return;
  Return() : Stmt(kKind) {}
  Expr* value = nullptr;
};

struct Raise : Stmt {
  static constexpr Kind kKind = Kind::Raise;
  Raise() : Stmt(kKind) {}
  Expr* exc = nullptr;
  Expr* cause = nullptr;
};

struct Assert : Stmt {
  static constexpr Kind kKind = Kind::Assert;
  Assert() : Stmt(kKind) {}
  Expr* test = nullptr;
  Expr* msg = nullptr;
};

struct Pass : Stmt {
  static constexpr Kind kKind = Kind::Pass;
  Pass() : Stmt(kKind) {}
};
struct Break : Stmt {
  static constexpr Kind kKind = Kind::Break;
  Break() : Stmt(kKind) {}
};
struct Continue : Stmt {
  static constexpr Kind kKind = Kind::Continue;
  Continue() : Stmt(kKind) {}
};

// global a, b / nonlocal a, b
struct Global : Stmt {
  static constexpr Kind kKind = Kind::Global;
  Global() : Stmt(kKind) {}
  std::vector<std::string> names;
};
struct Nonlocal : Stmt {
  static constexpr Kind kKind = Kind::Nonlocal;
  Nonlocal() : Stmt(kKind) {}
  std::vector<std::string> names;
};

struct Delete : Stmt {
  static constexpr Kind kKind = Kind::Delete;
  Delete() : Stmt(kKind) {}
  std::vector<Expr*> targets;
};

// A statement the IR does not model (match, type alias, print statement, …).
struct OpaqueStmt : Stmt {
  static constexpr Kind kKind = Kind::OpaqueStmt;
  OpaqueStmt() : Stmt(kKind) {}
  std::string what;  // tree-sitter node type
};

// ---------------------------------------------------------------- module

// One parsed file. Owns every node reachable from `body`.
class Module {
 public:
  explicit Module(const SourceFile* file) : file_(file) {}
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;
  Module(Module&&) = default;
  Module& operator=(Module&&) = default;

  const SourceFile& file() const { return *file_; }
  Body body;

  template <class T>
  T* make(const SourceLoc& loc) {
    auto node = std::make_unique<T>();
    node->loc = loc;
    T* raw = node.get();
    nodes_.push_back(std::move(node));
    return raw;
  }
  std::size_t node_count() const { return nodes_.size(); }

 private:
  const SourceFile* file_;
  std::vector<std::unique_ptr<Node>> nodes_;
};

}  // namespace gshape::ir
