"""module-missing-forward: an nn.ModuleList called as if it were a layer.

The MLP keeps its hidden layers in `self.blocks = nn.ModuleList([...])`, so that they are registered
(their parameters reach the optimizer, .to(device) moves them), and its forward calls
`self.blocks(x)`. A ModuleList is only a container: it has no forward, because it cannot know
whether its layers run one after another, in parallel, or in some other order. Calling it runs
nn.Module's placeholder forward: "NotImplementedError: Module [ModuleList] is missing the required
"forward" function". A forward spelled `def foward(self, x):` in your own class gives the same
message with your class name.

`--fixed` runs the layers in a loop (nn.Sequential would chain them too).
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


class MLP(nn.Module):
    def __init__(self, dim=32, depth=3, n_classes=10):
        super().__init__()
        self.blocks = nn.ModuleList(
            [nn.Sequential(nn.Linear(dim, dim), nn.ReLU()) for _ in range(depth)]
        )
        self.head = nn.Linear(dim, n_classes)

    def forward(self, x):
        if fixed:
            for block in self.blocks:  # a ModuleList is iterated, not called
                x = block(x)
        else:
            x = self.blocks(x)
        return self.head(x)


logits = MLP()(torch.randn(16, 32))
print("logits:", tuple(logits.shape))
