r"""windows-path-escape: a Windows path pasted into an ordinary Python string.

The user's train.py loads a checkpoint with `torch.load("C:\Users\me\checkpoints\model.pt")`. In a
normal string literal a backslash starts an escape sequence, and `\U` must be followed by eight
hex digits (a Unicode code point): "sers" is not, so Python refuses to compile the file with
"SyntaxError: (unicode error) 'unicodeescape' codec can't decode bytes in position 2-3: truncated
\UXXXXXXXX escape". The error comes from the compiler, before any line of the script runs. The
script compiles the user's source with Python's own compile(), so the SyntaxError is Python's.

`--fixed` compiles and runs the three usual fixes (a raw string r"C:\...", forward slashes, and
pathlib) and shows that all three name the same file.
"""

from pathlib import PureWindowsPath

from _common import fixed_flag

fixed = fixed_flag(__doc__)

# The user's train.py, verbatim: single backslashes inside an ordinary "..." string.
TRAIN_PY = r"""
import torch

model = torch.nn.Linear(4, 2)
state = torch.load("C:\Users\me\checkpoints\model.pt", map_location="cpu")
model.load_state_dict(state)
"""

FIXES = {
    "raw string": r"""CKPT = r"C:\Users\me\checkpoints\model.pt" """,
    "forward slashes": r"""CKPT = "C:/Users/me/checkpoints/model.pt" """,
    "pathlib": r"""
from pathlib import PureWindowsPath
CKPT = PureWindowsPath("C:/") / "Users" / "me" / "checkpoints" / "model.pt"
""",
}

if not fixed:
    compile(TRAIN_PY, "train.py", "exec")  # raises Python's SyntaxError

for how, source in FIXES.items():
    namespace: dict[str, object] = {}
    exec(compile(source, "train.py", "exec"), namespace)
    path = PureWindowsPath(namespace["CKPT"])
    print(f"{how:16} -> {path}  (parts: {path.parts})")
