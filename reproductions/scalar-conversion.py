"""scalar-conversion: an evaluation loop that calls .item() on a per-sample tensor.

Accuracy is accumulated with `(preds == labels).float().item()`: the comparison has one entry per
sample (32 of them), and .item() needs exactly one, so torch raises "a Tensor with 32 elements
cannot be converted to Scalar". `--fixed` reduces first: `(preds == labels).sum().item()`.
"""

import torch
from _common import fixed_flag
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 5))
data = TensorDataset(torch.randn(128, 20), torch.randint(0, 5, (128,)))
loader = DataLoader(data, batch_size=32)

model.eval()
correct = 0
with torch.no_grad():
    for features, labels in loader:
        preds = model(features).argmax(dim=1)
        if fixed:
            correct += (preds == labels).sum().item()
        else:
            correct += (preds == labels).float().item()  # the mistake: never reduced
print(f"accuracy: {correct / len(data):.3f}")
