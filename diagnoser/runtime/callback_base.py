"""What the framework callbacks (Lightning's, Hugging Face's) share: their options, preflight's
report when training starts, watch while it runs, and watch's findings when it ends. Each adapter
only says where its framework keeps the model, the loader, the loss and the main process."""

from __future__ import annotations

import sys
from typing import Any

import torch

from ..speak.i18n import default_lang
from .findings import Report
from .preflight import preflight
from .watch import Watch


class CallbackChecks:
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

    def _preflight(self, model: torch.nn.Module, loader: Any, main: bool, **options: Any) -> None:
        """One batch of preflight, printed by the main process; stop when asked to on a problem."""
        self.report = preflight(model, loader, batches=1, **options)
        if main:
            print(self.report.to_text(self.lang), file=sys.stderr)
        if self.fail_on_error and not self.report.ok:
            raise RuntimeError("diagnoser preflight found problems (see above)")

    def _end_watch(self, main: bool) -> None:
        if self.watch is None:
            return
        self.watch.detach()
        if main:
            for finding in self.watch.findings:
                print(finding.line(self.lang or default_lang()), file=sys.stderr)
