"""watch(): monitors during training, through hooks on the user's model.

Cheap by design: every hook only queues a 0-dim tensor (is this activation finite? this
gradient's norm), without a device sync; once per step all of them are read with one
`torch.stack(...).tolist()`. Every module is read at sampled steps only (the first three, one in
`every`, each logged step); the steps between read the model's output and the loss, and a NaN
seen there makes the next step read every module to say where it starts.
`torch.autograd.detect_anomaly` instead records a stack for every op and checks every backward
output, which makes it several times slower (bench/bench_watch.py).

Steps are counted by `w.step(loss)`. A loop that never calls it (one you do not write) has a step
per update of an optimizer holding the model's parameters, however many forwards it took (gradient
accumulation, LBFGS's closure); until such an optimizer has stepped, or without one, a step per
training-mode forward of the model.
"""

from __future__ import annotations

import itertools
import math
import os
import statistics
import sys
from collections import deque
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO

from ..speak.optional import requires

with requires("torch", extra="torch", feature="diagnoser.watch"):
    import torch
from torch import nn
from torch.nn.parameter import is_lazy

from ..speak.i18n import default_lang
from . import autocast_switched_off, breaks
from .eval_train_checks import EvalTrainProbe
from .export import Exporter
from .findings import Finding, TrainingFindingError, summary
from .frozen_set import FrozenSetCheck
from .mode_checks import dropout_training_at_eval, dropouts, mode_dependent, training_under_eval
from .optimizer_checks import OptimizerChecks
from .precision_checks import ELIGIBLE as AUTOCAST_ELIGIBLE
from .precision_checks import autocast_not_applied
from .rank_checks import RankChecks
from .scheduler_checks import SchedulerChecks
from .step_timeout import StepTimeout
from .step_timeout import seconds_from as step_timeout_seconds
from .trace import Recorder, Trace

_FORWARD = {"en": "forward", "zh": "前向"}
_BACKWARD = {"en": "backward", "zh": "反向"}
_EXPLODE = 1e3
_VANISH_RATIO = 1e-4
_MAX_PENDING = 100_000
_FULL_FIRST = 3  # steps that always read every module; then one in `every`
_FIRST_EVALS = 3  # eval forwards always checked; then one in `every`
_SAMPLES = 5  # consecutive samples a gradient-flow or memory pattern must hold for


