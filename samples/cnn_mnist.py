"""The classic MNIST CNN (two convolutions, max-pooling, two linear layers),
trained for a few steps on synthetic 28x28 digits. Correct program."""
import argparse

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import DataLoader, TensorDataset


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))      # [B, 32, 26, 26]
        x = F.relu(self.conv2(x))      # [B, 64, 24, 24]
        x = F.max_pool2d(x, 2)         # [B, 64, 12, 12]
        x = self.dropout1(x)
        x = torch.flatten(x, 1)        # [B, 9216]
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


def train(model, loader, optimizer, steps):
    model.train()
    for step, (data, target) in enumerate(loader):
        if step >= steps:
            break
        optimizer.zero_grad()
        output = model(data)
        loss = F.nll_loss(output, target)
        loss.backward()
        optimizer.step()
    return loss.item()


def main():
    parser = argparse.ArgumentParser(description="MNIST CNN on synthetic data")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--steps", type=int, default=5)
    parser.add_argument("--lr", type=float, default=0.01)
    args = parser.parse_args()

    torch.manual_seed(1)
    images = torch.randn(256, 1, 28, 28)
    labels = torch.randint(0, 10, (256,))
    loader = DataLoader(TensorDataset(images, labels), batch_size=args.batch_size)
    model = Net()
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
    loss = train(model, loader, optimizer, args.steps)
    print(f"trained {args.steps} steps, loss {loss:.4f}")


if __name__ == "__main__":
    main()
# expect-deferred: 0
