"""A model that turns a batch of many samples into one.

A reduction or view over dim 0 where the code meant another dimension (`h.mean(0, keepdim=True)`
on a batch-first tensor, `x.view(1, -1)`, a squeeze that takes the batch with it) makes the output
one sample long. With a loss that broadcasts (MSE, L1, Huber) nothing fails: the loss compares
that single output with every target, and the model learns to predict the batch's mean.

Only that shape is reported: the inputs and the target hold the same number of samples, the
output's first dimension is 1, and output and target have as many dimensions (so dim 0 faces
dim 0 when they broadcast). Time-first tensors, per-sample outputs and outputs shaped differently
from the target for any other reason stay quiet: the other shape checks or the loss speak there.
"""

from __future__ import annotations

from typing import Any

import torch

from .batches import tensors
from .findings import Finding


def collapsed_output(inputs: Any, output: torch.Tensor, target: torch.Tensor) -> Finding | None:
    """A finding when `output` holds one sample for a batch of several, else None."""
    if output.dim() == 0 or output.dim() != target.dim() or output.shape[0] != 1:
        return None
    samples = target.shape[0]
    if samples < 2 or not any(
        t.dim() > 0 and t.shape[0] == samples for _, t in tensors(inputs, "inputs")
    ):
        return None
    try:
        torch.broadcast_shapes(output.shape, target.shape)
    except RuntimeError:
        return None  # the loss raises, and loss.compute explains it
    values = {
        "samples": samples,
        "output": str(tuple(output.shape)),
        "target": str(tuple(target.shape)),
    }
    return Finding("model.batch-collapsed", values)
