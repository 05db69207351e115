"""The exception hook in a real process: traceback first and unchanged, then the diagnosis; the
exit status kept; threads; another hook before ours; a failure inside ours; DIAGNOSER_DISABLE."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from diagnoser.live import hook

SHAPE_ERROR = "import torch\nx = torch.randn(4, 3)\ny = x @ torch.randn(5, 2)\n"


def python(
    script: Path, env: dict[str, str] | None = None, *args: str
) -> subprocess.CompletedProcess[str]:
    full_env = {
        k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "DIAGNOSER_DISABLE"
    }
    full_env.update({"NO_COLOR": "1", "LANG": "C.UTF-8", **(env or {})})
    return subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=120,
    )


def test_traceback_first_unchanged_then_the_diagnosis(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("import diagnoser.auto\n" + SHAPE_ERROR)
    plain = python(script, {"DIAGNOSER_DISABLE": "1"})
    hooked = python(script)
    assert plain.returncode == hooked.returncode == 1
    assert plain.stderr.endswith("mat1 and mat2 shapes cannot be multiplied (4x3 and 5x2)\n")
    assert "shape-matmul" not in plain.stderr  # disabled: Python's traceback alone
    assert hooked.stderr.startswith(plain.stderr)  # byte for byte what Python prints
    after = hooked.stderr[len(plain.stderr) :]
    assert "[shape-matmul, 100]" in after and "What happened" in after
    assert "x  tensor<(4, 3), float32, cpu>" in after  # the frame's own tensor


def test_installing_imports_nothing_heavy() -> None:
    code = (
        "import sys, diagnoser\ndiagnoser.install()\nimport diagnoser.auto\n"
        "print(sorted(m for m in ('torch', 'numpy', 'pydantic', 'yaml', 'rapidfuzz') "
        "if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_an_error_no_entry_explains_gets_the_traceback_alone(tmp_path: Path) -> None:
    script = tmp_path / "app.py"
    script.write_text(
        "import atexit, sys\nimport diagnoser.auto\n"
        "atexit.register(lambda: print('torch loaded:', 'torch' in sys.modules))\n"
        "{}['missing']\n"
    )
    result = python(script)
    assert result.returncode == 1
    assert result.stderr.rstrip().endswith("KeyError: 'missing'")  # nothing added after it
    assert "torch loaded: False" in result.stdout  # capture never imports torch itself


def test_exit_status_of_sys_exit_is_kept(tmp_path: Path) -> None:
    script = tmp_path / "exits.py"
    script.write_text("import sys\nimport diagnoser.auto\nsys.exit(3)\n")
    result = python(script)
    assert result.returncode == 3 and result.stderr == ""


def test_thread_exceptions_are_explained_and_the_program_goes_on(tmp_path: Path) -> None:
    script = tmp_path / "threads.py"
    script.write_text(
        "import threading\nimport numpy as np\nimport torch\nimport diagnoser.auto\n"
        "def work():\n"
        "    fc = torch.nn.Linear(4, 2)\n"
        "    x = torch.from_numpy(np.ones((3, 4)))\n"
        "    fc(x)\n"
        "t = threading.Thread(target=work)\nt.start()\nt.join()\nprint('main goes on')\n"
    )
    result = python(script)
    assert result.returncode == 0 and "main goes on" in result.stdout
    assert "Exception in thread" in result.stderr
    traceback_end = result.stderr.index("but got Double and Float")
    diagnosis = result.stderr[traceback_end:]
    assert "[dtype-mismatch, 100]" in diagnosis
    assert "`x` is float64, while `fc.weight`, `fc.bias`, `fc` are float32" in diagnosis


def test_a_previous_hook_runs_first_and_a_failing_hook_costs_one_line(tmp_path: Path) -> None:
    script = tmp_path / "nested.py"
    script.write_text(
        "import sys\n"
        "def mine(t, e, tb):\n"
        "    print('my hook saw', t.__name__, file=sys.stderr)\n"
        "    sys.__excepthook__(t, e, tb)\n"
        "sys.excepthook = mine\n"
        "import diagnoser\n"
        "assert diagnoser.install() is mine\n"
        "assert diagnoser.install() is mine  # twice: still one hook\n"
        "if len(sys.argv) > 1:\n"
        "    import diagnoser.live.report as report\n"
        "    def broken(*a, **k):\n"
        "        raise RuntimeError('the index is unreadable')\n"
        "    report.diagnose_exception = broken\n" + SHAPE_ERROR
    )
    chained = python(script, {"LANG": "zh_CN.UTF-8"})  # the locale's language
    assert chained.returncode == 1
    err = chained.stderr
    assert err.startswith("my hook saw RuntimeError\nTraceback (most recent call last):")
    assert err.count("[shape-matmul, 100]") == 1 and "发生了什么" in err
    failing = python(script, None, "break-it")
    assert failing.returncode == 1
    lines = failing.stderr.rstrip("\n").split("\n")
    assert lines[-2] == "RuntimeError: mat1 and mat2 shapes cannot be multiplied (4x3 and 5x2)"
    assert lines[-1] == (
        "diagnoser: could not explain this error (RuntimeError: the index is unreadable)"
    )


def test_a_previous_hook_that_raises_keeps_what_python_would_print(tmp_path: Path) -> None:
    """Without us, Python prints the broken hook's own error, then the original exception; with
    us, all of that is still there, in that order, and then the diagnosis."""
    script = tmp_path / "broken_hook.py"
    script.write_text(
        "import sys\n"
        "def theirs(t, e, tb):\n"
        "    print('their hook starts', file=sys.stderr)\n"
        "    raise ValueError('their hook is broken')\n"
        "sys.excepthook = theirs\n"
        "if len(sys.argv) > 1:\n"
        "    import diagnoser\n"
        "    diagnoser.install()\n" + SHAPE_ERROR
    )
    plain, hooked = python(script), python(script, None, "install")
    assert plain.returncode == hooked.returncode == 1
    assert "Error in sys.excepthook:" in plain.stderr  # what Python itself prints
    assert "ValueError: their hook is broken" in plain.stderr
    said = [
        line for line in plain.stderr.splitlines() if not line.lstrip().startswith(("File", "^"))
    ]
    at = 0
    for line in said:  # every line Python printed, in its order (frames aside: ours differ)
        found = hooked.stderr.find(line, at)
        assert found >= 0, (line, hooked.stderr)
        at = found + len(line)
    assert "[shape-matmul, 100]" in hooked.stderr[at:]


def test_install_returns_the_previous_hook_and_uninstall_restores_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DIAGNOSER_DISABLE", raising=False)
    # from Python's own hooks, whatever another test of this worker left installed (put back after)
    monkeypatch.setattr(sys, "excepthook", sys.__excepthook__)
    monkeypatch.setattr(threading, "excepthook", threading.__excepthook__)
    before, before_thread = sys.excepthook, threading.excepthook
    try:
        assert hook.install() is before
        assert sys.excepthook is not before and hook.installed()
        assert threading.excepthook is not before_thread
    finally:
        hook.uninstall()
    assert sys.excepthook is before and threading.excepthook is before_thread
    monkeypatch.setenv("DIAGNOSER_DISABLE", "1")
    assert hook.install() is None and sys.excepthook is before
