# expect: nan-loss
import torch
import torch.nn as nn

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 5), nn.Softmax(dim=1))
opt = torch.optim.SGD(model.parameters(), lr=50.0)
x = torch.randn(512, 20) * 5
y = torch.randint(0, 5, (512,))
for epoch in range(1, 21):
    probs = model(x)
    loss = -torch.log(probs[torch.arange(len(y)), y]).mean()  # hand-written cross entropy
    opt.zero_grad()
    loss.backward()
    opt.step()
    print(f"Epoch [{epoch}/20], Loss: {loss.item():.4f}")
