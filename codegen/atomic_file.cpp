#include "codegen/atomic_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

namespace gshape::codegen {

namespace fs = std::filesystem;

namespace {

std::string errno_text() { return std::strerror(errno); }

std::atomic<unsigned> temp_counter{0};

// A hidden name next to `path`, unique within this process and among processes.
std::string temp_name(const fs::path& path) {
  std::string name = ".";
  name += path.filename().string();
  name += ".gshape-tmp-";
  name += std::to_string(::getpid());
  name += '-';
  name += std::to_string(temp_counter++);
  return name;
}

}  // namespace

std::string write_file_atomically(const fs::path& path, std::string_view bytes, std::optional<fs::perms> perms) {
  std::error_code ec;
  fs::path dir = path.parent_path();
  if (!dir.empty()) {
    fs::create_directories(dir, ec);
    if (ec) return "cannot create directory " + dir.string() + ": " + ec.message();
  }
  fs::path temp = dir / temp_name(path);
  int fd = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) return "cannot create " + temp.string() + ": " + errno_text();
  const char* data = bytes.data();
  std::size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, data, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      std::string error = "cannot write " + temp.string() + ": " + errno_text();
      ::close(fd);
      ::unlink(temp.c_str());
      return error;
    }
    data += n;
    left -= static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) {
    std::string error = "cannot write " + temp.string() + ": " + errno_text();
    ::unlink(temp.c_str());
    return error;
  }
  if (perms) {
    fs::permissions(temp, *perms, fs::perm_options::replace, ec);
    ec.clear();  // permissions are a nicety; the content is what matters
  }
  if (::rename(temp.c_str(), path.c_str()) != 0) {
    std::string error = "cannot replace " + path.string() + ": " + errno_text();
    ::unlink(temp.c_str());
    return error;
  }
  return {};
}

std::string copy_file_atomically(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::path dir = to.parent_path();
  if (!dir.empty()) {
    fs::create_directories(dir, ec);
    if (ec) return "cannot create directory " + dir.string() + ": " + ec.message();
  }
  fs::path temp = dir / temp_name(to);
  fs::copy_file(from, temp, fs::copy_options::overwrite_existing, ec);
  if (ec) {
    std::string error = "cannot copy " + from.string() + ": " + ec.message();
    fs::remove(temp, ec);
    return error;
  }
  if (::rename(temp.c_str(), to.c_str()) != 0) {
    std::string error = "cannot replace " + to.string() + ": " + errno_text();
    ::unlink(temp.c_str());
    return error;
  }
  return {};
}

std::optional<std::string> read_file(const fs::path& path) {
  // one read into a string of the file's size (a stream and a string buffer
  // copied a megabyte-sized cache entry twice more)
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::string bytes;
  struct stat st {};
  if (::fstat(fd, &st) == 0 && st.st_size > 0) bytes.resize(static_cast<std::size_t>(st.st_size));
  std::size_t used = 0;
  for (;;) {
    // at the size fstat gave (most likely the end), ask with a small buffer
    // rather than grow the string by a zero-filled block to learn it (a
    // file that grew, or not a regular file, is read on 4 KB at a time)
    char probe[4096];
    bool full = used == bytes.size();
    ssize_t got = full ? ::read(fd, probe, sizeof probe) : ::read(fd, bytes.data() + used, bytes.size() - used);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) {
      ::close(fd);
      return std::nullopt;
    }
    if (got == 0) break;
    if (full) bytes.append(probe, static_cast<std::size_t>(got));
    used += static_cast<std::size_t>(got);
  }
  ::close(fd);
  bytes.resize(used);
  return bytes;
}

std::optional<MappedFile> MappedFile::open(const fs::path& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  MappedFile file;
  // small files are read: mapping one costs more system calls and faults
  constexpr off_t kMapFrom = 16 * 1024;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size >= kMapFrom) {
    void* map = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (map != MAP_FAILED) {
      file.map_ = map;
      file.size_ = static_cast<std::size_t>(st.st_size);
    }
  }
  ::close(fd);
  if (file.map_) return file;
  std::optional<std::string> text = read_file(path);
  if (!text) return std::nullopt;
  file.copy_ = std::move(*text);
  return file;
}

MappedFile::MappedFile(MappedFile&& other) noexcept
    : map_(std::exchange(other.map_, nullptr)), size_(std::exchange(other.size_, 0)), copy_(std::move(other.copy_)) {}

MappedFile::~MappedFile() {
  if (map_) ::munmap(map_, size_);
}

namespace {
// The 128-bit product of a and b folded to 64 bits (wyhash's mixing step).
__extension__ typedef unsigned __int128 uint128;  // GCC and Clang on 64-bit targets
uint64_t fold_mul(uint64_t a, uint64_t b) {
  uint128 r = static_cast<uint128>(a) * b;
  return static_cast<uint64_t>(r) ^ static_cast<uint64_t>(r >> 64);
}
uint64_t load64(const unsigned char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}
}  // namespace

// Sixteen bytes a step, each pair of words folded into the state by a
// 64x64→128-bit multiply (wyhash's scheme): byte-at-a-time FNV-1a was a
// seventh of a check with nothing changed, which hashes every cached
// unit's key (the sources) and body.
uint64_t fingerprint(std::string_view bytes, uint64_t seed) {
  constexpr uint64_t k0 = 0xa0761d6478bd642fULL, k1 = 0xe7037ed1a0b428dbULL, k2 = 0x8ebc6af09c88c6e3ULL;
  const auto* p = reinterpret_cast<const unsigned char*>(bytes.data());
  std::size_t n = bytes.size();
  uint64_t h = fold_mul(seed ^ k0, static_cast<uint64_t>(n) ^ k1);
  for (; n >= 16; p += 16, n -= 16) h = fold_mul(load64(p) ^ k1, load64(p + 8) ^ h);
  unsigned char tail[16] = {};
  std::memcpy(tail, p, n);
  h = fold_mul(load64(tail) ^ k2, load64(tail + 8) ^ h ^ n);
  return fold_mul(h ^ k0, static_cast<uint64_t>(bytes.size()) ^ k2);
}

std::string hex64(uint64_t value) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(value));
  return buf;
}

void tag_cache_directory(const std::filesystem::path& dir) {
  std::error_code ec;
  if (std::filesystem::exists(dir / "CACHEDIR.TAG", ec)) return;
  static_cast<void>(write_file_atomically(dir / "CACHEDIR.TAG",
                                          "Signature: 8a477f597d28d172789f06886806bc55\n"
                                          "# This file is a cache directory tag created by gshape.\n"
                                          "# For information about cache directory tags, see https://bford.info/cachedir/\n"));
}

}  // namespace gshape::codegen
