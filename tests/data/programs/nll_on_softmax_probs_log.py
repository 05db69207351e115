# expect: loss-negative
# After "loss is negative" posts: nn.NLLLoss fed softmax probabilities instead of log-probabilities,
# so the loss is minus a probability and goes towards -1.
import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.randn(300, 8)
y = (x[:, 0] > 0).long()
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 2), nn.Softmax(dim=1))
criterion = nn.NLLLoss()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
for epoch in range(1, 11):
    loss = criterion(model(x), y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"epoch {epoch:2d}  loss = {loss.item():.4f}")
