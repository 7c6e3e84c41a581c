#include "codegen/analysis_cache.h"

#include <filesystem>

#include "codegen/atomic_file.h"
#include "gradual/analysis_serial.h"
#include "gshape_version.h"

namespace gshape::codegen {

namespace fs = std::filesystem;

namespace {

constexpr const char* kHeader = "gshape-analysis-cache 2";
constexpr uint64_t kSecondSeed = 0x84222325cbf29ce4ULL;  // an independent check of the key

}  // namespace

std::string analyser_identity() {
  std::string id = GSHAPE_VERSION;
  std::error_code ec;
  fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) return id;
  std::uintmax_t size = fs::file_size(exe, ec);
  if (ec) return id;
  auto modified = fs::last_write_time(exe, ec);
  if (ec) return id;
  return id + "+" + std::to_string(size) + "." + std::to_string(modified.time_since_epoch().count());
}

std::string analysis_cache_dir(const std::string& cache_home) { return (fs::path(cache_home) / "analysis").string(); }

DiskUnitCache::DiskUnitCache(const std::string& cache_home)
    : dir_(analysis_cache_dir(cache_home)), identity_(analyser_identity()) {}

namespace {

struct EntryName {
  fs::path path;
  std::string key_check;
};

EntryName entry_of(const std::string& dir, const std::string& identity, const std::string& key) {
  std::string material = identity + '\n' + key;
  std::string name = hex64(fingerprint(material));
  return {fs::path(dir) / name.substr(0, 2) / (name + ".entry"), hex64(fingerprint(material, kSecondSeed))};
}

}  // namespace

std::optional<gradual::AnalysisResult> DiskUnitCache::load(const std::string& key, const Project& unit) {
  EntryName e = entry_of(dir_, identity_, key);
  std::optional<MappedFile> entry = MappedFile::open(e.path);
  if (!entry) return std::nullopt;
  std::string_view text = entry->bytes();
  std::size_t newline = text.find('\n');
  std::optional<gradual::AnalysisResult> result;
  if (newline != std::string_view::npos) {
    std::string_view body = text.substr(newline + 1);
    std::string expected = std::string(kHeader) + " " + e.key_check + " " + hex64(fingerprint(body));
    if (text.substr(0, newline) == expected) result = gradual::deserialise_result(body, unit);
  }
  if (result) ++hits_;
  else ++rejected_;
  return result;
}

void DiskUnitCache::store(const std::string& key, const gradual::AnalysisResult& result) {
  EntryName e = entry_of(dir_, identity_, key);
  std::string body = gradual::serialise_result(result);
  std::string text = std::string(kHeader) + " " + e.key_check + " " + hex64(fingerprint(body)) + "\n" + body;
  std::string error = write_file_atomically(e.path, text);
  if (!error.empty() && write_error_.empty()) write_error_ = error;
  if (error.empty() && !tagged_) {
    tag_cache_directory(fs::path(dir_).parent_path());
    tagged_ = true;
  }
}

namespace {

constexpr const char* kFactsHeader = "gshape-file-facts 1";

// Everything a file's import names depend on, as text.
std::string facts_key(const std::string& identity, const SourceFile& file) {
  std::string key = identity;
  key += "\nfile-facts 1 ";
  key += file.module_name();
  key += ' ';
  key += std::to_string(file.is_package_init());
  key += ' ';
  key += std::to_string(file.text().size());
  key += '\n';
  key += file.text();
  return key;
}

}  // namespace

DiskFileFacts::DiskFileFacts(const std::string& cache_home)
    : dir_((fs::path(analysis_cache_dir(cache_home)) / "files").string()), identity_(analyser_identity()) {}

std::optional<std::vector<std::string>> DiskFileFacts::load_import_names(const SourceFile& file) {
  std::string key = facts_key(identity_, file);
  std::string name = hex64(fingerprint(key));
  std::optional<MappedFile> facts = MappedFile::open(fs::path(dir_) / name.substr(0, 2) / (name + ".facts"));
  if (!facts) return std::nullopt;
  std::string_view text = facts->bytes();
  std::size_t newline = text.find('\n');
  if (newline == std::string_view::npos) return std::nullopt;
  std::string_view body = text.substr(newline + 1);
  std::string expected =
      std::string(kFactsHeader) + " " + hex64(fingerprint(key, kSecondSeed)) + " " + hex64(fingerprint(body));
  if (text.substr(0, newline) != expected) return std::nullopt;
  std::vector<std::string> names;
  while (!body.empty()) {
    std::size_t end = body.find('\n');
    if (end == std::string_view::npos || end == 0) return std::nullopt;  // every name ends a line
    names.emplace_back(body.substr(0, end));
    body.remove_prefix(end + 1);
  }
  return names;
}

void DiskFileFacts::store_import_names(const SourceFile& file, const std::vector<std::string>& names) {
  std::string key = facts_key(identity_, file);
  std::string name = hex64(fingerprint(key));
  std::string body;
  for (const std::string& n : names) {
    if (n.empty() || n.find('\n') != std::string::npos) return;  // not representable: the file is parsed each time
    body += n;
    body += '\n';
  }
  std::string text = std::string(kFactsHeader) + " " + hex64(fingerprint(key, kSecondSeed)) + " " +
                     hex64(fingerprint(body)) + "\n" + body;
  // a failed write only costs a parse next time
  static_cast<void>(write_file_atomically(fs::path(dir_) / name.substr(0, 2) / (name + ".facts"), text));
}

}  // namespace gshape::codegen
