"""inplace-modified: a GAN step that updates the discriminator before the generator's backward.

Both losses are computed from one forward pass, then the discriminator is updated first:
`d_loss.backward(retain_graph=True); opt_d.step()`, and only then `g_loss.backward()`. But g_loss's
graph runs through the discriminator, and its backward needs the discriminator's weights as they
were in the forward pass. `opt_d.step()` changed them in place (their version counter went from 1
to 2), so autograd refuses: "one of the variables needed for gradient computation has been modified
by an inplace operation: [torch.FloatTensor [64, 1]], which is output 0 of AsStrided, is at version
2; expected version 1 instead" (the [64, 1] tensor is the transposed weight of D's last layer).

`--fixed` uses the usual order: update D on `fake.detach()` (no retain_graph needed), then run D
again on the generator's output and update G with a fresh graph.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

latent, features = 8, 16
generator = nn.Sequential(nn.Linear(latent, 64), nn.ReLU(), nn.Linear(64, features))
discriminator = nn.Sequential(nn.Linear(features, 64), nn.LeakyReLU(0.2), nn.Linear(64, 1))
opt_g = torch.optim.Adam(generator.parameters(), lr=2e-4)
opt_d = torch.optim.Adam(discriminator.parameters(), lr=2e-4)
bce = nn.BCEWithLogitsLoss()
real_data = torch.randn(256, features) * 0.5 + 1.0

for step in range(3):
    real = real_data[step * 32 : (step + 1) * 32]
    ones, zeros = torch.ones(32, 1), torch.zeros(32, 1)
    fake = generator(torch.randn(32, latent))
    if fixed:
        # 1) discriminator: fake.detach() keeps the generator out of this backward
        d_loss = bce(discriminator(real), ones) + bce(discriminator(fake.detach()), zeros)
        opt_d.zero_grad()
        d_loss.backward()
        opt_d.step()
        # 2) generator: a fresh pass through the (updated) discriminator
        g_loss = bce(discriminator(fake), ones)
        opt_g.zero_grad()
        g_loss.backward()
        opt_g.step()
    else:
        d_fake = discriminator(fake)
        d_loss = bce(discriminator(real), ones) + bce(d_fake, zeros)
        g_loss = bce(d_fake, ones)
        opt_d.zero_grad()
        d_loss.backward(retain_graph=True)
        opt_d.step()  # changes D's weights in place...
        opt_g.zero_grad()
        g_loss.backward()  # ...which g_loss's graph still needs
        opt_g.step()
    print(f"step {step}: d_loss {d_loss.item():.4f}  g_loss {g_loss.item():.4f}")
