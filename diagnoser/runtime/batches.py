"""Real batches for the checks: take one or two from what the user trains on, split each into the
model's inputs and the target, move them to the model's device, and call the model the way a
training loop would."""

from __future__ import annotations

import itertools
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import torch

_TARGET_KEYS = ("labels", "label", "targets", "target", "y")


@dataclass
class Batch:
    inputs: Any  # a tensor, a tuple of positional arguments, or a dict of keyword arguments
    target: Any  # None when the batch has no target
    load_seconds: float  # time spent waiting for it
    raw: Any = None  # the batch as the loader yielded it


def take(data: Any, n: int) -> list[Batch]:
    """Up to n batches from a DataLoader or another iterable of batches, or `data` itself when it
    is one batch (a tensor, an (inputs, target) pair or a dict)."""
    if isinstance(data, (torch.Tensor, Mapping, tuple)) or (
        isinstance(data, list) and data and isinstance(data[0], torch.Tensor)
    ):
        return [split(data, 0.0)]
    if not isinstance(data, Iterable):
        raise TypeError(
            f"data must be a DataLoader, an iterable of batches or one batch, not "
            f"{type(data).__name__}"
        )
    batches = []
    iterator = iter(data)
    for _ in range(n):
        start = time.perf_counter()
        try:
            raw = next(iterator)
        except StopIteration:
            break
        batches.append(split(raw, time.perf_counter() - start))
    if not batches:
        raise ValueError("data yielded no batch: the dataset or DataLoader is empty")
    return batches


def split(raw: Any, seconds: float) -> Batch:
    batch = _split(raw, seconds)
    batch.raw = raw
    return batch


def _split(raw: Any, seconds: float) -> Batch:
    if isinstance(raw, torch.Tensor):
        return Batch(raw, None, seconds)
    if isinstance(raw, Mapping):
        key = next((k for k in _TARGET_KEYS if k in raw), None)
        if key is None:
            return Batch(dict(raw), None, seconds)
        return Batch({k: v for k, v in raw.items() if k != key}, raw[key], seconds)
    if isinstance(raw, (tuple, list)):
        if len(raw) == 1:
            return Batch(raw[0], None, seconds)
        if len(raw) == 2:
            return Batch(raw[0], raw[1], seconds)
        return Batch(tuple(raw[:-1]), raw[-1], seconds)
    raise TypeError(
        "a batch must be a tensor, a tuple/list (inputs, target) or a dict, "
        f"not {type(raw).__name__}"
    )


def to_device(value: Any, device: torch.device) -> Any:
    if isinstance(value, torch.Tensor):
        return value.to(device)
    if isinstance(value, Mapping):
        return {k: to_device(v, device) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return type(value)(to_device(v, device) for v in value)
    return value


def call(model: Callable[..., Any], inputs: Any) -> Any:
    if isinstance(inputs, Mapping):
        return model(**inputs)
    if isinstance(inputs, tuple):
        return model(*inputs)
    return model(inputs)


def tensors(value: Any, name: str) -> list[tuple[str, torch.Tensor]]:
    """Every tensor inside a batch, with a name that says where it is: inputs[0], inputs['ids']."""
    if isinstance(value, torch.Tensor):
        return [(name, value)]
    if isinstance(value, Mapping):
        return list(
            itertools.chain.from_iterable(tensors(v, f"{name}[{k!r}]") for k, v in value.items())
        )
    if isinstance(value, (tuple, list)):
        return list(
            itertools.chain.from_iterable(tensors(v, f"{name}[{i}]") for i, v in enumerate(value))
        )
    return []


def describe(t: torch.Tensor) -> str:
    """TorchSnooper's way: shape, dtype, device; never the values."""
    dtype = str(t.dtype).removeprefix("torch.")
    if t.is_nested:  # its parts have shapes of their own
        return f"nested_tensor<{t.size(0)} tensors, {dtype}, {t.device}>"
    layout = "" if t.layout == torch.strided else f", {str(t.layout).removeprefix('torch.')}"
    return f"tensor<{tuple(t.shape)}, {dtype}, {t.device}{layout}>"


def model_device(model: torch.nn.Module) -> torch.device:
    first = next(itertools.chain(model.parameters(), model.buffers()), None)
    return first.device if first is not None else torch.device("cpu")


def scalar_loss(value: Any) -> torch.Tensor:
    """A Lightning training_step may return the loss or a dict holding it."""
    if isinstance(value, dict):
        value = value.get("loss")
    if not isinstance(value, torch.Tensor):
        raise TypeError(f"the loss must be a tensor, got {type(value).__name__}")
    return value
