"""The table of public PyTorch names newer than torch 1.0 (diagnoser/knowledge/newer_names.json),
checked against the installed torch, and torch-version-too-old's `newer_name` signatures on the
messages torch itself prints when such a name is missing."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import textwrap

import pytest

from diagnoser.knowledge import newer_names
from diagnoser.knowledge.index import Index
from diagnoser.knowledge.schema import Signature
from diagnoser.text.match import diagnose

torch = pytest.importorskip("torch")


def _table() -> dict[str, list[str]]:
    with open(newer_names._FILE, encoding="utf-8") as f:
        names: dict[str, list[str]] = json.load(f)["names"]
    return names


def test_every_name_in_the_table_is_in_the_installed_torch() -> None:
    # the table was built from this torch: a name it lists that torch lacks would send a user
    # whose torch is current to upgrade it
    missing = []
    for module_name, names in _table().items():
        holder = torch.Tensor if module_name == "Tensor" else importlib.import_module(module_name)
        missing += [
            f"{module_name}.{n}"
            for n in names
            if not hasattr(holder, n) and not _submodule(f"{module_name}.{n}")
        ]
    assert not missing, missing[:20]


def test_names_every_torch_has_are_not_in_it() -> None:
    assert not newer_names.newer("torch", "device")
    assert not newer_names.newer("torch", "no_grad")
    assert not newer_names.newer("torch.nn", "Linear")
    assert not newer_names.newer("Tensor", "view")
    assert newer_names.newer("torch.nn", "RMSNorm")


def test_names_added_after_1_0_are_in_it() -> None:
    # 1.1 to 1.4's additions, as 2019-era code meets an older torch
    assert newer_names.newer("torch.nn", "Identity")
    assert newer_names.newer("torch", "logical_not")
    assert newer_names.newer("torch.optim", "AdamW")
    # version.py is all Python: the old libraries' strings say nothing of its names
    assert newer_names.newer("torch.version", "xpu")


def _submodule(name: str) -> bool:
    """A module the parent holds once imported ("No module named 'torch.nn.attention'")."""
    try:
        importlib.import_module(name)
    except ImportError:
        return False
    return True


def _message_without(module: str, name: str) -> str:
    """What torch prints when `module.name` is missing, from torch itself."""
    code = f"""
        import importlib, sys
        import torch
        m = importlib.import_module({module!r})
        delattr(m, {name!r})
        getattr(m, {name!r})
    """
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True
    )
    assert proc.returncode != 0
    return proc.stderr


@pytest.mark.parametrize(
    ("module", "name", "family"),
    [
        ("torch.nn", "HuberLoss", "torch-version-too-old"),  # 1.9
        ("torch.nn.functional", "silu", "torch-version-too-old"),  # 1.7
        ("torch.optim.lr_scheduler", "LinearLR", "torch-version-too-old"),  # 1.10
        # every torch had these: a shadowing torch.py or a broken install, not an old release
        ("torch.nn", "Linear", None),
        ("torch", "no_grad", None),
    ],
)
def test_a_missing_name_is_a_torch_too_old_only_when_it_is_newer(
    module: str, name: str, family: str | None, index: Index
) -> None:
    best = diagnose(_message_without(module, name), index).best
    assert (best.entry.id if best else None) == family


def test_newer_name_needs_a_captured_name() -> None:
    with pytest.raises(ValueError, match="newer_name"):
        Signature(pattern="module 'torch' has no attribute '\\w+'", newer_name=True)
