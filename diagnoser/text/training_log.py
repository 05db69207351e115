"""Read the numbers out of a training log: loss, val loss, accuracy, grad norm, memory, timings.

Formats seen in the wild, one record per line: plain `epoch 3 loss 0.42`, `key=value` (tqdm and
Lightning postfixes), `key: value - key: value` (Keras style), `a | b | c` tables, Python dicts and
JSON lines (HF Trainer), and tables whose names stand in a header row (Markdown, tab-separated,
aligned columns). Keys are mapped to canonical names; unknown keys are ignored, but in a line an
epoch or step counter leads, where one of them may be the loss (`Train_rf`, `nll`, `L_total`),
and in rows of numbers without a header, whose columns take their roles from their values.
"""

from __future__ import annotations

import itertools
import math
import re

from ..knowledge.records import dataclass, field
from ..knowledge.regex_cache import compile_cached

# (digits then an optional fraction: `\d+\.?\d*` reads the same numbers, but its two runs of
# digits backtrack against each other over a long run of digits that ends in no match)
_NUM = r"[-+]?(?:nan|inf(?:inity)?|(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)"
# Each pattern starts only where its first run can start ((?<!\s), (?<![\w./])): otherwise a
# 50 KB run of spaces or letters is rescanned from each of its positions (quadratic).
# A value's opening bracket, before a number with a fraction (`loss[4.99]`, where `data[0]` and
# `size: (2 x 2)` are code and shapes); a round one only after the `=` or `:` that says the value
# comes (`loss=(4.99)`)
_VALUE_BRACKET = r"(?:(?:\[|(?<=[:=])\(|(?<=[:=]\s)\()(?=[-+]?(?:\d*\.\d|nan|inf)))?"
_SEGMENTS = compile_cached(r"(?<!\s)\s*(?:\||,|;|\t| - | — )\s*")
_PAIR = compile_cached(
    # the key or the value may stand in brackets: `[loss]: 4.99`, `loss[4.99]`, `loss=(4.99)`
    # (not `acc[0]: 0.5`, an index then the value; not `time (data): 0.36`, where the 0.36 is
    # the time's: a key in round brackets names what the next number is not)
    r"(?<![\w./])(?P<open>\[)?(?P<key>[A-Za-z][\w./]*(?: [A-Za-z][\w./]*){0,3}?)(?(open)\])"
    # one run of blanks or two around [:=]
    rf"['\"]?\s*(?:[:=]\s*)?['\"]?{_VALUE_BRACKET}(?P<value>{_NUM})(?!\]\s*[:=])"
    r"(?:\s*(?P<unit>[KMG]i?B?|ms|s|%))?(?![\w.])",
    re.IGNORECASE,
)
# A segment holds a pair worth reading only if a known key's last word (every key of _KEYS below
# ends with one of these; the tests check it) is followed by a number, as _PAIR requires: _PAIR's
# backtracking over the long words of a message is dear, and a traceback's `File "...", line 17`
# has both a number and words such as "data". Searched in the lower-cased text, the words grouped
# by their first letter: at each position the engine tries one group, not every word. (An
# Aho-Corasick pass over the words is faster still, but importing it costs a cold start more.)
_KEY_THEN_NUMBER = compile_cached(
    r"(?:a(?:ccuracy|ccu|cc|llocated)|b(?:ackward|wd|s)|compute|data|epoch|forward|gpu"
    r"|l(?:oading|oad|oss(?:[_.][a-z0-9]{1,8}){0,3}|ogging)|m(?:emory|em|etrics?|odel)|norm"
    r"|optim(?:izer)?|reserved"
    # the blanks around an optional [:=] as two branches: `\s*[:=]?\s*` splits a run of blanks
    # every way and is quadratic on one
    r"|r(?:am|ss)|s(?:ize|tep)|time|u(?:pdate|sed)|/it)\]?['\"]?(?:\s*[:=]\s*|\s*)['\"]?"
    rf"{_VALUE_BRACKET}[-+]?(?:nan|inf|\.?\d)"
)
# print(loss) and f"loss: {loss}" show a 0-d tensor as `tensor(0.6931, grad_fn=<NllLossBackward0>)`
# (device=/dtype= beside it off the CPU): the number is the value, and a loss's grad_fn says it is
# a loss where nothing before it on the line names one (a column of printed losses)
_SCALAR_TENSOR = compile_cached(
    rf"\btensor\(\s{{0,3}}({_NUM})((?:,[^()\n]{{0,200}})?)\)", re.IGNORECASE
)
_LOSS_GRAD_FN = ("lossbackward", "crossentropy", "kldivbackward")
_EPOCH = compile_cached(r"\bepoch\b\W{0,3}(\d+(?:\.\d+)?)", re.IGNORECASE)
_STEP = compile_cached(r"\b(?:step|iter(?:ation)?|batch|it)\b\W{0,3}(\d+)", re.IGNORECASE)
_GRAD_SET = compile_cached(r"^\s*[A-Za-z_][\w.]*\s+grad(?:ient)?\s*[:=]\s*(?:norm|tensor|[\d.])")
# nvidia-smi's per-GPU row: "| 30%  41C  P2  112W / 350W |  9822MiB / 24576MiB |  0%  Default |"
_NVIDIA_SMI_ROW = compile_cached(
    r"\|\s*(?:\d+%|N/A)\s+\d+C\s+P\d+\b[^|]*\|\s*(?P<used>\d+)MiB\s*/\s*\d+MiB\s*\|\s*(?P<util>\d+)%"
)
_GRAD_NONE = compile_cached(
    r"^\s*(?P<param>[A-Za-z_][\w.]*)(?:\s*[:|,])?\s+grad(?:ient)?\s*[:=]\s*None\b"
)
# One parameter's gradient norm (or mean) per line, as printed from model.named_parameters():
# "layers.0.weight  grad norm 1.4e-09", "0.weight: grad_norm=0.32", "fc.weight grad: tensor(0.01)",
# "layers.0.0.weight has gradient mean of 0.0002", "第 0 层 0.weight: 梯度均值 7.6e-18". The layer's
# position may lead ("第 3 层", "layer 3:"), set apart from the name: "layer1.0.conv1.weight" is one
# name. Chinese says the gradient (梯度) and its statistic (均值, 范数) without a space.
_PARAM_GRAD = compile_cached(
    r"^\s*(?:第\s*\d+\s*层\s*[:：|,]?\s*|layer\s*\d+(?:\s*[:：|,]\s*|\s+))?"
    r"(?P<param>(?=[\w.]*[A-Za-z])[\w.]+\.(?:weight|bias)\w*)(?:\s*[:：|,]\s*|\s+)(?:has\s+)?"
    r"(?:grad(?:ient)?|梯度)(?:[ _]?(?:abs[ _])?(?:norm|mean)(?:\s+of)?|的?(?:均值|范数|平均值))?"
    rf"\s*(?:[:=：]\s*)?(?:norm\s*=\s*|tensor\()?(?P<value>{_NUM})(?![\w.])",
    re.IGNORECASE,
)
_BATCHNORM = compile_cached(r"\b(?:Sync)?BatchNorm(?:[123]d)?\(")
# diagnoser.watch's line, with the model it is about: "[diagnoser:Generator] step 3 | loss 0.7"
_WATCH_LABEL = compile_cached(r"^\s*\[diagnoser:(?P<label>[^\]\n]{1,80})\]\s")
_WATCH_STEP = compile_cached(r"^\s*step (?P<step>\d{1,12})\b")

