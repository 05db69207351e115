"""driver-too-old: a PyTorch wheel built for a newer CUDA than the NVIDIA driver supports.

`pip install torch` (or upgrading a package that depends on it) pulls the newest wheel, and the
wheel brings its own CUDA runtime: recent wheels on PyPI are built for CUDA 13, which needs a
driver from the 580 series. On a machine whose driver only supports CUDA 12.8 (`nvidia-smi`
shows "CUDA Version: 12.8"), the first CUDA query warns "CUDA initialization: The NVIDIA driver on
your system is too old (found version 12080)", torch.cuda.is_available() returns False, and the
first `.to("cuda")` raises "RuntimeError: The NVIDIA driver on your system is too old (found
version 12080)". The number is the newest CUDA the driver supports, as 1000 * major + 10 * minor.
The script runs the user's code, which sends the model to the GPU without asking. It can only fail
that way where the driver is older than the CUDA this torch was built for; where the driver is new
enough (the usual case) or missing, it says so and exits 77, as both modes do with a CPU build.
`--fixed` collects the two facts that decide the fix (torch.version.cuda and the driver's CUDA
version), prints which build would match the driver when they disagree, and trains on the GPU if
it can, else on the CPU.
"""

import sys

import torch
from _common import fixed_flag, skip
from torch import nn


def driver_cuda_version() -> int:
    """The newest CUDA the installed driver supports, as 1000 * major + 10 * minor; 0: no driver."""
    get = getattr(torch._C, "_cuda_getDriverVersion", None)
    try:
        return int(get()) if get is not None else 0
    except RuntimeError:
        return 0


def as_text(version: int) -> str:
    return f"{version // 1000}.{version % 1000 // 10}"


fixed = fixed_flag(__doc__)
if torch.version.cuda is None:
    skip(
        "needs a CUDA build of PyTorch: this one is CPU-only, so it never checks the NVIDIA "
        "driver's version"
    )
driver = driver_cuda_version()
built_for = getattr(torch._C, "_cuda_getCompiledVersion", lambda: 0)()  # e.g. 13000 for 13.0
available = torch.cuda.is_available()  # warns "CUDA initialization: ... too old" when it is
if not fixed:
    if driver == 0:
        skip(f"needs an NVIDIA driver older than CUDA {torch.version.cuda}: none was found")
    if available or driver >= built_for:
        skip(
            f"needs an NVIDIA driver older than CUDA {torch.version.cuda}; this one supports "
            f"CUDA {as_text(driver)}, which is new enough for this torch"
        )

torch.manual_seed(0)
if fixed:
    device = torch.device("cuda" if available else "cpu")
    if not available:
        if driver == 0:
            advice = "no NVIDIA driver was found: install one (nvidia-smi must work)"
        elif driver // 1000 >= 12:
            advice = (
                "update the driver, or install a CUDA 12 build: pip install torch "
                "--index-url https://download.pytorch.org/whl/cu126"
            )
        elif driver // 1000 == 11:
            advice = (
                "update the driver, or install the last CUDA 11.8 build: pip install "
                "torch==2.7.1 --index-url https://download.pytorch.org/whl/cu118"
            )
        else:
            advice = "update the driver: no current PyTorch build supports it"
        print(
            f"torch {torch.__version__} is built for CUDA {torch.version.cuda}; the driver "
            f"supports CUDA {as_text(driver) if driver else 'none'}: {advice}. "
            "Running on the CPU meanwhile.",
            file=sys.stderr,
        )
else:
    device = torch.device("cuda")  # the author's machine always had a GPU

model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 3)).to(device)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 20, device=device), torch.randint(0, 3, (64,), device=device)
for _ in range(5):
    optimizer.zero_grad()
    loss = nn.functional.cross_entropy(model(x), y)
    loss.backward()
    optimizer.step()
print(f"trained on {device}: torch {torch.__version__}, built for CUDA {torch.version.cuda}")
