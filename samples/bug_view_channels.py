"""Flattening a [B, 16, 4, 4] feature map with view(-1, 4 * 4): the channel
factor is forgotten, -1 silently absorbs it into the batch axis
([16B, 16]), and the classifier that expects 16*4*4 = 256 features fails.

PyTorch fails with "mat1 and mat2 shapes cannot be multiplied (128x16 and 256x120)".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 6, 5)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 4 * 4, 120)
        self.fc2 = nn.Linear(120, 10)

    def forward(self, x):
        x = F.max_pool2d(F.relu(self.conv1(x)), 2)   # [B, 6, 12, 12]
        x = F.max_pool2d(F.relu(self.conv2(x)), 2)   # [B, 16, 4, 4]
        x = x.view(-1, 4 * 4)
        # expect-error@+1: linear_c1
        x = F.relu(self.fc1(x))
        return self.fc2(x)


def main():
    net = Net()
    print(net(torch.randn(8, 1, 28, 28)).shape)


if __name__ == "__main__":
    main()
