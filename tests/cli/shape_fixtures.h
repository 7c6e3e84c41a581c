// Small projects whose shape obligations are known, shared by the
// instrument, run and report tests: one run-time (deferred) obligation pair,
// one static error, and code with nothing to check.
#pragma once

namespace gshape::testing {

// A batch decoded from JSON (argv[1]) has a shape no analysis can know: its
// nn.Linear(4, 2) call on line 15 gets deferred checks linear_c1 (last
// dimension 4) and linear_c2 (at least 1-D). argv[2], if given, is the exit status.
inline const char* kDeferredScript =
    "import json\n"                                                        // 1
    "import sys\n"                                                         // 2
    "\n"                                                                   // 3
    "import torch\n"                                                       // 4
    "import torch.nn as nn\n"                                              // 5
    "\n"                                                                   // 6
    "\n"                                                                   // 7
    "def load(text):\n"                                                    // 8
    "    return torch.tensor(json.loads(text))\n"                          // 9
    "\n"                                                                   // 10
    "\n"                                                                   // 11
    "def main():\n"                                                        // 12
    "    fc = nn.Linear(4, 2)\n"                                           // 13
    "    batch = load(sys.argv[1] if len(sys.argv) > 1 else '[[1.0, 2.0, 3.0, 4.0]]')\n"  // 14
    "    out = fc(batch)\n"                                                // 15
    "    print('out', tuple(out.shape), 'args', sys.argv[1:], 'name', __name__)\n"  // 16
    "    sys.exit(int(sys.argv[2]) if len(sys.argv) > 2 else 0)\n"         // 17
    "\n"                                                                   // 18
    "\n"                                                                   // 19
    "if __name__ == '__main__':\n"                                         // 20
    "    main()\n";                                                        // 21
inline constexpr int kDeferredLine = 15;
inline constexpr int kDeferredColumn = 11;

// A matmul of [3, 5] and [4, 2] on line 5: refuted matmul_c2 (a static error).
inline const char* kRefutedModule =
    "import torch\n"
    "\n"
    "a = torch.zeros(3, 5)\n"
    "b = torch.zeros(4, 2)\n"
    "c = a @ b\n";
inline constexpr int kRefutedLine = 5;

// Every size known: nn.Linear(4, 2) on a [3, 4] tensor, line 6; its
// linear_c1 and linear_c2 obligations are proven (no run-time check needed).
inline const char* kProvenModule =
    "import torch\n"
    "import torch.nn as nn\n"
    "\n"
    "fc = nn.Linear(4, 2)\n"
    "x = torch.zeros(3, 4)\n"
    "y = fc(x)\n";

// No tensor code at all.
inline const char* kPlainModule = "def add(a, b):\n    return a + b\n";

}  // namespace gshape::testing
