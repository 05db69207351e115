# expect: loss-not-decreasing
# fault-step: 1
# source: https://github.com/Lightning-AI/pytorch-lightning/issues/12812
# summary: after resuming, the scheduler's learning rate is right but the optimizer's never changes: the scheduler was built on an optimizer that the restore code then replaced
import torch
from torch import nn

import diagnoser


def configure_optimizers(model: nn.Module):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
    scheduler = torch.optim.lr_scheduler.CosineAnnealingLR(optimizer, T_max=20)
    return optimizer, scheduler


torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 4))
optimizer, scheduler = configure_optimizers(model)
checkpoint = {"optimizer": optimizer.state_dict(), "scheduler": scheduler.state_dict()}

# resume: the trainer builds the optimizer again and restores its state; the scheduler it
# restored still holds the first one
optimizer = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
optimizer.load_state_dict(checkpoint["optimizer"])
scheduler.load_state_dict(checkpoint["scheduler"])

with diagnoser.watch(model) as w:
    for step in range(6):
        x, y = torch.randn(8, 16), torch.randint(0, 4, (8,))
        optimizer.zero_grad()
        loss = nn.functional.cross_entropy(model(x), y)
        loss.backward()
        optimizer.step()
        scheduler.step()
        w.step(loss)
print(scheduler.get_last_lr(), optimizer.param_groups[0]["lr"])
