"""A PyTorch Lightning callback: preflight when training starts, watch while it runs. A thin
adapter: the checks are preflight() and Watch, the same as for a hand-written loop.

    trainer = lightning.Trainer(callbacks=[diagnoser.DiagnoserCallback()])

Its loss is the one training_step returns (a tensor, or a dict with "loss"): preflight computes it
with training_step, watch reads it from on_train_batch_end's outputs. A LightningModule needs no
forward of its own for either (Lightning's README calls the layers inside training_step).
"""

from __future__ import annotations

from typing import Any

from ..speak.optional import requires

with requires("lightning.pytorch", extra="lightning", feature="diagnoser.DiagnoserCallback"):
    import lightning.pytorch as pl
with requires("torch", extra="torch", feature="diagnoser.DiagnoserCallback"):
    import torch

from .callback_base import CallbackChecks
from .watch import Watch


class DiagnoserCallback(CallbackChecks, pl.Callback):
    def on_train_start(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        if self.run_preflight:
            self._preflight(
                pl_module,
                trainer.train_dataloader,
                trainer.is_global_zero,
                optimizer=trainer.optimizers[0] if trainer.optimizers else None,
                compute_loss=lambda batch: pl_module.training_step(batch, 0),
            )
        if self.run_watch:
            self.watch = Watch(pl_module, **self.watch_options).attach()

    def on_train_batch_end(
        self,
        trainer: pl.Trainer,
        pl_module: pl.LightningModule,
        outputs: Any,
        batch: Any,
        batch_idx: int,
    ) -> None:
        if self.watch is None:
            return
        loss = outputs.get("loss") if isinstance(outputs, dict) else outputs
        self.watch.step(loss if isinstance(loss, torch.Tensor) else None)

    def on_train_end(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        self._end_watch(trainer.is_global_zero)
