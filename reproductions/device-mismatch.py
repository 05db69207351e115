"""device-mismatch: the model's weights and the batch are on different devices.

With CUDA, this is the classic mistake: the classifier is moved with `model.to("cuda")`, but the
batches coming out of the DataLoader are never moved, so nn.Linear meets a CPU input and CUDA
weights. Without CUDA it runs the same mistake with PyTorch's `meta` device: the classifier is
built under `torch.device("meta")` (no memory allocated, the weights are to come from a
checkpoint), but `load_state_dict` without `assign=True` is a no-op on meta parameters, so the CPU
batch meets weights that are still on meta. The script says on stderr which variant it runs.
`--fixed` puts the model and every batch on one device (the CUDA variant moves each batch with
`.to(device)`; the meta variant loads with `assign=True`, which puts the weights on the CPU).
"""

import sys

import torch
from _common import fixed_flag
from torch import nn
from torch.nn import functional as F
from torch.utils.data import DataLoader, TensorDataset

fixed = fixed_flag(__doc__)
torch.manual_seed(0)


def make_classifier() -> nn.Module:
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))


data = TensorDataset(torch.randn(128, 20), torch.randint(0, 3, (128,)))
loader = DataLoader(data, batch_size=32, shuffle=True)

if torch.cuda.is_available():
    print("device-mismatch: variant cuda (model on cuda:0, batches left on cpu)", file=sys.stderr)
    device = torch.device("cuda")
    model = make_classifier().to(device)
else:
    print(
        "device-mismatch: no CUDA here; variant meta (model built on meta, batches on cpu)",
        file=sys.stderr,
    )
    device = torch.device("cpu")
    checkpoint = make_classifier().state_dict()  # stands in for torch.load("classifier.pt")
    with torch.device("meta"):
        model = make_classifier()  # allocates nothing; the weights come from the checkpoint
    model.load_state_dict(checkpoint, assign=fixed)

optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
for x, y in loader:
    if fixed:
        x, y = x.to(device), y.to(device)
    optimizer.zero_grad()
    loss = F.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()

print(f"one epoch on {next(model.parameters()).device}; last batch loss {loss.item():.4f}")
