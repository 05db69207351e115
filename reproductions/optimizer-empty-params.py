"""optimizer-empty-params: the layers of a model kept in a plain Python list.

An MLP with a configurable depth builds its hidden layers in a loop and stores them in
`self.layers = [...]`, a plain Python list. nn.Module only registers sub-modules assigned as
attributes (or held in nn.ModuleList / nn.Sequential / nn.ModuleDict); layers inside a list are
invisible to it. The model has no other layer, so `model.parameters()` is empty and the optimizer
refuses: "optimizer got an empty parameter list". (With one registered layer besides the list it
would not fail: it would silently train only that layer.)

`--fixed` stores the layers in nn.ModuleList, so their weights are registered and optimised.
"""

from itertools import pairwise

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, sizes: list[int]) -> None:
        super().__init__()
        layers = [nn.Linear(a, b) for a, b in pairwise(sizes)]
        self.layers = nn.ModuleList(layers) if fixed else layers  # a plain list hides them

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.relu(x)
        return x


model = MLP([20, 64, 64, 3])
print("parameter tensors:", len(list(model.parameters())))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
loss = nn.functional.cross_entropy(model(torch.randn(16, 20)), torch.randint(0, 3, (16,)))
optimizer.zero_grad()
loss.backward()
optimizer.step()
print(f"one step done, loss {loss.item():.4f}")
