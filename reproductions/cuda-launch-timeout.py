"""cuda-launch-timeout: one GPU kernel ran longer than the display watchdog allows.

On a GPU that also drives a display (Windows WDDM with its 2-second TDR, or Linux with X running
on that GPU) the driver kills any single kernel that runs past the watchdog's limit, and the next
CUDA call fails with "CUDA error: the launch timed out and was terminated"
(cudaErrorLaunchTimeout; "cuda runtime error (6)" in old releases). The script runs the user's
mistake, one enormous float64 matmul in a single cuBLAS call, where the watchdog is on (the CUDA
driver's KERNEL_EXEC_TIMEOUT attribute); elsewhere (data-centre GPUs, headless Linux, no CUDA)
there is nothing to reproduce and it exits 77.
`--fixed` splits the work into row blocks, each one short kernel, with a synchronize between them,
so the display gets the GPU back in time.
"""

import ctypes
import ctypes.util

import torch
from _common import fixed_flag, skip

fixed = fixed_flag(__doc__)
if not torch.cuda.is_available():
    skip("needs CUDA: the watchdog kills GPU kernels")


def watchdog_enabled(index: int = 0) -> bool:
    """CU_DEVICE_ATTRIBUTE_KERNEL_EXEC_TIMEOUT (17) from the CUDA driver API."""
    name = ctypes.util.find_library("cuda") or ctypes.util.find_library("nvcuda") or "libcuda.so.1"
    try:
        driver = ctypes.CDLL(name)
    except OSError:
        return False
    value, device = ctypes.c_int(0), ctypes.c_int(0)
    if driver.cuInit(0) != 0 or driver.cuDeviceGet(ctypes.byref(device), index) != 0:
        return False
    return driver.cuDeviceGetAttribute(ctypes.byref(value), 17, device) == 0 and value.value == 1


if not watchdog_enabled(0):
    skip(
        f"needs a GPU with the display watchdog on (Windows WDDM, or X on that GPU): "
        f"{torch.cuda.get_device_name(0)} has no kernel time limit"
    )

n = 16384
a = torch.randn(n, n, dtype=torch.float64, device="cuda")
b = torch.randn(n, n, dtype=torch.float64, device="cuda")
if fixed:
    out = torch.empty_like(a)
    for start in range(0, n, 512):  # each block is a short kernel; the display gets a turn
        out[start : start + 512] = a[start : start + 512] @ b
        torch.cuda.synchronize()
else:
    out = a @ b  # broken: one cuBLAS kernel of ~9 TFLOP in float64, far past a 2 s watchdog
    torch.cuda.synchronize()
print(f"product {tuple(out.shape)}, trace {out.trace().item():.3e}")
