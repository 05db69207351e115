# expect: vmap-batchnorm
# Training an ensemble of 5 small CNNs at once with torch.func (stack_module_state + vmap), as the
# model-ensembling tutorial does, but the members use BatchNorm with running stats.
import copy

import torch
import torch.nn as nn
from torch.func import functional_call, stack_module_state

torch.manual_seed(0)


def make():
    return nn.Sequential(
        nn.Conv2d(1, 8, 3), nn.BatchNorm2d(8), nn.ReLU(), nn.Flatten(), nn.Linear(8 * 26 * 26, 10)
    )


models = [make() for _ in range(5)]
params, buffers = stack_module_state(models)
base = copy.deepcopy(models[0])  # its own buffers are used


def fmodel(p, x):
    return functional_call(base, p, (x,))


x = torch.randn(32, 1, 28, 28)
out = torch.vmap(fmodel, in_dims=(0, None))(params, x)
print("ensemble logits", out.shape)
