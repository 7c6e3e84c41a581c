// Where the runtime header goes: one test per rule of codegen/import_placement.h,
// and the files where no place exists.
#include "codegen/import_placement.h"

#include <gtest/gtest.h>

#include "codegen/expression_index.h"
#include "codegen/rewriter.h"
#include "plan_builders.h"

namespace gshape::testing {
namespace {

using Form = codegen::ImportPlacement::Form;

struct Placed {
  codegen::ImportPlacement placement;
  std::string with_header;  // the text with "HEADER" inserted where it goes
};

// Places the header for a file whose checks begin at the given pieces of text.
Placed place(const std::string& text, const std::vector<std::string>& checked = {}) {
  Parsed p = parse(text);
  std::vector<uint32_t> offsets;
  for (const std::string& piece : checked) offsets.push_back(range_of(text, piece).first);
  std::sort(offsets.begin(), offsets.end());
  codegen::ExpressionIndex index(*p.module);
  Placed out;
  out.placement = codegen::place_runtime_import(*p.module, offsets, index.call_begins());
  out.with_header = text;
  if (out.placement.form != Form::None) {
    out.with_header.insert(out.placement.offset, codegen::header_insertion(out.placement, "HEADER"));
  }
  return out;
}

TEST(ImportPlacement, AfterTheDocstring) {
  Placed p = place("\"\"\"Doc\nstring.\"\"\"\ndef f(): return a @ b\n", {"a @"});
  EXPECT_EQ(p.placement.rule, 1);
  EXPECT_EQ(p.with_header, "\"\"\"Doc\nstring.\"\"\"; HEADER\ndef f(): return a @ b\n");
}

TEST(ImportPlacement, AfterTheLastFutureImport) {
  Placed p = place("\"\"\"Doc.\"\"\"\nfrom __future__ import annotations  # why\nfrom __future__ import division\nimport torch\n");
  EXPECT_EQ(p.placement.rule, 1);
  EXPECT_EQ(p.with_header,
            "\"\"\"Doc.\"\"\"\nfrom __future__ import annotations  # why\nfrom __future__ import division; HEADER\nimport torch\n");
  Placed same_line = place("from __future__ import annotations; import os\n");
  EXPECT_EQ(same_line.with_header, "from __future__ import annotations; HEADER; import os\n");
}

TEST(ImportPlacement, BeforeAFirstSimpleStatement) {
  Placed p = place("#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nimport torch\n");
  EXPECT_EQ(p.placement.rule, 2);
  EXPECT_EQ(p.with_header, "#!/usr/bin/env python3\n# -*- coding: utf-8 -*-\nHEADER; import torch\n");
}

TEST(ImportPlacement, OnACommentOrBlankLineBeforeACompoundFirstStatement) {
  Placed p = place("# licence\n# more\nclass A:\n    x = f(1)\n", {"f(1)"});
  EXPECT_EQ(p.placement.rule, 3);
  EXPECT_EQ(p.with_header, "# licence\nHEADER  # more\nclass A:\n    x = f(1)\n");
  Placed blank = place("#!/bin/python3\n\r\nif x:\r\n    y = f(1)\r\n", {"f(1)"});
  EXPECT_EQ(blank.placement.rule, 3);
  EXPECT_EQ(blank.with_header, "#!/bin/python3\nHEADER\r\nif x:\r\n    y = f(1)\r\n");
}

TEST(ImportPlacement, NeverOnTheShebangOrEncodingLines) {
  // Line 1 is a comment but line 2 declares the encoding: neither may hold code.
  Placed p = place("# first\n# vim: set fileencoding=latin-1 :\ndef f():\n    return g(1)\nf()\n", {"g(1)"});
  EXPECT_EQ(p.placement.rule, 4);
  EXPECT_EQ(p.with_header, "# first\n# vim: set fileencoding=latin-1 :\ndef f():\n    return g(1)\nHEADER; f()\n");
  Placed shebang = place("#!/usr/bin/python3\nclass A:\n    pass\nx = g(1)\n", {"g(1)"});
  EXPECT_EQ(shebang.with_header, "#!/usr/bin/python3\nclass A:\n    pass\nHEADER; x = g(1)\n");
}

TEST(ImportPlacement, AfterAByteOrderMark) {
  Placed p = place("\xEF\xBB\xBF# c\ndef f():\n    return g(1)\n", {"g(1)"});
  EXPECT_EQ(p.placement.rule, 3);
  EXPECT_EQ(p.with_header, "\xEF\xBB\xBFHEADER  # c\ndef f():\n    return g(1)\n");
}

TEST(ImportPlacement, BetweenTopLevelStatementsWhenNothingBeforeRunsAChecks) {
  Placed p = place("class A:\n    def m(self):\n        return g(1)\n\n    # inside\n    def n(self): pass\n\nA().m()\n",
                   {"g(1)"});
  EXPECT_EQ(p.placement.rule, 4);
  // Not the blank line inside the class: the one after it.
  EXPECT_EQ(p.with_header,
            "class A:\n    def m(self):\n        return g(1)\n\n    # inside\n    def n(self): pass\nHEADER\nA().m()\n");
  Placed at_end = place("def f():\n    return g(1)\n# end\n", {"g(1)"});
  EXPECT_EQ(at_end.with_header, "def f():\n    return g(1)\nHEADER  # end\n");
}

TEST(ImportPlacement, NoPlaceWhenLoadTimeCodeComesFirst) {
  Placed class_body = place("class A:\n    x = g(1)\nprint(A.x)\n", {"g(1)"});
  EXPECT_EQ(class_body.placement.form, Form::None);
  EXPECT_NE(class_body.placement.problem.find("line 1"), std::string::npos);
  Placed decorator_call = place("def f():\n    return g(1)\nif f():\n    pass\ny = 1\n", {"g(1)"});
  EXPECT_EQ(decorator_call.placement.form, Form::None);  // `if f():` calls a function with checks
  Placed only_defs = place("def f():\n    return g(1)", {"g(1)"});
  EXPECT_EQ(only_defs.placement.form, Form::None);
}

TEST(ImportPlacement, AFirstStatementMayCallLibraries) {
  // Nothing of this module exists before its first statement: calls there cannot reach a check.
  Placed p = place("@torch.no_grad()\ndef f():\n    return g(1)\nf()\n", {"g(1)"});
  EXPECT_EQ(p.placement.rule, 4);
  EXPECT_EQ(p.with_header, "@torch.no_grad()\ndef f():\n    return g(1)\nHEADER; f()\n");
}

}  // namespace
}  // namespace gshape::testing
