"""module-not-found-torch: the training script is started with a Python that has no torch in it.

torch was installed into one environment (the project's virtualenv, a conda env, the user site),
but the script runs with another interpreter: `python3` from PATH instead of the venv's, a fresh
`python -m venv .venv` nobody installed into, a Jupyter kernel or an IDE interpreter that points
elsewhere, `pip` belonging to a different Python than `python`. The script makes exactly that
situation: it creates a new virtual environment in a temporary directory (no pip, no packages: a
second or so) and runs a small training script with its interpreter, so Python itself raises
"ModuleNotFoundError: No module named 'torch'". The child's output is passed through unchanged.
`--fixed` runs the same training script with the interpreter torch is installed in (here
sys.executable; for a user: install with `<that python> -m pip install torch`, or select the
interpreter / kernel that has it) and prints which Python ran it.
"""

import os
import subprocess
import sys
import tempfile
import venv
from pathlib import Path

from _common import fixed_flag

fixed = fixed_flag(__doc__)

TRAIN = """\
import sys

import torch
from torch import nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Linear(8, 1)
optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
x, y = torch.randn(64, 8), torch.randn(64, 1)
for _ in range(20):
    optimizer.zero_grad()
    loss = nn.functional.mse_loss(model(x), y)
    loss.backward()
    optimizer.step()
print(f"{sys.executable}: torch {torch.__version__}, loss {loss.item():.3f}")
"""

with tempfile.TemporaryDirectory() as tmp:
    script = Path(tmp) / "train.py"
    script.write_text(TRAIN)
    # A clean environment, as in a new shell: nothing that points Python at other site-packages.
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    if fixed:
        python = Path(sys.executable)  # the interpreter torch is installed in
    else:
        env_dir = Path(tmp) / "venv"
        venv.create(env_dir, with_pip=False)  # `python -m venv venv`, then forgot to install
        python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    run = subprocess.run([str(python), str(script)], capture_output=True, text=True, env=env)

sys.stdout.write(run.stdout)
sys.stderr.write(run.stderr)
sys.exit(run.returncode)
