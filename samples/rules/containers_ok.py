"""nn.Sequential and nn.ModuleList of rule-made modules (the interpreter's
containers, docs/gradual.md): chained, iterated, indexed, measured with len.
Every constraint holds: no diagnostic."""
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.features = nn.Sequential(nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten())
        self.blocks = nn.ModuleList([nn.Linear(8 * 13 * 13, 64), nn.Linear(64, 10)])
        self.head = nn.Sequential(nn.Dropout(0.1), nn.LogSoftmax(dim=1))

    def forward(self, x):
        x = self.features(x)
        for block in self.blocks:
            x = block(x)
        assert len(self.head) == 2
        return self.head[1](self.head[0](x))


def case_net():
    return Net()(torch.zeros(4, 1, 28, 28))


if __name__ == "__main__":
    for name, case in list(globals().items()):
        if name.startswith("case_"):
            case()
