"""A Hugging Face `transformers.Trainer` callback: preflight when training starts, watch while it
runs. A thin adapter, like the Lightning one: the checks are preflight() and Watch, the same as
for a hand-written loop.

    trainer = transformers.Trainer(..., callbacks=[diagnoser.DiagnoserTrainerCallback()])

Its loss is the one the model returns (`outputs.loss`, computed when the batch holds labels), as
the Trainer's own compute_loss takes it: preflight computes it with `model(**batch)`, watch reads
it from the model's forward at every micro-batch and follows its mean over each optimizer step.
The Trainer itself hides a loss that went nan or inf: `logging_nan_inf_filter` (on by default)
logs the mean of the finite losses instead; watch reports the step it first appeared.
"""

from __future__ import annotations

from typing import Any

from ..speak.optional import requires

with requires("transformers", extra="hf", feature="diagnoser.DiagnoserTrainerCallback"):
    import transformers
with requires("torch", extra="torch", feature="diagnoser.DiagnoserTrainerCallback"):
    import torch

from .callback_base import CallbackChecks
from .watch import Watch


def _loss(output: Any) -> Any:
    """A model output's loss: `.loss` (a ModelOutput), `["loss"]`, or the first element of a
    tuple (return_dict=False puts the loss first when labels were given)."""
    if isinstance(output, dict):
        return output.get("loss")
    loss = getattr(output, "loss", None)
    if loss is None and isinstance(output, (tuple, list)) and output:
        loss = output[0]
    return loss


def _optimizer(optimizer: Any) -> torch.optim.Optimizer | None:
    """The user's optimizer: accelerate wraps it (AcceleratedOptimizer), and the wrapper's step
    may skip the update while gradients accumulate."""
    inner = getattr(optimizer, "optimizer", None)
    if isinstance(inner, torch.optim.Optimizer):
        return inner
    return optimizer if isinstance(optimizer, torch.optim.Optimizer) else None


class DiagnoserTrainerCallback(CallbackChecks, transformers.TrainerCallback):
    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self._losses: list[torch.Tensor] = []
        self._hook: Any = None

    def on_train_begin(
        self,
        args: transformers.TrainingArguments,
        state: transformers.TrainerState,
        control: transformers.TrainerControl,
        model: torch.nn.Module | None = None,
        optimizer: Any = None,
        train_dataloader: Any = None,
        **kwargs: Any,
    ) -> None:
        if model is None:
            return
        if self.run_preflight and train_dataloader is not None:

            def compute_loss(batch: Any) -> Any:
                out = model(**batch) if isinstance(batch, dict) else model(*batch)
                loss = _loss(out)
                if loss is None:
                    raise ValueError(
                        "the model returned no loss: the batch holds no labels (a Trainer that "
                        "computes its loss in compute_loss needs run_preflight=False)"
                    )
                return loss

            self._preflight(
                model,
                train_dataloader,
                state.is_world_process_zero,
                optimizer=_optimizer(optimizer),
                compute_loss=compute_loss,
            )
        if self.run_watch:
            self.watch = Watch(model, **self.watch_options).attach()
            # Steps are the optimizer's (on_step_end), not forwards: with gradient accumulation
            # a step has several, and the first must not end one before step() is ever called.
            self.watch._explicit = True
            self._hook = model.register_forward_hook(self._read_loss)

    def _read_loss(self, module: torch.nn.Module, args: Any, output: Any) -> None:
        if module.training and torch.is_grad_enabled():
            loss = _loss(output)
            if isinstance(loss, torch.Tensor) and loss.numel() == 1:
                self._losses.append(loss.detach())

    def on_step_end(
        self,
        args: transformers.TrainingArguments,
        state: transformers.TrainerState,
        control: transformers.TrainerControl,
        **kwargs: Any,
    ) -> None:
        if self.watch is None:
            return
        losses, self._losses = self._losses, []
        loss = torch.stack([x.float() for x in losses]).mean() if losses else None
        self.watch.step(loss)

    def on_train_end(
        self,
        args: transformers.TrainingArguments,
        state: transformers.TrainerState,
        control: transformers.TrainerControl,
        **kwargs: Any,
    ) -> None:
        if self._hook is not None:
            self._hook.remove()
            self._hook = None
        self._end_watch(state.is_world_process_zero)
