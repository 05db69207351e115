# expect: gradient-none
# After "'NoneType' object has no attribute 'norm'" in gradient logging code: the encoder was
# frozen for the first epochs, its weights get no .grad.
import torch
import torch.nn as nn


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = nn.Linear(16, 32)
        self.decoder = nn.Linear(32, 16)

    def forward(self, x):
        return self.decoder(torch.relu(self.encoder(x)))


net = Net()
for p in net.encoder.parameters():
    p.requires_grad = False
opt = torch.optim.Adam([p for p in net.parameters() if p.requires_grad])
for step in range(3):
    x = torch.randn(8, 16)
    loss = nn.functional.mse_loss(net(x), x)
    opt.zero_grad()
    loss.backward()
    print(f"step {step} loss {loss.item():.4f} "
          f"enc grad {net.encoder.weight.grad.norm():.4f} dec grad {net.decoder.weight.grad.norm():.4f}")
    opt.step()
