"""A team's own families without forking: extra knowledge-base folders from DIAGNOSER_KB_PATH and
from installed packages' `torch_diagnoser.kb` entry points, validated and indexed with kb/."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import yaml

from .conftest import ROOT, cli

MESSAGE = "MyTeamShardError: shard 17 of /data/train-v3 is missing its index file"


def _entry(entry_id: str = "myteam-shard-missing", **changes: object) -> dict[str, object]:
    """A valid entry of a team's own: kb/view-invalid-shape.yaml's texts, another message."""
    data = yaml.safe_load((ROOT / "kb" / "view-invalid-shape.yaml").read_text(encoding="utf-8"))
    data.pop("rank", None)
    data.update(
        id=entry_id,
        signatures=[
            {
                "exceptions": ["MyTeamShardError"],
                "pattern": r"shard (?P<shard>\d+) of (?P<dataset>\S{1,200}) is missing its index",
            }
        ],
        examples=[MESSAGE],
        see_also=["view-invalid-shape"],  # a built-in entry: the folders are validated together
        reproduction={"script": f"{entry_id}.py", "needs": ["cpu"]},
    )
    data.pop("explain", None)
    data.update(changes)
    return data


def _folder(tmp_path: Path, *entries: dict[str, object]) -> Path:
    folder = tmp_path / "team-kb"
    folder.mkdir()
    for data in entries:
        (folder / f"{data['id']}.yaml").write_text(yaml.safe_dump(data, allow_unicode=True))
    return folder


def test_a_folder_named_in_the_environment_adds_its_entries(tmp_path: Path) -> None:
    env = {
        "DIAGNOSER_KB_PATH": str(_folder(tmp_path, _entry())),
        "DIAGNOSER_CACHE_DIR": str(tmp_path),
    }
    proc = cli("--json", stdin=MESSAGE, env=env)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["matches"][0]["id"] == "myteam-shard-missing"
    built_in = json.loads(
        cli("--json", stdin=(ROOT / "samples" / "shape-matmul.txt").read_text(), env=env).stdout
    )
    assert built_in["matches"][0]["id"] == "shape-matmul"  # kb/ is still there
    assert cli("--json", stdin=MESSAGE, env={"DIAGNOSER_CACHE_DIR": str(tmp_path)}).returncode == 1
    indexes = sorted(p.name for p in tmp_path.glob("index-*.marshal"))
    assert len(indexes) == 2  # one per set of folders, in the same cache


def test_a_teams_entry_is_validated_like_ours(tmp_path: Path) -> None:
    bad = _entry(title={"en": "only English"})
    proc = cli("--json", stdin=MESSAGE, env={"DIAGNOSER_KB_PATH": str(_folder(tmp_path, bad))})
    assert proc.returncode == 3
    assert "myteam-shard-missing.yaml: title.zh" in proc.stderr


def test_a_teams_entry_cannot_take_a_built_in_id(tmp_path: Path) -> None:
    clash = _entry("cuda-oom")
    proc = cli("list", env={"DIAGNOSER_KB_PATH": str(_folder(tmp_path, clash))})
    assert proc.returncode == 3
    assert "cuda-oom.yaml: id: 'cuda-oom' is already" in proc.stderr


PLUGIN_PYPROJECT = """
[build-system]
requires = ["setuptools>=61"]  # PEP 621 metadata; the venv's own setuptools builds it
build-backend = "setuptools.build_meta"

[project]
name = "myteam-diagnoser"
version = "0.1"

[project.entry-points."torch_diagnoser.kb"]
myteam = "myteam_diagnoser"

[tool.setuptools]
packages = ["myteam_diagnoser"]

[tool.setuptools.package-data]
myteam_diagnoser = ["kb/*.yaml"]
"""


def test_an_installed_plugin_package_adds_its_entries(tmp_path: Path) -> None:
    source = tmp_path / "plugin"
    (source / "myteam_diagnoser" / "kb").mkdir(parents=True)
    (source / "pyproject.toml").write_text(PLUGIN_PYPROJECT)
    (source / "myteam_diagnoser" / "__init__.py").write_text("raise SystemExit('never imported')\n")
    data = _entry()
    (source / "myteam_diagnoser" / "kb" / "myteam-shard-missing.yaml").write_text(
        yaml.safe_dump(data, allow_unicode=True)
    )
    site = tmp_path / "site"
    pip = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(site),
            str(source),
        ],
        capture_output=True,
        text=True,
    )
    assert pip.returncode == 0, pip.stderr[-2000:]
    path = os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env = {"PYTHONPATH": path, "DIAGNOSER_CACHE_DIR": str(tmp_path / "cache")}
    for _ in range(2):  # the second start finds the plugin in the cache, not in the metadata
        proc = cli("--json", stdin=MESSAGE, env=env)
        assert proc.returncode == 0, proc.stderr
        assert json.loads(proc.stdout)["matches"][0]["id"] == "myteam-shard-missing"
    assert len(list((tmp_path / "cache").glob("plugins-*.marshal"))) == 1


def test_each_environment_keeps_its_own_plugin_list(tmp_path: Path) -> None:
    """Two interpreters sharing one cache (a venv and the system's, alternating) do not make each
    other look for plugins again at every start."""
    env = {"DIAGNOSER_CACHE_DIR": str(tmp_path)}
    cli("list", env=env)
    cli("list", env={**env, "PYTHONPATH": str(tmp_path / "elsewhere")})
    lists = sorted(tmp_path.glob("plugins-*.marshal"))
    assert len(lists) == 2
    before = [p.stat().st_mtime_ns for p in lists]
    cli("list", env=env)
    assert [p.stat().st_mtime_ns for p in lists] == before


def test_files_written_in_the_working_directory_do_not_make_it_look_again(tmp_path: Path) -> None:
    """Under `python -m diagnoser` the working directory is on sys.path, and a training run writes
    files there all the time: only a distribution appearing in it counts as a change."""
    work, cache = tmp_path / "project", tmp_path / "cache"
    work.mkdir()
    env = {"DIAGNOSER_CACHE_DIR": str(cache)}
    cli("list", env=env, cwd=work)
    (kept,) = cache.glob("plugins-*.marshal")
    before = kept.stat().st_mtime_ns
    (work / "train.log").write_text("epoch 1 | loss 2.3\n")
    cli("list", env=env, cwd=work)
    assert kept.stat().st_mtime_ns == before
    (work / "myteam-0.1.dist-info").mkdir()
    cli("list", env=env, cwd=work)
    assert kept.stat().st_mtime_ns != before


def test_a_huge_working_directory_is_not_listed_at_every_start(tmp_path: Path) -> None:
    """A folder of tens of thousands of files (a dataset) would be listed in full at each start:
    past the first 2,000 names its modification time stands in, so a new file there makes the
    next start look for plugins again, and the list kept then serves until it changes."""
    from diagnoser.knowledge import plugins

    work = tmp_path / "images"
    work.mkdir()
    for i in range(plugins._SCAN_LIMIT + 1):
        (work / f"{i:05d}.png").touch()
    assert plugins._distributions(str(work)) == work.stat().st_mtime_ns
    (work / "myteam-0.1.dist-info").mkdir()
    assert plugins._distributions(str(work)) == work.stat().st_mtime_ns  # changed with the folder
    small = tmp_path / "project"
    small.mkdir()
    (small / "myteam-0.1.dist-info").mkdir()
    assert plugins._distributions(str(small)) == ["myteam-0.1.dist-info"]