class Watch:
    def __init__(
        self,
        model: nn.Module,
        *,
        every: int = 10,
        log_every: int | None = None,
        log_file: TextIO | None = None,
        spike_factor: float = 5.0,
        leak_min_mb: float = 100.0,
        label: str | None = None,
        on_finding: str | Callable[[Finding], Any] = "warn",
        break_on: Any = None,
        break_on_action: str = "raise",
        stats: bool = False,
        export: str | os.PathLike[str] | None = None,
        step_timeout: float | None = None,
    ) -> None:
        if not isinstance(model, nn.Module):
            raise TypeError(f"model must be a torch.nn.Module, not {type(model).__name__}")
        if every < 1 or (log_every is not None and log_every < 1):
            raise ValueError("every and log_every must be at least 1")
        if not (callable(on_finding) or on_finding in ("warn", "raise", "quiet")):
            raise ValueError(
                f'on_finding must be "warn", "raise", "quiet" or a callable, not {on_finding!r}'
            )
        if break_on_action not in ("raise", "pdb"):
            raise ValueError(f'break_on_action must be "raise" or "pdb", not {break_on_action!r}')
        self.model = model
        self.on_finding = on_finding
        self._break = breaks.condition(break_on) if break_on is not None else None
        self._break_action = break_on_action
        self._norm_each_step = breaks.needs_grad_norm(break_on)
        self._batch: tuple[Any, Any] = (None, None)  # (indices, sample losses) given to step()
        self._exporter = Exporter(export) if export is not None else None
        timeout = step_timeout_seconds(step_timeout)
        self._timeout = StepTimeout(timeout, self._timed_out) if timeout else None
        keep = self._exporter is not None and self._exporter.histograms
        self._recorder = Recorder(model, samples=keep) if stats else None
        self.layer_stats: Trace | None = None  # the last sampled step's, with stats=True
        self._exported = 0  # findings already written to the export
        # Which model a log line is about: two watches in one run (a GAN's generator and
        # discriminator) print into one log, and `diagnoser` keeps their series apart by it.
        self.label = " ".join((label or type(model).__name__).replace("]", ")").split())
        self.every, self.log_every, self.log_file = every, log_every, log_file
        self.spike_factor, self.leak_min_mb = spike_factor, leak_min_mb
        self.findings: list[Finding] = []
        self.step_count = 0  # steps finished
        self._handles: list[Any] = []
        self._layer_handles: list[Any] = []  # hooks of the sampled steps (see _hook_layers)
        self._statm: _Statm | None = None  # opened while attached
        self._names = {id(m): _label(name, m) for name, m in model.named_modules()}
        self._root_name = self._names[id(model)]
        self._root_eligible = isinstance(model, AUTOCAST_ELIGIBLE)  # read in full at every step
        self._owner = {
            id(p): self._names[id(m)] for m in model.modules() for p in m.parameters(recurse=False)
        }
        # (module, phase, a sum that is finite exactly when the tensor is)
        self._flags: list[tuple[str, dict[str, str], torch.Tensor]] = []
        self._norms: list[tuple[str, torch.Tensor]] = []  # (layer, a parameter's grad norm)
        self._forwards = 0  # training forwards in this step
        self._explicit = False  # the user calls step()
        self._by_optimizer = False  # an optimizer holding the model has stepped: steps are updates
        self._updated = False  # it has stepped since this step began
        self._loss_given = False  # step() gets the loss: steps between samples read it alone
        self._losses: deque[float] = deque(maxlen=50)
        self._last_loss: float | None = None
        self._top_loss = -math.inf  # the highest finite loss so far
        self._spike: tuple[Finding, float] | None = None  # a step's spike, and the next one's bar
        self._flow: dict[str, deque[tuple[float, float]]] = {}  # (layer norm, largest norm)
        self._first_norm: dict[str, tuple[int, float]] = {}
        self._memory: deque[tuple[int, float]] = deque(maxlen=_SAMPLES + 1)
        self._reported: set[tuple[str, str]] = set()
        self._kinds: set[str] = set()  # the checks already told live, once each
        names = {id(p): n for n, p in model.named_parameters()}
        self._dropouts = dropouts(model)
        self._eval_forwards = 0
        self._full = True  # this step reads every module (see _sampled)
        self._pending: Finding | None = None  # a NaN seen between samples, not yet located
        self._optim = OptimizerChecks(
            names, self._once, lambda: self.step_count, every, self._optimizer_stepped
        )
        self._ranks = RankChecks(model, self._once, every)
        self._schedulers = SchedulerChecks(set(names), self._once, every)
        self._mode_dependent = mode_dependent(model)  # layers other than Dropout
        self._frozen_set = FrozenSetCheck(model, self._once)
        self._eval_train = EvalTrainProbe(model, self._once, lambda: self.step_count, every)

    def __repr__(self) -> str:
        """`Watch(Net, 120 steps, 1 finding: watch.nonfinite)`; the findings are `.findings`."""
        found = summary(self.findings)
        return f"Watch({type(self.model).__name__}, {self.step_count} steps, {found})"

    # attaching --------------------------------------------------------------------------------

    def attach(self) -> Watch:
        if self._handles:
            return self
        self._handles.append(self.model.register_forward_pre_hook(self._root_pre))
        self._handles.append(self.model.register_forward_hook(self._root_forward))
        self._optim.attach()
        self._ranks.attach()
        self._schedulers.attach()
        self._frozen_set.attach()
        self._eval_train.attach()
        autocast_switched_off.follow(self._once, self.model, lambda: self.step_count)
        self._hook_layers(self._full or self._norm_each_step)  # a break_on reading the norm
        if self._exporter is not None:
            self._exporter.follow_lr({id(p) for p in self.model.parameters()})
        self._statm = _Statm.open()
        if self._timeout is not None:
            self._timeout.start()
        return self

    def _hook_layers(self, on: bool) -> None:
        """Hooks on every layer and parameter only while they are read: on the sampled steps.
        A module with any forward hook takes torch's slow call path and a parameter hook is a
        call into Python per tensor, which on a GPT-sized model cost more than all the rest of
        watch together."""
        if on == bool(self._layer_handles):
            return
        if not on:
            for h in self._layer_handles:
                h.remove()
            self._layer_handles.clear()
            return
        for module in self.model.modules():
            if module is not self.model and not any(True for _ in module.children()):
                self._layer_handles.append(module.register_forward_hook(self._forward))
        for p in self.model.parameters():
            # a lazy module's parameter before its first forward refuses hooks: its gradient
            # norms are simply not read (the layers around it still are)
            if p.requires_grad and not is_lazy(p):
                hook = self._param_hook(self._owner[id(p)])
                self._layer_handles.append(p.register_hook(hook))

    def detach(self) -> None:
        # first: torch's autocast.__init__ is put back whatever fails after
        autocast_switched_off.unfollow(self._once)
        self._optim.detach()
        self._ranks.detach()
        self._schedulers.detach()
        self._frozen_set.detach()
        self._eval_train.detach()
        if self._timeout is not None:
            self._timeout.stop()
        self._end_step()
        if self._pending is not None:  # the run ended before a step could locate it
            self._once("watch.nonfinite", "", self._pending)
            self._pending = None
        self._hook_layers(False)
        for h in self._handles:
            h.remove()
        self._handles.clear()
        if self._statm is not None:
            self._statm.close()
            self._statm = None
        if self._exporter is not None:
            self._exporter.close()

    def __enter__(self) -> Watch:
        return self.attach()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.detach()

    # hooks ------------------------------------------------------------------------------------

    def _root_pre(self, module: nn.Module, args: tuple[Any, ...]) -> None:
        if self._timeout is not None:
            self._timeout.progress()  # a forward, training or eval, is progress
        if not module.training:
            self._eval_forward()
            return
        if not torch.is_grad_enabled():
            return
        if self._forwards and not self._explicit and (self._updated or not self._by_optimizer):
            self._end_step()  # a loop that never calls step(): this forward begins the next one
        self._forwards += 1
        if self._full:
            for t in _floats(args):
                self._flag("input", _FORWARD, t)

    def _eval_forward(self) -> None:
        """Sampled: the first eval forwards, then one in `every`."""
        self._eval_forwards += 1
        n = self._eval_forwards
        if n > _FIRST_EVALS and n % self.every:
            return
        if self._dropouts:
            found = dropout_training_at_eval(self.model, self._dropouts, self.step_count)
            if found is not None:
                self._once("watch.eval-dropout", "", found)
        if self._mode_dependent:
            found = training_under_eval(self.model, self._mode_dependent, self.step_count)
            if found is not None:
                self._once("watch.eval-training", "", found)

    def _root_forward(self, module: nn.Module, args: tuple[Any, ...], output: Any) -> None:
        """The model's output. A step between samples reads it and nothing else, or nothing at
        all when step() gets the loss: a NaN output gives a NaN loss, and the loss is read
        anyway. This is most of watch's fixed cost per step, kept to a sum and an append."""
        if self._full or self._root_eligible:
            self._forward(module, args, output)
            return
        if self._loss_given and module.training:
            return
        for t in _floats(output):
            self._flag(self._root_name, _FORWARD, t)
        if len(self._flags) > _MAX_PENDING:  # forwards with no training step (inference)
            self._read_pending()

    def _forward(self, module: nn.Module, args: tuple[Any, ...], output: Any) -> None:
        if not self._full and module is not self.model:
            return  # a step between samples: only the model's output is read
        name = self._names.get(id(module), type(module).__name__)
        recording = self._recorder is not None and self._full and self.model.training
        if recording and torch.is_grad_enabled() and self._recorder is not None:
            self._recorder.hook(module, args, output)  # stats=True: a training step's activations
        for t in _floats(output):
            self._flag(name, _FORWARD, t)
        if isinstance(module, AUTOCAST_ELIGIBLE) and "watch.autocast-off" not in self._kinds:
            found = autocast_not_applied(name, output, self.step_count)
            if found is not None:
                self._once("watch.autocast-off", "", found)
        if len(self._flags) > _MAX_PENDING:  # forwards with no training step (inference)
            self._read_pending()
        if self._full and torch.is_grad_enabled():
            # The gradient of a module's input is what its backward produced: a NaN there is
            # this module's (its parameters' gradients are checked by _param_hook).
            for t in _floats(args):
                if t.requires_grad:
                    t.register_hook(self._input_grad_hook(name))

    def _read_pending(self) -> None:
        flags, values = self._read()
        self._check_nonfinite(self.step_count, flags, values)

    def _flag(self, name: str, phase: dict[str, str], t: torch.Tensor) -> None:
        try:
            total = _total(t)
        except (RuntimeError, NotImplementedError, TypeError):
            return  # a layout with no sum: not read, never a crash of the user's training
        self._flags.append((name, phase, total))

    def _input_grad_hook(self, name: str) -> Any:
        def hook(grad: torch.Tensor) -> None:
            self._flag(name, _BACKWARD, grad)

        return hook

    def _param_hook(self, layer: str) -> Any:
        def hook(grad: torch.Tensor) -> None:
            if not self._full and not self._norm_each_step:
                return
            norm = _norm(grad)
            if norm is not None:
                # a float32 norm is its own flag (nan or inf exactly when the gradient is)
                flag = norm if norm.dtype == torch.float32 else _total(norm)
                self._norms.append((layer, norm.float()))
                self._flags.append((layer, _BACKWARD, flag))

        return hook

    # steps ------------------------------------------------------------------------------------

    def step(self, loss: Any = None, *, indices: Any = None, sample_losses: Any = None) -> None:
        """Mark the end of a training step; give the loss to follow its spikes. A loss with one
        value per sample (reduction="none") is followed as its mean, and, like `sample_losses`
        and the batch's `indices`, names the worst samples when break_on stops the run."""
        self._explicit = True
        self._loss_given = loss is not None
        if isinstance(loss, torch.Tensor):
            if loss.numel() > 1:
                per_sample = loss.detach().float()
                sample_losses = (
                    per_sample.flatten(1).mean(1) if per_sample.dim() > 1 else per_sample
                )
                loss = per_sample.mean()
            self._last_loss = loss.item()
        elif loss is not None:
            self._last_loss = float(loss)
        if indices is not None or sample_losses is not None:  # for break_on's report
            if isinstance(indices, torch.Tensor):
                indices = indices.tolist()
            if isinstance(sample_losses, torch.Tensor):
                sample_losses = sample_losses.detach().float().flatten().tolist()
            self._batch = (indices, sample_losses)
        self._end_step()

    def _optimizer_stepped(self) -> None:
        """An optimizer holding the model's parameters finished a step. In a loop that never
        calls step(), the next training forward then begins a step, and the forwards before an
        update (gradient accumulation, LBFGS's closure) do not: a step is one update."""
        self._by_optimizer = self._updated = True

    def _end_step(self) -> None:
        if not (self._flags or self._norms or self._last_loss is not None or self._forwards):
            return
        step = self.step_count
        flags, values = self._read()
        nonfinite = self._check_nonfinite(step, flags, values) if flags else False
        layer_norms = self._layer_norms(values[len(flags) :]) if self._norms else {}
        loss = self._last_loss
        self._last_loss = None
        if loss is not None:
            self._check_loss(step, loss)
            nonfinite = nonfinite or not math.isfinite(loss)
        if step % self.every == 0:
            self._check_flow(step, layer_norms)
            self._check_memory(step)
        if self.log_every and step % self.log_every == 0:
            self._log(step, loss, layer_norms)
        if self._full and self._pending is not None:
            # the step sampled to locate a NaN found none: report where it was first seen
            self._once("watch.nonfinite", "", self._pending)
        if self._full:
            self._pending = None
        self._forwards = 0
        self._updated = False
        self.step_count += 1
        if self._timeout is not None:
            self._timeout.progress(step)
        self._full = self._sampled(self.step_count)
        self._hook_layers(self._full or self._norm_each_step)
        total = math.sqrt(sum(v * v for v in layer_norms.values())) if layer_norms else None
        stop = self._check_break(step, loss, total, nonfinite)
        layers = self._recorder.take() if self._recorder is not None else None
        if layers is not None and layers[0].rows:
            self.layer_stats = layers[0]
        if self._exporter is not None:
            found = [f.check for f in self.findings[self._exported :]]
            self._exported = len(self.findings)
            rows = layers if layers is not None and layers[0].rows else None
            self._exporter.step(step, loss, total, found, rows)
        if stop is not None:
            self._stop(stop)

    def _check_break(
        self, step: int, loss: float | None, grad_norm: float | None, nonfinite: bool
    ) -> Finding | None:
        indices, sample_losses = self._batch
        self._batch = (None, None)
        if self._break is None:
            return None
        info = breaks.StepInfo(step, loss, grad_norm, nonfinite, indices, sample_losses)
        reason = self._break(info)
        if reason is None:
            return None
        finding = breaks.finding(info, reason)
        self.findings.append(finding)
        return finding

    def _stop(self, finding: Finding) -> None:
        if self._exporter is not None:
            self._exporter.flush()  # the rows up to the bad step, whatever the user does next
        if self._break_action == "pdb":
            print(f"[diagnoser:{self.label}] {finding.line(default_lang())}", file=sys.stderr)
            if not breaks.post_mortem(_user_frame()):
                return  # the user continued the run from the debugger
        raise TrainingFindingError(finding)

    def _sampled(self, step: int) -> bool:
        """Whether every module's activations and gradients are read at this step: the first
        steps, one in `every`, each logged step, and the step after a NaN seen in the output or
        the loss (to locate it). The steps between read the model's output and the loss only,
        which keeps watch's cost per step low."""
        return (
            step < _FULL_FIRST
            or step % self.every == 0
            or bool(self.log_every and step % self.log_every == 0)
            or self._pending is not None
        )

    def _read(self) -> tuple[list[tuple[str, dict[str, str], torch.Tensor]], list[float]]:
        """This step's flags, and the values of the flags then of the gradient norms, read
        together: one `stack(...).tolist()` (one `.item()` for a single value), one sync."""
        flags = self._flags
        self._flags = []
        if not self._norms and len(flags) < 2:  # a step between samples: the output's flag
            return flags, [flags[0][2].item()] if flags else []
        tensors = [f for _, _, f in flags] + [n for _, n in self._norms]
        try:
            return flags, torch.stack(tensors).tolist()
        except RuntimeError:  # a model over several devices: a `.to()` each only then
            device = tensors[0].device
            return flags, torch.stack([t.to(device) for t in tensors]).tolist()

    def _layer_norms(self, values: list[float]) -> dict[str, float]:
        """Each layer's gradient norm from its parameters' norms (their values, read)."""
        squares: dict[str, float] = {}
        for (layer, _), v in zip(self._norms, values, strict=True):
            squares[layer] = squares.get(layer, 0.0) + v * v
        self._norms.clear()
        return {layer: math.sqrt(v) for layer, v in squares.items()}

    def _once(self, check: str, key: str, finding: Finding) -> None:
        if (check, key) not in self._reported:
            self._reported.add((check, key))
            self.findings.append(finding)
            if check not in self._kinds:
                self._kinds.add(check)
                self._tell(finding)

    def _tell(self, finding: Finding) -> None:
        """Report a finding as it happens: a line on stderr (or log_file), an exception that
        stops the run, or the user's callable."""
        if callable(self.on_finding):
            self.on_finding(finding)
        elif self.on_finding == "raise":
            raise TrainingFindingError(finding)
        elif self.on_finding == "warn":
            line = f"[diagnoser:{self.label}] {finding.line(default_lang())}"
            print(line, file=sys.stderr, flush=True)

    def _timed_out(self, finding: Finding, stacks: str) -> None:
        """From the timeout's thread, which cannot stop the run: on stderr unless quiet (even
        with on_finding="raise"); a callable gets the finding."""
        self.findings.append(finding)
        if callable(self.on_finding):
            self.on_finding(finding)
        elif self.on_finding != "quiet":
            line = f"[diagnoser:{self.label}] {finding.line(default_lang())}"
            print(f"{line}\n{stacks}", file=sys.stderr, flush=True)

    def _check_nonfinite(
        self, step: int, flags: list[tuple[str, dict[str, str], torch.Tensor]], values: list[float]
    ) -> bool:
        """Whether an activation or gradient read this step is NaN/inf (after the first one is
        reported, only a break_on condition still needs to know)."""
        values = values[: len(flags)]  # then come the gradient norms
        if all(map(math.isfinite, values)):
            return False
        if ("watch.nonfinite", "") in self._reported and self._break is None:
            return False  # reported already, and no break_on condition needs to know
        module, phase, _ = flags[next(i for i, v in enumerate(values) if not math.isfinite(v))]
        where = {"step": step, "phase": phase, "module": module}
        self._nonfinite(Finding("watch.nonfinite", where, location=module))
        return True

    def _nonfinite(self, finding: Finding) -> None:
        """Reported at once on a sampled step; on a step between samples, kept until the next
        step, sampled, says which module it starts in."""
        if self._full:
            self._once("watch.nonfinite", "", finding)
        elif self._pending is None:
            self._pending = finding

    def _check_loss(self, step: int, loss: float) -> None:
        if not math.isfinite(loss):
            values = {"step": step, "phase": _FORWARD, "module": "loss"}
            self._nonfinite(Finding("watch.nonfinite", values, location="loss"))
            return
        # A spike is relative to the run's own scale: far above the recent median, and above
        # twice the highest loss the run has had so far. A converging run's median falls while
        # its noisiest batches (a mislabelled sample, a hard batch) still reach its early
        # losses: 2.48 against a median of 0.45 is such a batch, not a spike. And it lasts: the
        # next step is above the same bar too. With a batch of one sample, a confidently wrong
        # one costs ten times the median and more, alone.
        if self._spike is not None:
            first, bar = self._spike
            self._spike = None
            if loss > bar:
                self._once("watch.loss-spike", "", first)
        if loss > 2 * self._top_loss and len(self._losses) >= 10:  # the median only then
            median = statistics.median(self._losses)
            if median > 0 and loss > self.spike_factor * median:
                values = {
                    "step": step,
                    "loss": f"{loss:.4g}",
                    "median": f"{median:.4g}",
                    "ratio": f"{loss / median:.1f}",
                    "top": f"{self._top_loss:.4g}",
                }
                bar = max(2 * self._top_loss, self.spike_factor * median)
                self._spike = (Finding("watch.loss-spike", values), bar)
        self._losses.append(loss)
        self._top_loss = max(self._top_loss, loss)

    def _check_flow(self, step: int, norms: dict[str, float]) -> None:
        finite = {k: v for k, v in norms.items() if math.isfinite(v)}
        if not finite:
            return
        top_layer = max(finite, key=finite.__getitem__)
        top = finite[top_layer]
        for layer, norm in finite.items():
            first_step, first = self._first_norm.setdefault(layer, (step, norm))
            if norm >= _EXPLODE and norm >= 100 * max(first, 1e-12):
                values = {
                    "layer": layer,
                    "norm": f"{norm:.3g}",
                    "step": step,
                    "first": f"{first:.3g}",
                    "first_step": first_step,
                }
                self._once("watch.grad-exploding", layer, Finding("watch.grad-exploding", values))
            history = self._flow.setdefault(layer, deque(maxlen=_SAMPLES))
            history.append((norm, top))
        full = {k: h for k, h in self._flow.items() if len(h) == _SAMPLES}
        dead = [k for k, h in full.items() if all(n == 0 for n, _ in h)]
        if dead:
            values = {"layer": ", ".join(dead), "count": _SAMPLES}
            self._once("watch.grad-dead", "", Finding("watch.grad-dead", values, location=dead[0]))
        faint = [k for k, h in full.items() if all(0 < n < _VANISH_RATIO * t for n, t in h)]
        if faint:
            worst = min(faint, key=finite.__getitem__)
            values = {
                "layer": worst,
                "count": len(faint),
                "top": top_layer,
                "norm": f"{finite[worst]:.2g}",
                "top_norm": f"{top:.2g}",
                "ratio": f"{1 / _VANISH_RATIO:,.0f}",
                "samples": _SAMPLES,
            }
            finding = Finding("watch.grad-vanishing", values, location=worst)
            self._once("watch.grad-vanishing", "", finding)

    def _check_memory(self, step: int) -> None:
        mb = _memory_mb(self.model, self._statm)
        if mb is None:
            return
        self._memory.append((step, mb))
        samples = list(self._memory)
        if len(samples) <= _SAMPLES:
            return
        rising = all(b[1] > a[1] for a, b in itertools.pairwise(samples))
        if rising and samples[-1][1] - samples[0][1] >= self.leak_min_mb:
            param = next(self.model.parameters(), None)
            cuda = param is not None and param.is_cuda
            what = (
                {"en": "GPU memory allocated", "zh": "已分配的显存"}
                if cuda
                else {"en": "the process's memory (RSS)", "zh": "进程内存（RSS）"}
            )
            values = {
                "what": what,
                "count": len(samples),
                "first": f"{samples[0][1]:.0f}",
                "first_step": samples[0][0],
                "last": f"{samples[-1][1]:.0f}",
                "last_step": samples[-1][0],
            }
            self._once("watch.memory-growth", "", Finding("watch.memory-growth", values))

    def _log(self, step: int, loss: float | None, norms: dict[str, float]) -> None:
        """One line that `diagnoser train.log` reads (training_log.py: `key value` segments)."""
        parts = [f"step {step}"]
        if loss is not None:
            parts.append(f"loss {loss:.6g}")
        if norms:
            parts.append(f"grad_norm {math.sqrt(sum(v * v for v in norms.values())):.6g}")
        mb = _memory_mb(self.model, self._statm)
        if mb is not None:
            parts.append(f"memory {mb:.1f} MB")
        line = f"[diagnoser:{self.label}] " + " | ".join(parts)
        print(line, file=self.log_file or sys.stderr, flush=True)


