"""mps-unsupported: something the Apple-GPU (MPS) backend does not do: float64, or an operator.

Metal has no float64, so moving a float64 tensor to "mps" (often data built with numpy, whose
default is float64) fails at once: "Cannot convert a MPS Tensor to float64 dtype as the MPS
framework doesn't support float64. Please use float32 instead." Operators without an MPS kernel
fail with "The operator 'aten::...' is not currently implemented for the MPS device" unless
PYTORCH_ENABLE_MPS_FALLBACK=1 sends them to the CPU. The script runs the float64 case on the Mac's
GPU; without MPS (Linux, Windows, Intel Macs) there is nothing to reproduce and it exits 77.
`--fixed` converts the data to float32 before moving it to the GPU.
"""

import torch
from _common import fixed_flag, skip
from torch import nn

fixed = fixed_flag(__doc__)
if not torch.backends.mps.is_available():
    skip("needs MPS: an Apple-silicon Mac's GPU (torch.backends.mps.is_available())")

torch.manual_seed(0)
features = torch.rand(256, 8, dtype=torch.float64)  # like torch.from_numpy on a float64 array
if fixed:
    features = features.float()  # Metal computes in float32 (or float16 / bfloat16)
model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1)).to("mps")
x = features.to("mps")  # broken: float64 cannot live on MPS
print(f"prediction on {x.device}: {tuple(model(x).shape)}")
