// tree-sitter-python's vocabulary, looked up once: node symbols mapped to a
// small enum (so the IR builder switches on integers, never compares type
// strings per node), field ids, and one parser per thread.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tree_sitter/api.h>

namespace gshape::ts {

// The grammar's node types the builder distinguishes: named nodes first,
// then anonymous tokens (operators and keywords). X(enumerator, type, named).
#define GSHAPE_TS_SYMBOLS(X)                                               \
  X(Module, "module", true)                                                \
  X(Block, "block", true)                                                  \
  X(Comment, "comment", true)                                              \
  X(LineContinuation, "line_continuation", true)                           \
  X(ExpressionStatement, "expression_statement", true)                     \
  X(ImportStatement, "import_statement", true)                             \
  X(ImportFromStatement, "import_from_statement", true)                    \
  X(FutureImportStatement, "future_import_statement", true)                \
  X(AliasedImport, "aliased_import", true)                                 \
  X(DottedName, "dotted_name", true)                                       \
  X(RelativeImport, "relative_import", true)                               \
  X(ImportPrefix, "import_prefix", true)                                   \
  X(WildcardImport, "wildcard_import", true)                               \
  X(AssertStatement, "assert_statement", true)                             \
  X(ReturnStatement, "return_statement", true)                             \
  X(DeleteStatement, "delete_statement", true)                             \
  X(RaiseStatement, "raise_statement", true)                               \
  X(PassStatement, "pass_statement", true)                                 \
  X(BreakStatement, "break_statement", true)                               \
  X(ContinueStatement, "continue_statement", true)                         \
  X(GlobalStatement, "global_statement", true)                             \
  X(TypeAliasStatement, "type_alias_statement", true)                      \
  X(NonlocalStatement, "nonlocal_statement", true)                         \
  X(IfStatement, "if_statement", true)                                     \
  X(ElifClause, "elif_clause", true)                                       \
  X(ElseClause, "else_clause", true)                                       \
  X(ForStatement, "for_statement", true)                                   \
  X(WhileStatement, "while_statement", true)                               \
  X(TryStatement, "try_statement", true)                                   \
  X(ExceptClause, "except_clause", true)                                   \
  X(ExceptGroupClause, "except_group_clause", true)                        \
  X(FinallyClause, "finally_clause", true)                                 \
  X(WithStatement, "with_statement", true)                                 \
  X(WithClause, "with_clause", true)                                       \
  X(WithItem, "with_item", true)                                           \
  X(FunctionDefinition, "function_definition", true)                       \
  X(ClassDefinition, "class_definition", true)                             \
  X(DecoratedDefinition, "decorated_definition", true)                     \
  X(Decorator, "decorator", true)                                          \
  X(Parameters, "parameters", true)                                        \
  X(LambdaParameters, "lambda_parameters", true)                           \
  X(DefaultParameter, "default_parameter", true)                           \
  X(TypedParameter, "typed_parameter", true)                               \
  X(TypedDefaultParameter, "typed_default_parameter", true)                \
  X(ListSplatPattern, "list_splat_pattern", true)                          \
  X(DictionarySplatPattern, "dictionary_splat_pattern", true)              \
  X(KeywordSeparator, "keyword_separator", true)                           \
  X(PositionalSeparator, "positional_separator", true)                     \
  X(TuplePattern, "tuple_pattern", true)                                   \
  X(ListPattern, "list_pattern", true)                                     \
  X(PatternList, "pattern_list", true)                                     \
  X(AsPattern, "as_pattern", true)                                         \
  X(AsPatternTarget, "as_pattern_target", true)                            \
  X(ExpressionList, "expression_list", true)                               \
  X(Assignment, "assignment", true)                                        \
  X(AugmentedAssignment, "augmented_assignment", true)                     \
  X(NamedExpression, "named_expression", true)                             \
  X(NotOperator, "not_operator", true)                                     \
  X(BooleanOperator, "boolean_operator", true)                             \
  X(BinaryOperator, "binary_operator", true)                               \
  X(UnaryOperator, "unary_operator", true)                                 \
  X(ComparisonOperator, "comparison_operator", true)                       \
  X(Lambda, "lambda", true)                                                \
  X(ConditionalExpression, "conditional_expression", true)                 \
  X(Await, "await", true)                                                  \
  X(Yield, "yield", true)                                                  \
  X(Attribute, "attribute", true)                                          \
  X(Subscript, "subscript", true)                                          \
  X(Slice, "slice", true)                                                  \
  X(Call, "call", true)                                                    \
  X(ArgumentList, "argument_list", true)                                   \
  X(KeywordArgument, "keyword_argument", true)                             \
  X(ListSplat, "list_splat", true)                                         \
  X(DictionarySplat, "dictionary_splat", true)                             \
  X(ParenthesizedListSplat, "parenthesized_list_splat", true)              \
  X(ParenthesizedExpression, "parenthesized_expression", true)             \
  X(Identifier, "identifier", true)                                        \
  X(String, "string", true)                                                \
  X(ConcatenatedString, "concatenated_string", true)                       \
  X(Interpolation, "interpolation", true)                                  \
  X(FormatSpecifier, "format_specifier", true)                             \
  X(FormatExpression, "format_expression", true)                           \
  X(StringStart, "string_start", true)                                     \
  X(StringEnd, "string_end", true)                                         \
  X(Integer, "integer", true)                                              \
  X(Float, "float", true)                                                  \
  X(True, "true", true)                                                    \
  X(False, "false", true)                                                  \
  X(None, "none", true)                                                    \
  X(Ellipsis, "ellipsis", true)                                            \
  X(List, "list", true)                                                    \
  X(Set, "set", true)                                                      \
  X(Tuple, "tuple", true)                                                  \
  X(Dictionary, "dictionary", true)                                        \
  X(Pair, "pair", true)                                                    \
  X(ListComprehension, "list_comprehension", true)                         \
  X(SetComprehension, "set_comprehension", true)                           \
  X(DictionaryComprehension, "dictionary_comprehension", true)             \
  X(GeneratorExpression, "generator_expression", true)                     \
  X(ForInClause, "for_in_clause", true)                                    \
  X(IfClause, "if_clause", true)                                           \
  X(Type, "type", true)                                                    \
  X(GenericType, "generic_type", true)                                     \
  X(TypeParameter, "type_parameter", true)                                 \
  X(UnionType, "union_type", true)                                         \
  X(ConstrainedType, "constrained_type", true)                             \
  X(MemberType, "member_type", true)                                       \
  X(SplatType, "splat_type", true)                                         \
  X(TokAsync, "async", false)                                              \
  X(TokFrom, "from", false)                                                \
  X(TokComma, ",", false)                                                  \
  X(TokColon, ":", false)                                                  \
  X(TokPlus, "+", false)                                                   \
  X(TokMinus, "-", false)                                                  \
  X(TokStar, "*", false)                                                   \
  X(TokAt, "@", false)                                                     \
  X(TokSlash, "/", false)                                                  \
  X(TokSlashSlash, "//", false)                                            \
  X(TokPercent, "%", false)                                                \
  X(TokStarStar, "**", false)                                              \
  X(TokLtLt, "<<", false)                                                  \
  X(TokGtGt, ">>", false)                                                  \
  X(TokPipe, "|", false)                                                   \
  X(TokCaret, "^", false)                                                  \
  X(TokAmp, "&", false)                                                    \
  X(TokTilde, "~", false)                                                  \
  X(TokAnd, "and", false)                                                  \
  X(TokOr, "or", false)                                                    \
  X(TokLt, "<", false)                                                     \
  X(TokLtE, "<=", false)                                                   \
  X(TokEq, "==", false)                                                    \
  X(TokNotEq, "!=", false)                                                 \
  X(TokLtGt, "<>", false)                                                  \
  X(TokGt, ">", false)                                                     \
  X(TokGtE, ">=", false)                                                   \
  X(TokIn, "in", false)                                                    \
  X(TokNotIn, "not in", false)                                             \
  X(TokIs, "is", false)                                                    \
  X(TokIsNot, "is not", false)                                             \
  X(TokPlusEq, "+=", false)                                                \
  X(TokMinusEq, "-=", false)                                               \
  X(TokStarEq, "*=", false)                                                \
  X(TokAtEq, "@=", false)                                                  \
  X(TokSlashEq, "/=", false)                                               \
  X(TokSlashSlashEq, "//=", false)                                         \
  X(TokPercentEq, "%=", false)                                             \
  X(TokStarStarEq, "**=", false)                                           \
  X(TokLtLtEq, "<<=", false)                                               \
  X(TokGtGtEq, ">>=", false)                                               \
  X(TokPipeEq, "|=", false)                                                \
  X(TokCaretEq, "^=", false)                                               \
  X(TokAmpEq, "&=", false)

enum class Sym : uint8_t {
  Other,  // any node type the builder does not distinguish (it becomes Opaque)
#define GSHAPE_TS_ENUM(e, name, named) e,
  GSHAPE_TS_SYMBOLS(GSHAPE_TS_ENUM)
#undef GSHAPE_TS_ENUM
};

// Field names the builder reads. X(member, field name).
#define GSHAPE_TS_FIELDS(X)                                                  \
  X(alias, "alias") X(alternative, "alternative") X(argument, "argument")    \
  X(arguments, "arguments") X(attribute, "attribute") X(body, "body")        \
  X(cause, "cause") X(condition, "condition") X(consequence, "consequence")  \
  X(definition, "definition") X(expression, "expression")                    \
  X(format_specifier, "format_specifier") X(function, "function")            \
  X(key, "key") X(left, "left") X(module_name, "module_name") X(name, "name") \
  X(object, "object") X(op, "operator") X(operators, "operators")            \
  X(parameters, "parameters") X(return_type, "return_type") X(right, "right") \
  X(subscript, "subscript") X(superclasses, "superclasses") X(type, "type")  \
  X(value, "value")

struct Fields {
#define GSHAPE_TS_FIELD_MEMBER(member, name) TSFieldId member = 0;
  GSHAPE_TS_FIELDS(GSHAPE_TS_FIELD_MEMBER)
#undef GSHAPE_TS_FIELD_MEMBER
};

// The language with its lookup tables, built once per process.
class Grammar {
 public:
  const TSLanguage* language() const { return language_; }
  const Fields& fields() const { return fields_; }
  // The enum for a node's symbol (as returned by ts_node_symbol).
  Sym sym(TSSymbol symbol) const { return symbol < table_.size() ? table_[symbol] : Sym::Other; }
  // Empty when the grammar loaded and every symbol and field was found.
  const std::string& load_error() const { return load_error_; }

  static const Grammar& python();

 private:
  Grammar();
  const TSLanguage* language_;
  Fields fields_;
  std::vector<Sym> table_;
  std::string load_error_;
};

// This thread's parser, already set to tree-sitter-python (one per thread, reused
// for every file). nullptr when the grammar does not load; `error` then says why.
TSParser* thread_parser(std::string* error);

}  // namespace gshape::ts
