# expect: no-grad-fn
# After "element 0 of tensors does not require grad and does not have a grad_fn": the loss is
# computed by a helper decorated with @torch.no_grad() (written for validation, reused in train).
import torch
import torch.nn as nn


@torch.no_grad()
def compute_loss(model, batch, criterion):
    x, y = batch
    return criterion(model(x), y)


model = nn.Sequential(nn.Linear(5, 8), nn.ReLU(), nn.Linear(8, 1))
criterion = nn.MSELoss()
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
for epoch in range(3):
    batch = (torch.randn(16, 5), torch.randn(16, 1))
    loss = compute_loss(model, batch, criterion)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    val_loss = compute_loss(model, (torch.randn(16, 5), torch.randn(16, 1)), criterion)
    print(f"epoch {epoch}: train {loss.item():.4f} val {val_loss.item():.4f}")
