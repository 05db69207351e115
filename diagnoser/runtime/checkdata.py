"""Which runtime tool checks which entry, as data the knowledge layer ships: an answer about an
entry names the call that checks it next ("Check it"), and the engine may not import runtime/.

The data is generated from the catalogue (catalog.py: each check's entry, tool and title) and the
calls below, into diagnoser/knowledge/checks.json, which the knowledge base's index compiles into
each entry's texts. tests/test_check_data.py keeps the file equal to what this module makes:

    python -m diagnoser.runtime.checkdata      # write diagnoser/knowledge/checks.json again

Imports nothing heavy (catalog.py is data).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from .catalog import CHECKS

PATH = Path(__file__).resolve().parent.parent / "knowledge" / "checks.json"

# How each tool is called, and what it does, in a line of each language. The order is the order
# an answer names them in: before training, during it, then the helpers.
TOOLS: dict[str, dict[str, Any]] = {
    "preflight": {
        "call": "diagnoser.preflight(model, loader, loss_fn, optimizer{options})",
        "does": {
            "en": "before training, one look at your model, data, loss and optimizer on real "
            "batches",
            "zh": "训练前，用真实的 batch 把模型、数据、loss 和 optimizer 检查一遍",
        },
    },
    "watch": {
        "call": "diagnoser.watch(model)",
        "does": {
            "en": "during training (`with diagnoser.watch(model) as w:`, then `w.step(loss)` "
            "each step), hooks on your model report the first bad step",
            "zh": "训练时（`with diagnoser.watch(model) as w:`，每步调用 `w.step(loss)`），"
            "挂在模型上的 hook 会报告第一个出问题的 step",
        },
    },
    "overfit_one_batch": {
        "call": "diagnoser.overfit_one_batch(model, batch, loss_fn, optimizer)",
        "does": {
            "en": "trains on one batch: a set-up whose loss cannot fall there has a bug",
            "zh": "在一个 batch 上反复训练：连它的 loss 都降不下来，说明代码有 bug",
        },
    },
    "lr_find": {
        "call": "diagnoser.lr_find(model, loader, loss_fn, optimizer)",
        "does": {
            "en": "sweeps the learning rate and suggests one where the loss falls fastest",
            "zh": "扫一遍学习率，给出 loss 下降最快的那个",
        },
    },
}

# The preflight option a check needs (the others run by default).
OPTIONS: dict[str, str] = {
    "overfit": "overfit_steps=50",
    "timing": "timing=True",
    "memory": "memory=True",
}

# The helpers that test an entry's cause directly (helpers.py), after the checks.
HELPERS: dict[str, tuple[str, ...]] = {
    "overfit_one_batch": ("loss-not-decreasing",),
    "lr_find": ("loss-not-decreasing", "gradient-explosion"),
}


def _call(tool: str, checks: list[str]) -> str:
    options = [OPTIONS[c] for c in checks if c in OPTIONS]
    return str(TOOLS[tool]["call"]).format(options="".join(f", {o}" for o in options))


def data() -> dict[str, Any]:
    """{"entries": {entry id: [{"tool", "call", "does", "checks": [{"id", "title"}]}]}}: per
    entry, the tools that check it, in TOOLS' order, each with the catalogue's checks."""
    by_entry: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for c in CHECKS:
        if c.entry is not None:
            by_entry.setdefault(c.entry, {}).setdefault(c.tool, []).append(
                {"id": c.id, "title": dict(c.title)}
            )
    for helper, named in HELPERS.items():
        for entry_id in named:
            by_entry.setdefault(entry_id, {})[helper] = []
    entries: dict[str, list[dict[str, Any]]] = {}
    for entry_id in sorted(by_entry):
        tools = by_entry[entry_id]
        entries[entry_id] = [
            {
                "tool": tool,
                "call": _call(tool, [c["id"] for c in tools[tool]]),
                "does": dict(TOOLS[tool]["does"]),
                "checks": tools[tool],
            }
            for tool in TOOLS
            if tool in tools
        ]
    return {
        "generated": "by python -m diagnoser.runtime.checkdata from diagnoser/runtime/catalog.py",
        "entries": entries,
    }


def dumps() -> str:
    return json.dumps(data(), ensure_ascii=False, indent=1) + "\n"


if __name__ == "__main__":
    PATH.write_text(dumps(), encoding="utf-8")
    print(f"wrote {PATH}")
