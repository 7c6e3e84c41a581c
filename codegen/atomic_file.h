// Writing output files atomically: a temporary file in the same directory,
// then a rename, so a reader (or a crash) never sees half a file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace gshape::codegen {

// Writes `bytes` to `path` (parents created) with permissions `perms` when
// given; "" on success, else the error.
std::string write_file_atomically(const std::filesystem::path& path, std::string_view bytes,
                                  std::optional<std::filesystem::perms> perms = std::nullopt);

// Copies `from` to `to` (parents created, permissions kept) through a
// temporary file and a rename; "" on success, else the error.
std::string copy_file_atomically(const std::filesystem::path& from, const std::filesystem::path& to);

// Marks `dir` (created when missing) as a cache by the Cache Directory
// Tagging convention (a CACHEDIR.TAG file): backup tools skip it, and so does
// gshape's own project walk when the cache lies inside a project.
void tag_cache_directory(const std::filesystem::path& dir);

// Reads a whole file; nullopt when it cannot be read.
std::optional<std::string> read_file(const std::filesystem::path& path);

// A whole file's bytes, mapped read-only rather than copied into a
// zero-filled buffer (cache entries, read once and parsed: the copy and its
// fresh pages cost more than the parse). Files are replaced by rename
// (write_file_atomically), never rewritten in place, so a mapping stays
// valid. An empty or unmappable file is read into a string instead.
class MappedFile {
 public:
  static std::optional<MappedFile> open(const std::filesystem::path& path);
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&&) = delete;
  MappedFile(const MappedFile&) = delete;
  ~MappedFile();
  std::string_view bytes() const { return map_ ? std::string_view(static_cast<const char*>(map_), size_) : copy_; }

 private:
  MappedFile() = default;
  void* map_ = nullptr;
  std::size_t size_ = 0;
  std::string copy_;
};

// A 64-bit content fingerprint, stable across runs on one machine (not a
// security hash; wyhash's multiply-fold scheme, atomic_file.cpp).
uint64_t fingerprint(std::string_view bytes, uint64_t seed = 0xcbf29ce484222325ULL);
std::string hex64(uint64_t value);

}  // namespace gshape::codegen
