# expect: none
# Logging the learning rate with f"{scheduler.get_last_lr():.6f}": get_last_lr() returns a list
# (one lr per param group), and a list has no float format. A Python mistake, no entry explains it.
import torch
import torch.nn as nn

model = nn.Linear(8, 2)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
for epoch in range(4):
    loss = model(torch.randn(16, 8)).pow(2).mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    scheduler.step()
    print(f"epoch {epoch} loss {loss.item():.4f} lr {scheduler.get_last_lr():.6f}")
