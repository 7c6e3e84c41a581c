# Hyperparameters from a JSON file the command line names: the model width
# must divide by its heads. For a launch, gshape reads the file the command
# line names (`json.load(open(args.config))`).
# launch-ok: --config configs/vit_small.json
# launch-error: nn_mha_c1: --config configs/vit_bad_heads.json
import argparse
import json

import torch
import torch.nn as nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/vit_small.json")
    args = parser.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)

    image, patch, width = cfg["image"], cfg["patch"], cfg["width"]
    x = torch.randn(2, 3, image, image)
    patches = x.unfold(2, patch, patch).unfold(3, patch, patch)  # [2, 3, n, n, p, p]
    n = image // patch
    tokens = patches.reshape(2, 3, n * n, patch * patch).permute(0, 2, 1, 3).reshape(2, n * n, 3 * patch * patch)
    embed = nn.Linear(3 * patch * patch, width)
    attn = nn.MultiheadAttention(width, cfg["heads"], batch_first=True)
    h = embed(tokens)
    out, _ = attn(h, h, h)
    print(out.shape)


if __name__ == "__main__":
    main()