# a term's name: words joined by "_" or "." with "loss" among them ("s0.loss_cls", "box_loss"),
# each word short (the pre-filter below reads the words after "loss" as this does)
_PART_OF_LOSS = (
    # not a GAN's model's loss (a word of its name says which model or which of the
    # discriminator's two terms: loss_dis, g_adv_loss, loss_D_fake): each model has its own; nor
    # a tracker of the best value so far ('best_train_loss': inf, before the first epoch)
    r"(?![a-z0-9_.]*?(?<![a-z0-9])(?:d|g|dis|disc|gen|adv|critic|generator|discriminator|real"
    r"|fake|best|min|lowest|prev)(?![a-z0-9]))"
    # nor the whole loss by another of its names (total_loss, val_loss)
    r"(?!(?:mean|avg|average|epoch|running|total"
    r"|train|training|val|valid|validation|eval|dev|test)[_.]loss$|loss[_.](?:step|epoch)$)"
    r"(?:(?:[a-z0-9]{1,8}[_.]){1,3}loss(?:[_.][a-z0-9]{1,8}){0,3}|loss(?:[_.][a-z0-9]{1,8}){1,3})"
)
_KEYS: list[tuple[str, re.Pattern[str]]] = [
    (
        "val_loss",
        compile_cached(
            r"^(?:(?:mean|avg|average|epoch)[ _])?"
            r"(?:val(?:id(?:ation)?)?|eval|dev|test)[ _/-]?loss(?:[_/](?:step|epoch))?$"
        ),
    ),
    (
        "loss",
        compile_cached(
            r"^(?:(?:mean|avg|average|epoch|running|total|tot)[ _])?(?:train(?:ing)?[ _/-]?)?"
            r"loss(?:[_/](?:step|epoch))?$"
        ),
    ),
    # (`Accu`: accuracy cut short)
    ("val_acc", compile_cached(r"^(?:val(?:id(?:ation)?)?|eval|dev|test)[ _/-]?acc(?:u|uracy)?$")),
    ("acc", compile_cached(r"^(?:train(?:ing)?[ _/-]?)?acc(?:u|uracy)?$")),
    ("grad_norm", compile_cached(r"^(?:grad(?:ient)?[ _]?norm|total[ _]norm|gnorm)$")),
    (
        "memory",
        compile_cached(
            r"^(?:(?:gpu|cuda|max)[ _]?)?mem(?:ory)?(?:[ _](?:allocated|reserved|used))?$"
            r"|^(?:max[ _])?(?:memory[ _])?allocated$"
            # the process's or the GPU's memory by its other names: rss, ram, vram, "host ram"
            r"|^(?:(?:cpu|host|gpu|cuda|max|peak)[ _]?)?(?:rss|v?ram)$"
        ),
    ),
    ("data_time", compile_cached(r"^data(?:[ _]?(?:time|load(?:ing)?(?:[ _]time)?))?$")),
    ("compute_time", compile_cached(r"^(?:compute|forward|gpu|model)(?:[ _]time)?$")),
    ("backward_time", compile_cached(r"^(?:backward|bwd)(?:[ _]time)?$")),
    (
        "optimizer_time",
        compile_cached(r"^(?:optim(?:izer)?(?:[ _]step)?|opt[ _]step|update)(?:[ _]time)?$"),
    ),
    ("metrics_time", compile_cached(r"^(?:metrics?|logging)(?:[ _]time)?$")),
    # the time of one step (not the time elapsed since the start, which grows by nature)
    (
        "step_time",
        compile_cached(
            r"^(?:(?:step|iter(?:ation)?|batch|it)[ _]?)?time$"
            r"|^(?:m?s|sec)/it$"
        ),
    ),
    ("batch_size", compile_cached(r"^(?:batch[ _]?size|bs)$")),
    ("data_wait_pct", compile_cached(r"^waiting (?:on|for) data$")),
    # One term of a loss made of several (detection's loss_cls + loss_bbox, YOLO's box_loss,
    # fairseq's nll_loss, a VAE's kl_loss): where no total is printed, the terms add up to it. A
    # GAN's two losses (d_loss, loss_G) are two models' losses, not terms of one. Last, and tried
    # only on a name that says loss (canonical_key: the last two).
    (
        "val_loss_part",
        compile_cached(rf"^(?:val(?:id(?:ation)?)?|eval|dev|test)[ _/-]?{_PART_OF_LOSS}$"),
    ),
    ("loss_part", compile_cached(rf"^(?:train(?:ing)?[ _/-]?)?{_PART_OF_LOSS}$")),
]
_TO_MB = {
    **{f"k{i}": 1 / 1024 for i in ("", "b", "i", "ib")},
    **{f"m{i}": 1.0 for i in ("", "b", "i", "ib")},
    **{f"g{i}": 1024.0 for i in ("", "b", "i", "ib")},
}


