"""Ids outside an embedding's table, seen before the lookup runs.

On the CPU an id >= num_embeddings (or a negative one) makes `nn.Embedding` raise
`IndexError: index out of range in self`; on the GPU the same lookup is a device-side assert,
after which the CUDA context is lost and nothing more can run in the process, preflight's
explanation included. So the ids are read in a forward pre-hook on every Embedding and
EmbeddingBag during preflight's first forward, and a bad one stops that forward before the kernel
runs, by an exception of this module's own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch
from torch import nn

from .findings import Finding

_TABLES = (nn.Embedding, nn.EmbeddingBag)


class IdsOutOfRange(Exception):
    """Raised inside the model's forward to stop it before an out-of-range lookup."""


class _Watcher:
    def __init__(self) -> None:
        self.finding: Finding | None = None
        self.tables = 0


def _id_range(ids: Any) -> tuple[int, int] | None:
    if not isinstance(ids, torch.Tensor) or ids.numel() == 0:
        return None
    if ids.is_floating_point() or ids.is_complex() or ids.layout != torch.strided:
        return None  # embedding raises its own dtype error, which the forward check explains
    return int(ids.min()), int(ids.max())


@contextmanager
def embedding_ids_checked(model: nn.Module) -> Iterator[_Watcher]:
    """While open, a forward of `model` whose ids do not fit one of its embeddings stops with
    IdsOutOfRange, the watcher's finding saying which table and which ids."""
    watcher = _Watcher()
    handles = []
    for name, module in model.named_modules():
        if isinstance(module, _TABLES):
            watcher.tables += 1
            handles.append(module.register_forward_pre_hook(_pre_hook(name, watcher)))
    try:
        yield watcher
    finally:
        for h in handles:
            h.remove()


def _pre_hook(name: str, watcher: _Watcher) -> Any:
    def hook(module: nn.Module, args: tuple[Any, ...]) -> None:
        try:
            found = _id_range(args[0] if args else None)
        except (RuntimeError, TypeError, ValueError):
            return  # a tensor that cannot be read here: the lookup decides
        if found is None:
            return
        low, high = found
        size = int(getattr(module, "num_embeddings", 0))
        if low >= 0 and high < size:
            return
        label = f"{name} ({type(module).__name__})" if name else type(module).__name__
        values = {"layer": label, "num": size, "last": size - 1, "min": low, "max": high}
        watcher.finding = Finding("data.token-range", values, location=name or None)
        raise IdsOutOfRange(label)

    return hook
