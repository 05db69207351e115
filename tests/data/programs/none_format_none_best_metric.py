# expect: none
# best_acc starts as None and is formatted with :.2f before any evaluation ran: a TypeError of
# Python's string formatting, not of PyTorch.
import torch
import torch.nn as nn

model = nn.Linear(10, 2)
opt = torch.optim.SGD(model.parameters(), lr=0.01)
best_acc = None
eval_every = 5
for epoch in range(3):
    loss = nn.functional.cross_entropy(model(torch.randn(8, 10)), torch.randint(0, 2, (8,)))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if epoch % eval_every == 4:
        best_acc = 0.5
    print(f"epoch {epoch} loss {loss.item():.4f} best acc {best_acc:.2f}")
