"""inference-tensor-backward: training a head on features extracted under torch.inference_mode().

The backbone is frozen, so its features are computed once, under `torch.inference_mode()` to make
it fast. Tensors created in inference mode are "inference tensors": autograd may never record
them. The trainable linear head must save its input to compute the gradient of its weight, so the
first forward of the head fails: "RuntimeError: Inference tensors cannot be saved for backward."
(An in-place update of such a tensor or requires_grad_() on it fails the same way, with "...
outside InferenceMode is not allowed".)

`--fixed` extracts the features under `torch.no_grad()`, which also skips building a graph but
returns normal tensors (`features.clone()` outside inference mode would work too).
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

backbone = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU()).eval()
for p in backbone.parameters():
    p.requires_grad_(False)

images = torch.randn(128, 32)
labels = torch.randint(0, 4, (128,))

# Extract the frozen backbone's features once.
with torch.no_grad() if fixed else torch.inference_mode():
    features = backbone(images)

head = nn.Linear(64, 4)
optimizer = torch.optim.Adam(head.parameters(), lr=1e-2)
for _ in range(20):
    loss = nn.functional.cross_entropy(head(features), labels)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
print(f"head trained on frozen features, final loss {loss.item():.4f}")