@dataclass(frozen=True, slots=True)  # slots: a long log holds hundreds of thousands of these
class Point:
    value: float
    line: int  # 1-based line number in the log
    epoch: float | None = None  # fractional in a Hugging Face Trainer's log ('epoch': 0.01)
    step: int | None = None

    @property
    def at(self) -> str:
        """Where in the run, in the log's own terms: "epoch 5, step 1200", else "line 17"."""
        parts = [
            f"epoch {self.epoch}" if self.epoch is not None else "",
            f"step {self.step}" if self.step is not None else "",
        ]
        return ", ".join(p for p in parts if p) or f"line {self.line}"


@dataclass
class TrainingLog:
    series: dict[str, list[Point]] = field(default_factory=dict)
    grad_none: list[str] = field(default_factory=list)  # parameters printed with `grad: None`
    grad_set: list[str] = field(default_factory=list)
    # Gradient norm per parameter, in the order first printed (the model's order: input first).
    param_grads: dict[str, list[float]] = field(default_factory=dict)
    batchnorm: bool = False  # the log prints a model with BatchNorm layers
    # The most digits after the point any value of a series was printed with: "0.00" may be 0.004.
    decimals: dict[str, int] = field(default_factory=dict)
    # The lines of each model `diagnoser.watch` labelled (`[diagnoser:Generator] step 3 | ...`),
    # read apart: two models' losses in one log are two series, not one that jumps between them.
    models: dict[str, TrainingLog] = field(default_factory=dict)
    # A DataLoader timed alone (founding guide 001's benchmark_dataloader): (num_workers, or
    # None when not printed; milliseconds per batch).
    loader_ms: list[tuple[int | None, float]] = field(default_factory=list)
    # The series whose name the reader guessed from a line's context (_unnamed_loss): one whose
    # value never changes is a setting printed each epoch, not a loss, and is dropped at the end.
    guessed: dict[str, int] = field(default_factory=dict)  # readings of each guessed series

    def __bool__(self) -> bool:
        """Something the detectors read: a series, parameters without or with gradients."""
        return bool(
            self.series or self.grad_none or self.param_grads or self.models or self.loader_ms
        )


def _watched_model(log: TrainingLog, label: str, rest: str, steps: dict[str, int]) -> TrainingLog:
    """The series a `diagnoser.watch` line belongs to. Two models of one class have one label: a
    step that does not follow its model's last one is another model's ("Net", "Net (2)"), whether
    their lines interleave or one run follows the other."""
    step = _WATCH_STEP.match(rest)
    if step is None:
        return log.models.setdefault(label, TrainingLog())
    n, key = int(step.group("step")), label
    for k in range(2, 64):
        if steps.get(key, -1) < n:
            break
        key = f"{label} ({k})"
    steps[key] = n
    return log.models.setdefault(key, TrainingLog())


def canonical_key(key: str) -> str | None:
    key = key.strip().strip("'\"{[").lower()
    for name, pattern in _KEYS[:-2] if "loss" not in key else _KEYS:
        if pattern.match(key):
            return name
    return None


def _number(text: str) -> float:
    return float(text.lower().replace("infinity", "inf"))


