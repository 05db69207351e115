"""windows-pagefile-too-small: Windows runs out of commit (RAM + paging file) for torch's processes.

Windows reserves commit charge for everything a process maps, and torch's CUDA builds map very
large DLLs (cuDNN, cuBLAS: gigabytes) in every process that imports torch. On Windows each
DataLoader worker is a new process that imports torch again (spawn), so with many workers, or a
fixed or small paging file, the system's commit limit is reached and the next mapping fails:
"OSError: [WinError 1455] The paging file is too small for this operation to complete" (Chinese
Windows: "页面文件太小，无法完成操作。"), at `import torch`, in a DLL load, or when safetensors
memory-maps a checkpoint ("(os error 1455)").
That needs Windows with a paging file too small for the load, and nothing safe makes one on purpose.
On Windows the script starts a DataLoader with 16 workers, each importing torch, so a machine whose
paging file is too small fails with the real error; one that copes exits 77, as any other OS does.
`--fixed` uses few workers (none on Windows, where each one is another torch import), prints the
commit limit on Windows, and runs on any OS.
"""

import ctypes
import sys

import torch
from torch.utils.data import DataLoader, TensorDataset


def commit_limit_gib() -> float:
    """The system's commit limit (physical memory + paging files), in GiB (Windows only)."""

    class MemoryStatusEx(ctypes.Structure):
        _fields_ = [
            ("dwLength", ctypes.c_ulong),
            ("dwMemoryLoad", ctypes.c_ulong),
            ("ullTotalPhys", ctypes.c_ulonglong),
            ("ullAvailPhys", ctypes.c_ulonglong),
            ("ullTotalPageFile", ctypes.c_ulonglong),
            ("ullAvailPageFile", ctypes.c_ulonglong),
            ("ullTotalVirtual", ctypes.c_ulonglong),
            ("ullAvailVirtual", ctypes.c_ulonglong),
            ("ullAvailExtendedVirtual", ctypes.c_ulonglong),
        ]

    status = MemoryStatusEx()
    status.dwLength = ctypes.sizeof(MemoryStatusEx)
    ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status))  # type: ignore[attr-defined]
    return status.ullTotalPageFile / 2**30


def run(num_workers: int) -> None:
    data = TensorDataset(torch.randn(512, 8), torch.randint(0, 2, (512,)))
    loader = DataLoader(data, batch_size=32, num_workers=num_workers)
    batches = sum(1 for _ in loader)
    print(f"{batches} batches with num_workers={num_workers}")


if __name__ == "__main__":
    from _common import fixed_flag, skip

    fixed = fixed_flag(__doc__)
    windows = sys.platform == "win32"
    if fixed:
        if windows:
            print(f"commit limit (RAM + paging file): {commit_limit_gib():.1f} GiB")
        run(num_workers=0 if windows else 2)
        sys.exit(0)
    if not windows:
        skip("needs Windows: WinError 1455 (paging file too small) exists only there")
    run(num_workers=16)  # 16 processes that each import torch and map its DLLs
    skip(
        "needs Windows with a paging file too small for 16 DataLoader workers that import torch: "
        f"this one coped (commit limit {commit_limit_gib():.1f} GiB)"
    )
