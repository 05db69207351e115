"""nan-loss: a learning rate far too high makes a regression blow up, then go inf, then nan.

Unnormalised inputs (values in the hundreds) and lr=0.1 with plain SGD: every step overshoots,
the loss grows by orders of magnitude and overflows. `--fixed` standardises the inputs, uses a
sane learning rate and clips the gradient norm: the loss falls and stays finite.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

x = torch.rand(256, 8) * 500  # raw features, e.g. prices or pixel sums, never normalised
y = x @ torch.randn(8, 1) + 3
if fixed:
    x = (x - x.mean(0)) / x.std(0)
    y = (y - y.mean()) / y.std()

model = nn.Linear(8, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(1, 16):
    loss = nn.functional.mse_loss(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    if fixed:
        nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0)
    optimizer.step()
    print(f"Epoch [{epoch}/15], Loss: {loss.item():.4f}")
