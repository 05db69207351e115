"""numpy-cuda-tensor: `.numpy()` on a tensor that is not in CPU memory.

With CUDA, the classic mistake: evaluation runs the model on the GPU and computes the accuracy with
NumPy, calling `.numpy()` on the GPU predictions ("can't convert cuda:0 device type tensor to
numpy"). `--fixed` copies them to host memory first with `.cpu()`.
Without CUDA it runs the same mistake with PyTorch's `meta` device: the classifier is built under
`torch.device("meta")` (no memory, the weights are to come from a checkpoint), `load_state_dict`
without `assign=True` leaves the parameters on meta, and reading a weight with `.numpy()` (to
plot its histogram) fails ("can't convert meta device type tensor to numpy"). `--fixed` loads with
`assign=True`, so the weights are real CPU tensors, and converts with `.detach().cpu().numpy()`.
The script says on stderr which variant it runs.
"""

import sys

import torch
from _common import fixed_flag, not_installed
from torch import nn

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

torch.manual_seed(0)


def make_classifier() -> nn.Module:
    return nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3))


if torch.cuda.is_available():
    print("numpy-cuda-tensor: variant cuda (predictions on cuda:0)", file=sys.stderr)
    device = torch.device("cuda")
    model = make_classifier().to(device).eval()
    x, y = torch.randn(256, 20), torch.randint(0, 3, (256,))
    with torch.no_grad():
        preds = model(x.to(device)).argmax(dim=1)
    if fixed:
        preds = preds.cpu()
    accuracy = (preds.numpy() == y.numpy()).mean()
    print(f"validation accuracy {accuracy:.3f} computed with NumPy")
else:
    print("numpy-cuda-tensor: no CUDA here; variant meta (weights left on meta)", file=sys.stderr)
    checkpoint = make_classifier().state_dict()  # stands in for torch.load("classifier.pt")
    with torch.device("meta"):
        model = make_classifier()  # allocates nothing; the weights come from the checkpoint
    model.load_state_dict(checkpoint, assign=fixed)
    weights = model[0].weight.detach()
    if fixed:
        weights = weights.cpu()
    counts, edges = np.histogram(weights.numpy(), bins=10)
    print(f"first-layer weights: {counts.sum()} values in [{edges[0]:.3f}, {edges[-1]:.3f}]")
