"""Public PyTorch names that current releases have and torch 1.0 did not (newer_names.json,
built by tools/build_newer_names.py from the installed torch and the 1.0.0 wheel).

"module 'torch.nn' has no attribute 'RMSNorm'" says the installed torch is older than the code
when the name is one of these; a name every torch had missing says something else (a file named
torch.py shadowing the package, a broken install). Read only when a torch-version-too-old
signature marked `newer_name` matches, so a diagnosis that needs none never opens the file.
"""

from __future__ import annotations

import os
from functools import cache

_FILE = os.path.join(os.path.dirname(__file__), "newer_names.json")


@cache
def _table() -> dict[str, frozenset[str]]:
    import json  # imported when first needed: most diagnoses never ask

    with open(_FILE, encoding="utf-8") as f:
        names: dict[str, list[str]] = json.load(f)["names"]
    return {module: frozenset(found) for module, found in names.items()}


def newer(module: str, name: str) -> bool:
    """`module.name` (module "Tensor" for a tensor's attribute) is public in current PyTorch and
    was not in torch 1.0."""
    return name in _table().get(module, frozenset())
