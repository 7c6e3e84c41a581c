"""A two-level U-Net: down-sampling with max-pooling, up-sampling with
F.interpolate, skip connections joined with torch.cat on the channel axis.
Correct program."""
import torch
import torch.nn as nn
import torch.nn.functional as F


def double_conv(cin, cout):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, padding=1),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
        nn.Conv2d(cout, cout, 3, padding=1),
        nn.BatchNorm2d(cout),
        nn.ReLU(inplace=True),
    )


class UNet(nn.Module):
    def __init__(self, channels=1, classes=2):
        super().__init__()
        self.down1 = double_conv(channels, 16)
        self.down2 = double_conv(16, 32)
        self.bottom = double_conv(32, 64)
        self.up2 = double_conv(64 + 32, 32)
        self.up1 = double_conv(32 + 16, 16)
        self.head = nn.Conv2d(16, classes, 1)

    def forward(self, x):
        d1 = self.down1(x)                                   # [B, 16, H, W]
        d2 = self.down2(F.max_pool2d(d1, 2))                 # [B, 32, H/2, W/2]
        b = self.bottom(F.max_pool2d(d2, 2))                 # [B, 64, H/4, W/4]
        u2 = F.interpolate(b, scale_factor=2, mode="nearest")
        u2 = self.up2(torch.cat([u2, d2], dim=1))
        u1 = F.interpolate(u2, size=d1.shape[2:], mode="bilinear", align_corners=False)
        u1 = self.up1(torch.cat([u1, d1], dim=1))
        return self.head(u1)


def main():
    torch.manual_seed(8)
    net = UNet()
    x = torch.randn(2, 1, 32, 32)
    masks = torch.randint(0, 2, (2, 32, 32))
    loss = F.cross_entropy(net(x), masks)
    loss.backward()
    print(f"unet loss {loss.item():.4f}")


if __name__ == "__main__":
    main()
# expect-deferred: 0
