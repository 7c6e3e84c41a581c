# Sub-commands (argparse sub-parsers) with their own hyperparameters: `train`
# builds attention whose --width must divide by its --heads (a required
# option); `generate` adds a learned positional table of --block-size steps
# to --length tokens, which must not exceed it. gshape parses the command
# line as argparse would: the sub-command's parser reads the words after it,
# and set_defaults(func=...) picks the function that runs.
# launch-ok: train --width 64 --heads 8
# launch-error: nn_mha_c1: train --width 64 --heads 6
# launch-ok: generate --length 12
# launch-error: broadcast_c1: --batch 3 generate --length 24 --block-size 16
import argparse

import torch
import torch.nn as nn


def train(args):
    attn = nn.MultiheadAttention(args.width, args.heads, batch_first=True)
    x = torch.randn(args.batch, 10, args.width)
    out, _ = attn(x, x, x)
    print(out.shape)


def generate(args):
    positions = torch.zeros(1, args.block_size, 32)
    x = torch.randn(args.batch, args.length, 32)
    print((x + positions[:, : args.length]).shape)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", default=2, type=int)
    commands = parser.add_subparsers(dest="command", required=True)
    t = commands.add_parser("train", aliases=["fit"])
    t.add_argument("--width", required=True, type=int)
    t.add_argument("--heads", default=4, type=int)
    t.set_defaults(func=train)
    g = commands.add_parser("generate")
    g.add_argument("--length", default=16, type=int)
    g.add_argument("--block-size", default=16, type=int)
    g.set_defaults(func=generate)
    args = parser.parse_args()
    args.func(args)


if __name__ == "__main__":
    main()