def _user_frame() -> Any:
    """The frame of the user's code that called into watch (its step(), or the model's forward
    for a loop that never calls it): where the debugger opens."""
    frame = sys._getframe(1)
    here = __name__.rpartition(".")[0]  # diagnoser.runtime
    while frame.f_back is not None and (
        frame.f_globals.get("__name__", "").startswith((here, "torch."))
    ):
        frame = frame.f_back
    return frame


def _total(t: torch.Tensor) -> torch.Tensor:
    """One read of the tensor, no sync, as a float32 scalar that is nan or inf exactly when an
    element is (a finite float32 sum overflows only past 3e38; half precision is summed in
    float32). A float64 or complex sum is read as `s - s`: 0 when finite, nan otherwise, so that a
    large finite float64 value does not overflow float32."""
    t = _dense(t.detach())
    if t.dtype in _LOW:
        return t.sum(dtype=torch.float32)
    s = t.sum()
    if s.dtype == torch.float32:
        return s
    s = s - s
    return (torch.view_as_real(s).sum() if s.is_complex() else s).float()


def _norm(grad: torch.Tensor) -> torch.Tensor | None:
    """A gradient's norm, whatever its dtype (float64, bfloat16, complex: a real scalar, float32
    at least) or layout (a sparse embedding's gradient); None for a layout it cannot read."""
    try:
        g = _dense(grad.detach())
        if g.dtype in _LOW:
            return torch.linalg.vector_norm(g, dtype=torch.float32)  # type: ignore[no-any-return]
        return torch.linalg.vector_norm(g)  # type: ignore[no-any-return]
    except (RuntimeError, NotImplementedError, TypeError):
        return None


