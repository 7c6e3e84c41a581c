// Loads libz3 on the first call of any Z3 function (z3_lazy.cmake): called
// by the generated stubs with the index of the function called; fills every
// slot once per process, under std::call_once (analysis units run on
// several threads).
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>

extern "C" {
extern const char* const gshape_z3_names[];
extern const unsigned gshape_z3_count;
extern const char gshape_z3_soname[];
extern const char gshape_z3_path[];
extern void* gshape_z3_slots[];
void gshape_z3_load(unsigned index);
}

namespace {
[[noreturn]] void fail(const char* what, const char* detail) {
  std::fprintf(stderr, "gshape: internal error: %s: %s\n", what, detail ? detail : "");
  std::abort();
}

void* lib = nullptr;

void load_all() {
  // by SONAME as the dynamic linker would find it, else the file the build used
  lib = dlopen(gshape_z3_soname, RTLD_NOW | RTLD_GLOBAL);
  if (!lib) lib = dlopen(gshape_z3_path, RTLD_NOW | RTLD_GLOBAL);
  if (!lib) fail("cannot load Z3", dlerror());
  for (unsigned i = 0; i < gshape_z3_count; ++i) {
    void* fn = dlsym(lib, gshape_z3_names[i]);
    // a function this libz3 lacks keeps its slot: calling it ends here
    if (fn) __atomic_store_n(&gshape_z3_slots[i], fn, __ATOMIC_RELEASE);
  }
}
}  // namespace

extern "C" void gshape_z3_load(unsigned index) {
  static std::once_flag once;
  std::call_once(once, load_all);
  if (index >= gshape_z3_count || !dlsym(lib, gshape_z3_names[index]))
    fail("the loaded libz3 lacks a function gshape was built against",
         index < gshape_z3_count ? gshape_z3_names[index] : "?");
}
