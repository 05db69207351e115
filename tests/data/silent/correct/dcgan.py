# summary: pytorch/examples dcgan: generator and discriminator with BatchNorm, two Adam optimizers (betas 0.5), D trained on real and fake.detach(), G through D, each model watched under its own label
import torch
import torch.nn as nn
import torch.optim as optim

import diagnoser

nz, ngf, ndf, nc = 16, 8, 8, 1


class Generator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.ConvTranspose2d(nz, ngf * 4, 4, 1, 0, bias=False), nn.BatchNorm2d(ngf * 4), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 4, ngf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ngf * 2), nn.ReLU(True),
            nn.ConvTranspose2d(ngf * 2, nc, 4, 2, 1, bias=False), nn.Tanh(),
        )

    def forward(self, input):
        return self.main(input)


class Discriminator(nn.Module):
    def __init__(self):
        super().__init__()
        self.main = nn.Sequential(
            nn.Conv2d(nc, ndf, 4, 2, 1, bias=False), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf, ndf * 2, 4, 2, 1, bias=False), nn.BatchNorm2d(ndf * 2), nn.LeakyReLU(0.2, inplace=True),
            nn.Conv2d(ndf * 2, 1, 4, 1, 0, bias=False), nn.Sigmoid(),
        )

    def forward(self, input):
        return self.main(input).view(-1, 1).squeeze(1)


def weights_init(m):
    if m.__class__.__name__.find("Conv") != -1:
        nn.init.normal_(m.weight, 0.0, 0.02)
    elif m.__class__.__name__.find("BatchNorm") != -1:
        nn.init.normal_(m.weight, 1.0, 0.02)
        nn.init.zeros_(m.bias)


torch.manual_seed(999)
netG, netD = Generator(), Discriminator()
netG.apply(weights_init)
netD.apply(weights_init)
criterion = nn.BCELoss()
optimizerD = optim.Adam(netD.parameters(), lr=0.0002, betas=(0.5, 0.999))
optimizerG = optim.Adam(netG.parameters(), lr=0.0002, betas=(0.5, 0.999))
real_batches = [torch.rand(8, nc, 16, 16) * 2 - 1 for _ in range(5)]

with diagnoser.watch(netD, label="D") as wD, diagnoser.watch(netG, label="G") as wG:
    for real_cpu in real_batches:
        # (1) Update D network: maximize log(D(x)) + log(1 - D(G(z)))
        netD.zero_grad()
        b_size = real_cpu.size(0)
        label = torch.full((b_size,), 1.0)
        errD_real = criterion(netD(real_cpu), label)
        errD_real.backward()
        noise = torch.randn(b_size, nz, 1, 1)
        fake = netG(noise)
        label.fill_(0.0)
        errD_fake = criterion(netD(fake.detach()), label)
        errD_fake.backward()
        optimizerD.step()
        # (2) Update G network: maximize log(D(G(z)))
        netG.zero_grad()
        label.fill_(1.0)
        errG = criterion(netD(fake), label)
        errG.backward()
        optimizerG.step()
        wD.step(errD_real + errD_fake)
        wG.step(errG)
