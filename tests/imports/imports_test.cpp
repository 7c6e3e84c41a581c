// The import graph over temporary projects: resolution of every import form,
// cycles, and a deterministic analysis order.
#include <map>
#include <sstream>

#include <gtest/gtest.h>

#include "frontend/import_graph.h"
#include "frontend/project.h"
#include "tests/cli/temp_dir.h"

namespace gshape {
namespace {

using testing::TempDir;
using Names = std::vector<std::string>;

struct Loaded {
  DiagnosticSink diags;
  Project project;
};

std::unique_ptr<Loaded> load(const std::vector<std::string>& paths) {
  auto loaded = std::make_unique<Loaded>();
  loaded->project = load_project(paths, loaded->diags);
  return loaded;
}

std::string diagnostics_text(const DiagnosticSink& diags) {
  std::ostringstream out;
  for (const Diagnostic& d : diags.all()) render_text(out, d);
  return out.str();
}

// The project modules `name` imports, by name.
Names imports_of(const Project& p, const std::string& name) {
  const ProjectModule* m = p.find(name);
  if (m == nullptr) return {"<no module " + name + ">"};
  Names out;
  for (std::size_t i : m->imports) out.push_back(p.modules[i].file->module_name());
  return out;
}

// The analysis order by name; each inner list is one component.
std::vector<Names> order(const Project& p) {
  std::vector<Names> out;
  for (const auto& component : p.analysis_order) {
    Names names;
    for (std::size_t i : component) names.push_back(p.modules[i].file->module_name());
    out.push_back(names);
  }
  return out;
}

TEST(ModuleNames, FollowTheDirectoryLayout) {
  TempDir dir;
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/sub/mod.py", "");
  dir.write("top.py", "");
  auto l = load({dir.str()});
  ASSERT_EQ(l->project.modules.size(), 3u) << diagnostics_text(l->diags);
  ASSERT_NE(l->project.find("pkg"), nullptr);
  EXPECT_TRUE(l->project.find("pkg")->file->is_package_init());
  ASSERT_NE(l->project.find("pkg.sub.mod"), nullptr);
  EXPECT_FALSE(l->project.find("pkg.sub.mod")->file->is_package_init());
  EXPECT_NE(l->project.find("top"), nullptr);
  // Modules are sorted by path.
  EXPECT_EQ(l->project.modules[0].file->path(), dir / "pkg/__init__.py");
  EXPECT_EQ(l->project.modules[2].file->path(), dir / "top.py");
}

TEST(ModuleNames, LoneFileIsItsStem) {
  TempDir dir;
  auto l = load({dir.write("deep/train_model.py", "x = 1\n")});
  ASSERT_EQ(l->project.modules.size(), 1u);
  EXPECT_EQ(l->project.modules[0].file->module_name(), "train_model");
  EXPECT_EQ(l->project.modules[0].root, dir / "deep/train_model.py");
}

TEST(ModuleNames, RootThatIsAPackageKeepsItsName) {
  // Python imports src/mypkg/a.py as mypkg.a when src/ is on the path.
  TempDir dir;
  dir.write("src/mypkg/__init__.py", "");
  dir.write("src/mypkg/a.py", "from . import b\n");
  dir.write("src/mypkg/b.py", "");
  auto l = load({dir / "src/mypkg"});
  ASSERT_NE(l->project.find("mypkg"), nullptr);
  ASSERT_NE(l->project.find("mypkg.a"), nullptr);
  EXPECT_EQ(imports_of(l->project, "mypkg.a"), (Names{"mypkg", "mypkg.b"}));
}

TEST(Imports, PlainImport) {
  TempDir dir;
  dir.write("a.py", "import b\nimport torch\nimport os.path\n");
  dir.write("b.py", "x = 1\n");
  auto l = load({dir.str()});
  EXPECT_EQ(imports_of(l->project, "a"), (Names{"b"}));
  EXPECT_EQ(imports_of(l->project, "b"), (Names{}));
  EXPECT_EQ(order(l->project), (std::vector<Names>{{"b"}, {"a"}}));
}

TEST(Imports, DottedImportLoadsEveryEnclosingPackage) {
  TempDir dir;
  dir.write("main.py", "import pkg.sub.mod as m\n");
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/sub/__init__.py", "");
  dir.write("pkg/sub/mod.py", "");
  dir.write("pkg/other.py", "");
  auto l = load({dir.str()});
  EXPECT_EQ(imports_of(l->project, "main"), (Names{"pkg", "pkg.sub", "pkg.sub.mod"}));
}

TEST(Imports, FromImportAddsTheSubmoduleOnlyWhenItIsOne) {
  TempDir dir;
  dir.write("main.py", "from pkg import mod, helper_function\nfrom pkg.mod import *\n");
  dir.write("pkg/__init__.py", "def helper_function():\n    pass\n");
  dir.write("pkg/mod.py", "");
  auto l = load({dir.str()});
  EXPECT_EQ(imports_of(l->project, "main"), (Names{"pkg", "pkg.mod"}));
}

TEST(Imports, RelativeImportsResolveAgainstThePackage) {
  TempDir dir;
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/a.py", "from . import b\n");
  dir.write("pkg/b.py", "from .c import thing\n");
  dir.write("pkg/c.py", "");
  dir.write("pkg/sub/__init__.py", "");
  dir.write("pkg/sub/d.py", "from ..a import y\nfrom .. import c\n");
  dir.write("pkg/sub/e.py", "from ...outside import z\n");  // climbs above the top package: ignored
  auto l = load({dir.str()});
  ASSERT_TRUE(l->diags.all().empty()) << diagnostics_text(l->diags);
  EXPECT_EQ(imports_of(l->project, "pkg.a"), (Names{"pkg", "pkg.b"}));
  EXPECT_EQ(imports_of(l->project, "pkg.b"), (Names{"pkg", "pkg.c"}));
  EXPECT_EQ(imports_of(l->project, "pkg.sub.d"), (Names{"pkg", "pkg.a", "pkg.c"}));
  EXPECT_EQ(imports_of(l->project, "pkg.sub.e"), (Names{}));
}

TEST(Imports, PackageInitIsItsOwnBaseForRelativeImports) {
  TempDir dir;
  dir.write("pkg/__init__.py", "from . import models\nfrom .utils import seed\n");
  dir.write("pkg/models.py", "");
  dir.write("pkg/utils.py", "");
  dir.write("pkg/sub/__init__.py", "from .. import utils\nfrom . import leaf\n");
  dir.write("pkg/sub/leaf.py", "");
  auto l = load({dir.str()});
  EXPECT_EQ(imports_of(l->project, "pkg"), (Names{"pkg.models", "pkg.utils"}));
  EXPECT_EQ(imports_of(l->project, "pkg.sub"), (Names{"pkg", "pkg.sub.leaf", "pkg.utils"}));
}

TEST(Imports, ImportsInsideFunctionsAndBranchesCount) {
  TempDir dir;
  dir.write("main.py",
            "def f():\n"
            "    import in_function\n"
            "class C:\n"
            "    def m(self):\n"
            "        if True:\n"
            "            from in_method_branch import x\n"
            "try:\n"
            "    import in_try\n"
            "except ImportError:\n"
            "    import in_except\n"
            "finally:\n"
            "    pass\n"
            "with open('f') as h:\n"
            "    for i in range(2):\n"
            "        while False:\n"
            "            import in_loop\n");
  for (const char* name : {"in_function", "in_method_branch", "in_try", "in_except", "in_loop"}) {
    dir.write(std::string(name) + ".py", "");
  }
  auto l = load({dir.str()});
  EXPECT_EQ(imports_of(l->project, "main"), (Names{"in_except", "in_function", "in_loop", "in_method_branch", "in_try"}));
}

TEST(Cycles, TwoModulesStayTogetherSortedByName) {
  TempDir dir;
  dir.write("zed.py", "import alpha\n");
  dir.write("alpha.py", "import zed\n");
  dir.write("user.py", "import zed\n");
  auto l = load({dir.str()});
  EXPECT_EQ(order(l->project), (std::vector<Names>{{"alpha", "zed"}, {"user"}}));
}

TEST(Cycles, ThreeModulesStayTogetherAfterTheirDependencies) {
  TempDir dir;
  dir.write("a.py", "import b\n");
  dir.write("b.py", "import c\n");
  dir.write("c.py", "import a\nimport base\n");
  dir.write("base.py", "");
  dir.write("app.py", "import b\n");
  dir.write("lone.py", "");
  auto l = load({dir.str()});
  EXPECT_EQ(order(l->project), (std::vector<Names>{{"base"}, {"a", "b", "c"}, {"app"}, {"lone"}}));
}

TEST(Order, DependenciesFirstTiesByName) {
  TempDir dir;
  dir.write("m.py", "import z\n");
  dir.write("z.py", "");
  dir.write("b.py", "");
  dir.write("a.py", "import m\n");
  auto l = load({dir.str()});
  // b and z are ready first (b before z by name); m waits for z, a for m.
  EXPECT_EQ(order(l->project), (std::vector<Names>{{"b"}, {"z"}, {"m"}, {"a"}}));
}

TEST(Order, IsTheSameWhateverTheCreationOrder) {
  std::vector<std::vector<Names>> orders;
  for (bool reverse : {false, true}) {
    TempDir dir;
    std::vector<int> ids(40);
    for (int i = 0; i < 40; ++i) ids[static_cast<std::size_t>(i)] = reverse ? 39 - i : i;
    for (int i : ids) {
      // m{i} imports m{i/2}; every fifth also imports its successor (cycles).
      // (Appending piece by piece: GCC 12 warns falsely on "literal" + std::string&&.)
      std::string text;
      if (i > 0) text.append("import m").append(std::to_string(i / 2)).append("\n");
      if (i % 5 == 0 && i + 1 < 40) text.append("import m").append(std::to_string(i + 1)).append("\n");
      dir.write(std::string("m").append(std::to_string(i)).append(".py"), text);
    }
    auto l = load({dir.str()});
    orders.push_back(order(l->project));
    // Every module appears exactly once, after what it imports (outside its cycle).
    std::map<std::string, std::size_t> position;
    for (std::size_t c = 0; c < orders.back().size(); ++c) {
      for (const std::string& n : orders.back()[c]) EXPECT_TRUE(position.emplace(n, c).second) << n;
    }
    EXPECT_EQ(position.size(), 40u);
    for (const ProjectModule& m : l->project.modules) {
      for (std::size_t i : m.imports) {
        EXPECT_LE(position[l->project.modules[i].file->module_name()], position[m.file->module_name()]);
      }
    }
  }
  EXPECT_EQ(orders[0], orders[1]);
}

TEST(Roots, SameNameInTwoRootsResolvesWithinTheImportersRoot) {
  TempDir dir;
  dir.write("one/main.py", "import util\n");
  dir.write("one/util.py", "");
  dir.write("two/main.py", "import util\n");
  dir.write("two/util.py", "");
  auto l = load({dir / "one", dir / "two"});
  ASSERT_EQ(l->project.modules.size(), 4u);
  for (const ProjectModule& m : l->project.modules) {
    if (m.file->module_name() != "main") continue;
    ASSERT_EQ(m.imports.size(), 1u);
    EXPECT_EQ(l->project.modules[m.imports[0]].root, m.root);
  }
}

TEST(ImportedNames, ListsEveryLoadedModuleName) {
  TempDir dir;
  dir.write("pkg/sub/m.py", "import a.b\nfrom .x import y\nfrom .. import z\nfrom ... import too_far\n");
  auto l = load({dir.str()});
  const ProjectModule* m = l->project.find("pkg.sub.m");
  ASSERT_NE(m, nullptr) << diagnostics_text(l->diags);
  EXPECT_EQ(imported_module_names(*m->ir, "pkg.sub.m", false),
            (Names{"a", "a.b", "pkg", "pkg.sub", "pkg.sub.x", "pkg.sub.x.y", "pkg.z"}));
  // The same file seen as a package's __init__ climbs one level less.
  EXPECT_EQ(imported_module_names(*m->ir, "pkg.sub.m", true),
            (Names{"a", "a.b", "pkg", "pkg.sub", "pkg.sub.m", "pkg.sub.m.x", "pkg.sub.m.x.y", "pkg.sub.z", "pkg.too_far"}));
}

}  // namespace
}  // namespace gshape

