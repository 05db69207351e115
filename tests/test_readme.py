"""README's commands, copied as written, work in a fresh venv: its Install block (from a copy of
the clone) and every line of its Use block, with the files those lines name made beside them."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import ROOT

README = (ROOT / "README.md").read_text(encoding="utf-8")

TRAIN_PY = """\
import argparse, torch
parser = argparse.ArgumentParser()
parser.add_argument("--epochs", type=int, default=1)
parser.parse_args()
model = torch.nn.Linear(128, 10)
images = torch.randn(32, 64)
logits = model(images)
"""


def _block(section: str) -> list[str]:
    """The command lines of the first ```sh block under a `## section` heading of README."""
    body = README.split(f"\n## {section}\n", 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```sh\n(.*?)```", body, re.S)
    assert code, f"README's {section} section has no sh block"
    return [line for line in code.group(1).splitlines() if line.strip()]


def _run(line: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=600
    )


def _lend_torch(venv: Path) -> None:
    """torch, numpy and what they need, linked from this interpreter into the fresh venv with their
    metadata (so pip counts them installed): installing the 900 MB wheel again takes a minute,
    and the README leaves installing torch to the user anyway."""
    site = next((venv / "lib").glob("python*/site-packages"))
    todo, seen = ["torch", "numpy"], set()  # the `torch` extra: torch and numpy
    while todo:
        name = todo.pop()
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # an optional requirement nobody installed
        if dist.metadata["Name"].lower() in seen:
            continue
        seen.add(dist.metadata["Name"].lower())
        for file in dist.files or []:
            top = file.parts[0]
            target = site / top
            if ".." in file.parts or top.endswith(".pth") or target.exists():
                continue
            source = Path(str(dist.locate_file(top)))
            if source.exists() and not top.startswith("__pycache__"):
                target.symlink_to(source)
        for req in dist.requires or []:
            if "extra ==" not in req:
                todo.append(re.split(r"[ ;<>=!~\[(]", req, maxsplit=1)[0])


@pytest.fixture(scope="module")
def user(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """A fresh venv, activated (its bin/ first on PATH), after README's Install block ran in a
    copy of the clone. The `git clone` line is the copy: the network reaches no GitHub here."""
    home = tmp_path_factory.mktemp("user")
    clone = home / "torch-diagnoser"
    files = subprocess.run(
        ["git", "ls-files", "-co", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, files.split("\0")):
        if (ROOT / name).is_file():
            (clone / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, clone / name)
    venv = home / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    env = {
        "PATH": f"{venv / 'bin'}:/usr/local/bin:/usr/bin:/bin",
        "VIRTUAL_ENV": str(venv),
        "HOME": str(home),
        "LANG": "C.UTF-8",
        "NO_COLOR": "1",
        "PIPX_HOME": str(home / "pipx"),
        "PIPX_BIN_DIR": str(home / ".local" / "bin"),
        "DIAGNOSER_CACHE_DIR": str(home / "cache"),
    }
    for var in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_CONFIG_FILE"):
        if var in os.environ:
            env[var] = os.environ[var]
    _lend_torch(venv)
    pipx = shutil.which("pipx", path=os.path.dirname(sys.executable))
    for line in _block("Install"):
        command = line.split("#", 1)[0].strip()
        if command.startswith(("git clone", "cd ")):
            continue
        if command.startswith("pipx ") and pipx:
            command = f"{pipx} {command[5:]}"
        proc = _run(command, clone, env)
        assert proc.returncode == 0, f"{line}\n{proc.stdout[-1500:]}\n{proc.stderr[-3000:]}"
    return home, env


def test_the_install_block_puts_diagnoser_on_path(user: tuple[Path, dict[str, str]]) -> None:
    home, env = user
    proc = _run("diagnoser --version", home, env)
    assert proc.returncode == 0 and proc.stdout.startswith("diagnoser "), proc.stderr
    assert (home / ".local" / "bin" / "diagnoser").exists()  # pipx's copy
    assert _run("python -c 'import zstandard'", home, env).returncode == 0  # the extra


def test_the_readme_opens_with_the_two_commands() -> None:
    assert [line.split()[:2] for line in _block("Quick start")] == [
        ["make", "demo"],
        ["make", "test"],
    ]


USE = _block("Use")


@pytest.mark.parametrize("line", USE, ids=[line.split("#")[0].strip() for line in USE])
def test_every_use_line_works_as_written(line: str, user: tuple[Path, dict[str, str]]) -> None:
    home, env = user
    work = home / "work"
    if not work.exists():
        work.mkdir()
        (work / "train.py").write_text(TRAIN_PY)
        sample = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")
        (work / "train.log").write_text(sample)
        (work / "tb.txt").write_text(sample)
        (work / "logs").mkdir()
        for rank in range(2):
            (work / "logs" / f"rank{rank}.log").write_text(f"step 1 loss 0.5\n{sample}")
    proc = _run(line, work, env)
    said = proc.stdout + proc.stderr
    assert "command not found" not in proc.stderr, said[-2000:]
    assert "No module named" not in proc.stderr, said[-2000:]  # (entry titles say it in stdout)
    command = line.split("#", 1)[0].split()
    if command[:2] == ["diagnoser", "run"]:  # the script's exit code, its crash explained
        assert proc.returncode == 1 and "[shape-matmul, " in proc.stderr, said[-2000:]
        return
    if command[:2] == ["diagnoser", "repro"] and "--fixed" not in command:  # fails as users do
        assert proc.returncode == 1 and "mat1 and mat2 shapes" in proc.stderr, said[-2000:]
        return
    assert proc.returncode in (0, 1), said[-2000:]
    assert "Traceback (most recent call last)" not in proc.stderr, said[-2000:]
