"""dim-out-of-range: predicting on a single sample that has no batch dimension.

The classifier was trained on batches of shape (N, 4). At prediction time one flower's four
measurements are passed as a tensor of shape (4,); nn.Linear accepts it and returns 3 logits of
shape (3,), and `softmax(dim=1)` then asks for a second dimension the 1-D output does not have:
"Dimension out of range (expected to be in range of [-1, 0], but got 1)". `--fixed` adds the
batch dimension with `unsqueeze(0)` and takes the single row of probabilities back out.
"""

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
torch.manual_seed(0)

model = nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))
model.eval()

sample = torch.tensor([5.1, 3.5, 1.4, 0.2])  # one iris flower: shape (4,)
x = sample.unsqueeze(0) if fixed else sample  # the mistake: no batch dimension
with torch.no_grad():
    probs = torch.softmax(model(x), dim=1)
probs = probs[0]
print(f"predicted class {probs.argmax().item()} with probability {probs.max().item():.3f}")
