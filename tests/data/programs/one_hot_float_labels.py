# expect: index-dtype
# After https://github.com/RUCAIBox/RecBole/issues/1283 style reports: labels read as floats
# (from a CSV through numpy) handed to F.one_hot for a soft-label loss.
import numpy as np
import torch
import torch.nn.functional as F

labels_np = np.array([0, 2, 1, 1, 0, 2], dtype=np.float32)  # came out of np.genfromtxt
labels = torch.from_numpy(labels_np)
logits = torch.randn(6, 3, requires_grad=True)

targets = F.one_hot(labels, num_classes=3).float()
loss = -(targets * F.log_softmax(logits, dim=1)).sum(dim=1).mean()
loss.backward()
print("loss", loss.item())
