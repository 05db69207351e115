"""weights-only-load: torch>=2.6 refuses a checkpoint that holds argparse.Namespace / numpy objects.

The training script saves what many repositories save: the model's state_dict together with the
command-line arguments (an argparse.Namespace) and the best validation accuracy (a numpy float64,
as computed with numpy). Since PyTorch 2.6, torch.load defaults to weights_only=True, which
unpickles only tensors, plain containers and primitive types unless you allow more, so loading the
checkpoint stops at the first other class: "_pickle.UnpicklingError: Weights only load failed. ...
WeightsUnpickler error: Unsupported global: GLOBAL argparse.Namespace was not an allowed global by
default. Please use `torch.serialization.add_safe_globals([argparse.Namespace])` ...".

`--fixed` keeps weights_only=True and allowlists exactly the classes this checkpoint needs, with
the `torch.serialization.safe_globals([...])` context manager: argparse.Namespace plus the numpy
pieces a numpy scalar pickles to (numpy._core.multiarray.scalar, numpy.dtype and the Float64DType
dtype class). The safer long-term fix is to save plain Python values (vars(args), float(acc)).

Needs torch >= 2.6 (older releases default to weights_only=False and load the file silently).
"""

import argparse
import io

import torch
from _common import fixed_flag, not_installed, skip
from torch import nn

fixed = fixed_flag(__doc__)

try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

if tuple(int(p) for p in torch.__version__.split(".")[:2]) < (2, 6):
    skip(f"needs torch >= 2.6 (weights_only=True by default); this is {torch.__version__}")
torch.manual_seed(0)
torch.set_num_threads(1)

# --- train.py
args = argparse.Namespace(lr=0.05, epochs=3, hidden=32)
model = nn.Sequential(nn.Linear(10, args.hidden), nn.ReLU(), nn.Linear(args.hidden, 2))
optimizer = torch.optim.SGD(model.parameters(), lr=args.lr)
x, y = torch.randn(128, 10), torch.randint(0, 2, (128,))
for _ in range(args.epochs):
    loss = nn.functional.cross_entropy(model(x), y)
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
best_acc = np.mean(model(x).argmax(1).numpy() == y.numpy())  # a numpy.float64, not a float
checkpoint = io.BytesIO()  # stands in for "best.pt"
torch.save({"model": model.state_dict(), "args": args, "best_acc": best_acc}, checkpoint)

# --- evaluate.py, on torch >= 2.6
checkpoint.seek(0)
if fixed:
    multiarray = np._core.multiarray if hasattr(np, "_core") else np.core.multiarray  # numpy 1.x
    numpy_scalar = [multiarray.scalar, np.dtype, type(np.dtype(np.float64))]
    with torch.serialization.safe_globals([argparse.Namespace, *numpy_scalar]):
        ckpt = torch.load(checkpoint)  # still weights_only=True: only these classes are allowed
else:
    ckpt = torch.load(checkpoint)
model.load_state_dict(ckpt["model"])
print(f"loaded epoch-{ckpt['args'].epochs} model, best acc {float(ckpt['best_acc']):.3f}")
