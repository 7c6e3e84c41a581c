"""An MLP for MNIST built as one nn.Sequential whose hidden width was
changed from 80 to 120 in the first layer but not in the last one: the
last nn.Linear still expects 80 features.

PyTorch fails with "mat1 and mat2 shapes cannot be multiplied (64x120 and 80x10)".
gshape reports the error at the call of the Sequential, with a note at the
layer that fails naming the layer its input comes from:
"in self.net[2] = nn.Linear(80, 10) (line 18): its input comes from
self.net[0] = nn.Linear(784, 120), of shape [64, 120]".
"""
import torch
import torch.nn as nn


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(784, 120), nn.ReLU(), nn.Linear(80, 10))

    def forward(self, x):
        # expect-error@+1: linear_c1
        return self.net(x.flatten(1))


def main():
    model = MLP()
    images = torch.randn(64, 1, 28, 28)
    print(model(images).shape)


if __name__ == "__main__":
    main()
