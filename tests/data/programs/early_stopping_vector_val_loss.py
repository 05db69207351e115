# expect: tensor-bool-ambiguous
# After "Boolean value of Tensor with more than one value is ambiguous" reports: the validation
# loss kept per sample (reduction='none') and compared with the best value in an if.
import torch
import torch.nn as nn

model = nn.Linear(6, 1)
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
val_x, val_y = torch.randn(32, 6), torch.randn(32, 1)
crit_val = nn.MSELoss(reduction="none")
best, patience = float("inf"), 0
for epoch in range(20):
    x, y = torch.randn(64, 6), torch.randn(64, 1)
    loss = nn.functional.mse_loss(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with torch.no_grad():
        val_loss = crit_val(model(val_x), val_y)
    if val_loss < best:
        best, patience = val_loss, 0
    else:
        patience += 1
    print(f"epoch {epoch} train {loss.item():.3f}")
