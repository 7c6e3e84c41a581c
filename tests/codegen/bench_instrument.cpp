// Benchmark (c) of issue #4: instrumenting a generated project, in lines per
// second. The project is synthetic PyTorch-like code (modules, forward
// methods, matmuls, views, loops); plans are hand-made (auto_plan.h: every
// call, operator, subscript and augmented assignment is a site), which is
// far denser than real analysis output, so the figure is a lower bound.
//
//   gshape_bench_instrument [--lines N] [--runs R] [--keep DIR]
//
// Prints, best of R runs: parsing (load_project), planning, rewriting in
// memory (instrument_source on every module) and the whole tree
// (instrument_tree: rewrite + atomic writes + copies + report).
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "auto_plan.h"
#include "codegen/instrument_tree.h"
#include "codegen/rewriter.h"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// One module of about 200 lines.
std::string module_text(int index) {
  std::string m = "\"\"\"Generated module " + std::to_string(index) + ".\"\"\"\n";
  m += "import torch\nimport torch.nn as nn\nimport torch.nn.functional as F\n\n\n";
  for (int c = 0; c < 4; ++c) {
    std::string name = "Block" + std::to_string(index) + "_" + std::to_string(c);
    m += "class " + name + "(nn.Module):\n";
    m += "    def __init__(self, width=64, classes=10):\n";
    m += "        super().__init__()\n";
    m += "        self.fc1 = nn.Linear(width, width * 2)\n";
    m += "        self.fc2 = nn.Linear(width * 2, classes)\n";
    m += "        self.conv = nn.Conv2d(3, 16, kernel_size=3, padding=1)\n";
    m += "        self.norm = nn.LayerNorm(width)\n\n";
    m += "    def forward(self, x, mask=None):\n";
    m += "        b, c, h, w = x.shape\n";
    m += "        y = self.conv(x)\n";
    m += "        y = F.relu(y).view(b, -1)\n";
    m += "        z = y[:, : self.fc1.in_features]\n";
    m += "        z = self.fc2(F.relu(self.fc1(self.norm(z))))\n";
    m += "        scores = z @ z.transpose(0, 1) / (z.shape[-1] ** 0.5)\n";
    m += "        if mask is not None:\n";
    m += "            scores = scores.masked_fill(mask == 0, float(\"-inf\"))\n";
    m += "        attn = torch.softmax(scores, dim=-1)\n";
    m += "        out = torch.cat([attn @ z, z], dim=1)\n";
    m += "        for i in range(3):\n";
    m += "            out = out + torch.tanh(out) * 0.5\n";
    m += "            out += out.mean(dim=0, keepdim=True)\n";
    m += "        total = sum(t.sum() for t in [out, z])\n";
    m += "        print(f\"block {b} {out.shape} {total.item():.3f}\")\n";
    m += "        return out.reshape(b, -1), [v * 2 for v in range(h) if v % 2]\n\n\n";
  }
  m += "def train(model, loader, epochs=1, lr=1e-3):\n";
  m += "    opt = torch.optim.SGD(model.parameters(), lr=lr)\n";
  m += "    for epoch in range(epochs):\n";
  m += "        for step, (x, y) in enumerate(loader):\n";
  m += "            out, _ = model(x)\n";
  m += "            loss = F.cross_entropy(out[:, :10], y)\n";
  m += "            opt.zero_grad()\n";
  m += "            loss.backward()\n";
  m += "            opt.step()\n";
  m += "            if step % 100 == 0:\n";
  m += "                print(epoch, step, loss.item())\n";
  m += "    return model\n";
  return m;
}

std::size_t count_lines(const std::string& text) { return static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n')); }

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

}  // namespace

int main(int argc, char** argv) {
  std::size_t target_lines = 20000;
  int runs = 3;
  std::string keep;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--lines" && i + 1 < argc) target_lines = std::strtoul(argv[++i], nullptr, 10);
    else if (a == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--keep" && i + 1 < argc) keep = argv[++i];
    else {
      std::cerr << "usage: gshape_bench_instrument [--lines N] [--runs R] [--keep DIR]\n";
      return 2;
    }
  }
  fs::path base = keep.empty() ? fs::temp_directory_path() / ("gshape-bench-instrument-" + std::to_string(::getpid()))
                               : fs::path(keep);
  fs::path project_dir = base / "project";
  fs::create_directories(project_dir / "models");
  std::size_t lines = 0;
  int files = 0;
  while (lines < target_lines) {
    std::string text = module_text(files);
    std::ofstream(project_dir / "models" / ("m" + std::to_string(files) + ".py")) << text;
    lines += count_lines(text);
    ++files;
  }
  std::ofstream(project_dir / "models" / "__init__.py") << "";
  std::ofstream(project_dir / "README.md") << "synthetic project\n";

  double best_parse = 1e9, best_plan = 1e9, best_rewrite = 1e9, best_tree = 1e9;
  std::size_t sites = 0, bytes_out = 0;
  for (int run = 0; run < runs; ++run) {
    auto t0 = Clock::now();
    gshape::DiagnosticSink diags;
    gshape::Project project = gshape::load_project({project_dir.string()}, diags);
    best_parse = std::min(best_parse, seconds_since(t0));

    auto t1 = Clock::now();
    std::vector<gshape::codegen::FilePlan> plans;
    for (const gshape::ProjectModule& m : project.modules) plans.push_back(gshape::testing::plan_every_operation(*m.ir));
    best_plan = std::min(best_plan, seconds_since(t1));

    auto t2 = Clock::now();
    sites = bytes_out = 0;
    for (std::size_t i = 0; i < project.modules.size(); ++i) {
      const gshape::ProjectModule& m = project.modules[i];
      gshape::codegen::InstrumentedSource out = gshape::codegen::instrument_source(m.file->text(), *m.ir, plans[i]);
      sites += static_cast<std::size_t>(out.sites);
      bytes_out += out.text.size();
    }
    best_rewrite = std::min(best_rewrite, seconds_since(t2));

    fs::path out_dir = base / ("out" + std::to_string(run));
    auto t3 = Clock::now();
    gshape::codegen::TreeResult tree = gshape::codegen::instrument_tree(project, plans, {}, {project_dir.string(), out_dir.string()});
    best_tree = std::min(best_tree, seconds_since(t3));
    if (!tree.ok()) {
      std::cerr << "instrument_tree failed: " << tree.refused << (tree.errors.empty() ? "" : tree.errors[0]) << "\n";
      return 1;
    }
    if (keep.empty()) fs::remove_all(out_dir);
  }
  if (keep.empty()) fs::remove_all(base);

  auto rate = [&](double s) { return s > 0 ? static_cast<double>(lines) / s : 0.0; };
  std::printf("project: %zu lines in %d files; %zu sites checked; output %zu bytes\n", lines, files + 1, sites,
              bytes_out);
  std::printf("best of %d runs:\n", runs);
  std::printf("  parse (load_project)        %8.1f ms  %12.0f lines/s\n", best_parse * 1e3, rate(best_parse));
  std::printf("  plan (hand-made, every op)  %8.1f ms  %12.0f lines/s\n", best_plan * 1e3, rate(best_plan));
  std::printf("  rewrite in memory           %8.1f ms  %12.0f lines/s\n", best_rewrite * 1e3, rate(best_rewrite));
  std::printf("  instrument_tree (+ writes)  %8.1f ms  %12.0f lines/s\n", best_tree * 1e3, rate(best_tree));
  std::printf("  parse + instrument_tree     %8.1f ms  %12.0f lines/s\n", (best_parse + best_tree) * 1e3,
              rate(best_parse + best_tree));
  return 0;
}
