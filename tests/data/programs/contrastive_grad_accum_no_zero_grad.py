# expect: stale-gradients
# SimCLR-style contrastive training with "gradient accumulation": the step runs every 4 batches,
# but zero_grad was dropped from the loop, so the gradient norm grows step after step.
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(0)
encoder = nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 32))
opt = torch.optim.SGD(encoder.parameters(), lr=0.01)
accum = 4


def nt_xent(z1, z2, tau=0.5):
    z = F.normalize(torch.cat([z1, z2]), dim=1)
    sim = z @ z.t() / tau
    sim.fill_diagonal_(-1e9)
    n = z1.shape[0]
    targets = torch.cat([torch.arange(n, 2 * n), torch.arange(0, n)])
    return F.cross_entropy(sim, targets)


for it in range(1, 41):
    x = torch.randn(32, 64)
    v1, v2 = x + 0.1 * torch.randn_like(x), x + 0.1 * torch.randn_like(x)
    loss = nt_xent(encoder(v1), encoder(v2)) / accum
    loss.backward()
    if it % accum == 0:
        gnorm = torch.nn.utils.clip_grad_norm_(encoder.parameters(), float("inf"))
        opt.step()
        print(f"iter {it:3d} loss {loss.item() * accum:.4f} grad_norm {gnorm.item():.4f}")
