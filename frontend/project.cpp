#include "frontend/project.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <optional>
#include <set>
#include <string_view>

#include "frontend/import_graph.h"
#include "frontend/ir_builder.h"
#include "frontend/parallel_for.h"
#include "frontend/source_encoding.h"

namespace gshape {

namespace fs = std::filesystem;

const ProjectModule* Project::find(const std::string& dotted) const {
  for (const ProjectModule& m : modules) {
    if (m.file->module_name() == dotted) return &m;
  }
  return nullptr;
}

namespace {

// ---------------------------------------------------------------- reading

// Offset of the first byte at which strict UTF-8 decoding fails (overlong
// forms, surrogates and code points above U+10FFFF are invalid), or npos.
std::size_t first_invalid_utf8(std::string_view s) {
  const auto* p = reinterpret_cast<const unsigned char*>(s.data());
  const std::size_t n = s.size();
  std::size_t i = 0;
  while (i < n) {
    unsigned char c = p[i];
    if (c < 0x80) {
      ++i;
      continue;
    }
    std::size_t length;
    unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
    if (c >= 0xC2 && c <= 0xDF) {
      length = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
      length = 3;
      if (c == 0xE0) lo = 0xA0;
      if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      length = 4;
      if (c == 0xF0) lo = 0x90;
      if (c == 0xF4) hi = 0x8F;
    } else {
      return i;
    }
    if (i + length > n || p[i + 1] < lo || p[i + 1] > hi) return i;
    for (std::size_t k = 2; k < length; ++k) {
      if ((p[i + k] & 0xC0) != 0x80) return i;
    }
    i += length;
  }
  return std::string_view::npos;
}

// A copy of `text` whose undecodable bytes are '?': byte offsets stay the
// same, and the source line a diagnostic quotes is valid UTF-8 for terminals.
std::string printable_copy(std::string_view text) {
  std::string out(text);
  std::size_t base = 0;
  while (base < out.size()) {
    std::size_t bad = first_invalid_utf8(std::string_view(out).substr(base));
    if (bad == std::string_view::npos) break;
    out[base + bad] = '?';
    base += bad + 1;
  }
  return out;
}

// The location of byte `offset` in `file` (lines end as SourceFile counts them).
SourceLoc loc_of_offset(const SourceFile& file, std::size_t offset) {
  const std::string& text = file.text();
  uint32_t line = 1;
  std::size_t line_start = 0;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n' || (text[i] == '\r' && (i + 1 >= text.size() || text[i + 1] != '\n'))) {
      ++line;
      line_start = i + 1;
    }
  }
  SourceLoc loc;
  loc.file = &file;
  loc.line = line;
  loc.column = file.column_of(line, static_cast<uint32_t>(offset - line_start));
  loc.begin = static_cast<uint32_t>(offset);
  loc.end = static_cast<uint32_t>(std::min(offset + 1, text.size()));
  return loc;
}

}  // namespace

std::string megabytes(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return buf;
}

namespace {

// The warning of a file over the limit: named, with its size and the limit.
void report_oversized(const std::string& path, std::size_t bytes, std::size_t limit, DiagnosticSink& diags) {
  diags.report({Severity::Warning, {}, path,
                "skipped: the file is " + megabytes(bytes) + ", over the size limit of " + megabytes(limit) +
                    " (--max-file-size, or max-file-size in the configuration, raises it)",
                {}, {}});
}

// The file's bytes, or nullopt after reporting why they cannot be used
// (`oversized` set when only its size stopped it).
std::optional<std::string> read_file_bytes(const std::string& path, std::size_t limit, DiagnosticSink& diags,
                                           bool& oversized) {
  // O_NONBLOCK: opening a FIFO named *.py must not wait for a writer.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    diags.io_error(path, std::string("cannot read file: ") + std::strerror(errno));
    return std::nullopt;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    diags.io_error(path, "cannot read file: not a regular file");
    return std::nullopt;
  }
  if (static_cast<std::size_t>(st.st_size) > limit) {
    ::close(fd);
    report_oversized(path, static_cast<std::size_t>(st.st_size), limit, diags);
    oversized = true;
    return std::nullopt;
  }
  std::string bytes(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t used = 0;
  for (;;) {
    // at the size fstat gave (most likely the end), ask with a small buffer
    // rather than grow the string by a zero-filled block to learn it
    char probe[4096];
    bool full = used == bytes.size();
    if (full && bytes.size() > limit) break;  // grew while we read: the size check above still holds
    ssize_t got = full ? ::read(fd, probe, sizeof probe) : ::read(fd, bytes.data() + used, bytes.size() - used);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      int error = errno;
      ::close(fd);
      diags.io_error(path, std::string("cannot read file: ") + std::strerror(error));
      return std::nullopt;
    }
    if (got == 0) break;
    if (full) bytes.append(probe, static_cast<std::size_t>(got));
    used += static_cast<std::size_t>(got);
  }
  ::close(fd);
  bytes.resize(used);
  if (bytes.size() > limit) {
    report_oversized(path, bytes.size(), limit, diags);
    oversized = true;
    return std::nullopt;
  }
  return bytes;
}

