"""What preflight and watch report: findings (one shape for both) and the preflight checklist.

A finding holds the values it quotes; its words come from its check in catalog.py, so both
languages are always available and `to_json()` carries them both.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..speak.i18n import default_lang
from .catalog import BY_ID, CHECKS, ERROR, INFO, WARNING, Check

_MARK = {ERROR: "✗", WARNING: "!", INFO: "i"}


@dataclass(frozen=True, repr=False)
class Finding:
    check: str
    # a value is the same in both languages, or a {"en": ..., "zh": ...} pair
    values: dict[str, Any] = field(default_factory=dict)
    location: str | None = None  # a module or parameter name, where the check can tell
    entry_override: str | None = None  # for checks whose entry depends on what they found
    severity_override: str | None = None

    @property
    def spec(self) -> Check:
        return BY_ID[self.check]

    @property
    def entry(self) -> str | None:
        return self.entry_override or self.spec.entry

    @property
    def severity(self) -> str:
        return self.severity_override or self.spec.severity

    def message(self, lang: str = "en") -> str:
        values = {k: v[lang] if isinstance(v, dict) else v for k, v in self.values.items()}
        return self.spec.message[lang].format(**values)

    def url(self, lang: str = "en") -> str | None:
        if self.entry is None:
            return None
        from ..speak.render import page_url

        return page_url(self.entry, lang)

    def to_dict(self) -> dict[str, Any]:
        return {
            "check": self.check,
            "severity": self.severity,
            "entry": self.entry,
            "message": {lang: self.message(lang) for lang in ("en", "zh")},
            "url": self.url(),
            "location": self.location,
            "values": self.values,
        }

    def __str__(self) -> str:
        return self.line(default_lang())

    def __repr__(self) -> str:
        """What it is and where, not every value it quotes (those are in `.values`)."""
        where = f", location={self.location!r}" if self.location else ""
        return (
            f"Finding(check={self.check!r}, severity={self.severity!r}, "
            f"entry={self.entry!r}{where})"
        )

    def line(self, lang: str) -> str:
        where = f"  [{self.entry}]" if self.entry else ""
        return f"{_MARK[self.severity]} {self.check}: {self.message(lang)}{where}"


class TrainingFindingError(Exception):
    """What `watch(on_finding="raise")` stops a run with: the finding's line, which names its
    entry, so that the exception hook (and `diagnoser` on the pasted traceback) explains it.
    Not a RuntimeError: the checks' own guards, which swallow torch's errors, let it through."""

    def __init__(self, finding: Finding) -> None:
        super().__init__(finding.line("en"))
        self.finding = finding


def listed(names: list[str], shown: int = 5) -> str:
    """A finding's names, the first `shown` of them and how many more: "fc.weight, fc.bias (+3)"."""
    more = f" (+{len(names) - shown})" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def summary(findings: list[Finding], shown: int = 5) -> str:
    """`3 findings: optim.missing, data.scale, grad.none`, for a repr: the checks that found
    something, the first `shown` of them."""
    if not findings:
        return "no findings"
    names = ", ".join(f.check for f in findings[:shown])
    more = f" (+{len(findings) - shown})" if len(findings) > shown else ""
    count = f"{len(findings)} finding{'s' if len(findings) > 1 else ''}"
    return f"{count}: {names}{more}"


_HEAD = {"en": ("Preflight: ", "passed", ", "), "zh": ("训练前检查：", "通过", "，")}
_COUNT = {
    "en": {ERROR: ("problem", "problems"), WARNING: ("warning", "warnings")},
    "zh": {ERROR: ("个问题", "个问题"), WARNING: ("个警告", "个警告")},
}


_STATS = {
    "norms": {"en": "largest gradient norms", "zh": "梯度范数最大的参数"},
    "times": {"en": "loading / computing a batch", "zh": "每个 batch 的加载 / 计算耗时"},
    "memory": {"en": "peak GPU memory of one step", "zh": "一个 step 的显存峰值"},
}


@dataclass(repr=False)
class Report:
    """preflight's result: `.ok` is False when any finding is an error. Printed, the checklist
    (`to_text`); its repr, a line (`Report(ok=False, 20 checks ran, 1 finding: optim.missing)`)."""

    findings: list[Finding] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)  # check ids, in the order they ran
    context: dict[str, str] = field(default_factory=dict)  # what was checked: shapes, device
    stats: dict[str, Any] = field(default_factory=dict)  # numbers worth seeing: norms, timings

    @property
    def ok(self) -> bool:
        return not any(f.severity == ERROR for f in self.findings)

    def __bool__(self) -> bool:
        return self.ok

    def add(self, finding: Finding) -> None:
        self.findings.append(finding)

    def to_text(self, lang: str | None = None) -> str:
        lang = lang or default_lang()
        title, passed, comma = _HEAD[lang]
        counts = []
        for severity, (one, many) in _COUNT[lang].items():
            n = sum(f.severity == severity for f in self.findings)
            if n:
                counts.append(f"{n} {one if n == 1 else many}")
        out = [title + (comma.join(counts) or passed)]
        out += [f"  {k}: {v}" for k, v in self.context.items()]
        for check in (c.id for c in CHECKS if c.id in self.ran):  # data, model, loss, ...
            found = [f for f in self.findings if f.check == check]
            if not found:
                out.append(f"  ✓ {BY_ID[check].title[lang]}")
            for f in found:
                out.append("  " + f.line(lang))
        out += self._stats_lines(lang)
        return "\n".join(out)

    def _stats_lines(self, lang: str) -> list[str]:
        s, out = self.stats, []
        if s.get("largest_grad_norms"):
            norms = ", ".join(f"{n} {v:.3g}" for n, v in s["largest_grad_norms"].items())
            out.append(f"  {_STATS['norms'][lang]}: {norms}")
        if "data_seconds" in s:
            times = f"{s['data_seconds']:.3g} s / {s['compute_seconds']:.3g} s"
            out.append(f"  {_STATS['times'][lang]}: {times}")
        if "peak_memory_mb" in s:
            out.append(f"  {_STATS['memory'][lang]}: {s['peak_memory_mb']:.0f} MB")
        return out

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"Report(ok={self.ok}, {len(self.ran)} checks ran, {summary(self.findings)})"

    def to_json(self) -> str:
        return json.dumps(
            {
                "ok": self.ok,
                "checks": self.ran,
                "findings": [f.to_dict() for f in self.findings],
                "context": self.context,
                "stats": self.stats,
            },
            ensure_ascii=False,
            indent=2,
        )
