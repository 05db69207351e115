# expect: scalar-conversion
# Per-sample losses (reduction="none") kept for hard-example mining, then logged with .item() as
# if the loss were already averaged.
import torch
import torch.nn as nn

criterion = nn.CrossEntropyLoss(reduction="none")
model = nn.Linear(32, 5)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
history = []
for step in range(3):
    x = torch.randn(16, 32)
    y = torch.randint(0, 5, (16,))
    losses = criterion(model(x), y)
    hard = losses.topk(8).values.mean()
    opt.zero_grad()
    hard.backward()
    opt.step()
    history.append(losses.item())
    print(f"step {step}: loss {history[-1]:.4f}")