// ---------------------------------------------------------------- walking

struct FoundFile {
  std::string path;         // as shown to the user: the given root joined with the relative path
  std::string root;         // the path given on the command line
  std::string module_name;  // dotted
  bool package_init = false;
};

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

bool exists_no_error(const fs::path& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

std::string join_dotted(const std::string& prefix, const std::string& name) {
  return prefix.empty() ? name : prefix + "." + name;
}

class Walker {
 public:
  Walker(Project& project, DiagnosticSink& diags) : project_(project), diags_(diags) {}

  void add_root(const std::string& given) {
    std::error_code ec;
    fs::file_status status = fs::status(given, ec);
    if (ec || !fs::exists(status)) {
      bool missing = !ec || ec == std::errc::no_such_file_or_directory || ec == std::errc::not_a_directory;
      diags_.io_error(given, missing ? "no such file or directory" : "cannot access: " + ec.message());
      project_.missing_paths.push_back(given);
      return;
    }
    if (fs::is_directory(status)) {
      fs::path canonical = fs::canonical(given, ec);
      if (ec || !visited_dirs_.insert(canonical.string()).second) return;
      walk(fs::path(given), given, package_prefix(canonical));
      return;
    }
    // A file named on the command line is loaded whatever its extension: the user asked for it.
    fs::path p(given);
    FoundFile f{fs::path(given).lexically_normal().string(), given, p.stem().string(), false};
    if (p.filename() == "__init__.py") {
      fs::path dir = fs::canonical(p, ec).parent_path();
      f.module_name = dir.filename().string();
      f.package_init = true;
    }
    add_file(p, std::move(f));
  }

  // A module a script imports, found beside it: loaded like a walked file
  // (once, whatever way it was reached). False when the file was seen already.
  bool add_followed(const fs::path& path, FoundFile f) {
    std::size_t before = files_.size();
    add_file(path, std::move(f));
    return files_.size() > before;
  }

  // Follows the symbolic links met so far (and those found behind them),
  // then hands over every file found.
  std::vector<FoundFile> take_files() {
    while (!links_.empty()) {
      std::vector<PendingLink> batch = std::move(links_);
      links_.clear();
      for (const PendingLink& link : batch) visit(link.path, link.root, link.prefix, link.name);
    }
    return std::move(files_);
  }

 private:
  // Names of the packages enclosing a root directory that is itself a
  // package (holds __init__.py), outermost first: Python would import its
  // modules as "outer.root.mod", so that is their name.
  static std::string package_prefix(const fs::path& canonical_dir) {
    std::vector<std::string> names;
    for (fs::path dir = canonical_dir; exists_no_error(dir / "__init__.py"); dir = dir.parent_path()) {
      names.push_back(dir.filename().string());
      if (dir == dir.parent_path()) break;
    }
    std::string prefix;
    for (auto it = names.rbegin(); it != names.rend(); ++it) prefix = join_dotted(prefix, *it);
    return prefix;
  }

  void walk(const fs::path& dir, const std::string& root, const std::string& prefix) {
    std::error_code ec;
    std::vector<std::string> names;
    fs::directory_iterator it(dir, ec);
    if (ec) {
      diags_.report({Severity::Warning, {}, dir.lexically_normal().string(),
                     "cannot read directory: " + ec.message() + "; skipped", {}, {}});
      return;
    }
    for (; it != fs::directory_iterator(); it.increment(ec)) {
      if (ec) break;
      names.push_back(it->path().filename().string());
    }
    std::sort(names.begin(), names.end());
    for (const std::string& name : names) {
      if (name.empty() || name[0] == '.') continue;  // hidden files and folders
      fs::path path = dir / name;
      if (fs::is_symlink(fs::symlink_status(path, ec))) {
        // Links are followed after every real file and folder is known, so
        // a file reached both ways keeps its real name.
        links_.push_back({path, root, prefix, name});
        continue;
      }
      visit(path, root, prefix, name);
    }
  }

  void visit(const fs::path& path, const std::string& root, const std::string& prefix, const std::string& name) {
    std::error_code ec;
    fs::file_status status = fs::status(path, ec);  // follows symlinks
    if (!ec && fs::is_directory(status)) {
      if (is_skipped_folder(name, path)) return;
      fs::path canonical = fs::canonical(path, ec);
      if (ec || !visited_dirs_.insert(canonical.string()).second) return;  // symlink loop or seen already
      walk(path, root, join_dotted(prefix, name));
      return;
    }
    if (!ends_with(name, ".py") || name.size() == 3) return;
    std::string stem = name.substr(0, name.size() - 3);
    FoundFile f{path.lexically_normal().string(), root, {}, stem == "__init__"};
    f.module_name = f.package_init ? prefix : join_dotted(prefix, stem);
    if (f.module_name.empty()) f.module_name = stem;
    add_file(path, std::move(f));  // a broken link or odd file type is reported when read
  }

  void add_file(const fs::path& path, FoundFile f) {
    std::error_code ec;
    fs::path canonical = fs::canonical(path, ec);
    // The same file reached twice (a symlink, overlapping roots) is loaded once.
    if (!ec && !seen_files_.insert(canonical.string()).second) return;
    files_.push_back(std::move(f));
  }

  struct PendingLink {
    fs::path path;
    std::string root;
    std::string prefix;
    std::string name;
  };

  Project& project_;
  DiagnosticSink& diags_;
  std::vector<PendingLink> links_;
  std::set<std::string> visited_dirs_;
  std::set<std::string> seen_files_;
  std::vector<FoundFile> files_;
};

// One file's outcome, filled on a worker thread and merged in file order.
struct LoadedFile {
  bool oversized = false;
  std::optional<ProjectModule> module;
  std::unique_ptr<SourceFile> rejected;
  DiagnosticSink diags;
};

// build_module, which promises not to throw; if it ever does, one file is
// lost, not the run.
std::unique_ptr<ir::Module> parse_file(const SourceFile& file, DiagnosticSink& diags) {
  try {
    return build_module(file, diags);
  } catch (const std::exception& e) {
    diags.file_error(file.path(), std::string("internal error while parsing: ") + e.what());
  }
  return nullptr;
}

// Reads, checks and parses one file: a module, or a rejected file.
void load_file(const FoundFile& found, std::size_t max_file_bytes, FileFactsCache* facts, LoadedFile& out) {
  DiagnosticSink& diags = out.diags;
  std::optional<std::string> bytes = read_file_bytes(found.path, max_file_bytes, diags, out.oversized);
  if (!bytes) return;
  if (std::memchr(bytes->data(), '\0', bytes->size()) != nullptr) {
    diags.file_error(found.path, "binary file, not Python source");
    return;
  }
  // PEP 263: a file may declare its encoding; UTF-8 when it does not.
  std::optional<CodingDeclaration> coding = find_coding_declaration(*bytes);
  SourceEncoding encoding = SourceEncoding::Utf8;
  if (coding) {
    std::optional<SourceEncoding> known = known_source_encoding(coding->encoding);
    bool ascii = std::none_of(bytes->begin(), bytes->end(), [](char c) { return (static_cast<unsigned char>(c) & 0x80) != 0; });
    if (!known && !ascii) {
      // Python decodes it (or says it cannot): gshape cannot, so the file is
      // not analysed; a limit of gshape, not an error in the code
      diags.report({Severity::Warning, {}, found.path,
                    "skipped: the file declares the encoding '" + coding->encoding +
                        "', which gshape cannot decode (it reads utf-8, latin-1, cp1252 and ascii); not analysed, "
                        "no run-time checks in it",
                    {}, {}});
      out.rejected = std::make_unique<SourceFile>(found.path, printable_copy(*bytes));  // listed as not analysed
      return;
    }
    if (known) encoding = *known;  // an unknown name on ASCII bytes: the same text in any case
  }
  if (encoding != SourceEncoding::Utf8 && bytes->rfind("\xEF\xBB\xBF", 0) == 0) {
    auto file = std::make_unique<SourceFile>(found.path, printable_copy(*bytes));
    // CPython's words: a byte-order mark says UTF-8
    diags.report({Severity::Error, SourceLoc{file.get(), coding->line, 1, 0, 0}, {},
                  "syntax error: encoding problem: " + coding->encoding + " with BOM", {}, {}});
    out.rejected = std::move(file);
    return;
  }
  if (encoding != SourceEncoding::Utf8) {
    DecodedSource decoded = decode_source(*bytes, encoding);
    if (decoded.bad != std::string::npos) {
      char byte_hex[8];
      std::snprintf(byte_hex, sizeof byte_hex, "0x%02x",
                    static_cast<unsigned>(static_cast<unsigned char>((*bytes)[decoded.bad])));
      auto file = std::make_unique<SourceFile>(found.path, printable_copy(*bytes));
      Diagnostic d{Severity::Error, loc_of_offset(*file, decoded.bad), {},
                   std::string("file is not valid ") + source_encoding_name(encoding) + " (byte " + byte_hex + ")", {}, {}};
      d.notes.push_back({SourceLoc{file.get(), coding->line, 1, 0, 0},
                         "the file declares encoding '" + coding->encoding + "'"});
      diags.report(std::move(d));
      out.rejected = std::move(file);
      return;
    }
    *bytes = std::move(decoded.text);
  }
  std::size_t bad = encoding == SourceEncoding::Utf8 ? first_invalid_utf8(*bytes) : std::string_view::npos;
  if (bad != std::string_view::npos) {
    char byte_hex[8];
    std::snprintf(byte_hex, sizeof byte_hex, "0x%02x", static_cast<unsigned>(static_cast<unsigned char>((*bytes)[bad])));
    auto file = std::make_unique<SourceFile>(found.path, printable_copy(*bytes));
    diags.report({Severity::Error, loc_of_offset(*file, bad), {},
                  std::string("file is not valid UTF-8 (byte ") + byte_hex + ")", {}, {}});
    out.rejected = std::move(file);
    return;
  }

  auto file = std::make_unique<SourceFile>(found.path, std::move(*bytes));
  file->set_module_name(found.module_name);
  file->set_package_init(found.package_init);
  file->set_encoding(encoding);
  if (facts) {
    if (std::optional<std::vector<std::string>> names = facts->load_import_names(*file)) {
      // parsed before to these names with no diagnostic: parsed again only if analysed
      out.module = ProjectModule{std::move(file), nullptr, found.root, {}, std::move(*names), true};
      return;
    }
  }
  std::unique_ptr<ir::Module> module = parse_file(*file, diags);
  if (!module) {
    out.rejected = std::move(file);
    return;
  }
  std::vector<std::string> names =
      imported_module_names(*module, file->module_name(), file->is_package_init());
  // only a clean parse is remembered: a deferred module must parse again to
  // the same IR and no diagnostic
  if (facts && diags.all().empty()) facts->store_import_names(*file, names);
  out.module = ProjectModule{std::move(file), std::move(module), found.root, {}, std::move(names), false};
}

// A script named on the command line (a file, not a folder) and the folders
// Python finds its imports in: its own (sys.path[0]), and, when that folder
// is a package, the one above its outermost package.
struct ScriptRoot {
  std::string given;
  fs::path dir;                      // its folder, absolute
  std::vector<fs::path> search_dirs;
  // A found file's path as shown: beside the given path as the user wrote it
  // (`pkg/layers.py` for `gshape check pkg/run.py`).
  std::string display(const fs::path& found) const {
    fs::path relative = found.lexically_relative(dir);
    if (relative.empty()) return found.lexically_normal().string();
    fs::path shown = (fs::path(given).parent_path() / relative).lexically_normal();
    // a file above the working folder (a sys.path entry elsewhere) by its absolute path
    if (shown.empty() || *shown.begin() == "..") return found.lexically_normal().string();
    return shown.string();
  }
};

std::vector<ScriptRoot> script_roots(const std::vector<std::string>& paths) {
  std::vector<ScriptRoot> out;
  for (const std::string& given : paths) {
    std::error_code ec;
    if (!fs::is_regular_file(given, ec)) continue;
    fs::path dir = fs::absolute(given, ec).lexically_normal().parent_path();
    if (ec) continue;
    ScriptRoot root{given, dir, {dir}};
    fs::path top = dir;
    while (exists_no_error(top / "__init__.py") && top.has_parent_path() && top.parent_path() != top) top = top.parent_path();
    if (top != dir) root.search_dirs.push_back(top);
    out.push_back(std::move(root));
  }
  return out;
}

// The file Python would load for the dotted `name` under `dir`: a module
// `a/b.py` or a package `a/b/__init__.py`; nullopt when there is none.
std::optional<std::pair<fs::path, bool>> module_file(const fs::path& dir, const std::string& name) {
  fs::path p = dir;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = name.find('.', start);
    std::string part = name.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (part.empty()) return std::nullopt;
    if (dot == std::string::npos) {
      std::error_code ec;
      if (fs::is_regular_file(p / (part + ".py"), ec)) return std::make_pair(p / (part + ".py"), false);
      if (fs::is_regular_file(p / part / "__init__.py", ec)) return std::make_pair(p / part / "__init__.py", true);
      return std::nullopt;
    }
    p /= part;
    start = dot + 1;
  }
}

}  // namespace

