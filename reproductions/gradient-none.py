"""gradient-none: a `.detach()` left in forward() and an auxiliary head that forward() never uses.

The model has a backbone, a main head and an auxiliary head. forward() detaches the backbone's
features (left over from an experiment with a frozen backbone) and returns only the main head's
output, so after `loss.backward()` only the main head has gradients: every backbone and aux_head
parameter still has `.grad` None, and the optimizer silently never updates them.

`--fixed` removes the `.detach()` and adds the auxiliary head's loss to the total, so every
parameter the optimizer holds receives a gradient.
"""

import torch
import torch.nn.functional as F
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

x = torch.randn(64, 20)
y = (x[:, :4] @ torch.randn(4, 4)).argmax(1)  # main task: 4 classes
y_aux = (x[:, 0] > 0).long()  # auxiliary task: 2 classes


class Net(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.backbone = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 32), nn.ReLU())
        self.aux_head = nn.Linear(32, 2)
        self.head = nn.Linear(32, 4)

    def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor | None]:
        feats = self.backbone(x)
        if fixed:
            return self.head(feats), self.aux_head(feats)
        feats = feats.detach()  # cuts the graph: no gradient reaches the backbone
        return self.head(feats), None  # aux_head is never called


model = Net()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

logits, aux_logits = model(x)
loss = F.cross_entropy(logits, y)
if aux_logits is not None:
    loss = loss + 0.5 * F.cross_entropy(aux_logits, y_aux)
optimizer.zero_grad()
loss.backward()
print(f"step 1 | loss {loss.item():.4f}")
for name, p in model.named_parameters():
    grad = "None" if p.grad is None else f"norm={p.grad.norm():.4f}"
    print(f"{name:<20} grad: {grad}")
optimizer.step()
