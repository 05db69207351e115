"""Build the public PyTorch names that a torch of 1.0 or older lacks (newer_names.json).

Run by developers, offline, never at install. "module 'torch.nn' has no attribute 'RMSNorm'" says
the installed torch is older than the code when the name is one current releases have and old
ones did not; a name every torch had (`torch.device`, `torch.no_grad`) missing says something else
(a file named torch.py shadowing the package, a broken install). torch-version-too-old's
`newer_name` signatures ask this table (diagnoser/knowledge/newer_names.py). The old release is
1.0, the first with today's API (device, no_grad): names added from 1.1 on (nn.Identity,
logical_not, AdamW) say an old torch as surely as 2.x's do.

    # the old release, read without importing it (its binaries are for Python 3.7):
    pip download --no-deps torch==1.0.0 --python-version 3.7 --only-binary=:all: \\
        --platform manylinux1_x86_64 -d /work/src-cache/torch-1.0.0
    cd /work/src-cache/torch-1.0.0 && unzip -q torch-1.0.0-*.whl 'torch/*.py' \\
        torch/lib/libtorch.so torch/lib/libtorch_python.so torch/lib/libc10.so \\
        torch/lib/libcaffe2.so
    # the current one is the installed torch, imported:
    python tools/build_newer_names.py --old /work/src-cache/torch-1.0.0/torch

The old names of a module are what its .py and .pyi files define, assign or import at module
level (`from .x import *` followed), its submodules, and for Tensor the methods of
torch/__init__.pyi's (none before 1.1) and torch/tensor.py's Tensor classes. That reading misses
what C++ registers (Tensor.add), so in Tensor and in a module whose old files reach into torch._C
a name its libraries hold as a string ("add\\0", maybe the tail of a longer one) counts as old
too (torch.version.xpu is new whatever string "xpu" the libraries hold: version.py is all
Python), and so do the legacy type names (FloatTensor, BoolStorage), which torch assembles at run
time: a name is new only when neither reading finds it, which errs towards old. Only modules and
names current torch has are kept, and only public ones (no leading underscore anywhere in the
path).
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import pkgutil
import re
import sys
import types
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "diagnoser" / "knowledge" / "newer_names.json"
# deeper modules are no API code imports from an old torch by name; companion libraries reach
# five deep (torchdata's `from torch.utils.data.datapipes.utils.common import StreamWrapper`)
_MAX_DEPTH = 6
# torch's test helpers and tools, and modules that import optional dependencies or start threads;
# torch.distributed, whose names a torch built without distributed support (older macOS and
# Windows wheels) lacks whatever its release
_SKIP = (
    "torch.testing",
    "torch.utils.benchmark",
    "torch.utils.bottleneck",
    "torch.onnx.verification",
    "torch.distributed",
)


def _old_module_files(root: Path, module: str) -> list[Path]:
    rel = Path(*module.split(".")[1:])
    base = root / rel
    return [
        p
        for p in (
            base / "__init__.py",
            base / "__init__.pyi",
            base.with_suffix(".py"),
            base.with_suffix(".pyi"),
        )
        if p.is_file()
    ]


def old_names(root: Path, module: str, seen: set[str] | None = None) -> set[str]:
    """What `module` of the old release defines at its top level (see the module docstring)."""
    seen = set() if seen is None else seen
    if module in seen:
        return set()
    seen.add(module)
    names: set[str] = set()
    base = root / Path(*module.split(".")[1:])
    if base.is_dir():  # its submodules are attributes once imported
        names |= {
            p.stem for p in base.iterdir() if p.suffix in (".py", ".pyi") and p.stem != "__init__"
        }
        names |= {p.name for p in base.iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    for path in _old_module_files(root, module):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
        except SyntaxError:
            continue
        package = module if path.stem == "__init__" else module.rsplit(".", 1)[0]
        for node in tree.body:
            names |= _defined(node, root, package, seen)
    return names


def _defined(node: ast.stmt, root: Path, package: str, seen: set[str]) -> set[str]:
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, ast.Assign):
        return {t.id for t in node.targets if isinstance(t, ast.Name)}
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return {node.target.id}
    if isinstance(node, ast.Import):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    if isinstance(node, ast.ImportFrom):
        found = {a.asname or a.name for a in node.names if a.name != "*"}
        if any(a.name == "*" for a in node.names):
            source = _resolve(package, node.module, node.level)
            if source and source.startswith("torch"):
                found |= old_names(root, source, seen)
        return found
    if isinstance(node, (ast.If, ast.Try)):  # `if TYPE_CHECKING:`, `try: from x import y`
        inner = list(node.body) + list(getattr(node, "orelse", []))
        inner += [s for h in getattr(node, "handlers", []) for s in h.body]
        return set().union(*(_defined(s, root, package, seen) for s in inner)) if inner else set()
    return set()


def _resolve(package: str, module: str | None, level: int) -> str | None:
    if level == 0:
        return module
    parts = package.split(".")
    base = parts[: len(parts) - (level - 1)] if level > 1 else parts
    return ".".join(base + ([module] if module else []))


_C_BINDING = re.compile(r"\b_C\b")


def binds_c(root: Path, module: str) -> bool:
    """Whether the old release's `module` may take names from C++: its files name torch._C."""
    return any(
        _C_BINDING.search(p.read_text(errors="replace")) for p in _old_module_files(root, module)
    )


