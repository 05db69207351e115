# expect: loss-not-decreasing
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Linear(20, 5)
opt = torch.optim.SGD(model.parameters(), lr=0.0)  # lr read from a config that was empty
x = torch.randn(512, 20)
y = torch.randint(0, 5, (512,))
for epoch in range(1, 11):
    opt.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    opt.step()
    print(f"Epoch [{epoch}/10], Loss: {loss.item():.4f}")
