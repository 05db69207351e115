# expect: nan-loss
# After loss-nan reports such as https://github.com/DLLXW/baby-llama2-chinese/issues/33 (nan
# logits): a regression on raw, unscaled prices with a learning rate copied from a tutorial.
import torch
import torch.nn as nn

torch.manual_seed(0)
area = torch.rand(512, 1) * 300 + 20  # m^2, not normalised
rooms = torch.randint(1, 6, (512, 1)).float()
X = torch.cat([area, rooms], dim=1)
price = 3000 * area + 10000 * rooms + 5000 * torch.randn(512, 1)

model = nn.Linear(2, 1)  # linear regression
opt = torch.optim.SGD(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
for epoch in range(1, 11):
    epoch_loss = 0.0
    for i in range(0, 512, 64):
        loss = loss_fn(model(X[i:i + 64]), price[i:i + 64])
        opt.zero_grad()
        loss.backward()
        opt.step()
        epoch_loss += loss.item()
    print(f"Epoch {epoch:02d} | train loss: {epoch_loss / 8:.4f}")
