// A script that puts the project's source folder on sys.path before its
// imports (a src/ layout): `gshape check scripts/train.py` follows them there.
#include <string>

#include <gtest/gtest.h>

#include "gshape_runner.h"
#include "temp_dir.h"

namespace gshape::testing {
namespace {

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

void write_library(TempDir& dir) {
  dir.write("src/mylib/__init__.py", "");
  dir.write("src/mylib/model.py",
            "import torch.nn as nn\n"
            "def build(d_in):\n"
            "    return nn.Sequential(nn.Linear(d_in, 8), nn.ReLU(), nn.Linear(8, 2))\n");
}

TEST(SrcLayout, ImportsAfterSysPathInsertOfTheFilesFolderAreFollowed) {
  // an outside user's project: the 12 features fed to a model built for 10
  // went unseen ("1 call of callees the analysis could not resolve")
  TempDir dir;
  write_library(dir);
  dir.write("scripts/train.py",
            "import os\n"
            "import sys\n"
            "sys.path.insert(0, os.path.join(os.path.dirname(__file__), \"..\", \"src\"))\n"
            "import torch\n"
            "from mylib.model import build\n"
            "m = build(10)\n"
            "print(m(torch.randn(4, 12)).shape)\n");
  ProcessResult r = gshape({"check", "--no-cache", "scripts/train.py"}, dir.str());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "[linear_c1]")) << r.err;
  EXPECT_TRUE(contains(r.err, "checked 3 files")) << r.err;
}

TEST(SrcLayout, APathlibFormIsFollowedToo) {
  TempDir dir;
  write_library(dir);
  dir.write("scripts/train.py",
            "import sys\n"
            "from pathlib import Path\n"
            "sys.path.append(str(Path(__file__).resolve().parent.parent / \"src\"))\n"
            "import torch\n"
            "from mylib.model import build\n"
            "print(build(10)(torch.randn(4, 10)).shape)\n");
  ProcessResult r = gshape({"check", "--no-cache", "scripts/train.py"}, dir.str());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(contains(r.err, "checked 3 files")) << r.err;
}

TEST(SrcLayout, AnAbsoluteFolderIsFollowedAndShownByItsPath) {
  // a driver beside nothing, importing a project elsewhere by its absolute path
  TempDir lib;
  write_library(lib);
  TempDir dir;
  dir.write("drive.py",
            "import sys\n"
            "sys.path.insert(0, '" + (lib / "src") + "')\n"
            "import torch\n"
            "from mylib.model import build\n"
            "print(build(10)(torch.randn(4, 12)).shape)\n");
  ProcessResult r = gshape({"check", "--no-cache", "drive.py"}, dir.str());
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_TRUE(contains(r.err, "[linear_c1]")) << r.err;
  EXPECT_TRUE(contains(r.err, lib / "src/mylib/model.py")) << r.err;
}

}  // namespace
}  // namespace gshape::testing
