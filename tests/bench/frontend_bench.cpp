// Front-end speed: generates a tree of realistic PyTorch-style Python
// (classes, functions, calls, comprehensions, strings, imports between the
// modules) and times load_project over it: walk + read + UTF-8 check +
// tree-sitter parse + IR + import graph, on one thread and on the default
// number of threads (GSHAPE_THREADS or the cores).
//
//   gshape_bench_frontend [--lines N] [--runs R] [--keep DIR]
//
// Prints `frontend, 1 thread: N files, L lines, T s, X lines/s` and the same
// with the default thread count and its speed-up (the best of R runs each),
// then the baseline measured in the same run: tree-sitter alone parsing the
// same bytes (no reading, no IR), which bounds what the front end can reach.
// Exits 1 if the generated code produced any diagnostic (it must parse).
#include <stdlib.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <iostream>
#include <string>
#include <vector>

#include <tree_sitter/api.h>

#include "frontend/parallel_for.h"
#include "frontend/project.h"

extern "C" const TSLanguage* tree_sitter_python();

namespace {

namespace fs = std::filesystem;

// One module; @I@ is its number, @P@ the module it imports from, @D@ a width.
const char* kTemplate = R"PY("""Model zoo piece @I@: blocks, a data pipeline and a training step."""
import math
import os
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, Dataset

from zoo.part@P@ import Block@P@, make_mask  # noqa: F401

CONFIG_@I@ = {
    "hidden": @D@,
    "layers": [1, 2, 3, 4],
    "dropout": 0.1,
    "name": f"model_{@I@:03d}",
    "lr": 3e-4,
}


@dataclass
class Settings@I@:
    hidden: int = @D@
    heads: int = 4
    vocab: int = 32000
    tags: List[str] = field(default_factory=lambda: ["base", "v@I@"])


def make_mask(size: int, device: Optional[torch.device] = None) -> torch.Tensor:
    """Upper-triangular attention mask filled with -inf above the diagonal."""
    mask = torch.triu(torch.ones(size, size, device=device), diagonal=1)
    return mask.masked_fill(mask == 1, float("-inf"))


class Block@I@(nn.Module):
    def __init__(self, dim: int = @D@, heads: int = 4, dropout: float = 0.1) -> None:
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.norm2 = nn.LayerNorm(dim)
        self.attn = nn.MultiheadAttention(dim, heads, dropout=dropout, batch_first=True)
        self.ff = nn.Sequential(
            nn.Linear(dim, dim * 4),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(dim * 4, dim),
        )
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        h = self.norm1(x)
        a, _ = self.attn(h, h, h, attn_mask=mask, need_weights=False)
        x = x + self.drop(a)
        return x + self.drop(self.ff(self.norm2(x)))


class Encoder@I@(nn.Module):
    def __init__(self, settings: Settings@I@) -> None:
        super().__init__()
        self.embed = nn.Embedding(settings.vocab, settings.hidden)
        self.pos = nn.Parameter(torch.zeros(1, 512, settings.hidden))
        self.blocks = nn.ModuleList([Block@I@(settings.hidden, settings.heads) for _ in range(4)])
        self.head = nn.Linear(settings.hidden, settings.vocab, bias=False)

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        B, T = tokens.shape
        x = self.embed(tokens) + self.pos[:, :T, :]
        mask = make_mask(T, tokens.device)
        for block in self.blocks:
            x = block(x, mask)
        logits = self.head(x)
        return logits.view(B * T, -1)


class ConvNet@I@(nn.Module):
    def __init__(self, channels: Tuple[int, ...] = (3, 32, 64), classes: int = 10) -> None:
        super().__init__()
        layers = []
        for c_in, c_out in zip(channels[:-1], channels[1:]):
            layers += [nn.Conv2d(c_in, c_out, kernel_size=3, padding=1), nn.BatchNorm2d(c_out), nn.ReLU()]
            layers.append(nn.MaxPool2d(2))
        self.features = nn.Sequential(*layers)
        self.classifier = nn.Linear(channels[-1] * 8 * 8, classes)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        x = self.features(images)
        x = torch.flatten(x, 1)
        return F.log_softmax(self.classifier(x), dim=-1)


class TokenDataset@I@(Dataset):
    def __init__(self, path: str, block: int = 128) -> None:
        with open(path, "rb") as handle:
            data = handle.read()
        self.tokens = torch.tensor(list(data), dtype=torch.long)
        self.block = block

    def __len__(self) -> int:
        return max(0, len(self.tokens) - self.block - 1)

    def __getitem__(self, index: int) -> Tuple[torch.Tensor, torch.Tensor]:
        chunk = self.tokens[index : index + self.block + 1]
        return chunk[:-1], chunk[1:]


def collate(batch: List[Tuple[torch.Tensor, torch.Tensor]]) -> Dict[str, torch.Tensor]:
    inputs = torch.stack([x for x, _ in batch])
    targets = torch.stack([y for _, y in batch])
    return {"inputs": inputs, "targets": targets, "lengths": torch.tensor([len(x) for x, _ in batch])}


def train_step(model: nn.Module, batch: Dict[str, torch.Tensor], optimizer: torch.optim.Optimizer) -> float:
    model.train()
    optimizer.zero_grad(set_to_none=True)
    logits = model(batch["inputs"])
    loss = F.cross_entropy(logits, batch["targets"].reshape(-1), ignore_index=-100)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    optimizer.step()
    return float(loss.item())


def evaluate(model: nn.Module, loader: DataLoader) -> Dict[str, float]:
    model.eval()
    total, correct, losses = 0, 0, []
    with torch.no_grad():
        for batch in loader:
            logits = model(batch["inputs"])
            target = batch["targets"].reshape(-1)
            losses.append(F.cross_entropy(logits, target).item())
            correct += (logits.argmax(dim=-1) == target).sum().item()
            total += target.numel()
    accuracy = correct / max(total, 1)
    stats = {name: value for name, value in zip(["loss", "accuracy"], [sum(losses) / max(len(losses), 1), accuracy])}
    stats["perplexity"] = math.exp(min(stats["loss"], 20.0))
    return stats


def main(argv: Optional[List[str]] = None) -> int:
    settings = Settings@I@(hidden=CONFIG_@I@["hidden"])
    model = Encoder@I@(settings)
    optimizer = torch.optim.AdamW(model.parameters(), lr=CONFIG_@I@["lr"], weight_decay=0.01)
    path = os.environ.get("DATA", "data/train.bin")
    loader = DataLoader(TokenDataset@I@(path), batch_size=32, shuffle=True, collate_fn=collate)
    for epoch in range(3):
        losses = [train_step(model, batch, optimizer) for batch in loader]
        print(f"epoch {epoch}: loss {sum(losses) / len(losses):.4f} ({len(losses)} steps)")
    print("done:", evaluate(model, loader))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
)PY";

std::string instantiate(int index, int imported, int width) {
  std::string out;
  std::string_view t(kTemplate);
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] == '@' && i + 2 < t.size() && t[i + 2] == '@') {
      char key = t[i + 1];
      out += std::to_string(key == 'I' ? index : key == 'P' ? imported : width);
      i += 2;
    } else {
      out += t[i];
    }
  }
  return out;
}

struct Options {
  std::size_t min_lines = 60000;
  int runs = 3;
  std::string keep_dir;
};

bool parse_options(int argc, char** argv, Options& o) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if ((a == "--lines" || a == "--runs" || a == "--keep") && i + 1 < argc) {
      std::string v = argv[++i];
      if (a == "--lines") o.min_lines = std::stoul(v);
      if (a == "--runs") o.runs = std::max(1, std::stoi(v));
      if (a == "--keep") o.keep_dir = v;
    } else {
      std::cerr << "usage: gshape_bench_frontend [--lines N] [--runs R] [--keep DIR]\n";
      return false;
    }
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse_options(argc, argv, options)) return 2;

  std::string root = options.keep_dir;
  if (root.empty()) {
    std::string pattern = (fs::temp_directory_path() / "gshape-bench-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) {
      std::perror("mkdtemp");
      return 2;
    }
    root = pattern;
  }
  // zoo/__init__.py, then zoo/partN.py: each imports from the one before it.
  fs::create_directories(fs::path(root) / "zoo");
  std::ofstream(fs::path(root) / "zoo" / "__init__.py") << "\"\"\"Benchmark package.\"\"\"\n";
  std::size_t files = 1, lines = 1;
  for (int i = 0; lines < options.min_lines; ++i) {
    std::string text = instantiate(i, i == 0 ? 0 : i - 1, 64 + (i % 7) * 32);
    std::ofstream(fs::path(root) / "zoo" / ("part" + std::to_string(i) + ".py")) << text;
    lines += static_cast<std::size_t>(std::count(text.begin(), text.end(), '\n'));
    ++files;
  }

  // One thread (the baseline of the parallel load), then the default thread count.
  std::size_t diagnostics = 0, modules = 0;
  auto time_load = [&](unsigned threads) {
    double best = 1e30;
    for (int run = 0; run < options.runs; ++run) {
      gshape::DiagnosticSink diags;
      auto start = std::chrono::steady_clock::now();
      gshape::Project project = gshape::load_project({root}, diags, threads);
      double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      best = std::min(best, seconds);
      diagnostics = std::max(diagnostics, diags.all().size());
      modules = project.modules.size();
      for (const gshape::Diagnostic& d : diags.all()) gshape::render_text(std::cerr, d);
    }
    return best;
  };
  double single = time_load(1);
  std::printf("frontend, 1 thread:  %zu files, %zu lines, %.3f s, %.0f lines/s\n", files, lines, single,
              static_cast<double>(lines) / single);
  unsigned threads = gshape::default_thread_count();
  double best = time_load(threads);
  std::printf("frontend, %u threads: %zu files, %zu lines, %.3f s, %.0f lines/s (%.2fx one thread)\n", threads, files,
              lines, best, static_cast<double>(lines) / best, single / best);

  // Baseline: the bare parser over the same texts, already in memory.
  std::vector<std::string> texts;
  for (const auto& entry : fs::directory_iterator(fs::path(root) / "zoo")) {
    std::ifstream in(entry.path(), std::ios::binary);
    texts.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  TSParser* parser = ts_parser_new();
  ts_parser_set_language(parser, tree_sitter_python());
  double parse_best = 1e30;
  for (int run = 0; run < options.runs; ++run) {
    auto start = std::chrono::steady_clock::now();
    for (const std::string& text : texts) {
      ts_tree_delete(ts_parser_parse_string(parser, nullptr, text.data(), static_cast<uint32_t>(text.size())));
    }
    parse_best = std::min(parse_best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  ts_parser_delete(parser);
  std::printf("baseline: tree-sitter parse only, one thread, %.3f s, %.0f lines/s (one-thread front end = %.2fx the bare parse time)\n",
              parse_best, static_cast<double>(lines) / parse_best, single / parse_best);
  if (options.keep_dir.empty()) fs::remove_all(root);
  if (diagnostics != 0 || modules != files) {
    std::fprintf(stderr, "gshape_bench_frontend: %zu diagnostics, %zu of %zu files parsed\n", diagnostics, modules, files);
    return 1;
  }
  return 0;
}