def read(text: str, max_lines: int = 200_000) -> TrainingLog:
    log = TrainingLog()
    header: list[Column] | None = None  # the columns of the table being read, if any
    # Every gradient line says "grad" (or 梯度): most texts (tracebacks) never do, and skip three
    # regexes.
    gradients = "grad" in text.lower() or "梯度" in text
    steps: dict[str, int] = {}  # each watched model's last step (_watched_model)
    if "\r" in text:
        # a progress bar redrawn with \r: each drawing is a reading, as on the terminal
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    lines = text.split("\n")[:max_lines]
    csv_header = _csv_header(lines[0]) if lines and "," in lines[0] else None
    if csv_header is not None:
        _read_csv(lines, csv_header, log)
        return log
    workers: int | None = None  # the num_workers a loader benchmark's lines are about
    # Whole-text checks, so that the lines of a traceback skip the regexes: progress bars to
    # strip, Chinese names of the metrics to read.
    bars = "%|" in text or "[=" in text  # tqdm's bar, Keras's
    # (isascii costs nothing: a str knows whether it is ASCII; 率: 准确率, 正确率)
    chinese = not text.isascii() and (
        "第" in text
        or "损失" in text
        or "率" in text
        or "显存" in text
        or "梯度" in text
        or "训练" in text
        or "验证" in text
        or "测试" in text
    )
    epoch_above: int | None = None  # "Epoch 3/50" on a line of its own, above its numbers
    bare: list[BareRow] = []  # rows of a table whose header was not pasted
    numeric: list[tuple[int, list[str]]] = []  # rows of numbers alone, a counter first
    for lineno, line in enumerate(lines, start=1):
        if line.startswith('  File "'):
            continue  # a traceback's frame: a path, a line number, a function; never a metric
        if ("Error" in line or "Exception" in line) and _EXCEPTION_LINE.match(line):
            # an exception's message: its numbers are sizes and addresses ("Tried to allocate
            # 20.00 MiB (GPU 0; 7.93 GiB total capacity ...)"), never a metric of the run
            continue
        if gradients and _read_gradient(line, log):
            continue
        if "num_workers" in line and (named := _BENCH_WORKERS.match(line)):
            workers = int(named.group(1))
            continue
        if ("批次" in line or "per batch" in line) and (timed := _BENCH_PER_BATCH.match(line)):
            ms = _number(timed.group("value")) * (1000 if timed.group("unit") == "s" else 1)
            log.loader_ms.append((workers, ms))
            continue
        if not log.batchnorm and "BatchNorm" in line and _BATCHNORM.search(line):
            log.batchnorm = True
        smi = _NVIDIA_SMI_ROW.search(line)
        if smi and int(smi.group("used")) >= 1024:  # a GPU with a process on it, not a spare one
            log.series.setdefault("gpu_util", []).append(Point(float(smi.group("util")), lineno))
            continue
        if "[diagnoser:" in line and (watched := _WATCH_LABEL.match(line)):
            rest = line[watched.end() :]
            _read_line(rest, lineno, _watched_model(log, watched.group("label"), rest, steps))
            continue
        if bars and ("%|" in line or "/s" in line or "/it" in line or "[=" in line):
            line = _PROGRESS_BAR.sub("", line)
        if chinese:
            line = _ZH_KEY.sub(_in_english, line)
        if "poch" in line and (alone := _EPOCH_ALONE.match(line)):
            epoch_above = int(alone.group(1))
            continue
        cells = _cells(line)
        if len(cells) >= 3 and len(cells[0]) >= 19 and _TIMESTAMP.fullmatch(cells[0]):
            cells = cells[1:]  # a row stamped with its time (a CI runner's log, `docker logs`)
        if header and len(cells) == len(header) and all(_CELL_VALUE.match(c) for c in cells):
            _read_row(cells, header, lineno, log)
            continue
        if cells and "/" in cells[0] and len(cells) >= 3 and _bare_row(cells, lineno, bare):
            continue
        if len(cells) >= 3 and _INTEGER.match(cells[0]) and all(map(_PLAIN_NUMBER.match, cells)):
            numeric.append((lineno, cells))  # a row of a table whose header was not pasted
            continue
        if header and _TABLE_RULE.match(line):
            continue  # the |---|---| under a Markdown header
        # A trainer prints its header once (or once an epoch), then rows, validation lines and
        # progress between them: the header holds until another one comes.
        if (new_header := _table_header(cells)) is not None:
            header = new_header
        else:
            _read_line(
                _SCALAR_TENSOR.sub(_scalar, line) if "tensor(" in line else line,
                lineno,
                log,
                epoch_above,
            )
    if bare:
        _read_bare_rows(bare, log)
    if numeric:
        _read_counted_rows(numeric, log)
    for name, n in log.guessed.items():
        points = log.series.get(name, [])
        if len(points) == n and len({p.value for p in points}) == 1:
            del log.series[name]
    return log


def _scalar(m: re.Match[str]) -> str:
    """A printed 0-d tensor as its number; `loss <number>` when its grad_fn is a loss's and the
    line names no loss before it."""
    grad_fn = m.group(2).lower()
    if any(w in grad_fn for w in _LOSS_GRAD_FN) and "loss" not in m.string[: m.start()].lower():
        return f"loss {m.group(1)}"
    return m.group(1)


# The founding guide 001's benchmark_dataloader prints, for each num_workers it tries:
#   num_workers=2:
#   加载 100 批次用时: 6.20s
#   每批次: 62.00ms
_BENCH_WORKERS = compile_cached(r"^\s*num_workers\s*=\s*(\d+)\s*(?:[:：]\s*)?$")
_BENCH_PER_BATCH = compile_cached(
    rf"^\s*(?:每批次|每个批次|time per batch|per batch)\s*[:：]\s*"
    rf"(?P<value>{_NUM})\s*(?P<unit>ms|s)\s*$",
    re.IGNORECASE,
)
_CSV_NAME = compile_cached(r"^[A-Za-z][\w./ -]{0,40}$")


def _csv_header(line: str) -> list[Column] | None:
    """The columns of a CSV file's first line, when it is one (`step,loss,grad_norm,lr` as
    watch(export=...) writes it, `epoch,step,train_loss,val_loss` as Lightning's CSVLogger
    does): names only, separated by commas, at least one of them a metric."""
    cells = [c.strip().strip('"') for c in line.strip().split(",")]
    if len(cells) < 2 or not all(_CSV_NAME.match(c) for c in cells):
        return None
    return _table_header(cells)


def _read_csv(lines: list[str], header: list[Column], log: TrainingLog) -> None:
    """A CSV's rows: a cell is read where its column is a metric and it holds a number; an
    empty cell is a value not logged at that step (not a zero)."""
    for lineno, line in enumerate(lines[1:], start=2):
        cells = [c.strip().strip('"') for c in line.split(",")]
        if len(cells) != len(header):
            continue
        kept = [
            (c, col)
            for c, col in zip(cells, header, strict=True)
            if col[0] is not None and c and _CELL_NUMBER.match(c)
        ]
        if kept and any(col[0] not in ("epoch", "step") for _, col in kept):
            _read_row([c for c, _ in kept], [col for _, col in kept], lineno, log)


def _read_gradient(line: str, log: TrainingLog) -> bool:
    """A parameter printed with `grad: None`, with its gradient's norm, or with a gradient: True
    when the line was one of these, and holds nothing else to read."""
    grad = _GRAD_NONE.match(line)
    if grad:
        log.grad_none.append(grad.group("param"))
        return True
    param_grad = _PARAM_GRAD.match(line)
    if param_grad:
        name = param_grad.group("param")
        log.param_grads.setdefault(name, []).append(_number(param_grad.group("value")))
    if _GRAD_SET.match(line):
        log.grad_set.append(line.split()[0])
        return True
    return param_grad is not None


