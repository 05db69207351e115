"""The pre-commit hook (.pre-commit-hooks.yaml) as a user meets it: `pre-commit try-repo` on a
repository holding a buggy file fails and names the rule."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

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
