# Interacting hyperparameters: the attention width must divide by the number
# of heads. gshape checks one launch with `gshape check mha_heads.py -- ARGS`.
# launch-ok: --hidden 96 --heads 8
# launch-error: nn_mha_c1: --hidden 96 --heads 7
import argparse

import torch
import torch.nn as nn


def main():
    parser = argparse.ArgumentParser(description="a tiny attention encoder")
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--seq-len", type=int, default=16)
    parser.add_argument("--batch", type=int, default=8)
    args = parser.parse_args()

    embed = nn.Linear(10, args.hidden)
    attn = nn.MultiheadAttention(args.hidden, args.heads, batch_first=True)
    x = embed(torch.randn(args.batch, args.seq_len, 10))
    out, _ = attn(x, x, x)
    print(out.shape)


if __name__ == "__main__":
    main()