_CELL_SPLIT = compile_cached(r"\s*[|\t]\s*|\s{2,}")
_CELL_NUMBER = compile_cached(rf"^{_NUM}%?$", re.IGNORECASE)
# A table's cell: a number, with a unit a trainer prints beside it (`3.52G`, `12%`), or a position
# `45/299` (epoch 45 of 299).
_CELL_VALUE = compile_cached(
    rf"^(?:(?P<num>{_NUM})(?P<unit>%|[KMG]i?B?)?|(?P<done>\d+)/\d+)$", re.IGNORECASE
)
# What a progress bar adds to the numbers: tqdm's `: 100%|█████| 118/118 [00:41<00:00,  2.87it/s`
# (the postfix after the rate, `loss=0.69`, stays) and Keras's `[=====>....]`.
_PROGRESS_BAR = compile_cached(
    r"(?::[^\S\n]*)?\d{1,3}%\|[^|\n]{0,200}\|(?:[^\S\n]*\d+/\d+)?"
    r"|\[\d+:\d+(?::\d+)?<[\d:?]*,[^\S\n]*[\d.?]+[^\S\n]*(?:it|s)/(?:it|s)\]?"
    r"|\[=*>?\.*\]"
)
# "Epoch 3/50" alone on its line: Keras prints it above the line of the epoch's numbers.
_EPOCH_ALONE = compile_cached(r"^\s*epoch\s+(\d+)\s*/\s*\d+\s*$", re.IGNORECASE)
# The metrics' Chinese names, read as their English ones: "第3轮 损失: 0.69 准确率: 50.1%",
# "验证集损失"; and the English name after a Chinese split, as Chinese logs mix them: "训练loss",
# "验证集acc" (the split is needed there: a bare "loss" is already English).
_ZH_SPLIT = r"训练集?|验证集?|测试集?|判别器|鉴别器|生成器"
_ZH_KEY = compile_cached(
    r"第[^\S\n]{0,3}(?P<epoch>\d{1,9})[^\S\n]{0,3}(?:轮|个[^\S\n]{0,3}epoch)"
    rf"|(?:(?P<split>{_ZH_SPLIT})[^\S\n]{{0,3}})?"
    r"(?P<what>损失值?|准确率|正确率|显存占用|显存|梯度范数)"
    rf"|(?P<en_split>{_ZH_SPLIT})[^\S\n]{{0,3}}(?P<en_what>[Ll]oss|[Aa]cc(?:uracy)?)(?![A-Za-z_])"
    r"|(?P<colon>：)"
)
_ZH_WHAT = {"损失": "loss", "准确": "acc", "正确": "acc", "显存": "memory", "梯度": "grad_norm"}


def _in_english(m: re.Match[str]) -> str:
    if m.group("epoch"):
        return f" epoch {m.group('epoch')} "
    if m.group("colon"):
        return ": "
    if m.group("en_what"):
        what, split = ("loss" if m.group("en_what")[0] in "Ll" else "acc"), m.group("en_split")
    else:
        what, split = _ZH_WHAT[m.group("what")[:2]], m.group("split") or ""
    # a GAN's two models' losses (判别器损失, 生成器损失) by the names a line in English gives them
    prefix = {"验": "val_", "测": "val_", "判": "d_", "鉴": "d_", "生": "g_"}.get(split[:1], "")
    return f" {prefix}{what} "


# The line Python prints an exception on: its class (dotted, as torch's are) and a colon.
_EXCEPTION_LINE = compile_cached(
    r"\s{0,8}(?:[A-Za-z_]\w{0,80}\.){0,8}[A-Za-z_]\w{0,80}(?:Error|Exception):"
)
_TIMESTAMP = compile_cached(
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d{1,9})?(?:Z|[+-]\d\d:?\d\d)?"
)
_LONE_NUMBER = compile_cached(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.])")
_TABLE_RULE = compile_cached(r"^[\s|:+=-]+$")
_INTEGER = compile_cached(r"^\d+$")


def _cells(line: str) -> list[str]:
    line = line.strip().strip("|").strip()
    if "|" not in line and " ".join(line.split()) == line:
        # single spaces alone separate no cells (str.split's whitespace is the regex's \s): most
        # lines, not worth the dear split
        return [line] if line else []
    return [c for c in _CELL_SPLIT.split(line) if c]


# A header's unit: "mem (MB)", "rss[GiB]", "time/ms", "step_time_ms".
_HEADER_UNIT = compile_cached(r"(?<!\s)\s*(?:[(\[]\s*([kmg]i?b|m?s)\s*[)\]]|[/_ ]([kmg]i?b|m?s))$")
_UNIT_SCALE = {**_TO_MB, "s": 1.0, "ms": 1 / 1000}
Column = tuple[str | None, float]  # (canonical name, what a value is multiplied by)
# Names a column's role has in a header row alone: beside `Epoch  gpu_mem` a column "box" is a
# term of the loss (detectors print box, objectness, class and distribution-focal terms, and
# their "total"), where a line's `box=0.05` is more likely a setting.
_COLUMN_ONLY = {
    **dict.fromkeys(("box", "obj", "cls", "dfl", "giou", "bbox"), "loss_part"),
    "total": "loss",
}


def _table_header(cells: list[str]) -> list[Column] | None:
    """The columns' canonical names ("epoch", "step", a metric, or None) and the scale of their
    unit when `cells` is a table's header row: two or more names, no numbers, at least one
    metric the detectors read."""
    if len(cells) < 2 or any(_LONE_NUMBER.search(c) for c in cells):
        return None  # "epoch 8 | loss 0.5" holds its own names and values
    columns: list[Column] = []
    for cell in cells:
        low = cell.strip().lower()
        unit = _HEADER_UNIT.search(low)
        scale = 1.0
        if unit and low != "ms/it":
            bare = low[: unit.start()]
            name = canonical_key(bare)
            if name in ("memory", "step_time") or (name is not None and name.endswith("_time")):
                low, scale = bare, _UNIT_SCALE[unit.group(1) or unit.group(2)]
        if low == "ms/it":
            scale = 1 / 1000
        columns.append(
            (
                "epoch"
                if re.fullmatch(r"epochs?|ep", low)
                else "step"
                if re.fullmatch(r"steps?|iter(?:ation)?s?|it|batch", low)
                else canonical_key(low) or _COLUMN_ONLY.get(low) or _path_name(low),
                scale,
            )
        )
    names = [n for n, _ in columns]
    return columns if any(n not in (None, "epoch", "step") for n in names) else None


