"""The wheel carries the knowledge base: a plain `pip install .` knows every entry."""

from __future__ import annotations

import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from .conftest import ENTRIES, ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    return next(out.glob("torch_diagnoser-*.whl"))


def test_wheel_contains_every_entry_and_reproduction(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for entry in ENTRIES:
        assert f"diagnoser/kb/{entry.id}.yaml" in names
        assert f"diagnoser/reproductions/{entry.id}.py" in names
    assert "diagnoser/reproductions/_common.py" in names


def test_installed_diagnoser_works_outside_the_repository(wheel: Path, tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert pip.returncode == 0, pip.stderr[-2000:]
    sample = (ROOT / "samples" / "shape-matmul.txt").read_bytes()
    result = subprocess.run(
        [str(venv / "bin" / "diagnoser"), "--json"],
        input=sample,
        capture_output=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert result.returncode == 0, result.stderr.decode()
    assert json.loads(result.stdout)["matches"][0]["id"] == "shape-matmul"
    listed = subprocess.run(
        [str(venv / "bin" / "diagnoser"), "list"],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
    )
    assert len(listed.stdout.splitlines()) == len(ENTRIES)


def test_wheel_says_the_package_is_typed(wheel: Path) -> None:
    """PEP 561: without py.typed, mypy ignores the annotations of an installed diagnoser."""
    assert "diagnoser/py.typed" in zipfile.ZipFile(wheel).namelist()


def test_the_package_version_is_pyprojects() -> None:
    import tomllib

    import diagnoser

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert diagnoser.__version__ == project["version"]