Project load_project(const std::vector<std::string>& paths, DiagnosticSink& diags, unsigned threads,
                     const FileFilter& keep, std::size_t max_file_bytes, FileFactsCache* facts) {
  max_file_bytes = std::min(max_file_bytes, kHardMaxSourceFileBytes);
  Project project;
  Walker walker(project, diags);
  for (const std::string& path : paths) walker.add_root(path);
  std::vector<FoundFile> files = walker.take_files();
  if (keep) {
    // files named on the command line are the user's explicit choice: kept
    std::erase_if(files, [&](const FoundFile& f) { return f.path != fs::path(f.root).lexically_normal().string() && !keep(f.path); });
  }

  // Files parse independently (a tree-sitter parser per thread); the
  // results are merged in path order, so the output does not depend on
  // which thread finished first.
  std::vector<LoadedFile> loaded(files.size());
  parallel_for(files.size(), [&](std::size_t i) { load_file(files[i], max_file_bytes, facts, loaded[i]); },
               threads == 0 ? default_thread_count() : threads);

  // A script named alone (`gshape check train.py`) imports the project's
  // modules beside it (`from model import Net`): those are loaded too, and
  // what they import in turn, as Python would find them when it runs the
  // script. Folders given are complete already.
  std::vector<ScriptRoot> scripts = script_roots(paths);
  std::set<std::string> tried;  // (script, name) pairs looked up
  for (std::size_t next = 0; !scripts.empty() && next < loaded.size();) {
    std::vector<FoundFile> more;
    for (std::size_t end = loaded.size(); next < end; ++next) {
      if (!loaded[next].module) continue;
      const ProjectModule& m = *loaded[next].module;
      for (ScriptRoot& script : scripts) {
        if (m.root != script.given) continue;
        // a module that puts a folder of the project on sys.path
        // (`sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "src"))`):
        // the imports after it are found there too
        for (const std::string& name : m.import_names) {
          if (name.rfind(kSysPathMarker, 0) != 0) continue;
          std::string_view rest = std::string_view(name).substr(kSysPathMarker.size());
          bool front = rest.rfind("insert:", 0) == 0;
          std::error_code ec;
          fs::path folder = (fs::absolute(m.file->path(), ec).parent_path() /
                             std::string(rest.substr(rest.find(':') + 1)))
                                .lexically_normal();
          if (!folder.has_filename()) folder = folder.parent_path();  // "src/" -> "src"
          if (std::find(script.search_dirs.begin(), script.search_dirs.end(), folder) != script.search_dirs.end()) continue;
          if (front) script.search_dirs.insert(script.search_dirs.begin(), folder);
          else script.search_dirs.push_back(folder);
        }
        for (const std::string& name : m.import_names) {
          if (name.rfind(kSysPathMarker, 0) == 0) continue;
          if (!tried.insert(script.given + '\0' + name).second) continue;
          for (const fs::path& dir : script.search_dirs) {
            auto found = module_file(dir, name);
            if (!found) continue;
            std::string path = script.display(found->first);
            if (keep && !keep(path)) break;  // excluded by the user: unresolved, as if absent
            if (walker.add_followed(found->first, FoundFile{path, script.given, name, found->second})) {
              std::vector<FoundFile> taken = walker.take_files();
              more.insert(more.end(), taken.begin(), taken.end());
            }
            break;
          }
        }
      }
    }
    if (more.empty()) break;
    std::size_t first = loaded.size();
    loaded.resize(first + more.size());
    parallel_for(more.size(), [&](std::size_t i) { load_file(more[i], max_file_bytes, facts, loaded[first + i]); },
                 threads == 0 ? default_thread_count() : threads);
    files.insert(files.end(), more.begin(), more.end());
  }

  std::vector<std::size_t> order(files.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return files[a].path < files[b].path; });
  for (std::size_t i : order) {
    project.all_files.push_back(files[i].path);
    for (const Diagnostic& d : loaded[i].diags.all()) {
      if (d.io_error) project.unreadable_files.push_back(files[i].path);
      diags.report(d);
    }
    if (loaded[i].oversized) project.oversized_files.push_back(files[i].path);
    if (loaded[i].module) project.modules.push_back(std::move(*loaded[i].module));
    if (loaded[i].rejected) project.rejected_files.push_back(std::move(loaded[i].rejected));
  }

  ImportGraph graph = build_import_graph(project.modules);
  for (std::size_t i = 0; i < project.modules.size(); ++i) project.modules[i].imports = std::move(graph.imports[i]);
  project.analysis_order = std::move(graph.analysis_order);
  return project;
}

