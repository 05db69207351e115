"""windows-dll-load: `import torch` on Windows fails to load one of torch's DLLs.

On Windows, `import torch` loads every DLL in torch\\lib (c10.dll, torch_cpu.dll, fbgemm.dll,
cudnn*.dll ...) and those need DLLs from outside the wheel: the Microsoft Visual C++ runtime
(vcruntime140.dll, vcruntime140_1.dll, msvcp140.dll), libomp140.x86_64.dll (fbgemm.dll in torch
2.4.0), the CUDA/cuDNN DLLs of the build. When one of them is missing, too old, or a different
copy is picked up first (conda and pip mixed, another program's folder on PATH), torch raises
"OSError: [WinError 126] The specified module could not be found. Error loading
"...\\torch\\lib\\fbgemm.dll" or one of its dependencies." (1114 for a DLL whose initialisation
failed, 1455 when the paging file is too small to map the CUDA DLLs).
That needs a Windows machine with a broken runtime: nothing safe can break it on purpose. On
Windows the script runs `import torch` in a fresh interpreter and passes its output through, so a
broken setup shows its real error; a healthy one, or any other OS, exits 77 (needs Windows).
`--fixed` checks what the fix is about, on any OS: it loads the Visual C++ runtime DLLs the way
torch does (Windows only), imports torch in a fresh interpreter, and prints where it came from.
"""

import ctypes
import subprocess
import sys

from _common import fixed_flag, skip

fixed = fixed_flag(__doc__)
windows = sys.platform == "win32"
probe = "import torch; print(torch.__version__, torch.__file__)"

if fixed:
    if windows:
        for dll in ("vcruntime140.dll", "msvcp140.dll", "vcruntime140_1.dll"):
            ctypes.CDLL(dll)  # OSError here: install the Visual C++ Redistributable (x64)
    run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    sys.stderr.write(run.stderr)
    if run.returncode == 0:
        print(f"torch {run.stdout.strip()} loaded all its native libraries")
    sys.exit(run.returncode)

if not windows:
    skip("needs Windows: torch loads torch\\lib\\*.dll (WinError 126/1114) only there")
run = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
if run.returncode == 0:
    skip("needs Windows with a missing or broken DLL dependency: torch loads fine here")
sys.stdout.write(run.stdout)
sys.stderr.write(run.stderr)  # the real OSError: [WinError ...] Error loading "...dll"
sys.exit(run.returncode)
