"""amp-deprecated-api: a mixed-precision training loop written with the torch.cuda.amp names.

torch 2.4 deprecated torch.cuda.amp.GradScaler, torch.cuda.amp.autocast and torch.cpu.amp.autocast
in favour of torch.amp.GradScaler("cuda") and torch.autocast("cuda"); each call prints a
FutureWarning, and on a machine without CUDA a UserWarning that AMP is disabled. A warning does not
stop the run, so this script turns FutureWarning into an error, as `python -W error::FutureWarning`
or pytest's `filterwarnings = error` do: torch's own FutureWarning is raised with its traceback.
`--fixed` writes the loop with torch.amp.GradScaler(device, enabled=...) and torch.autocast(device),
using the device the machine has (float16 on CUDA, bfloat16 on the CPU); there every warning is an
error, and it runs clean.
"""

import warnings

import torch
from _common import fixed_flag
from torch import nn

fixed = fixed_flag(__doc__)
warnings.simplefilter("error", FutureWarning)  # like `python -W error::FutureWarning train.py`
torch.manual_seed(0)
torch.set_num_threads(1)

device = "cuda" if torch.cuda.is_available() else "cpu"
model = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 2)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x = torch.randn(64, 16, device=device)
y = torch.randint(0, 2, (64,), device=device)

if fixed:
    warnings.simplefilter("error")  # not a single warning is allowed in the fixed loop
    scaler = torch.amp.GradScaler(device, enabled=device == "cuda")  # scaling matters for fp16
    amp_dtype = torch.float16 if device == "cuda" else torch.bfloat16

    def autocast():
        return torch.autocast(device, dtype=amp_dtype)
else:
    scaler = torch.cuda.amp.GradScaler()  # deprecated since torch 2.4
    autocast = torch.cuda.amp.autocast

for _ in range(5):
    optimizer.zero_grad()
    with autocast():
        loss = nn.functional.cross_entropy(model(x), y)
    scaler.scale(loss).backward()
    scaler.step(optimizer)
    scaler.update()
print(f"{device}: 5 mixed-precision steps, loss {loss.item():.3f}, no warnings")
