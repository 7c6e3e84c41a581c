# Kernel, stride and padding against an input size: three convolutions take
# --image down by --stride each; a large --kernel or --stride on a small
# --image leaves nothing for the last one.
# launch-ok: --image 32 --kernel 5 --stride 2
# launch-error: conv2d_c4: --image 16 --kernel 7 --stride 2
import argparse

import torch
import torch.nn as nn


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--image", type=int, default=28)
    parser.add_argument("--kernel", type=int, default=3, choices=[3, 5, 7])
    parser.add_argument("--stride", type=int, default=2)
    parser.add_argument("--padding", type=int, default=1)
    parser.add_argument("--channels", type=int, nargs=3, default=[8, 16, 32])
    args = parser.parse_args()

    layers = []
    cin = 3
    for cout in args.channels:
        layers += [nn.Conv2d(cin, cout, args.kernel, args.stride, args.padding), nn.ReLU()]
        cin = cout
    net = nn.Sequential(*layers)
    x = torch.randn(2, 3, args.image, args.image)
    print(net(x).shape)


if __name__ == "__main__":
    main()