def _dense(t: torch.Tensor) -> torch.Tensor:
    """The stored values of a sparse tensor (its non-zeros decide finiteness and the norm)."""
    if t.layout == torch.sparse_coo:
        return t.coalesce().values()
    if t.layout != torch.strided and not t.is_nested:
        return t.values()  # CSR, CSC, BSR, BSC
    return t


_LOW = (torch.float16, torch.bfloat16)


def _label(name: str, module: nn.Module) -> str:
    """`encoder.0 (Linear)`: the name to find it by and the kind of layer it is."""
    kind = type(module).__name__
    return f"{name} ({kind})" if name else kind


def _floats(value: Any) -> list[torch.Tensor]:
    """The float and complex tensors inside an activation (nested tensors are skipped: they have
    no cheap sum)."""
    if isinstance(value, torch.Tensor):
        readable = (value.is_floating_point() or value.is_complex()) and not value.is_nested
        return [value] if readable else []
    if isinstance(value, (tuple, list)):
        return [t for v in value for t in _floats(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in _floats(v)]
    return []


def _memory_mb(model: nn.Module, statm: _Statm | None) -> float | None:
    """Allocated CUDA memory for a model on a GPU, else the process's resident set size."""
    param = next(model.parameters(), None)
    if param is not None and param.is_cuda:
        return torch.cuda.memory_allocated(param.device) / 2**20
    return statm.rss_mb() if statm is not None else None


class _Statm:
    """/proc/self/statm opened once and read again at each sample (opening it each time cost
    more than the rest of a sampled step on a small model). None where there is no /proc
    (macOS, Windows): leaks on the CPU are not followed there."""

    def __init__(self, fd: int) -> None:
        import resource

        self._fd: int | None = fd
        self._page = resource.getpagesize()

    @classmethod
    def open(cls) -> _Statm | None:
        try:
            return cls(os.open("/proc/self/statm", os.O_RDONLY))
        except (OSError, ImportError):
            return None

    def rss_mb(self) -> float | None:
        if self._fd is None:
            return None
        try:
            pages = int(os.pread(self._fd, 256, 0).split()[1])
        except (OSError, ValueError, IndexError):
            return None
        return pages * self._page / 2**20

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None


def watch(model: nn.Module, **options: Any) -> Watch:
    """Monitor a model during training: `with diagnoser.watch(model) as w: ...; w.step(loss)`.

    Options: every (sample gradient flow and memory every N steps, default 10), log_every (print
    a line `diagnoser train.log` reads every N steps, `[diagnoser:<label>] step 3 | loss ...`),
    log_file (default stderr), label (names the model in those lines; default its class name:
    two watched models in one log are read apart), spike_factor, leak_min_mb, on_finding ("warn":
    one line on stderr as soon as a kind of finding first appears, the default; "raise": stop the
    run with a TrainingFindingError; "quiet"; or a callable that gets each Finding), break_on
    ("nan", {"loss_above": 10.0, "grad_norm_above": 1e3, "nan": True} or a callable(StepInfo)
    -> bool: stop at the step it holds; see breaks.py) with break_on_action ("raise" a
    TrainingFindingError, the default, or "pdb": the debugger at your frame), step_timeout
    (seconds; or the DIAGNOSER_STEP_TIMEOUT environment variable, for torchrun: when no step
    finishes for that long, print on stderr the last step and every thread's stack, and under
    torch.distributed the rank and the collective it waits in; the run is not stopped). Optimizers
    holding the model's parameters are watched through torch's optimizer step hooks. After the
    run, `w.findings` holds what it saw."""
    return Watch(model, **options)