def _path_name(low: str) -> str | None:
    """A column named by a path, as Chainer's and TensorBoard's reporters name them
    (`main/loss`, `validation/main/accuracy`): the last part says what it is, an earlier part
    which data it was measured on."""
    parts = low.split("/")
    if len(parts) < 2:
        return None
    name = canonical_key(parts[-1])
    if name not in ("loss", "acc"):
        return None
    held_out = any(_SPLIT_WORDS.get(p) == "val_loss" for p in parts[:-1])
    return f"val_{name}" if held_out else name


def _read_row(cells: list[str], header: list[Column], lineno: int, log: TrainingLog) -> None:
    epoch = step = None
    named: list[tuple[str, str, float]] = []  # (canonical name, cell, scale) of each metric
    for (name, scale), cell in zip(header, cells, strict=True):
        if name == "epoch":
            epoch = _position(cell)
        elif name == "step" and (_INTEGER.match(cell) or "/" in cell):
            position = _position(cell)
            step = None if position is None else int(position)
        elif name == "step":
            # a "step" column of 0.41, 0.39, 0.43: what one step took, in seconds, not its number
            if all(n != "step_time" for n, _ in header):
                named.append(("step_time", cell, 1.0))
        elif name is not None:
            named.append((name, cell, scale))
    parts: dict[str, list[str]] = {}
    for name, cell, scale in named:
        value = _cell_value(cell, name)
        if value is None:
            continue
        if name in _PARTS:
            parts.setdefault(_PARTS[name], []).append(cell)
            continue
        _note_decimals(log, name, cell.rstrip("%"))
        log.series.setdefault(name, []).append(Point(value * scale, lineno, epoch, step))
    for name, terms in parts.items():
        if name not in log.series or log.series[name][-1].line != lineno:
            log.series.setdefault(name, []).append(
                Point(_total(log, name, terms), lineno, epoch, step)
            )


def _position(cell: str) -> float | None:
    """An epoch or step column's number: `45` or `45/299` (the 45th of 299), or a fraction of an
    epoch as the Hugging Face Trainer counts it (`0.01`: kept, or every reading says epoch 0)."""
    m = _CELL_VALUE.match(cell)
    if m is None:
        return None
    return int(m.group("done")) if m.group("done") else _whole_or_fraction(m.group("num"))


def _whole_or_fraction(printed: str) -> float:
    """`3` and `3.0` as epoch 3; `0.01` as itself."""
    number = float(printed)
    return int(number) if number.is_integer() else number


def _cell_value(cell: str, name: str) -> float | None:
    """A metric's value in a table's cell, in MB when a memory's cell says its unit (`3.52G`)."""
    m = _CELL_VALUE.match(cell)
    if m is None or m.group("num") is None:
        return None
    value = _number(m.group("num"))
    unit = (m.group("unit") or "").lower()
    if name == "memory" and unit == "%":
        return None  # a share of the memory (`mem 45%`), not an amount of it
    return value * _TO_MB[unit] if name == "memory" and unit in _TO_MB else value


@dataclass(frozen=True, slots=True)
class BareRow:
    line: int
    epoch: int
    memory: float | None  # MB
    numbers: tuple[str, ...]  # the cells with a fraction, as printed


def _bare_row(cells: list[str], lineno: int, rows: list[BareRow]) -> bool:
    """A row of a progress table whose header was not pasted, as trainers print one an epoch
    (YOLO's `45/299  3.52G  0.05123  0.03214  0.01201  23  640`): every cell a value, the first a
    position `n/N`. The roles come from the values: the position is the epoch, a size with its
    unit (3.52G, 3512MiB) the memory, a whole number a count (labels, image size); the numbers
    with a fraction are read together with the other rows (_read_bare_rows). The counts close the
    loss's terms: what follows them is the validation's (YOLOv5's results.txt goes on with
    precision, recall, mAP and the validation losses), no term of the training loss."""
    found = [_CELL_VALUE.match(c) for c in cells]
    first = found[0]
    if first is None or first.group("done") is None or not all(found[1:]):
        return False
    memory, numbers = None, []
    for cell, m in zip(cells[1:], found[1:], strict=True):
        if m is None or m.group("num") is None:
            continue
        unit = (m.group("unit") or "").lower()
        if unit in _TO_MB:
            memory = _number(m.group("num")) * _TO_MB[unit]
        elif not unit and not _INTEGER.match(cell):
            numbers.append(m.group("num"))
        elif not unit and numbers:
            break  # a count after the loss's terms: the rest is the validation's
    if not numbers:
        return False
    rows.append(BareRow(lineno, int(first.group("done")), memory, tuple(numbers)))
    return True


def _read_bare_rows(rows: list[BareRow], log: TrainingLog) -> None:
    """The series of the rows without a header. The numbers with a fraction are a loss's terms
    (YOLO's box, obj, cls), which add up to the loss, unless a column moves against the first
    one and stays within [0, 1]: that one is a metric (an accuracy rising as the loss falls),
    and the first column alone is the loss."""
    width = len(rows[0].numbers) if rows else 0
    rows = [r for r in rows if len(r.numbers) == width]
    if len(rows) < 2:
        return
    columns = [[_number(r.numbers[i]) for r in rows] for i in range(width)]
    metrics = {i for i in range(1, width) if _against(columns[0], columns[i])}
    for r in rows:
        if r.memory is not None:
            log.series.setdefault("memory", []).append(Point(r.memory, r.line, r.epoch))
        terms = [r.numbers[0]] if metrics else list(r.numbers)
        log.series.setdefault("loss", []).append(Point(_total(log, "loss", terms), r.line, r.epoch))
        if metrics:
            printed = r.numbers[min(metrics)]
            _note_decimals(log, "acc", printed)
            log.series.setdefault("acc", []).append(Point(_number(printed), r.line, r.epoch))


_PLAIN_NUMBER = compile_cached(rf"^{_NUM}$", re.IGNORECASE)
_FRACTION = compile_cached(r"[.e]", re.IGNORECASE)


