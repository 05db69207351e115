"""extension-abi-mismatch: a compiled extension built for another torch release is loaded.

Compiled add-ons (torch-scatter, torch-sparse, flash-attn, apex, mmcv, detectron2, xformers ...)
call into torch's C++ libraries by mangled symbol names, and those names change between torch
releases (and with the C++ ABI and CUDA variant). torch-scatter wheels built for older torch
releases refer to c10::RegisterOperators::~RegisterOperators() (`_ZN3c1017RegisterOperatorsD1Ev`),
which this torch no longer exports; loaded into it, the dynamic loader refuses them: "OSError:
.../_version_cpu.so: undefined symbol: _ZN3c1017RegisterOperatorsD1Ev".
The script builds such a library with the C compiler (a stand-in for the old wheel: its code refers
to that symbol and links against this torch's libc10/libtorch_cpu), then loads it the way
torch-scatter loads its ops, with torch.ops.load_library: the error is the real one from the
loader. `--fixed` builds the library "against this torch" (referring only to a symbol this torch
exports, as a rebuild with `pip install --no-build-isolation` or the wheel for your torch+CUDA
would) and loads it. Needs Linux and a C compiler (cc); elsewhere it exits 77.
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import torch
from _common import fixed_flag, skip

fixed = fixed_flag(__doc__)
if not sys.platform.startswith("linux"):
    skip("needs Linux: the stand-in extension is an ELF shared library")
cc = shutil.which("cc") or shutil.which("gcc")
if cc is None:
    skip("needs a C compiler (cc or gcc) to build the stand-in extension")

# What the extension's compiled code refers to: a c10 destructor that older torch releases
# exported (the wheel was built for one of them), or, rebuilt for this torch, the undefined-tensor
# singleton that this torch exports.
symbol = "_ZN3c1019UndefinedTensorImpl10_singletonE" if fixed else "_ZN3c1017RegisterOperatorsD1Ev"
source = f"extern char {symbol};\nvoid *scatter_ops_registry(void) {{ return &{symbol}; }}\n"

torch_lib = Path(torch.__file__).parent / "lib"
with tempfile.TemporaryDirectory() as tmp:
    package = Path(tmp) / "scatter_ops"
    package.mkdir()
    (package / "ops.c").write_text(source)
    library = package / "_version_cpu.so"
    build = [cc, "-shared", "-fPIC", "-o", str(library), str(package / "ops.c")]
    build += [f"-L{torch_lib}", "-lc10", "-ltorch_cpu", f"-Wl,-rpath,{torch_lib}"]
    subprocess.run(build, check=True)
    torch.ops.load_library(str(library))  # OSError: ...: undefined symbol: _ZN3c10...
    print(f"{library.name} loaded into torch {torch.__version__}")
