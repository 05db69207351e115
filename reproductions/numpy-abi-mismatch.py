"""numpy-abi-mismatch: torch cannot use numpy (missing, or built for another numpy ABI).

torch's bridge to numpy (`tensor.numpy()`, `torch.from_numpy`, `torch.tensor(ndarray)`, and the
DataLoader's default collate of numpy arrays) is initialised once, when torch is imported. When that
fails, torch prints "UserWarning: Failed to initialize NumPy: <why>" and every later conversion
raises "RuntimeError: Numpy is not available". The why is "_ARRAY_API not found" (after "A module
that was compiled using NumPy 1.x cannot be run in NumPy 2.0.0") for a torch built against numpy 1.x
with numpy 2 installed, "module compiled against API version 0x10 but this version of numpy is 0xf"
for a numpy older than the one torch was built with, or "No module named 'numpy'" when numpy is not
installed at all (torch's wheels do not depend on it).
The ABI cases need an old torch or an old numpy, which this machine does not have. The last case
is the same error from the same code, so the script shows it: it runs the user's code in a fresh
interpreter where numpy cannot be imported (an import hook, as in a venv where nobody installed
numpy), and torch raises its real RuntimeError.
`--fixed` runs the same code with the installed numpy, after checking that torch can use it.
"""

import subprocess
import sys

from _common import fixed_flag, not_installed

fixed = fixed_flag(__doc__)

USER_CODE = """
import torch
x = torch.arange(6, dtype=torch.float32).reshape(2, 3)
array = x.numpy()  # RuntimeError: Numpy is not available
print("converted to numpy:", array.shape, array.dtype)
"""

# Makes `import numpy` fail the way it does where numpy is not installed.
HIDE_NUMPY = """
import sys
class NoNumpy:
    def find_spec(self, name, path=None, target=None):
        if name == "numpy" or name.startswith("numpy."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None
sys.meta_path.insert(0, NoNumpy())
"""

# Both runs need numpy installed: the broken one hides it from the user's code (which is what
# goes wrong), the fixed one uses it. The entry declares it, as every numpy reproduction does.
try:
    import numpy as np
except ModuleNotFoundError:
    not_installed("numpy", extra="torch")

if fixed:
    import torch

    print(f"torch {torch.__version__} with numpy {np.__version__}")
    torch.from_numpy(np.zeros(1))  # raises at once if torch cannot use this numpy
    code = USER_CODE
else:
    code = HIDE_NUMPY + USER_CODE
run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
sys.stdout.write(run.stdout)
sys.stderr.write(run.stderr)
sys.exit(run.returncode)
