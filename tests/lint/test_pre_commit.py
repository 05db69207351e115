"""The pre-commit hook (.pre-commit-hooks.yaml) as a user meets it: `pre-commit try-repo` on a
repository holding a buggy file fails and names the rule."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.conftest import ROOT


def test_try_repo_fails_on_a_bug_and_names_the_rule(tmp_path: Path) -> None:
    repo = tmp_path / "project"
    repo.mkdir()
    (repo / "train.py").write_text(
        "import torch\nx = torch.randn(3).cuda().numpy()\n", encoding="utf-8"
    )
    (repo / "ok.py").write_text("import torch\nx = torch.ones(2)\n", encoding="utf-8")
    git = shutil.which("git")
    assert git, "git is needed by pre-commit"
    env = {
        **os.environ,
        "PRE_COMMIT_HOME": str(tmp_path / "cache"),
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
    }
    subprocess.run([git, "init", "-q"], cwd=repo, check=True, env=env)
    subprocess.run([git, "add", "."], cwd=repo, check=True, env=env)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pre_commit",
            "try-repo",
            str(ROOT),
            "diagnoser-lint",
            "--all-files",
        ],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "train.py:2:5: TD032" in proc.stdout
    assert "ok.py:" not in proc.stdout


def _readme_snippet() -> list[dict[str, object]]:
    """The .pre-commit-config.yaml lines README.md tells users to paste."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```yaml\n(.*?)```", readme, re.DOTALL)
    snippets = [b for b in blocks if "diagnoser-lint" in b]
    assert len(snippets) == 1, "README.md should show one pre-commit snippet"
    loaded = yaml.safe_load(snippets[0])
    assert isinstance(loaded, list)
    return loaded


def test_the_readme_snippet_names_this_repository_and_its_hook() -> None:
    (repo,) = _readme_snippet()
    mkdocs = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert f"repo_url: {repo['repo']}\n" in mkdocs
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert repo["hooks"] == [{"id": "diagnoser-lint"}]
    assert [h["id"] for h in hooks] == ["diagnoser-lint"]


def test_the_readme_snippet_pins_a_rev_that_exists() -> None:
    """pre-commit checks out `rev` in the repository: a tag or branch that does not exist (as
    `v0.1.0` did before any release was tagged) makes the snippet fail for everyone who pastes
    it."""
    (repo,) = _readme_snippet()
    rev = str(repo["rev"])
    git = shutil.which("git")
    if git is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")

    def exists(ref: str) -> bool:
        proc = subprocess.run(
            [git, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
            cwd=ROOT,
            capture_output=True,
        )
        return proc.returncode == 0

    # a clone that checked out one commit may know the branch only as origin's
    assert exists(rev) or exists(f"refs/remotes/origin/{rev}"), f"rev: {rev} is no ref here"
