"""anomaly-nan-backward: the Euclidean distance of a pair of identical embeddings, with sqrt.

A siamese/contrastive training step pulls each anchor's embedding towards its positive's. The
distance is written by hand as `((za - zp) ** 2).sum(1).sqrt()`; some positives are exact copies
of their anchors (an augmentation that did nothing), so their distance is exactly 0. The
derivative of sqrt at 0 is infinite, and the square's backward multiplies that inf by (za - zp) =
0: inf * 0 = nan. The user turned on `torch.autograd.set_detect_anomaly(True)` to find where the
nan comes from, and backward stops with "Function 'PowBackward0' returned nan values in its 0th
output."

`--fixed` adds a small eps under the root, `torch.sqrt(sq + 1e-8)`, so the gradient stays finite
(`F.pairwise_distance` and `torch.linalg.vector_norm` are safe alternatives).
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.autograd.set_detect_anomaly(True)  # turned on to find the nan

encoder = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 8))
optimizer = torch.optim.SGD(encoder.parameters(), lr=0.1)

anchors = torch.randn(8, 16)
positives = anchors.clone()
positives[4:] += 0.1 * torch.randn(4, 16)  # the first 4 "augmented" views are exact copies

za, zp = encoder(anchors), encoder(positives)
sq = ((za - zp) ** 2).sum(dim=1)  # 0.0 for the 4 identical pairs
dist = torch.sqrt(sq + 1e-8) if fixed else torch.sqrt(sq)
loss = dist.mean()

optimizer.zero_grad()
loss.backward()
optimizer.step()
finite = all(bool(p.grad.isfinite().all()) for p in encoder.parameters())
print(f"loss {loss.item():.4f}, all gradients finite: {finite}")
