"""cuda-device-side-assert: nn.BCELoss fed raw logits, on the GPU.

The model ends in a plain nn.Linear (it outputs logits, any real number), but the loss is
nn.BCELoss, which expects probabilities in [0, 1]. On the GPU the range check is an assertion
inside the CUDA kernel: every offending thread prints
"Assertion `input_val >= zero && input_val <= one` failed." and the Python error, raised at the
next call that waits for the GPU (here `loss.item()`), says only
"CUDA error: device-side assert triggered". On the CPU the same mistake raises a readable
"all elements of input should be between 0 and 1" instead, so without CUDA both modes exit 77.
`--fixed` uses nn.BCEWithLogitsLoss, which applies the sigmoid itself (numerically stable), and
trains a few steps.
"""

import torch
from _common import fixed_flag, skip
from torch import nn

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():
    skip(
        "needs CUDA: on the CPU the same mistake raises 'all elements of input should be between "
        "0 and 1', not a device-side assert"
    )

torch.manual_seed(0)
device = torch.device("cuda")
model = nn.Sequential(nn.Linear(20, 32), nn.ReLU(), nn.Linear(32, 1)).to(device)  # logits
criterion = nn.BCEWithLogitsLoss() if fixed else nn.BCELoss()  # BCELoss wants probabilities
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

running_loss = 0.0
for _ in range(20):
    x = torch.randn(64, 20, device=device)
    y = (x[:, :1] > 0).float()
    loss = criterion(model(x), y)  # the kernel asserts here, asynchronously
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    running_loss += loss.item()  # ...and the error surfaces here, at the first synchronisation

print(f"20 steps on {torch.cuda.get_device_name(0)}; mean loss {running_loss / 20:.3f}")
