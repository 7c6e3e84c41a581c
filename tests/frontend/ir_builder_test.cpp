// The IR builder beyond what the golden dumps show: byte ranges and secondary
// locations, literal values, error diagnostics (exactly one per file), very
// deep nesting on a small thread stack, and parsing on several threads.
#include <gtest/gtest.h>

#include <pthread.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "frontend/ir_builder.h"
#include "frontend/ir_dump.h"
#include "frontend/ts_grammar.h"
#include "frontend/ts_literals.h"
#include "frontend/ts_locations.h"

namespace gshape {
namespace {

using namespace ir;

struct Built {
  std::unique_ptr<SourceFile> file;
  DiagnosticSink diags;
  std::unique_ptr<Module> module;
};

Built build(const std::string& source) {
  Built b;
  b.file = std::make_unique<SourceFile>("t.py", source);
  b.module = build_module(*b.file, b.diags);
  return b;
}

std::string dump(const Module& m) {
  std::ostringstream out;
  dump_ir(out, m);
  return out.str();
}

// The source text a location covers.
std::string covered(const SourceLoc& loc) { return loc.file->text().substr(loc.begin, loc.end - loc.begin); }

template <class T>
const T* stmt_value(const Module& m, std::size_t i) {
  const auto* s = dyn_cast<ExprStmt>(m.body.at(i));
  EXPECT_NE(s, nullptr);
  return s ? dyn_cast<T>(s->value) : nullptr;
}

// Runs `fn` on a thread with a stack of `bytes`: deep inputs must fit in it.
void run_with_stack(std::size_t bytes, const std::function<void()>& fn) {
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  ASSERT_EQ(pthread_attr_setstacksize(&attr, bytes), 0);
  auto trampoline = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  pthread_t thread;
  ASSERT_EQ(pthread_create(&thread, &attr, trampoline, const_cast<std::function<void()>*>(&fn)), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
}

#ifdef __OPTIMIZE__
constexpr std::size_t kSmallStack = std::size_t{1} << 20;  // 1 MiB: the limit needs under 512 KiB at -O2
#else
constexpr std::size_t kSmallStack = std::size_t{8} << 20;  // unoptimised frames are several times larger
#endif

std::string repeat(const std::string& s, int n) {
  std::string out;
  for (int i = 0; i < n; ++i) out += s;
  return out;
}

// Deepest indentation of a dump, in levels (two spaces each).
std::size_t dump_depth(const std::string& d) {
  std::size_t deepest = 0;
  std::istringstream in(d);
  for (std::string line; std::getline(in, line);) deepest = std::max(deepest, line.find_first_not_of(' ') / 2);
  return deepest;
}

// ------------------------------------------------------------ grammar

TEST(Grammar, LoadsWithEverySymbolAndField) {
  const ts::Grammar& g = ts::Grammar::python();
  EXPECT_EQ(g.load_error(), "");
  EXPECT_NE(g.fields().value, 0);
  EXPECT_NE(g.fields().op, 0);
  std::string error;
  EXPECT_NE(ts::thread_parser(&error), nullptr) << error;
}

// ------------------------------------------------------------ locations

TEST(Locations, EveryNodeCoversItsSourceText) {
  Built b = build("y = foo.bar(x, dim=-1) @ w\n");
  ASSERT_TRUE(b.module);
  const auto* assign = cast<Assign>(b.module->body.at(0));
  EXPECT_EQ(covered(assign->loc), "y = foo.bar(x, dim=-1) @ w");
  const auto* matmul = cast<BinOp>(assign->value);
  EXPECT_EQ(matmul->op, BinOpKind::MatMult);
  EXPECT_EQ(covered(matmul->loc), "foo.bar(x, dim=-1) @ w");
  EXPECT_EQ(covered(matmul->op_loc), "@");
  EXPECT_EQ(matmul->op_loc.column, 24u);
  const auto* call = cast<Call>(matmul->left);
  EXPECT_EQ(covered(call->loc), "foo.bar(x, dim=-1)");
  const auto* attr = cast<Attribute>(call->func);
  EXPECT_EQ(covered(attr->attr_loc), "bar");
  EXPECT_EQ(attr->attr_loc.column, 9u);
  ASSERT_EQ(call->args.size(), 2u);
  EXPECT_EQ(covered(call->args[0].loc), "x");
  EXPECT_EQ(call->args[1].type, Argument::Type::Keyword);
  EXPECT_EQ(call->args[1].name, "dim");
  EXPECT_EQ(covered(call->args[1].loc), "dim=-1");
  EXPECT_EQ(covered(call->args[1].value->loc), "-1");
}

TEST(Locations, DefinitionsParametersAndImports) {
  Built b = build("import torch.nn as nn\n@dec\ndef f(a, *rest, k: int = 2):\n    pass\n");
  ASSERT_TRUE(b.module);
  const auto* imp = cast<Import>(b.module->body.at(0));
  EXPECT_EQ(covered(imp->names.at(0).loc), "torch.nn as nn");
  const auto* def = cast<FunctionDef>(b.module->body.at(1));
  EXPECT_EQ(def->loc.line, 3u);  // the `def` line, not the decorator's
  EXPECT_EQ(covered(def->name_loc), "f");
  ASSERT_EQ(def->params.size(), 3u);
  EXPECT_EQ(covered(def->params[1].loc), "*rest");
  EXPECT_EQ(def->params[1].type, Parameter::Type::VarArgs);
  EXPECT_EQ(covered(def->params[2].loc), "k: int = 2");
  EXPECT_EQ(def->params[2].type, Parameter::Type::KeywordOnly);
}

TEST(Locations, ColumnsCountCodePointsAndMatchSourceFile) {
  Built b = build("données = \"é\" + 𝔁\n");
  ASSERT_TRUE(b.module);
  const auto* assign = cast<Assign>(b.module->body.at(0));
  const auto* sum = cast<BinOp>(assign->value);
  EXPECT_EQ(sum->right->loc.column, 17u);
  EXPECT_EQ(covered(sum->right->loc), "𝔁");
  EXPECT_EQ(sum->op_loc.column, b.file->column_of(1, sum->op_loc.begin));
}

TEST(Locations, LocationMapAgreesWithColumnOfInAnyOrder) {
  SourceFile f("m.py", "\xEF\xBB\xBF" "a = 'é'\r\nb\rcé€ = 1\n\tx\n");
  ts::LocationMap map(f);
  std::vector<uint32_t> offsets;
  for (uint32_t i = 3; i < f.text().size(); ++i) offsets.push_back(i);
  std::vector<uint32_t> shuffled = offsets;
  std::reverse(shuffled.begin() + 5, shuffled.end());
  for (const std::vector<uint32_t>* order : {&offsets, &shuffled}) {
    for (uint32_t offset : *order) {
      SourceLoc loc = map.at(offset, offset);
      std::string_view line = f.line_text(loc.line);
      uint32_t line_start = static_cast<uint32_t>(line.data() - f.text().data());
      ASSERT_LE(line_start, offset);
      EXPECT_EQ(loc.column, f.column_of(loc.line, offset - line_start)) << "offset " << offset;
    }
  }
}

// ------------------------------------------------------------ values

TEST(Values, IntegersFloatsAndComplex) {
  Built b = build("0x_1F\n0o17\n0b1_01\n9223372036854775807\n9223372036854775808\n1_0.5e1\n2.5j\n0\n");
  ASSERT_TRUE(b.module);
  EXPECT_EQ(stmt_value<Constant>(*b.module, 0)->int_value, 31);
  EXPECT_EQ(stmt_value<Constant>(*b.module, 1)->int_value, 15);
  EXPECT_EQ(stmt_value<Constant>(*b.module, 2)->int_value, 5);
  EXPECT_EQ(stmt_value<Constant>(*b.module, 3)->int_value, INT64_MAX);
  EXPECT_FALSE(stmt_value<Constant>(*b.module, 4)->int_value.has_value());
  EXPECT_DOUBLE_EQ(stmt_value<Constant>(*b.module, 5)->float_value, 105.0);
  const Constant* imaginary = stmt_value<Constant>(*b.module, 6);
  EXPECT_EQ(imaginary->type, Constant::Type::Complex);
  EXPECT_DOUBLE_EQ(imaginary->float_value, 2.5);
  EXPECT_EQ(stmt_value<Constant>(*b.module, 7)->int_value, 0);
}

TEST(Values, LiteralHelpers) {
  EXPECT_EQ(ts::parse_int_literal("10L"), std::nullopt);  // Python 2 long
  EXPECT_EQ(ts::parse_int_literal("0x"), std::nullopt);
  EXPECT_EQ(ts::parse_int_literal("0xffffffffffffffff"), std::nullopt);
  EXPECT_EQ(ts::parse_int_literal("0o777"), 511);
  EXPECT_DOUBLE_EQ(ts::parse_float_literal("1e400"), HUGE_VAL);
  ts::StringPrefix p = ts::parse_string_prefix("Rb'''");
  EXPECT_TRUE(p.raw);
  EXPECT_TRUE(p.bytes);
  EXPECT_FALSE(p.formatted);
}

TEST(Values, StringEscapesAreDecoded) {
  Built b = build(
      "'a\\tb\\x41\\u00e9\\U0001D4C1\\101\\N{DASH}\\q'\n"
      "b'\\xff\\101\\u00e9'\n"
      "r'\\n\\''\n"
      "'''x\r\ny''' 'z\\\nw'\n"
      "'a' \"b\" '''c'''\n");
  ASSERT_TRUE(b.module);
  EXPECT_EQ(stmt_value<Constant>(*b.module, 0)->str_value, "a\tbAé\xF0\x9D\x93\x81" "A\\N{DASH}\\q");
  const Constant* bytes = stmt_value<Constant>(*b.module, 1);
  EXPECT_EQ(bytes->type, Constant::Type::Bytes);
  EXPECT_EQ(bytes->str_value, "\xff" "A\\u00e9");
  EXPECT_EQ(stmt_value<Constant>(*b.module, 2)->str_value, "\\n\\'");
  EXPECT_EQ(stmt_value<Constant>(*b.module, 3)->str_value, "x\nyzw");
  const Constant* joined = stmt_value<Constant>(*b.module, 4);
  EXPECT_EQ(joined->str_value, "abc");
  EXPECT_EQ(joined->text, "'a' \"b\" '''c'''");
}

TEST(Values, MixingStrAndBytesIsOpaque) {
  Built b = build("'a' b'b'\n");
  ASSERT_TRUE(b.module);
  const auto* opaque = stmt_value<OpaqueExpr>(*b.module, 0);
  ASSERT_NE(opaque, nullptr);
  EXPECT_EQ(opaque->what, "concatenated_string");
}

// ------------------------------------------------------------ diagnostics

TEST(SyntaxErrors, ExactlyOneDiagnosticAndNoModule) {
  Built b = build("x = (1 +\ny = ]\ndef f(:\n  pass\n");
  EXPECT_EQ(b.module, nullptr);
  ASSERT_EQ(b.diags.all().size(), 1u);
  const Diagnostic& d = b.diags.all()[0];
  EXPECT_EQ(d.severity, Severity::Error);
  EXPECT_EQ(d.loc.line, 2u);  // CPython's tokenizer meets the ']' closing '(' of line 1 first
  EXPECT_EQ(d.message, "syntax error: closing parenthesis ']' does not match opening parenthesis '(' on line 1");
}

TEST(SyntaxErrors, BrokenParameterListIsInvalidSyntaxAtTheColon) {
  Built b = build("def f(:\n    pass\n");
  ASSERT_EQ(b.diags.all().size(), 1u);
  EXPECT_EQ(b.diags.all()[0].message, "syntax error: invalid syntax");
  EXPECT_EQ(b.diags.all()[0].loc.str(), "t.py:1:7");
}

TEST(SyntaxErrors, UnclosedBracketIsNamedWhereItOpens) {
  Built b = build("y = 1\nz = foo(" + repeat("a", 100) + ", b\n");
  ASSERT_EQ(b.diags.all().size(), 1u);
  EXPECT_EQ(b.diags.all()[0].message, "syntax error: '(' was never closed");
  EXPECT_EQ(b.diags.all()[0].loc.str(), "t.py:2:8");
}

TEST(SyntaxErrors, Python2StatementsAreErrorsButPython3LookAlikesAreNot) {
  for (const char* source : {"print 'x'\n", "def f():\n    if a:\n        print x,\n", "print not x\n", "exec code\n"}) {
    Built b = build(source);
    EXPECT_EQ(b.module, nullptr) << source;
    ASSERT_EQ(b.diags.all().size(), 1u) << source;
    EXPECT_EQ(b.diags.all()[0].message.find("syntax error: Missing parentheses in call to '"), 0u)
        << b.diags.all()[0].message;
  }
  // Valid Python 3: a chevron is `(print >> f), x`; print and exec as names.
  for (const char* source : {"print >>f, 'x'\n", "print('x')\n", "print\n", "print = 3\nexec = print\n",
                             "f(print, exec)\n", "x = print if a else exec\n"}) {
    Built b = build(source);
    EXPECT_NE(b.module, nullptr) << source;
    EXPECT_TRUE(b.diags.all().empty()) << source << b.diags.all()[0].message;
  }
}

TEST(SyntaxErrors, IndentationErrorsTreeSitterAccepts) {
  for (const char* source : {"  x = 1\n", "if a:\n    x\n      y\n", "def f():\nreturn 1\n", "if a:\n\tx\n        y\n"}) {
    Built b = build(source);
    EXPECT_EQ(b.module, nullptr) << source;
    ASSERT_EQ(b.diags.all().size(), 1u) << source;
    EXPECT_EQ(b.diags.all()[0].message.rfind("syntax error: ", 0), 0u) << b.diags.all()[0].message;
  }
  // Valid layouts that look similar: no error.
  for (const char* source : {"x = 1; \\\n   y = 2\n", "if a:\n  x\nelse:\n      y\n", "if a: x; y\nz\n",
                             "class A:\n    pass\n  # comment\n    x = 1\n", "\xEF\xBB\xBFx = 1\n", "\fx = 1\n"}) {
    Built b = build(source);
    EXPECT_NE(b.module, nullptr) << source;
    EXPECT_TRUE(b.diags.all().empty()) << source << b.diags.all()[0].message;
  }
}

TEST(EmptyInput, EmptyFilesAndCommentsOnlyGiveEmptyModules) {
  for (const char* source : {"", "\n\n", "# just a comment\n", "\xEF\xBB\xBF", "   \n\t\n"}) {
    Built b = build(source);
    ASSERT_NE(b.module, nullptr) << source;
    EXPECT_TRUE(b.module->body.empty());
    EXPECT_TRUE(b.diags.all().empty());
    EXPECT_EQ(dump(*b.module), "Module\n");
  }
}

// ------------------------------------------------------------ deep nesting

struct DeepCase {
  const char* name;
  std::string source;
  bool too_deep;  // expects the `nesting too deep` warning
};

std::vector<DeepCase> deep_cases() {
  return {
      {"parentheses", "x = " + repeat("(", 1000) + "1" + repeat(")", 1000) + "\n", false},
      {"lists", "x = " + repeat("[", 600) + repeat("]", 600) + "\n", true},
      {"calls", "x = " + repeat("f(", 600) + repeat(")", 600) + "\n", true},
      {"subscripts", "x = a" + repeat("[0]", 600) + "\n", true},
      {"sum", "x = 1" + repeat(" + 1", 5000) + "\n", true},
      {"not", "x = " + repeat("not ", 600) + "y\n", true},
      {"lambdas", "f = " + repeat("lambda: ", 600) + "0\n", true},
      {"dicts", "d = " + repeat("{1: ", 600) + "0" + repeat("}", 600) + "\n", true},
      {"elif chain", "if a: pass\n" + repeat("elif a: pass\n", 1000), true},
      {"long and", "x = a" + repeat(" and a", 5000) + "\n", false},  // one flat BoolOp
      {"chained assignment", repeat("a = ", 5000) + "1\n", false},     // one Assign
      {"attributes", "x = a" + repeat(".b", 600) + "\n", true},
      {"generators", "x = " + repeat("(y for y in ", 450) + "z" + repeat(")", 450) + "\n", true},
  };
}

TEST(DeepNesting, BoundedIrOneDiagnosticSmallStack) {
  for (const DeepCase& c : deep_cases()) {
    SCOPED_TRACE(c.name);
    Built b;
    std::string dumped;
    run_with_stack(kSmallStack, [&] {
      b = build(c.source);
      if (b.module) dumped = dump(*b.module);
      b.module.reset();  // destroying the module must not recurse either
    });
    EXPECT_FALSE(dumped.empty());
    if (c.too_deep) {
      ASSERT_EQ(b.diags.all().size(), 1u);
      EXPECT_EQ(b.diags.all()[0].message.rfind("nesting too deep (more than 400 levels): ", 0), 0u)
          << b.diags.all()[0].message;
      // a limit of gshape, not an error in the program (CPython runs it)
      EXPECT_EQ(b.diags.all()[0].severity, Severity::Warning);
      EXPECT_NE(b.diags.all()[0].message.find("are not analysed, and neither it nor any operation holding it is checked "
                                              "at run time"),
                std::string::npos);
      EXPECT_NE(dumped.find("Opaque"), std::string::npos);
    } else {
      EXPECT_TRUE(b.diags.all().empty());
    }
    // The IR (and so its dump) never nests deeper than the limit (dump lines may
    // add one label level per IR level).
    EXPECT_LE(dump_depth(dumped), 2u * 400u + 4u);
  }
}

TEST(DeepNesting, ParenthesesAreTransparent) {
  Built b = build("x = " + repeat("(", 1000) + "1" + repeat(")", 1000) + "\n");
  ASSERT_TRUE(b.module);
  const auto* assign = cast<Assign>(b.module->body.at(0));
  ASSERT_TRUE(isa<Constant>(assign->value));
  EXPECT_EQ(covered(assign->value->loc), "1");
}

TEST(DeepNesting, FlatChainsStayFlat) {
  Built b = build("x = a" + repeat(" and a", 2000) + "\n" + repeat("a = ", 2000) + "1\n");
  ASSERT_TRUE(b.module);
  EXPECT_EQ(cast<BoolOp>(cast<Assign>(b.module->body.at(0))->value)->values.size(), 2001u);
  EXPECT_EQ(cast<Assign>(b.module->body.at(1))->targets.size(), 2000u);
}

TEST(DeepNesting, BlocksDeeperThanTheScannerFollowsGetOneClearWarning) {
  // 500 nested `if`s: tree-sitter-python's scanner cannot follow indentation
  // past 255 columns (CPython stops at 100 levels).
  std::string source;
  for (int i = 0; i < 500; ++i) source += std::string(static_cast<std::size_t>(i), ' ') + "if x:\n";
  source += std::string(500, ' ') + "pass\n";
  Built b;
  run_with_stack(kSmallStack, [&] { b = build(source); });
  EXPECT_EQ(b.module, nullptr);
  ASSERT_EQ(b.diags.all().size(), 1u);
  EXPECT_EQ(b.diags.all()[0].message,
            "nesting too deep: this line is indented by 256 columns; the parser follows at most 255, so the file is "
            "not analysed nor checked at run time");
  EXPECT_EQ(b.diags.all()[0].severity, Severity::Warning);
  EXPECT_EQ(b.diags.all()[0].loc.line, 257u);
}

TEST(DeepNesting, SixtyNestedBlocksAreFine) {
  std::string source;
  for (int i = 0; i < 60; ++i) source += std::string(static_cast<std::size_t>(4 * i), ' ') + "if x:\n";
  source += std::string(240, ' ') + "pass\n";
  Built b = build(source);
  ASSERT_NE(b.module, nullptr);
  EXPECT_TRUE(b.diags.all().empty());
  const Stmt* s = b.module->body.at(0);
  int depth = 0;
  while (const auto* i = dyn_cast<If>(s)) {
    ++depth;
    s = i->body.at(0);
  }
  EXPECT_EQ(depth, 60);
  EXPECT_TRUE(isa<Pass>(s));
}

// ------------------------------------------------------------ threads

TEST(Threads, ModulesBuiltConcurrentlyMatchSerialOnes) {
  std::vector<std::string> sources;
  for (int i = 0; i < 8; ++i) {
    sources.push_back("import torch\nclass M" + std::to_string(i) +
                      "(nn.Module):\n    def forward(self, x):\n        return x.view(x.size(0), -1) @ w" +
                      std::to_string(i) + "\n");
  }
  std::vector<std::string> serial, parallel(sources.size());
  for (const std::string& s : sources) serial.push_back(dump(*build(s).module));
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (std::size_t i = t; i < sources.size(); i += 4) {
        for (int rep = 0; rep < 20; ++rep) parallel[i] = dump(*build(sources[i]).module);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(serial, parallel);
}

}  // namespace
}  // namespace gshape
