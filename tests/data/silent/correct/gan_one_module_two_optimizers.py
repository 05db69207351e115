# summary: a GAN kept in one nn.Module (generator + discriminator), one watch on it, two Adam optimizers each holding its half, the discriminator stepped twice per generator step (WGAN-style critic iterations with weight clipping)
import torch
from torch import nn

import diagnoser


class GAN(nn.Module):
    def __init__(self, z=8, d=16):
        super().__init__()
        self.generator = nn.Sequential(nn.Linear(z, 32), nn.ReLU(), nn.Linear(32, d))
        self.critic = nn.Sequential(nn.Linear(d, 32), nn.LeakyReLU(0.2), nn.Linear(32, 1))
        self.z = z

    def forward(self, n):
        return self.generator(torch.randn(n, self.z))


torch.manual_seed(0)
gan = GAN()
opt_g = torch.optim.RMSprop(gan.generator.parameters(), lr=5e-4)
opt_c = torch.optim.RMSprop(gan.critic.parameters(), lr=5e-4)
real = torch.randn(256, 16) * 0.5 + 1.0
with diagnoser.watch(gan) as w:
    for step in range(6):
        for _ in range(2):
            opt_c.zero_grad()
            batch = real[torch.randint(0, 256, (16,))]
            loss_c = gan.critic(gan(16).detach()).mean() - gan.critic(batch).mean()
            loss_c.backward()
            opt_c.step()
            for p in gan.critic.parameters():
                p.data.clamp_(-0.05, 0.05)
        opt_g.zero_grad()
        loss_g = -gan.critic(gan(16)).mean()
        loss_g.backward()
        opt_g.step()
        w.step(loss_g)
