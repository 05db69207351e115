"""A PyTorch Lightning callback: preflight when training starts, watch while it runs. A thin
adapter: the checks are preflight() and Watch, the same as for a hand-written loop.

    trainer = lightning.Trainer(callbacks=[diagnoser.DiagnoserCallback()])

Its loss is the one training_step returns (a tensor, or a dict with "loss"): preflight computes it
with training_step, watch reads it from on_train_batch_end's outputs. A LightningModule needs no
forward of its own for either (Lightning's README calls the layers inside training_step).
"""

from __future__ import annotations

import sys
from typing import Any

from ..speak.optional import requires

with requires("lightning.pytorch", extra="lightning", feature="diagnoser.DiagnoserCallback"):
    import lightning.pytorch as pl
with requires("torch", extra="torch", feature="diagnoser.DiagnoserCallback"):
    import torch

from ..speak.i18n import default_lang
from .findings import Report
from .preflight import preflight
from .watch import Watch


class DiagnoserCallback(pl.Callback):
    def __init__(
        self,
        *,
        run_preflight: bool = True,
        run_watch: bool = True,
        fail_on_error: bool = False,
        lang: str | None = None,
        **watch_options: Any,
    ) -> None:
        self.run_preflight, self.run_watch = run_preflight, run_watch
        self.fail_on_error, self.lang = fail_on_error, lang
        self.watch_options = watch_options
        self.report: Report | None = None
        self.watch: Watch | None = None

    def on_train_start(self, trainer: pl.Trainer, pl_module: pl.LightningModule) -> None:
        if self.run_preflight:
            optimizer = trainer.optimizers[0] if trainer.optimizers else None
            self.report = preflight(
                pl_module,
                trainer.train_dataloader,
                optimizer=optimizer,
                batches=1,
                compute_loss=lambda batch: pl_module.training_step(batch, 0),
            )
            if trainer.is_global_zero:
                print(self.report.to_text(self.lang), file=sys.stderr)
            if self.fail_on_error and not self.report.ok:
                raise RuntimeError("diagnoser preflight found problems (see above)")
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
        if self.watch is None:
            return
        self.watch.detach()
        if trainer.is_global_zero:
            for finding in self.watch.findings:
                print(finding.line(self.lang or default_lang()), file=sys.stderr)
