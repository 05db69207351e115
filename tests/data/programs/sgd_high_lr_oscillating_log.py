# expect: loss-oscillates
# After "loss震荡/loss oscillates" posts (users print the loss every few steps and see it jump up
# and down instead of going down): plain SGD with a learning rate far too high for the data.
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(2000, 20)
w_true = torch.randn(20, 1)
y = X @ w_true + 0.5 * torch.randn(2000, 1)

model = nn.Linear(20, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.09)
for step in range(1, 401):
    idx = torch.randint(0, 2000, (8,))
    loss = nn.functional.mse_loss(model(X[idx]), y[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 20 == 0:
        print(f"step {step:4d}  loss {loss.item():.4f}")
