# Options shared through a parent parser (`ArgumentParser(parents=[common])`)
# and a mutually exclusive group: --width comes from the parent, and either
# --heads or --single-head sets the number of attention heads, which must
# divide the width. gshape reads the parent's arguments and the group's as
# argparse does; giving both --heads and --single-head is argparse's error.
# launch-ok: --width 96 --heads 8
# launch-error: nn_mha_c1: --width 96 --heads 7
# launch-ok: --width 90 --single-head
import argparse

import torch
import torch.nn as nn


def main():
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--width", type=int, default=64)
    parser = argparse.ArgumentParser(parents=[common])
    heads = parser.add_mutually_exclusive_group()
    heads.add_argument("--heads", type=int, default=4)
    heads.add_argument("--single-head", action="store_true")
    args = parser.parse_args()

    num_heads = 1 if args.single_head else args.heads
    attn = nn.MultiheadAttention(args.width, num_heads, batch_first=True)
    x = torch.randn(2, 10, args.width)
    out, _ = attn(x, x, x)
    print(out.shape)


if __name__ == "__main__":
    main()
