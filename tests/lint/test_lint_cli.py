"""`diagnoser lint` as users and CI run it: exit codes, sorting, noqa, configuration, languages,
output formats, notebooks, files that do not parse, --explain."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import cli

BAD = "import torch\nx = torch.randn(3).cuda().numpy()\n"
SOFTMAX = (
    "import torch.nn.functional as F\n"
    "def f(logits, y):\n"
    "    return F.cross_entropy(F.softmax(logits, dim=1), y)\n"
)


def _tree(tmp_path: Path) -> Path:
    (tmp_path / "b.py").write_text(SOFTMAX, encoding="utf-8")
    (tmp_path / "a.py").write_text(BAD, encoding="utf-8")
    (tmp_path / "clean.py").write_text("import torch\nx = torch.ones(2)\n", encoding="utf-8")
    (tmp_path / "broken.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    skipped = tmp_path / ".venv" / "lib"
    skipped.mkdir(parents=True)
    (skipped / "dep.py").write_text(BAD, encoding="utf-8")
    return tmp_path


def test_text_output_sorted_with_syntax_errors_reported(tmp_path: Path) -> None:
    _tree(tmp_path)
    result = cli("lint", cwd=tmp_path)
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert [line.split(":", 1)[0] for line in lines] == ["a.py", "b.py", "broken.py"]
    assert lines[0].startswith("a.py:2:5: TD032 `torch.randn(3).cuda().numpy()` ")
    assert lines[0].endswith(" [numpy-cuda-tensor]")
    assert lines[1].startswith("b.py:3:28: TD001 `F.softmax(logits, dim=1)` ")
    assert lines[2].startswith("broken.py:1:7: E999 SyntaxError: ")


def test_exit_codes(tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("import torch\n", encoding="utf-8")
    assert cli("lint", "clean.py", cwd=tmp_path).returncode == 0
    (tmp_path / "bad.py").write_text(BAD, encoding="utf-8")
    assert cli("lint", "bad.py", cwd=tmp_path).returncode == 1
    missing = cli("lint", "nope.py", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.py" in missing.stderr
    unknown = cli("lint", "--select", "XY9", "bad.py", cwd=tmp_path)
    assert unknown.returncode == 2 and "XY9" in unknown.stderr
    assert cli("lint", "--format", "yaml", cwd=tmp_path).returncode == 2


def test_noqa_select_ignore(tmp_path: Path) -> None:
    src = (
        "import torch\n"
        "a = torch.randn(3).cuda().numpy()  # noqa: TD032\n"
        "b = torch.randn(3).cuda().numpy()  # noqa\n"
        "c = torch.randn(3).cuda().numpy()  # noqa: TD001\n"
        "import torch._six\n"
    )
    (tmp_path / "x.py").write_text(src, encoding="utf-8")
    codes = [line.split()[1] for line in cli("lint", "x.py", cwd=tmp_path).stdout.splitlines()]
    assert codes == ["TD032", "TD054"]
    only = cli("lint", "--select", "TD05", "x.py", cwd=tmp_path).stdout
    assert "TD054" in only and "TD032" not in only
    rest = cli("lint", "--ignore", "TD054,TD032", "x.py", cwd=tmp_path)
    assert rest.returncode == 0 and rest.stdout == ""


def test_pyproject_configuration(tmp_path: Path) -> None:
    _tree(tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.diagnoser.lint]\nignore = ["TD001"]\nexclude = ["broken.py"]\n', encoding="utf-8"
    )
    out = cli("lint", cwd=tmp_path).stdout
    assert "TD032" in out and "TD001" not in out and "broken.py" not in out
    assert "TD001" in cli("lint", "--ignore", "TD054", cwd=tmp_path).stdout  # the CLI wins
    (tmp_path / "pyproject.toml").write_text(
        "[tool.diagnoser.lint]\nselct = []\n", encoding="utf-8"
    )
    bad = cli("lint", cwd=tmp_path)
    assert bad.returncode == 2 and "selct" in bad.stderr


def test_chinese_messages(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text(BAD, encoding="utf-8")
    out = cli("lint", "--lang", "zh", "bad.py", cwd=tmp_path).stdout
    assert "在 GPU 上" in out and "[numpy-cuda-tensor]" in out
    assert "在 GPU 上" in cli("lint", "bad.py", cwd=tmp_path, env={"LANG": "zh_CN.UTF-8"}).stdout


def test_json_sarif_github(tmp_path: Path) -> None:
    _tree(tmp_path)
    rows = json.loads(cli("lint", "--format", "json", cwd=tmp_path).stdout)
    assert rows[0] == {
        "path": "a.py",
        "line": 2,
        "col": 5,
        "code": "TD032",
        "entry": "numpy-cuda-tensor",
        "message": rows[0]["message"],
    }
    assert [r["code"] for r in rows] == ["TD032", "TD001", "E999"]
    sarif = json.loads(cli("lint", "--format", "sarif", cwd=tmp_path).stdout)
    assert sarif["version"] == "2.1.0"
    run = sarif["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    result = run["results"][0]
    assert result["ruleId"] == "TD032" and ids[result["ruleIndex"]] == "TD032"
    region = result["locations"][0]["physicalLocation"]["region"]
    assert region == {"startLine": 2, "startColumn": 5}
    github = cli("lint", "--format", "github", cwd=tmp_path).stdout.splitlines()
    assert github[0].startswith("::warning file=a.py,line=2,col=5,title=TD032::TD032 ")
    assert github[2].startswith("::error file=broken.py,line=1,col=7,title=E999::")


def test_notebook_cells(tmp_path: Path) -> None:
    cells = [
        {"cell_type": "markdown", "metadata": {}, "source": ["# notes"]},
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [],
            "execution_count": None,
            "source": ["%matplotlib inline\n", "import torch.nn.functional as F\n"],
        },
        {
            "cell_type": "code",
            "metadata": {},
            "outputs": [],
            "execution_count": None,
            "source": "!nvidia-smi\nloss = F.nll_loss(F.softmax(out, dim=1), y)\n",
        },
    ]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "train.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    result = cli("lint", "train.ipynb", cwd=tmp_path)
    assert result.stdout.startswith("train.ipynb:cell 3:2:19: TD003 "), result.stdout
    row = json.loads(cli("lint", "--format", "json", cwd=tmp_path).stdout)[0]
    assert (row["cell"], row["line"], row["code"]) == (3, 2, "TD003")
    (tmp_path / "train.ipynb").write_text("{not json", encoding="utf-8")
    broken = cli("lint", "train.ipynb", cwd=tmp_path)
    assert broken.returncode == 1 and "E999" in broken.stdout


@pytest.mark.parametrize("lang,heading", [("en", "Why is this bad?"), ("zh", "为什么这是 bug")])
def test_explain(lang: str, heading: str) -> None:
    result = cli("lint", "--explain", "td030", "--lang", lang)
    assert result.returncode == 0
    assert result.stdout.startswith("TD030 view-after-transpose")
    assert heading in result.stdout and "diagnoser show view-non-contiguous" in result.stdout
    assert cli("lint", "--explain", "TD999").returncode == 2


def test_bad_input_never_crashes(tmp_path: Path) -> None:
    files = {
        "binary.py": b"\xff\xfe\x00\x01garbage\x00",
        "nulls.py": b"x = 1\x00\n",
        "latin1.py": b"# -*- coding: latin-1 -*-\ns = '\xe9'\n",
        "deep.py": b"x = " + b"(" * 300 + b"1" + b")" * 300 + b"\n",
        "long.py": b"x = " + b" + ".join(b"loss" for _ in range(20000)) + b"\n",
        "empty.py": b"",
        "nb.ipynb": b'{"cells": [{"cell_type": "code", "source": [1, 2]}]}',
        "nocode.ipynb": b'{"cells": [{"cell_type": "markdown", "source": "# hi"}]}',
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    result = cli("lint", "--format", "json", cwd=tmp_path)
    assert result.returncode in (0, 1), result.stderr
    assert "Traceback" not in result.stderr
    rows = json.loads(result.stdout)
    assert {r["path"] for r in rows} <= set(files)
    assert {r["code"] for r in rows} <= {"E999"}
