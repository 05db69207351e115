# expect: backward-hook-inplace-view
import torch
import torch.nn as nn

model = nn.Sequential(
    nn.Conv2d(3, 8, 3, padding=1),
    nn.BatchNorm2d(8),
    nn.ReLU(inplace=True),
    nn.Conv2d(8, 8, 3, padding=1),
)
grads = {}


def save_grad(name):
    def hook(module, grad_input, grad_output):
        grads[name] = grad_output[0].norm().item()

    return hook


for name, m in model.named_modules():
    if isinstance(m, nn.BatchNorm2d):
        m.register_full_backward_hook(save_grad(name))

out = model(torch.randn(2, 3, 16, 16))
out.mean().backward()
print(grads)
