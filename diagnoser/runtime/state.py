"""Save and restore everything a check may touch: parameters, buffers, gradients, train/eval
modes, the optimizer's state and hyper-parameters, and the python, numpy, torch and CUDA RNGs.

Checks run forwards in train mode (BatchNorm updates its running statistics), step the optimizer
and draw random numbers (dropout, a shuffled DataLoader's first index): the user's run afterwards
must be the run it would have been without them.
"""

from __future__ import annotations

import copy
import random
import sys
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import torch


@contextmanager
def preserved(model: torch.nn.Module, optimizer: torch.optim.Optimizer | None) -> Iterator[None]:
    # Copies go to host memory: a model that fills its GPU has no room for a second copy there.
    # A lazy module's parameters have no values until its first forward (LazyLinear): nothing to
    # save, and once a check's forward has made them they stay made, as the first step would.
    tensors = {k: _saved(v) for k, v in model.state_dict(keep_vars=True).items() if not _lazy(v)}
    grads = {
        name: (None if p.grad is None else _saved(p.grad))
        for name, p in model.named_parameters()
        if not _lazy(p)
    }
    # train()/eval() set `training`, and an override may do more: freeze a stage
    # (requires_grad), flip a flag of its own. Both are put back as they were.
    modes = {m: _plain_attributes(m) for m in model.modules()}
    trainable = {p: p.requires_grad for p in model.parameters()}
    opt_state = _host(optimizer.state_dict()) if optimizer is not None else None
    rng = _rng_state()
    try:
        yield
    finally:
        with torch.no_grad():
            current = model.state_dict(keep_vars=True)
            for key, saved in tensors.items():
                current[key].copy_(saved)
        for name, p in model.named_parameters():
            saved_grad = grads.get(name)
            p.grad = None if saved_grad is None else saved_grad.to(p.device)
        for module, attributes in modes.items():
            for key, value in attributes.items():
                if getattr(module, key, _MISSING) is not value:
                    setattr(module, key, value)
        for p, requires_grad in trainable.items():
            if p.requires_grad != requires_grad:
                p.requires_grad_(requires_grad)
        if optimizer is not None and opt_state is not None:
            optimizer.load_state_dict(opt_state)
        _set_rng_state(rng)


_MISSING = object()
_PLAIN = (bool, int, float, str, type(None))


def _plain_attributes(module: torch.nn.Module) -> dict[str, Any]:
    """The module's own attributes that hold plain values (`training`, and the flags a train()
    override may toggle); tensors, submodules and hooks are kept elsewhere or left alone."""
    return {k: v for k, v in vars(module).items() if isinstance(v, _PLAIN)}


def _tensor_attributes(module: torch.nn.Module) -> dict[str, Any]:
    """Tensors a module holds as plain attributes, neither parameters nor buffers."""
    return {k: v for k, v in vars(module).items() if isinstance(v, torch.Tensor)}


def _lazy(t: torch.Tensor) -> bool:
    return bool(torch.nn.parameter.is_lazy(t))


def _saved(t: torch.Tensor) -> torch.Tensor:
    return t.detach().to("cpu", copy=True)


def _host(value: Any) -> Any:
    """A deep copy of an optimizer's state dict with its tensors in host memory
    (load_state_dict moves them back to each parameter's device)."""
    if isinstance(value, torch.Tensor):
        return _saved(value)
    if isinstance(value, dict):
        return {k: _host(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_host(v) for v in value]
    return copy.deepcopy(value)


def _rng_state() -> dict[str, Any]:
    state: dict[str, Any] = {"python": random.getstate(), "torch": torch.get_rng_state()}
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        state["cuda"] = torch.cuda.get_rng_state_all()
    numpy = sys.modules.get("numpy")  # only when the user's code has imported it
    if numpy is not None:
        state["numpy"] = numpy.random.get_state()
    return state


def _set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state:
        torch.cuda.set_rng_state_all(state["cuda"])
    if "numpy" in state:
        sys.modules["numpy"].random.set_state(state["numpy"])


@contextmanager
def modes_preserved(model: torch.nn.Module) -> Iterator[None]:
    """What a forward without gradients can change, put back: train/eval modes and whatever a
    train()/eval() override toggles (plain attributes, requires_grad), buffers (BatchNorm's
    running statistics) and the RNGs. Buffers are copied where they are: they are small, and a
    check that runs during training must not wait on host copies."""
    buffers = [(b, b.detach().clone()) for b in model.buffers() if not _lazy(b)]
    # plain flags, and tensors kept as attributes (a stateful layer's hidden state or membrane
    # potential, reassigned by each forward): put back by reference
    modes = {m: {**_plain_attributes(m), **_tensor_attributes(m)} for m in model.modules()}
    trainable = {p: p.requires_grad for p in model.parameters()}
    rng = _rng_state()
    try:
        yield
    finally:
        with torch.no_grad():
            for buffer, saved in buffers:
                buffer.copy_(saved)
        for module, attributes in modes.items():
            for key, value in attributes.items():
                if getattr(module, key, _MISSING) is not value:
                    setattr(module, key, value)
        for p, requires_grad in trainable.items():
            if p.requires_grad != requires_grad:
                p.requires_grad_(requires_grad)
        _set_rng_state(rng)


@contextmanager
def unseen_by_hooks(model: torch.nn.Module) -> Iterator[None]:
    """A check's extra forwards, hidden from the forward hooks of the user and of libraries
    (features gathered into a list, a Grad-CAM, a counter of eval batches would each see two
    more calls): only torch's own hooks, which are how a layer computes (weight_norm's weight,
    quantization observers), still run. Each hook table is replaced, never changed in place: the
    forward that runs the check is iterating over one of them."""
    saved = [(m, m._forward_pre_hooks, m._forward_hooks) for m in model.modules()]
    for module, pre, post in saved:
        module._forward_pre_hooks = _torch_hooks(pre)
        module._forward_hooks = _torch_hooks(post)
    try:
        yield
    finally:
        for module, pre, post in saved:
            module._forward_pre_hooks, module._forward_hooks = pre, post


def _torch_hooks(hooks: dict[int, Any]) -> OrderedDict[int, Any]:
    return OrderedDict((k, h) for k, h in hooks.items() if _defined_in_torch(h))


def _defined_in_torch(hook: Any) -> bool:
    func = getattr(hook, "func", hook)  # a functools.partial: the function it calls
    where = getattr(func, "__module__", None) or type(func).__module__
    return where == "torch" or where.startswith("torch.")
