# expect: dynamo-recompile-limit
import torch
import torch.nn.functional as F


@torch.compile(backend="eager")
def activation(x, name):
    if name == "gelu":
        return F.gelu(x)
    return getattr(torch, name)(x)


x = torch.randn(4, 8)
search_space = [
    "relu",
    "tanh",
    "sigmoid",
    "gelu",
    "sin",
    "cos",
    "exp",
    "abs",
    "neg",
    "sign",
    "erf",
    "atan",
]
for name in search_space:
    y = activation(x, name)
    print(name, y.mean().item())
