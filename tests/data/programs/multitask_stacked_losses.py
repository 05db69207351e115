# expect: grad-non-scalar
# Multi-task training: the task losses are stacked into a vector and backward() is called on it,
# instead of on their (weighted) sum.
import torch
import torch.nn as nn


class MultiTask(nn.Module):
    def __init__(self):
        super().__init__()
        self.shared = nn.Linear(24, 48)
        self.cls = nn.Linear(48, 6)
        self.reg = nn.Linear(48, 1)

    def forward(self, x):
        h = torch.relu(self.shared(x))
        return self.cls(h), self.reg(h).squeeze(-1)


model = MultiTask()
opt = torch.optim.Adam(model.parameters(), lr=3e-4)
x = torch.randn(32, 24)
y_cls = torch.randint(0, 6, (32,))
y_reg = torch.randn(32)

logits, value = model(x)
losses = torch.stack(
    [nn.functional.cross_entropy(logits, y_cls), nn.functional.mse_loss(value, y_reg)]
)
opt.zero_grad()
losses.backward()
opt.step()
