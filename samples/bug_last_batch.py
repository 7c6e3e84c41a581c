"""A recurrent-style state allocated once with the configured batch size and
added to every batch. 1000 samples in batches of 64 leave a last batch of 40
(drop_last is False), where [40, 128] + [64, 128] cannot broadcast.

PyTorch fails on the last batch only, after 15 good steps: "The size of
tensor a (40) must match the size of tensor b (64) at non-singleton dimension 0".
"""
import torch
import torch.nn as nn
from torch.utils.data import DataLoader, TensorDataset

batch_size = 64


class Accumulator(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(20, 128)
        self.state = torch.zeros(batch_size, 128)

    def forward(self, x):
        # expect-warning@+1: broadcast_c1
        h = self.fc(x) + self.state
        return h.sum(dim=1)


def main():
    features = torch.randn(1000, 20)
    targets = torch.randn(1000)
    loader = DataLoader(TensorDataset(features, targets), batch_size=batch_size)
    model = Accumulator()
    total = 0.0
    for x, y in loader:
        total += ((model(x) - y) ** 2).mean().item()
    print(f"total {total:.3f}")


if __name__ == "__main__":
    main()