def _read_counted_rows(numbered: list[tuple[int, list[str]]], log: TrainingLog) -> None:
    """Rows of numbers alone, as Chainer's PrintReport prints them once the header has scrolled
    away (`3   4800   7.69427   0   0.00995887`: epoch, iteration, loss, accuracy, lr). The
    roles come from the values: the whole numbers that lead and never fall are the counters;
    among the other columns, a positive one in (0, 0.1] that only moves one way is the learning
    rate; the first other column is the loss, and the next one within [0, 1] the accuracy. A
    table of data (a DataFrame's index, then its values) has one counter and no learning rate:
    its rows are not read."""
    widths = [len(cells) for _, cells in numbered]
    width = max(set(widths), key=widths.count)
    rows = [(line, cells) for line, cells in numbered if len(cells) == width]
    if len(rows) < 5:
        return
    columns = [[_number(cells[i]) for _, cells in rows] for i in range(width)]
    counters = 0
    while (
        counters < width - 1
        and all(not _FRACTION.search(cells[counters]) for _, cells in rows)
        and all(b >= a for a, b in itertools.pairwise(columns[counters]))
    ):
        counters += 1
    rest = [i for i in range(counters, width) if all(map(math.isfinite, columns[i]))]
    lr = [i for i in rest if _schedule(columns[i])]
    stepped = counters == 2 and all(b > a for a, b in itertools.pairwise(columns[1]))
    others = [i for i in range(counters, width) if i not in lr]
    if not counters or not others or not (stepped or lr):
        return
    loss = others[0]
    acc = next((i for i in others[1:] if all(0.0 <= v <= 1.0 for v in columns[i])), None)
    for line, cells in rows:
        epoch = int(cells[0]) if counters == 2 else None
        step = int(cells[counters - 1])
        _note_decimals(log, "loss", cells[loss])
        log.series.setdefault("loss", []).append(Point(_number(cells[loss]), line, epoch, step))
        if acc is not None:
            _note_decimals(log, "acc", cells[acc])
            log.series.setdefault("acc", []).append(Point(_number(cells[acc]), line, epoch, step))


def _schedule(values: list[float]) -> bool:
    """A learning rate's column: positive, within (0, 0.1], and moving one way only (warm-up,
    decay) or not at all."""
    if not all(0.0 < v <= 0.1 for v in values):
        return False
    pairs = list(itertools.pairwise(values))
    return all(b >= a for a, b in pairs) or all(b <= a for a, b in pairs)


def _against(first: list[float], other: list[float]) -> bool:
    """`other` stays within [0, 1] and moved the other way from `first`, by a tenth or more."""
    if not all(0.0 <= v <= 1.0 for v in other):
        return False
    a, b = first[0], first[-1]
    c, d = other[0], other[-1]
    if not all(math.isfinite(v) for v in (a, b, c, d)):
        return False
    return (b - a) * (d - c) < 0 and abs(d - c) >= 0.1 * max(abs(c), 1e-8)


def _read_line(line: str, lineno: int, log: TrainingLog, epoch_above: int | None = None) -> None:
    """The `key value` pairs of one line; `epoch_above` is the epoch a line of its own said
    (Keras prints `Epoch 3/50` above the line of numbers)."""
    if len(line) > 2000:  # no log line of metrics is this long; skip binary or minified junk
        return
    # In a line a counter leads ("Epoch 3: Train_rf 0.48", "iter 200 nll 2.3"), the pairs of
    # names nobody listed are read too: one of them may be the loss (_unnamed_loss).
    low = line.lower()
    counted = ("epoch" in low or "step" in low or "iter" in low) and bool(_COUNTER.search(line))
    # most lines of a traceback: not worth splitting
    if not counted and not _KEY_THEN_NUMBER.search(low):
        return
    found: dict[str, float] = {}
    parts: dict[str, dict[str, str]] | None = None  # a loss's terms, by the loss they make
    unknown: list[re.Match[str]] = []
    for segment in _SEGMENTS.split(line):
        if not counted and not _KEY_THEN_NUMBER.search(segment.lower()):
            continue
        for m in _PAIR.finditer(segment):
            key = m.group("key").split("]")[-1]
            name = canonical_key(key)
            if name in _PARTS:
                parts = parts or {}
                parts.setdefault(_PARTS[name], {}).setdefault(key.lower(), m.group("value"))
                continue
            if name is None and counted:
                unknown.append(m)
            if name is None or name in found:
                continue
            unit = (m.group("unit") or "").lower()
            if name == "memory" and unit == "%":
                continue  # `Memory 9.7%`: a share of the memory, not an amount of it
            if name == "batch_size" and not _INTEGER.match(m.group("value")):
                continue  # a batch of 0.959 samples: whatever it is, no batch size
            value = _number(m.group("value"))
            _note_decimals(log, name, m.group("value"))
            if name == "memory" and unit in _TO_MB:
                value *= _TO_MB[unit]
            if name.endswith("_time") and unit == "ms":
                value /= 1000
            found[name] = value
    for name, terms in (parts or {}).items():
        if name not in found:  # the total, where the log prints none
            found[name] = _total(log, name, list(terms.values()))
    if unknown and "loss" not in found:
        for name, terms_printed in _unnamed_loss(unknown).items():
            if name not in found:
                found[name] = _total(log, name, terms_printed)
                log.guessed[name] = log.guessed.get(name, 0) + 1
    if not found:
        return
    epoch = _EPOCH.search(line)
    step = _STEP.search(line)
    for name, value in found.items():
        point = Point(
            value,
            lineno,
            _whole_or_fraction(epoch.group(1)) if epoch else epoch_above,
            int(step.group(1)) if step else None,
        )
        log.series.setdefault(name, []).append(point)


_PARTS = {"loss_part": "loss", "val_loss_part": "val_loss"}

