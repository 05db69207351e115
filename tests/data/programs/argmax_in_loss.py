# expect: no-grad-fn
# A "differentiable accuracy" loss: the error is computed on argmax predictions, which have no
# gradient, so the loss has no grad_fn.
import torch
import torch.nn as nn

model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 3))
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)

for epoch in range(3):
    x = torch.randn(64, 8)
    y = torch.randint(0, 3, (64,))
    pred = model(x).argmax(dim=1)
    loss = (pred != y).float().mean()
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    print(f"epoch {epoch} error rate {loss.item():.3f}")
