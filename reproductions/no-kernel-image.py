"""no-kernel-image: the installed PyTorch build has no kernels for this GPU's architecture.

A PyTorch wheel carries compiled GPU code (SASS) for a list of architectures, shown by
torch.cuda.get_arch_list() (e.g. sm_50 ... sm_90), plus perhaps PTX that newer GPUs can compile.
A GPU outside that list (an RTX 50xx, sm_120, with a wheel built for CUDA 12.6; or an old
Kepler/Maxwell card with a recent wheel) can allocate memory, but the first PyTorch kernel fails:
"CUDA error: no kernel image is available for execution on the device". The script runs the
user's mistake, i.e. using the GPU without checking it, and fails like that where the GPU is not
covered. Where it is covered (the usual case), there is nothing to reproduce and it exits 77, as it
does without CUDA.
`--fixed` checks the GPU's compute capability against the build's architecture list before using
it; on an unsupported GPU it prints the pip command for a build that has kernels for it and runs on
the CPU instead. Without CUDA it exits 77 too.
"""

import sys

import torch
from _common import fixed_flag, skip
from torch import nn

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():
    skip("needs CUDA: this error comes from launching a GPU kernel")


def gpu_is_supported(index: int = 0) -> bool:
    """True when this build has SASS for the GPU's major version at or below its minor version,
    or PTX for an architecture at or below it (which the driver can JIT-compile)."""
    major, minor = torch.cuda.get_device_capability(index)
    for arch in torch.cuda.get_arch_list():  # e.g. "sm_86", "sm_90a", "compute_90"
        kind, _, number = arch.partition("_")
        digits = number.rstrip("abf")
        arch_major, arch_minor = int(digits[:-1]), int(digits[-1])
        if kind == "sm" and arch_major == major and arch_minor <= minor:
            return True
        if kind == "compute" and (arch_major, arch_minor) <= (major, minor):
            return True
    return False


major, minor = torch.cuda.get_device_capability(0)
name = torch.cuda.get_device_name(0)
supported = gpu_is_supported(0)
if not fixed and supported:
    skip(
        f"needs a GPU that this PyTorch build has no kernels for: {name} is sm_{major}{minor}, "
        f"and this build covers it ({' '.join(torch.cuda.get_arch_list())})"
    )

device = torch.device("cuda")
if fixed and not supported:
    if major >= 10:  # Blackwell (sm_100, sm_120): only the CUDA 12.8+ builds have kernels for it
        build = "a build for CUDA 12.8 or newer (a cu128/cu129/cu130 wheel, see pytorch.org)"
    elif major >= 5:  # Maxwell to Hopper: the CUDA 12.6 builds still carry sm_50..sm_90
        build = "the CUDA 12.6 build (--index-url https://download.pytorch.org/whl/cu126)"
    else:  # Kepler and older: only old releases
        build = "an older release that lists it (pytorch.org/get-started/previous-versions)"
    print(
        f"{name} (sm_{major}{minor}) is not covered by this build {torch.cuda.get_arch_list()}; "
        f"running on the CPU. Install {build}",
        file=sys.stderr,
    )
    device = torch.device("cpu")

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 2)).to(device)
x = torch.rand(256, 32).to(device)  # copying memory works even without kernels...
x = (x - x.mean(dim=0)) / x.std(dim=0)  # ...the first kernel launch fails
logits = model(x)
print(f"forward pass on {device} ({name}, sm_{major}{minor}): logits {tuple(logits.shape)}")
