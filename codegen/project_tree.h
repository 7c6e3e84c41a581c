// The files of a project tree that an instrumented copy mirrors: every
// regular file under the root, in the folders the project loader walks
// (frontend/project.cpp): hidden folders, virtual environments, __pycache__,
// node_modules, site-packages, and build/ or dist/ without __init__.py are
// skipped. Hidden *files* are kept (a `.env` the program reads is data).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace gshape::codegen {

struct TreeFile {
  std::string relative;          // path below the root, '/'-separated ("pkg/mod.py")
  std::filesystem::path source;  // the file as found (symlinks not resolved)
  bool is_python = false;        // ends in .py
};

// `root` is a directory (walked recursively, symlinks followed, loops and
// repeats skipped) or a single file (one entry named after it). Sorted by
// `relative`. Directories that cannot be read are named in `problems`.
std::vector<TreeFile> list_tree(const std::filesystem::path& root, std::vector<std::string>* problems = nullptr);

}  // namespace gshape::codegen
