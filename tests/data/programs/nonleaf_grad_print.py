# expect: gradient-none
import torch

x = torch.linspace(-2, 2, 50)
w = torch.randn(1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
w = w * 2  # scale the init
y = 3 * x + 1
loss = ((w * x + b - y) ** 2).mean()
loss.backward()
print("grad of w:", w.grad.item(), "grad of b:", b.grad.item())
