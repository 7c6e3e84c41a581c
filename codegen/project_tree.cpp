#include "codegen/project_tree.h"

#include "frontend/project.h"

#include <algorithm>
#include <set>
#include <system_error>

namespace gshape::codegen {

namespace fs = std::filesystem;

namespace {

bool ends_with_py(const std::string& name) { return name.size() > 3 && name.compare(name.size() - 3, 3, ".py") == 0; }

class Walker {
 public:
  Walker(std::vector<TreeFile>& files, std::vector<std::string>* problems) : files_(files), problems_(problems) {}

  void walk(const fs::path& dir, const std::string& relative) {
    std::error_code ec;
    fs::path canonical = fs::canonical(dir, ec);
    if (ec || !visited_.insert(canonical.string()).second) return;  // a symlink loop or a second way in
    std::vector<fs::directory_entry> entries;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) entries.push_back(*it);
    if (ec) {
      if (problems_) problems_->push_back(dir.string() + ": cannot read directory: " + ec.message());
      return;
    }
    std::sort(entries.begin(), entries.end(),
              [](const fs::directory_entry& a, const fs::directory_entry& b) { return a.path().filename() < b.path().filename(); });
    for (const fs::directory_entry& entry : entries) {
      std::string name = entry.path().filename().string();
      std::string child = relative.empty() ? name : relative + "/" + name;
      std::error_code kind_ec;
      if (entry.is_directory(kind_ec)) {  // follows symlinks
        if (!is_skipped_folder(name, entry.path())) walk(entry.path(), child);
      } else if (entry.is_regular_file(kind_ec)) {
        files_.push_back({child, entry.path(), ends_with_py(name)});
      }
    }
  }

 private:
  std::vector<TreeFile>& files_;
  std::vector<std::string>* problems_;
  std::set<std::string> visited_;
};

}  // namespace

std::vector<TreeFile> list_tree(const fs::path& root, std::vector<std::string>* problems) {
  std::vector<TreeFile> files;
  std::error_code ec;
  if (fs::is_directory(root, ec)) {
    Walker(files, problems).walk(root, "");
    std::sort(files.begin(), files.end(), [](const TreeFile& a, const TreeFile& b) { return a.relative < b.relative; });
  } else if (fs::is_regular_file(root, ec)) {
    std::string name = root.filename().string();
    files.push_back({name, root, ends_with_py(name)});
  }
  return files;
}

}  // namespace gshape::codegen
