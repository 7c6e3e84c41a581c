"""Efficient sub-pixel super-resolution (ESPCN): convolutions followed by
nn.PixelShuffle(3) turn [B, 9, H, W] into [B, 1, 3H, 3W]. Correct program."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class SuperResolution(nn.Module):
    def __init__(self, upscale=3):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 64, 5, padding=2)
        self.conv2 = nn.Conv2d(64, 32, 3, padding=1)
        self.conv3 = nn.Conv2d(32, upscale ** 2, 3, padding=1)
        self.shuffle = nn.PixelShuffle(upscale)

    def forward(self, x):
        x = torch.tanh(self.conv1(x))
        x = torch.tanh(self.conv2(x))
        return self.shuffle(self.conv3(x))


def main():
    torch.manual_seed(9)
    model = SuperResolution()
    low = torch.rand(2, 1, 16, 16)
    high = torch.rand(2, 1, 48, 48)
    loss = F.mse_loss(model(low), high)
    loss.backward()
    print(f"superres loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
# expect-deferred: 0
