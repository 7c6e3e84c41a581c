// Placeholder entry point; the real CLI replaces it.
#include <iostream>

#include "gshape_version.h"

int main() {
  std::cout << "gshape " << GSHAPE_VERSION << "\n";
  return 0;
}