namespace gshape {
namespace {

// Files are parsed on several threads; modules, rejected files, diagnostics
// and the analysis order must not depend on how many.
TEST(ParallelLoad, SameProjectWhateverTheThreadCount) {
  testing::TempDir dir;
  for (int i = 0; i < 40; ++i) {
    std::string body = "import torch\nfrom . import m" + std::to_string((i + 1) % 40) + "\n";
    body += "def f" + std::to_string(i) + "(x):\n" + std::string(static_cast<std::size_t>(i % 5), ' ') +
            (i % 5 ? "return x\n" : "    return (x\n");  // some files have syntax errors
    dir.write("pkg/m" + std::to_string(i) + ".py", body);
  }
  dir.write("pkg/__init__.py", "");
  dir.write("pkg/binary.py", std::string("x = 1\0\n", 7));
  auto render = [&](unsigned threads) {
    DiagnosticSink diags;
    Project p = load_project({dir.str()}, diags, threads);
    std::ostringstream out;
    for (const ProjectModule& m : p.modules) out << "module " << m.file->module_name() << "\n";
    for (const auto& f : p.rejected_files) out << "rejected " << f->path() << "\n";
    for (const auto& c : p.analysis_order) {
      out << "component";
      for (std::size_t i : c) out << " " << p.modules[i].file->module_name();
      out << "\n";
    }
    for (const Diagnostic& d : diags.all()) render_text(out, d);
    return out.str();
  };
  std::string one = render(1);
  EXPECT_NE(one.find("rejected"), std::string::npos) << one;  // the broken files are there
  EXPECT_NE(one.find("binary file"), std::string::npos) << one;
  for (unsigned threads : {2u, 3u, 8u}) EXPECT_EQ(render(threads), one) << threads << " threads";
}

}  // namespace
}  // namespace gshape
