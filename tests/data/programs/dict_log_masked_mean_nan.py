# expect: nan-loss
# After "loss becomes nan" posts: a masked mean loss divides by the number of valid tokens, and a
# batch made only of padding has none; the trainer logs a dict per step.
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(16, 1)
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
for step in range(1, 9):
    x = torch.randn(4, 10, 16)
    y = torch.randn(4, 10)
    mask = (torch.rand(4, 10) > 0.3).float()
    if step >= 5:
        mask.zero_()  # from here on the loader yields padding-only batches
    err = (model(x).squeeze(-1) - y) ** 2
    loss = (err * mask).sum() / mask.sum()
    opt.zero_grad()
    loss.backward()
    opt.step()
    print({"step": step, "loss": round(loss.item(), 4), "lr": opt.param_groups[0]["lr"]})
