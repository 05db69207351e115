"""tensor-format-string: logging a loss that is not a 0-dim tensor with an f-string format.

The regression loss is computed as `((pred - y) ** 2).mean(dim=0)`: averaged over the batch
dimension only, so with one output it has shape [1], not shape []. backward() accepts it (it has
one element), but `f"{loss:.4f}"` does not: Tensor.__format__ only formats 0-dim tensors, and
anything else falls through to object.__format__, which refuses a format spec: "TypeError:
unsupported format string passed to Tensor.__format__". The same happens with a per-sample loss
(reduction="none"), an accuracy kept as a tensor of shape [1], or any nn.Parameter.

`--fixed` logs `loss.item()`, a Python float (and averages over every dimension with .mean()).
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

x = torch.randn(256, 3)
y = x @ torch.tensor([[2.0], [-1.0], [0.5]]) + 0.1 * torch.randn(256, 1)

model = nn.Linear(3, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for epoch in range(1, 4):
    pred = model(x)
    loss = ((pred - y) ** 2).mean() if fixed else ((pred - y) ** 2).mean(dim=0)  # shape [1]
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if fixed:
        print(f"epoch {epoch}: loss {loss.item():.4f}")
    else:
        print(f"epoch {epoch}: loss {loss:.4f}")
