# Hyperparameters from a YAML file the command line names, nested as configs
# usually are: the model width must divide by its heads, and the patch size
# must divide the image. For a launch, gshape reads the file
# (`yaml.safe_load(open(args.config))`, typed as PyYAML types it) and names
# the entry an error comes from ("model.heads").
# launch-ok: --config configs/vit_small.yaml
# launch-error: nn_mha_c1: --config configs/vit_bad_heads.yaml
# launch-error: view_c5: --config configs/vit_bad_patch.yaml
import argparse

import torch
import torch.nn as nn
import yaml


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/vit_small.yaml")
    args = parser.parse_args()
    with open(args.config) as f:
        cfg = yaml.safe_load(f)

    model, data = cfg["model"], cfg["data"]
    image, patch, width = data["image"], data["patch"], model["width"]
    n = image // patch
    x = torch.randn(2, 3, image, image)
    tokens = x.view(2, 3, n, patch, n, patch).permute(0, 2, 4, 1, 3, 5).reshape(2, n * n, 3 * patch * patch)
    embed = nn.Linear(3 * patch * patch, width)
    attn = nn.MultiheadAttention(width, model["heads"], dropout=cfg["train"]["dropout"], batch_first=True)
    h = embed(tokens)
    out, _ = attn(h, h, h)
    print(out.shape)


if __name__ == "__main__":
    main()
