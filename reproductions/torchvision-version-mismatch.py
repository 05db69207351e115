"""torchvision-version-mismatch: torchvision's compiled operators do not fit the torch beside it.

torchvision's C++/CUDA operators (nms, roi_align, deform_conv2d, ...) live in a compiled library
(torchvision/_C*.so or .pyd) built against one exact torch release and one build variant (CPU,
cu126, ...). Installed beside another torch (`pip install torchvision` pulling the newest release
next to an older torch, or the CUDA torchvision from PyPI next to a CPU-only torch) that library
cannot be loaded, torchvision carries on without its operators, and `import torchvision` fails with
"RuntimeError: operator torchvision::nms does not exist".
Where the installed torchvision does not fit torch, the script imports it as users do and fails for
real. Where it fits, it recreates the mismatch: it imports a temporary copy of the package whose
compiled library is replaced by a file this torch cannot load. It says on stderr which variant runs.
`--fixed` first checks, in a subprocess, that torchvision loads, then prints torch.__version__,
torchvision.__version__ and runs torchvision.ops.nms; where they do not fit, it prints the install
command of the matching torchvision (from the compatibility table) and exits 77.
Without torchvision both modes exit 77.
"""

import importlib.metadata
import importlib.util
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import torch
from _common import fixed_flag, skip

fixed = fixed_flag(__doc__)
spec = importlib.util.find_spec("torchvision")
if spec is None or spec.origin is None:
    skip("needs torchvision: this error comes from torchvision's compiled operators")

package_dir = Path(spec.origin).parent
installed = importlib.metadata.version("torchvision")
# The compatibility table (github.com/pytorch/vision#installation): torch 2.N <-> torchvision
# 0.(N+15), torch 1.N <-> torchvision 0.(N+1); both from the same index (cpu, cu126, ...).
major, minor = (int(part) for part in torch.__version__.split("+")[0].split(".")[:2])
wanted = f"0.{minor + 15}" if major == 2 else f"0.{minor + 1}"
variant = f"cu{torch.version.cuda.replace('.', '')}" if torch.version.cuda else "cpu"
index = f"https://download.pytorch.org/whl/{variant}"
install = f"pip install 'torchvision=={wanted}.*' --index-url {index}"

# A torchvision that does not fit can break the process that imports it: check in a subprocess.
probe = subprocess.run([sys.executable, "-c", "import torchvision"], capture_output=True)
fits = probe.returncode == 0

if fixed:
    if not fits:
        skip(f"needs a torchvision that fits torch {torch.__version__}, not {installed}: {install}")
    import torchvision
    from torchvision.ops import nms

    boxes = torch.tensor([[0, 0, 10, 10], [1, 1, 11, 11], [20, 20, 30, 30]], dtype=torch.float)
    keep = nms(boxes, torch.tensor([0.9, 0.8, 0.7]), iou_threshold=0.5)
    versions = f"torch {torch.__version__}, torchvision {torchvision.__version__}"
    print(f"{versions}: nms kept boxes {keep.tolist()}")
    sys.exit(0)

if fits:
    print(
        f"variant: torchvision {installed} fits torch {torch.__version__}; importing a copy whose "
        "compiled library was not built for this torch",
        file=sys.stderr,
    )
    workdir = tempfile.TemporaryDirectory()  # removed at exit
    copy_dir = Path(workdir.name) / "torchvision"
    compiled = [p.name for p in package_dir.glob("_C*") if p.suffix in {".so", ".pyd", ".dylib"}]
    shutil.copytree(package_dir, copy_dir, ignore=shutil.ignore_patterns("__pycache__", *compiled))
    for name in compiled:
        (copy_dir / name).write_bytes(b"\x7fELF: a library built for another torch release\n")
    sys.path.insert(0, workdir.name)
else:
    print(
        f"variant: torchvision {installed} does not fit torch {torch.__version__}", file=sys.stderr
    )

import torchvision  # noqa: E402  RuntimeError: operator torchvision::nms does not exist

# Releases that do not register the operators' fake kernels at import fail at the first call:
boxes = torch.tensor([[0.0, 0.0, 10.0, 10.0]])
torchvision.ops.nms(boxes, torch.tensor([0.9]), iou_threshold=0.5)
print(f"torchvision {torchvision.__version__} loaded its operators")