def old_tensor_methods(root: Path) -> set[str]:
    found: set[str] = set()
    for path in (root / "__init__.pyi", root / "tensor.py"):
        if not path.is_file():
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and node.name == "Tensor":
                found |= {
                    n.name
                    for n in node.body
                    if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
                }
                found |= {
                    t.id
                    for n in node.body
                    if isinstance(n, ast.Assign)
                    for t in n.targets
                    if isinstance(t, ast.Name)
                }
    return found


def old_strings(root: Path, names: set[str]) -> set[str]:
    """Which of `names` the old release's libraries hold as a string (what their C++ registers),
    found in one pass of an automaton over them. The tail of a longer string counts: the linker
    stores a string that ends another only once ("amp" inside "clamp")."""
    import ahocorasick

    machine = ahocorasick.Automaton()
    for name in names:
        machine.add_word(name + "\0", name)
    machine.make_automaton()
    found: set[str] = set()
    for lib in sorted((root / "lib").glob("lib*.so")):
        text = lib.read_bytes().decode("latin-1")
        found |= {name for _, name in machine.iter(text)}
    return found


_LEGACY_TYPE = re.compile(r"[A-Z]\w*(?:Tensor|Storage)")


def current_modules() -> dict[str, types.ModuleType]:
    import torch

    found: dict[str, types.ModuleType] = {"torch": torch}
    for info in pkgutil.walk_packages(torch.__path__, "torch."):
        name = info.name
        if any(part.startswith("_") for part in name.split(".")) or name.count(".") >= _MAX_DEPTH:
            continue
        if name.startswith(_SKIP):
            continue
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                found[name] = importlib.import_module(name)
        except Exception:  # an optional dependency missing: not a module users reach by name
            continue
    return found


def _public(module: types.ModuleType) -> set[str]:
    names = set()
    for name in dir(module):
        if name.startswith("_"):
            continue
        value = getattr(module, name, None)
        if isinstance(value, types.ModuleType) and not value.__name__.startswith("torch"):
            continue  # os, math, typing imported by the module
        if getattr(value, "__module__", None) in ("typing", "typing_extensions", "collections.abc"):
            continue
        names.add(name)
    return names


def _release(root: Path) -> str:
    """The old release's number, from its generated version.py."""
    found = re.search(r"__version__ = '([^']+)'", (root / "version.py").read_text())
    if found is None:
        raise SystemExit(f"{root / 'version.py'}: no __version__")
    return found[1]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--old", type=Path, required=True, help="the torch folder of the old wheel (1.0.0)"
    )
    args = ap.parse_args(argv)
    import torch

    modules = current_modules()
    unread: dict[str, set[str]] = {}  # what the static reading of the old release does not find
    for name, module in sorted(modules.items()):
        now = _public(module) | {
            m.rpartition(".")[2] for m in modules if m.rpartition(".")[0] == name
        }
        unread[name] = now - old_names(args.old, name)
    tensor_now = {n for n in dir(torch.Tensor) if not n.startswith("_")}
    unread["Tensor"] = tensor_now - old_tensor_methods(args.old)
    held = old_strings(args.old, set().union(*unread.values()))
    from_c = {name for name in unread if name == "Tensor" or binds_c(args.old, name)}
    table = {
        name: sorted(
            n
            for n in new
            # a submodule is a file: the old tree's reading alone says whether it was there
            if (f"{name}.{n}" in modules or name not in from_c or n not in held)
            and not _LEGACY_TYPE.fullmatch(n)
        )
        for name, new in unread.items()
    }
    table = {name: names for name, names in table.items() if names}
    meta = {"old": _release(args.old), "current": torch.__version__.split("+")[0]}
    OUT.write_text(json.dumps({"meta": meta, "names": table}, indent=0, sort_keys=True) + "\n")
    print(f"{OUT}: {sum(map(len, table.values()))} names in {len(table)} modules", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
