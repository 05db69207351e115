# expect: scalar-conversion
# After "a Tensor with 32 elements cannot be converted to Scalar": a focal loss written per sample
# and logged with .item() before anyone reduced it.
import torch
import torch.nn as nn
import torch.nn.functional as F


class FocalLoss(nn.Module):
    def __init__(self, gamma=2.0):
        super().__init__()
        self.gamma = gamma

    def forward(self, logits, target):
        ce = F.cross_entropy(logits, target, reduction="none")
        pt = torch.exp(-ce)
        return (1 - pt) ** self.gamma * ce


model = nn.Linear(20, 4)
crit = FocalLoss()
opt = torch.optim.Adam(model.parameters())
history = []
for step in range(5):
    x, y = torch.randn(32, 20), torch.randint(0, 4, (32,))
    loss = crit(model(x), y)
    history.append(loss.item())
    opt.zero_grad()
    loss.mean().backward()
    opt.step()
print(history)
