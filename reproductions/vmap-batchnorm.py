"""vmap-batchnorm: torch.func.vmap over a model with BatchNorm that tracks running statistics.

In training mode BatchNorm updates running_mean and running_var in place. Under vmap every
batched input has its own statistics, but the buffers are single tensors shared by all of them,
so the in-place update cannot be done: "Batch norm got a batched tensor as input while the
running_mean or running_var, which will be updated in place, were not batched." The script
evaluates a small model on several tasks at once (MAML-style), vmapping over the tasks.
`--fixed` calls torch.func.replace_all_batch_norm_modules_(model) first, which stops BatchNorm
from tracking running statistics, so each task is normalised with its own batch statistics.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.func import functional_call, replace_all_batch_norm_modules_, vmap

fixed = fixed_flag(__doc__)

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(16, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Linear(32, 5))
if fixed:
    replace_all_batch_norm_modules_(model)

params = dict(model.named_parameters())
buffers = dict(model.named_buffers())
tasks = torch.randn(4, 8, 16)  # 4 tasks, 8 samples each


def task_logits(x):
    return functional_call(model, (params, buffers), (x,))


logits = vmap(task_logits)(tasks)
print(f"logits for {tasks.shape[0]} tasks: {tuple(logits.shape)}")
