// The persistent analysis cache: `gshape check` (and `run`) keep each
// analysis unit's result (gradual::analyse_project, analysis_serial.h) on
// disk under a key made of the unit's whole input — its files' paths, names
// and contents, the analysis options — and of gshape's own identity (version
// and binary), so that a re-check after an edit analyses only the units
// whose files changed.
//
// Layout: CACHE_HOME/analysis/XX/<fingerprint>.entry, one entry per unit:
//   line 1  "gshape-analysis-cache 2 <key check> <body check>"
//   then    the serialised result (gradual/analysis_serial.h: a byte stream)
// and, for the front end (FileFactsCache of frontend/project.h), one entry
// per parsed file under CACHE_HOME/analysis/files/XX/<fingerprint>.facts:
//   line 1  "gshape-file-facts 1 <key check> <body check>"
//   then    the file's import names, one a line
// keyed by the file's text, module name, package flag and gshape's identity,
// so `check` parses only the files of the units it analyses.
// CACHE_HOME is the one `gshape run` uses ($XDG_CACHE_HOME/gshape, else
// ~/.cache/gshape). Entries are written atomically (atomic_file.h); an entry
// that is unreadable, truncated, of another format or whose checks do not
// match is ignored (and overwritten), never trusted.
#pragma once

#include <cstdint>
#include <string>

#include "frontend/project.h"
#include "gradual/analysis.h"

namespace gshape::codegen {

// What made a cached result: gshape's version and the running executable's
// size and modification time, so a rebuilt gshape never reads an older one's results.
std::string analyser_identity();

// CACHE_HOME/analysis.
std::string analysis_cache_dir(const std::string& cache_home);

class DiskUnitCache final : public gradual::UnitCache {
 public:
  explicit DiskUnitCache(const std::string& cache_home);
  std::optional<gradual::AnalysisResult> load(const std::string& key, const Project& unit) override;
  void store(const std::string& key, const gradual::AnalysisResult& result) override;

  uint64_t hits() const { return hits_; }
  uint64_t rejected() const { return rejected_; }        // entries present but not trusted
  const std::string& write_error() const { return write_error_; }  // the first failed write ("" if none)

 private:
  std::string dir_;
  bool tagged_ = false;  // the cache home holds its CACHEDIR.TAG
  std::string identity_;
  uint64_t hits_ = 0;
  uint64_t rejected_ = 0;
  std::string write_error_;
};

// The file facts on disk (the import names of files that parsed cleanly).
class DiskFileFacts final : public FileFactsCache {
 public:
  explicit DiskFileFacts(const std::string& cache_home);
  std::optional<std::vector<std::string>> load_import_names(const SourceFile& file) override;
  void store_import_names(const SourceFile& file, const std::vector<std::string>& names) override;

 private:
  std::string dir_;
  std::string identity_;
};

}  // namespace gshape::codegen
