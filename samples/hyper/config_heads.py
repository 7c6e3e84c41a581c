# The attention width from a JSON config the command line names (by default
# configs/vit_small.json, width 64) and the number of heads from --heads:
# the heads must divide the config's width. With --args=symbolic gshape
# reads the config of the default path, so the precondition on --heads is
# stated with that file's width (and says which file it read).
# launch-ok: --heads 8
# launch-error: nn_mha_c1: --heads 6
# launch-error: nn_mha_c1: --config configs/vit_bad_heads.json --heads 5
import argparse
import json

import torch
import torch.nn as nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--config", default="configs/vit_small.json")
    parser.add_argument("--heads", type=int, default=4)
    args = parser.parse_args()
    with open(args.config) as f:
        cfg = json.load(f)

    width = cfg["width"]
    attn = nn.MultiheadAttention(width, args.heads, batch_first=True)
    x = torch.randn(2, 10, width)
    out, _ = attn(x, x, x)
    print(out.shape)


if __name__ == "__main__":
    main()
