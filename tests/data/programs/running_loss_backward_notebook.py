# expect: backward-twice
# After https://github.com/karpathy/nn-zero-to-hero/issues/31 (Trying to backward through the
# graph a second time): a running total of the loss, kept as a tensor, is what gets backpropagated.
import torch
import torch.nn as nn

torch.manual_seed(0)
X = torch.randn(256, 10)
y = (X[:, 0] > 0).long()

model = nn.Sequential(nn.Linear(10, 16), nn.Tanh(), nn.Linear(16, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
criterion = nn.CrossEntropyLoss()

# %%
running_loss = 0
for i in range(0, 256, 32):
    xb, yb = X[i:i + 32], y[i:i + 32]
    loss = criterion(model(xb), yb)
    running_loss = running_loss + loss
    optimizer.zero_grad()
    running_loss.backward()
    optimizer.step()
    print(i // 32, running_loss.item() / (i // 32 + 1))