# A counter in a line of numbers: "Epoch 3", "Epoch: [2]", "iter: 200", "step=5". Such a line
# is read whole, past the pre-filter, so that what is guessed in it never depends on the filter.
_COUNTER = compile_cached(r"\b(?:epoch|step|iter(?:ation)?)\b\W{0,3}\d", re.IGNORECASE)
_KEY_WORD = compile_cached(r"[a-z0-9]+")
# Words of a name that say it is a loss or a term of one: a loss by another name (`closs`,
# `trainloss`), a negative log-likelihood, bits per dim, a regression error, a divergence,
# `L_total`, `L_rec` (a capital L and a term's name).
_LOSS_WORDS = frozenset(
    ("loss", "nll", "bpd", "mse", "mae", "rmse", "l1", "l2", "ce", "xent", "kl", "kld", "cost")
)
# The words that name a GAN's models, or the discriminator's two terms
_GAN_WORDS = frozenset(
    (
        *("gan", "d", "g", "gen", "dis", "disc", "adv", "critic", "generator", "discriminator"),
        *("real", "fake"),
    )
)
# Words of a name that say it is anything but the loss: the run's position and pace, a setting,
# a score that rises as the model learns, a GAN's two models (each its own loss, not terms).
_NOT_LOSS_WORDS = frozenset(
    (
        *("epoch", "epochs", "step", "steps", "iter", "iteration", "batch", "it", "lr", "eta"),
        *("time", "took", "elapsed", "duration", "speed", "throughput", "sec", "secs", "wps"),
        *("ups", "samples", "tokens", "learning", "rate", "grad", "norm", "scale", "clip", "wd"),
        *("decay", "momentum", "beta", "alpha", "lambda", "temperature", "eps", "warmup"),
        *("acc", "accuracy", "top", "precision", "recall", "f1", "map", "ap", "auc"),
        *("iou", "miou", "dice", "psnr", "ssim", "bleu", "rouge", "score", "reward", "best"),
        *("ppl", "perplexity", "mem", "memory", "gpu", "num", "count", "size", "n", "id"),
        *("seed", "a", *_GAN_WORDS),
    )
)
_LONG_NOT_LOSS_WORDS = tuple(w for w in _NOT_LOSS_WORDS if len(w) > 4)
_SPLIT_WORDS = {"val": "val_loss", "valid": "val_loss", "validation": "val_loss"}
_SPLIT_WORDS |= {"eval": "val_loss", "test": "val_loss", "dev": "val_loss", "train": "loss"}
# What a number is counted in when a word follows it: "took 12.5 seconds", "3.2 samples/s".
# (Starts only where a run of blanks starts: a search from each blank of a long run is quadratic.)
_COUNTED_IN = compile_cached(
    r"(?<!\s)\s*(?:s|sec|second|min|minute|h|hr|hour|day|sample|token|image|img|example|it)s?\b",
    re.IGNORECASE,
)


def _not_loss_word(word: str) -> bool:
    word = word.rstrip("0123456789")
    return word in _NOT_LOSS_WORDS or (
        len(word) >= 4 and any(w.startswith(word) for w in _LONG_NOT_LOSS_WORDS)
    )


def _unnamed_loss(pairs: list[re.Match[str]]) -> dict[str, list[str]]:
    """The loss among the pairs of a counter-led line whose names no list holds, decided by the
    name's words and the value: a name made of loss words (`nll`, `L_total`, `closs`), or else
    the one value of the line that is neither a position, a setting, a score nor a count
    (`Epoch 3: Train_rf 4.855e-01  Memory 9.7%`). The values by the series they make (`loss`,
    `val_loss`); several loss-word terms of one split add up to it. None in a GAN's line: its
    names are the two models' losses and terms (`gan1`, `kld`, `real`, `fake1`), none the loss."""
    keys = [_KEY_WORD.findall(m.group("key").lower()) for m in pairs]
    if any(w.rstrip("0123456789") in _GAN_WORDS for words in keys for w in words):
        return {}
    named: dict[str, list[str]] = {}
    other: dict[str, list[str]] = {}
    for m in pairs:
        key, value = m.group("key").split("]")[-1].strip(), m.group("value")
        if " " in key or m.group("unit") or _INTEGER.match(value.lstrip("+-")):
            continue  # "done in 12.5", "9.7%", "Instances 23": a phrase, a unit, a count
        if _COUNTED_IN.match(m.string, m.end()):
            continue
        low = key.lower()
        words = _KEY_WORD.findall(low)
        # (a score with its threshold or rank, `mAP50`, `top5`, is the score; `accu`, `prec`: a
        # word cut short is the word)
        if not words or any(map(_not_loss_word, words)):
            continue
        series = next((_SPLIT_WORDS[w] for w in words if w in _SPLIT_WORDS), "loss")
        rest = [w for w in words if w not in _SPLIT_WORDS]
        if not rest:
            continue  # a bare `train=0.18 valid=0.23`: the split's loss or its accuracy
        lossy = any(w in _LOSS_WORDS or w.endswith("loss") for w in rest) or (
            key[:2] == "L_" and len(words) >= 2
        )
        (named if lossy else other).setdefault(series, []).append(value)
    if named:
        return named
    # no loss word: the one number left is the loss, where it is one number in all
    return other if sum(map(len, other.values())) == 1 else {}


def _total(log: TrainingLog, name: str, printed: list[str]) -> float:
    """The loss that terms printed as `printed` add up to (nan when one of them is)."""
    for term in printed:
        _note_decimals(log, name, term)
    return sum(_number(t) for t in printed)


def _note_decimals(log: TrainingLog, name: str, printed: str) -> None:
    mantissa = printed.lower().split("e")[0]
    digits = len(mantissa.split(".")[1]) if "." in mantissa else 0
    digits += 9 if "e" in printed.lower() else 0  # 1.2e-05 shows small values plainly
    log.decimals[name] = max(log.decimals.get(name, 0), digits)


def finite(points: list[Point]) -> list[Point]:
    return [p for p in points if math.isfinite(p.value)]