std::size_t parse_deferred(const Project& project, const std::vector<std::size_t>& modules, DiagnosticSink& diags,
                           unsigned threads) {
  std::vector<std::size_t> todo;
  for (std::size_t i : modules)
    if (i < project.modules.size() && project.modules[i].deferred) todo.push_back(i);
  std::vector<DiagnosticSink> sinks(todo.size());
  parallel_for(
      todo.size(),
      [&](std::size_t k) {
        const ProjectModule& m = project.modules[todo[k]];
        m.ir = parse_file(*m.file, sinks[k]);
        m.deferred = false;
      },
      threads == 0 ? default_thread_count() : threads);
  for (const DiagnosticSink& sink : sinks)
    for (const Diagnostic& d : sink.all()) diags.report(d);
  return todo.size();
}

bool is_skipped_folder(const std::string& name, const fs::path& dir) {
  if (name.empty() || name[0] == '.') return true;
  if (name == "__pycache__" || name == "node_modules" || name == "site-packages") return true;
  // build/ and dist/ are outputs, unless the project really has a package by that name.
  if ((name == "build" || name == "dist") && !exists_no_error(dir / "__init__.py")) return true;
  // Virtual environments: venv's marker file, or an "…env…" folder with an activate script, or conda's.
  if (exists_no_error(dir / "pyvenv.cfg") || exists_no_error(dir / "conda-meta")) return true;
  if (name.find("env") != std::string::npos && exists_no_error(dir / "bin" / "activate")) return true;
  // A cache (https://bford.info/cachedir/): gshape's own cache folder among
  // them, which holds instrumented copies of the project.
  if (exists_no_error(dir / "CACHEDIR.TAG")) return true;
  return false;
}

}  // namespace gshape
