"""A third convolution with a 5x5 kernel applied to the 3x3 maps left after
two stride-2 stages on 12x12 inputs: the kernel is larger than its input.

PyTorch fails with "Calculated padded input size per channel: (3 x 3).
Kernel size: (5 x 5). Kernel size can't be greater than actual input size".
"""
import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 8, 3, stride=2, padding=1)    # 12 -> 6
        self.conv2 = nn.Conv2d(8, 16, 3, stride=2, padding=1)   # 6 -> 3
        self.conv3 = nn.Conv2d(16, 32, 5)

    def forward(self, x):
        x = torch.relu(self.conv1(x))
        x = torch.relu(self.conv2(x))
        # expect-error@+1: conv2d_c4
        return self.conv3(x)


def main():
    enc = Encoder()
    print(enc(torch.randn(2, 1, 12, 12)).shape)


if __name__ == "__main__":
    main()
