"""DCGAN generator and discriminator for 64x64 RGB images (one training
step on random data). Correct program."""
import torch
import torch.nn as nn

nz = 100   # latent vector size
ngf = 64   # generator feature maps
ndf = 64   # discriminator feature maps
nc = 3     # image channels


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 8, 4, 1, 0, bias=False),
            nn.BatchNorm2d(ngf * 8),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 8, ngf * 4, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 4),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf * 2),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, ngf, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ngf),
            nn.ReLU(True),
            nn.ConvTranspose2d(ngf, nc, 4, 2, 1, bias=False),
            nn.Tanh(),
        )

    def forward(self, z):
        return self.main(z)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 2),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, ndf * 4, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 4),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 4, ndf * 8, 4, 2, 1, bias=False),
            nn.BatchNorm2d(ndf * 8),
            nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 8, 1, 4, 1, 0, bias=False),
            nn.Sigmoid(),
        )

    def forward(self, image):
        return self.main(image).view(-1, 1).squeeze(1)


def main():
    torch.manual_seed(2)
    batch = 8
    netG, netD = Generator(), Discriminator()
    criterion = nn.BCELoss()
    optD = torch.optim.Adam(netD.parameters(), lr=2e-4, betas=(0.5, 0.999))

    real = torch.randn(batch, nc, 64, 64)
    real_label = torch.full((batch,), 1.0)
    fake_label = torch.zeros(batch)
    netD.zero_grad()
    errD_real = criterion(netD(real), real_label)
    noise = torch.randn(batch, nz, 1, 1)
    fake = netG(noise)                       # [8, 3, 64, 64]
    errD_fake = criterion(netD(fake.detach()), fake_label)
    (errD_real + errD_fake).backward()
    optD.step()
    print("generated", tuple(fake.shape), f"loss_D {(errD_real + errD_fake).item():.4f}")


if __name__ == "__main__":
    main()
# expect-deferred: 0
