"""`--format prompt`: pasteable as is, in the chosen language, from pasted text and in-process;
`--format markdown` gains the environment and the tensors."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT, cli

SAMPLE = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")

ASKS = {
    "en": [
        "**Please:**",
        "1. Tell me which kind of problem this is: wrong API usage, a data shape/dimension "
        "problem, a gradient problem, or something else (say what).",
        "2. Give me a corrected version of my code that runs.",
        "3. Explain why the error happens",
    ],
    "zh": [
        "**请帮我：**",
        "1. 判断这是 API 用法错误、数据维度问题、梯度相关问题，还是别的问题（请说明）",
        "2. 给我一个修改后可以运行的版本",
        "3. 解释为什么会出这个错，让我理解背后的原理",
    ],
}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_prompt_from_pasted_text(lang: str) -> None:
    result = cli("--format", "prompt", "--lang", lang, stdin=SAMPLE)
    assert result.returncode == 0
    out = result.stdout
    # the traceback as Python printed it, frames and message, in a code block
    block = re.search(r"```\n(Traceback \(most recent call last\):.*?)\n```", out, re.S)
    assert block is not None
    assert block.group(1).endswith(
        "RuntimeError: mat1 and mat2 shapes cannot be multiplied (32x64 and 128x10)"
    )
    assert '  File "/home/ana/mnist/train.py", line 22, in <module>' in block.group(1)
    assert "(`shape-matmul`)" in out  # the KB's diagnosis as context
    assert "- Python: " in out and "- torch: " in out  # this machine's environment
    for ask in ASKS[lang]:
        assert ask in out
    other = "zh" if lang == "en" else "en"
    assert ASKS[other][0] not in out


def test_prompt_in_process_has_the_code_and_the_tensors(tmp_path: Path) -> None:
    lang = "zh"  # English is checked on the text path above; one process start is enough
    script = tmp_path / "train.py"
    body = ["import torch", "from torch import nn", "", "fc = nn.Linear(128, 10)"]
    body += [f"step_{i} = {i}" for i in range(20)]
    body += ["x = torch.randn(32, 64)", "logits = fc(x)"] + [f"after_{i} = {i}" for i in range(20)]
    script.write_text("\n".join(body) + "\n")
    failing = len(body) - 20  # 1-based line of `logits = fc(x)`
    result = cli("run", "--format", "prompt", "--lang", lang, str(script))
    assert result.returncode == 1
    out = result.stdout
    assert f">{failing}  logits = fc(x)" in out
    shown = re.findall(r"^[ >]\s*(\d+)  ", out, re.M)
    assert [int(n) for n in shown] == list(range(failing - 15, failing + 16))  # ±15 lines
    assert "- `x  tensor<(32, 64), float32, cpu>`" in out
    assert "- `fc  Linear(in=128, out=10)  [float32, cpu]`" in out
    assert "CPU-only" in out or "CUDA" in out  # torch's build, known in-process
    for ask in ASKS[lang]:
        assert ask in out


def test_markdown_in_process_gains_environment_and_tensors(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("import torch\nx = torch.randn(4, 3)\ny = x @ torch.randn(5, 2)\n")
    out = cli("run", "--format", "markdown", "--lang", "zh", str(script)).stdout
    assert "### 出错时的 tensor 和模块\n\n- `x  tensor<(4, 3), float32, cpu>`" in out
    assert "### 运行环境\n\n- Python: " in out


def test_prompt_from_pasted_text_never_imports_torch() -> None:
    code = (
        "import sys\nfrom diagnoser.cli import main\n"
        f"main(['--format', 'prompt', {str(ROOT / 'samples' / 'shape-matmul.txt')!r}])\n"
        "print('torch' in sys.modules, 'numpy' in sys.modules, file=sys.stderr)\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stderr.strip() == "False False"
