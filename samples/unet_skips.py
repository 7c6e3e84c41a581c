"""A three-level U-Net for segmentation in the style of the classic
PyTorch-UNet: DoubleConv blocks, Down (max-pool then convolutions), Up
(ConvTranspose2d doubling the resolution, F.pad to the skip's size, then
torch.cat of the skip and the up-sampled map on the channel axis), and a
1x1 output convolution; a few Adam steps of per-pixel cross-entropy on
random images and masks. Correct program."""
import torch
import torch.nn as nn
import torch.nn.functional as F


class DoubleConv(nn.Module):
    def __init__(self, in_channels, out_channels, mid_channels=None):
        super().__init__()
        if not mid_channels:
            mid_channels = out_channels
        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, mid_channels, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(mid_channels),
            nn.ReLU(inplace=True),
            nn.Conv2d(mid_channels, out_channels, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.double_conv(x)


class Down(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.pool = nn.MaxPool2d(2)
        self.conv = DoubleConv(in_channels, out_channels)

    def forward(self, x):
        return self.conv(self.pool(x))


class Up(nn.Module):
    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.up = nn.ConvTranspose2d(in_channels, in_channels // 2, kernel_size=2, stride=2)
        self.conv = DoubleConv(in_channels, out_channels)

    def forward(self, x1, x2):
        x1 = self.up(x1)
        diff_y = x2.size(2) - x1.size(2)
        diff_x = x2.size(3) - x1.size(3)
        x1 = F.pad(x1, [diff_x // 2, diff_x - diff_x // 2, diff_y // 2, diff_y - diff_y // 2])
        x = torch.cat([x2, x1], dim=1)
        return self.conv(x)


class UNet(nn.Module):
    def __init__(self, n_channels=3, n_classes=4, base=8):
        super().__init__()
        self.inc = DoubleConv(n_channels, base)
        self.down1 = Down(base, base * 2)
        self.down2 = Down(base * 2, base * 4)
        self.down3 = Down(base * 4, base * 8)
        self.up1 = Up(base * 8, base * 4)
        self.up2 = Up(base * 4, base * 2)
        self.up3 = Up(base * 2, base)
        self.outc = nn.Conv2d(base, n_classes, kernel_size=1)

    def forward(self, x):
        x1 = self.inc(x)        # [B, 8, 40, 40]
        x2 = self.down1(x1)     # [B, 16, 20, 20]
        x3 = self.down2(x2)     # [B, 32, 10, 10]
        x4 = self.down3(x3)     # [B, 64, 5, 5]
        x = self.up1(x4, x3)    # [B, 32, 10, 10]
        x = self.up2(x, x2)     # [B, 16, 20, 20]
        x = self.up3(x, x1)     # [B, 8, 40, 40]
        return self.outc(x)     # [B, 4, 40, 40]


def main():
    torch.manual_seed(14)
    model = UNet()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
    images = torch.randn(2, 3, 40, 40)
    masks = torch.randint(0, 4, (2, 40, 40))
    for step in range(2):
        logits = model(images)
        loss = F.cross_entropy(logits, masks)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.4f} logits {tuple(logits.shape)}")


if __name__ == "__main__":
    main()
