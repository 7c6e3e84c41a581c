#include "frontend/ir.h"

namespace gshape::ir {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Name: return "Name";
    case Kind::Constant: return "Constant";
    case Kind::FString: return "FString";
    case Kind::Attribute: return "Attribute";
    case Kind::Subscript: return "Subscript";
    case Kind::Slice: return "Slice";
    case Kind::Call: return "Call";
    case Kind::BinOp: return "BinOp";
    case Kind::UnaryOp: return "UnaryOp";
    case Kind::Compare: return "Compare";
    case Kind::BoolOp: return "BoolOp";
    case Kind::IfExp: return "IfExp";
    case Kind::Lambda: return "Lambda";
    case Kind::ListComp: return "ListComp";
    case Kind::SetComp: return "SetComp";
    case Kind::DictComp: return "DictComp";
    case Kind::GeneratorExp: return "GeneratorExp";
    case Kind::List: return "List";
    case Kind::Tuple: return "Tuple";
    case Kind::Set: return "Set";
    case Kind::Dict: return "Dict";
    case Kind::Starred: return "Starred";
    case Kind::NamedExpr: return "NamedExpr";
    case Kind::Await: return "Await";
    case Kind::Yield: return "Yield";
    case Kind::OpaqueExpr: return "OpaqueExpr";
    case Kind::Import: return "Import";
    case Kind::ImportFrom: return "ImportFrom";
    case Kind::FunctionDef: return "FunctionDef";
    case Kind::ClassDef: return "ClassDef";
    case Kind::Assign: return "Assign";
    case Kind::AugAssign: return "AugAssign";
    case Kind::AnnAssign: return "AnnAssign";
    case Kind::ExprStmt: return "ExprStmt";
    case Kind::If: return "If";
    case Kind::For: return "For";
    case Kind::While: return "While";
    case Kind::With: return "With";
    case Kind::Try: return "Try";
    case Kind::Return: return "Return";
    case Kind::Raise: return "Raise";
    case Kind::Assert: return "Assert";
    case Kind::Pass: return "Pass";
    case Kind::Break: return "Break";
    case Kind::Continue: return "Continue";
    case Kind::Global: return "Global";
    case Kind::Nonlocal: return "Nonlocal";
    case Kind::Delete: return "Delete";
    case Kind::OpaqueStmt: return "OpaqueStmt";
  }
  return "?";
}

SourceLoc reported_loc(const Node* n) {
  SourceLoc loc = n->loc;
  const auto* call = dyn_cast<Call>(n);
  const auto* method = call ? dyn_cast<Attribute>(call->func) : nullptr;
  if (method && method->attr_loc.valid() && method->attr_loc.line != loc.line) {
    loc.line = method->attr_loc.line;
    loc.column = method->attr_loc.column;
  }
  return loc;
}

const char* binop_symbol(BinOpKind k) {
  switch (k) {
    case BinOpKind::Add: return "+";
    case BinOpKind::Sub: return "-";
    case BinOpKind::Mult: return "*";
    case BinOpKind::MatMult: return "@";
    case BinOpKind::Div: return "/";
    case BinOpKind::FloorDiv: return "//";
    case BinOpKind::Mod: return "%";
    case BinOpKind::Pow: return "**";
    case BinOpKind::LShift: return "<<";
    case BinOpKind::RShift: return ">>";
    case BinOpKind::BitOr: return "|";
    case BinOpKind::BitXor: return "^";
    case BinOpKind::BitAnd: return "&";
  }
  return "?";
}

const char* unaryop_symbol(UnaryOpKind k) {
  switch (k) {
    case UnaryOpKind::Neg: return "-";
    case UnaryOpKind::Pos: return "+";
    case UnaryOpKind::Invert: return "~";
    case UnaryOpKind::Not: return "not";
  }
  return "?";
}

const char* cmpop_symbol(CmpOpKind k) {
  switch (k) {
    case CmpOpKind::Eq: return "==";
    case CmpOpKind::NotEq: return "!=";
    case CmpOpKind::Lt: return "<";
    case CmpOpKind::LtE: return "<=";
    case CmpOpKind::Gt: return ">";
    case CmpOpKind::GtE: return ">=";
    case CmpOpKind::Is: return "is";
    case CmpOpKind::IsNot: return "is not";
    case CmpOpKind::In: return "in";
    case CmpOpKind::NotIn: return "not in";
  }
  return "?";
}

}  // namespace gshape::ir
