"""Tabular regression with argparse-configured widths, a DataLoader whose
last batch is partial (300 % 32 = 12), and an MSE loss on [B, 1] outputs
against [B, 1] targets. Correct program."""
import argparse

import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset


def build_model(features, hidden, depth):
    layers = [nn.Linear(features, hidden), nn.ReLU()]
    for _ in range(depth - 1):
        layers += [nn.Linear(hidden, hidden), nn.ReLU()]
    layers.append(nn.Linear(hidden, 1))
    return nn.Sequential(*layers)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--features", type=int, default=13)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--depth", type=int, default=3)
    parser.add_argument("--epochs", type=int, default=2)
    args = parser.parse_args()

    torch.manual_seed(10)
    x = torch.randn(300, args.features)
    y = x.sum(dim=1, keepdim=True) + 0.1 * torch.randn(300, 1)
    loader = DataLoader(TensorDataset(x, y), batch_size=32, shuffle=True)
    model = build_model(args.features, args.hidden, args.depth)
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.MSELoss()
    for _ in range(args.epochs):
        for xb, yb in loader:
            optimizer.zero_grad()
            loss = loss_fn(model(xb), yb)
            loss.backward()
            optimizer.step()
    print(f"regression loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
# expect-deferred: 0
