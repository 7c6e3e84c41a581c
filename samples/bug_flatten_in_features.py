"""LeNet-5 on 32x32 RGB images whose first linear layer was sized by hand
for 6x6 feature maps; after two 5x5 convolutions and two poolings they are
5x5, so fc1 receives 16*5*5 = 400 features, not 576.

PyTorch fails with "mat1 and mat2 shapes cannot be multiplied (4x400 and 576x120)".
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class LeNet(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 6 * 6, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))   # [B, 6, 14, 14]
        x = self.pool(F.relu(self.conv2(x)))   # [B, 16, 5, 5]
        x = torch.flatten(x, 1)                # [B, 400]
        # expect-error@+1: linear_c1
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        return self.fc3(x)


def main():
    net = LeNet()
    images = torch.randn(4, 3, 32, 32)
    print(net(images).shape)


if __name__ == "__main__":
    main()
