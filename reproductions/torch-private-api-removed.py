"""torch-private-api-removed: training utilities written for torch 1.x import torch._six.

torch._six was a private module of Python 2/3 compatibility aliases (string_classes, int_classes,
container_abcs, inf, PY3). Old repositories and old releases of libraries (apex, timm 0.3,
maskrcnn-benchmark, DeepSpeed, pycocotools helpers copied from torchvision's references) import it;
torch removed container_abcs, int_classes and PY3 during 1.x and the whole module in 2.0, so the
import fails: "ModuleNotFoundError: No module named 'torch._six'".
`--fixed` uses what the aliases stood for: str, collections.abc and math.inf (for a library: upgrade
it to a release that does the same).
"""

import collections.abc
import math

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)
torch.set_num_threads(1)

if fixed:
    string_classes, inf = str, math.inf
else:
    from torch._six import inf, string_classes  # worked up to torch 1.13


def to_device(batch, device):
    """Move every tensor of a nested batch to `device`, as old training loops did."""
    if torch.is_tensor(batch):
        return batch.to(device)
    if isinstance(batch, string_classes):
        return batch
    if isinstance(batch, collections.abc.Mapping):
        return {key: to_device(value, device) for key, value in batch.items()}
    if isinstance(batch, collections.abc.Sequence):
        return [to_device(value, device) for value in batch]
    return batch


model = nn.Linear(8, 2)
batch = to_device({"x": torch.randn(16, 8), "y": torch.randint(0, 2, (16,)), "id": "b0"}, "cpu")
loss = nn.functional.cross_entropy(model(batch["x"]), batch["y"])
loss.backward()
norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=1.0, norm_type=inf)
print(f"batch {batch['id']}: loss {loss.item():.3f}, largest gradient {norm.item():.3f}")
