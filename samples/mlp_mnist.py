"""A two-layer perceptron trained on MNIST-sized synthetic digits.

Correct program: every shape requirement holds, including the last partial
batch (1000 % 64 = 40 images), because nothing depends on the batch size.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class MLP(nn.Module):
    def __init__(self, hidden=128, classes=10):
        super().__init__()
        self.fc1 = nn.Linear(28 * 28, hidden)
        self.fc2 = nn.Linear(hidden, classes)

    def forward(self, x):
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        return F.log_softmax(self.fc2(x), dim=1)


def main():
    torch.manual_seed(0)
    images = torch.randn(1000, 1, 28, 28)
    labels = torch.randint(0, 10, (1000,))
    loader = DataLoader(TensorDataset(images, labels), batch_size=64, shuffle=True)
    model = MLP()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    for data, target in loader:
        optimizer.zero_grad()
        loss = F.nll_loss(model(data), target)
        loss.backward()
        optimizer.step()
    print(f"final loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
# expect-deferred: 0
