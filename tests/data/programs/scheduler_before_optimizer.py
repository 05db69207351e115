# expect: none
import torch
import torch.nn as nn

model = nn.Linear(10, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
x, y = torch.randn(32, 10), torch.randint(0, 2, (32,))
for epoch in range(4):
    sched.step()
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(f"epoch {epoch} lr {sched.get_last_lr()[0]:.3f} loss {loss.item():.4f}")
