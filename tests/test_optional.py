"""Optional parts (pyproject.toml's extras) say what to install when they are missing: a Python
API raises a ModuleNotFoundError whose message names the package and the extra, a command
prints that one line and exits 2. Each test runs a fresh interpreter in which the part cannot
be imported, as on a machine where it was never installed."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from diagnoser.knowledge.index import reproductions_dir
from diagnoser.speak.optional import MissingOptional, install_hint, message, requires

from .conftest import ENTRIES, NEEDS_EXIT, ROOT

# The blocked top-level packages are hidden from the path finder, so that they are missing as on
# a machine without them: `import` raises Python's own ModuleNotFoundError, find_spec finds none.
_BLOCK = """
import sys
from importlib.machinery import PathFinder
class _Hiding:
    @classmethod
    def find_spec(cls, name, path=None, target=None):
        if name.partition(".")[0] in {blocked!r}:
            return None
        return PathFinder.find_spec(name, path, target)
    @classmethod
    def invalidate_caches(cls):
        PathFinder.invalidate_caches()
sys.meta_path[sys.meta_path.index(PathFinder)] = _Hiding
"""

# The Python side: the error's type, `name` and message, as JSON on stdout.
_API = """
import json
try:
    {code}
except ImportError as e:
    print(json.dumps({{"type": type(e).__name__, "mnfe": isinstance(e, ModuleNotFoundError),
                      "name": e.name, "message": str(e)}}))
else:
    print("null")
"""

_CLI = """
import runpy
sys.argv = ["diagnoser", *{args!r}]
runpy.run_module("diagnoser", run_name="__main__", alter_sys=True)
"""


def _python(
    blocked: set[str], code: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update({"NO_COLOR": "1", "LANG": "C.UTF-8"})
    return subprocess.run(
        [sys.executable, "-c", _BLOCK.format(blocked=sorted(blocked)) + code],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd or ROOT,
        timeout=120,
    )


def _api_error(blocked: set[str], code: str) -> dict[str, object]:
    proc = _python(blocked, _API.format(code=code))
    assert proc.returncode == 0, proc.stderr
    found = json.loads(proc.stdout)
    assert found is not None, f"{code} worked without {blocked}"
    assert isinstance(found, dict)
    return found


def _cli(
    blocked: set[str], *args: str, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return _python(blocked, _CLI.format(args=list(args)), cwd)


@pytest.mark.parametrize(
    ("code", "blocked", "feature", "package", "extra"),
    [
        (
            "diagnoser.DiagnoserCallback",
            {"lightning"},
            "diagnoser.DiagnoserCallback",
            "lightning",
            "lightning",
        ),
        (
            "diagnoser.DiagnoserTrainerCallback",
            {"transformers"},
            "diagnoser.DiagnoserTrainerCallback",
            "transformers",
            "hf",
        ),
        ("diagnoser.preflight", {"torch"}, "diagnoser.preflight", "torch", "torch"),
        ("diagnoser.watch", {"torch"}, "diagnoser.watch", "torch", "torch"),
        (
            "diagnoser.lr_find",
            {"torch"},
            "diagnoser.set_seed, lr_find and overfit_one_batch",
            "torch",
            "torch",
        ),
        (
            "from diagnoser.triage.spark import triage_spark; triage_spark(['x'], None)",
            {"pyspark"},
            "diagnoser.triage.spark",
            "pyspark",
            "spark",
        ),
    ],
    ids=["lightning", "hf", "preflight", "watch", "helpers", "spark"],
)
def test_the_python_api_raises_a_module_not_found_error_that_says_what_to_install(
    code: str, blocked: set[str], feature: str, package: str, extra: str
) -> None:
    statement = code if "import" in code else f"import diagnoser; {code}"
    found = _api_error(blocked, statement)
    assert found["type"] == "MissingOptional" and found["mnfe"]
    assert found["name"] == package
    assert found["message"] == (
        f"{feature} needs {package}, which is not installed: pip install {package} "
        f"(in a clone of torch-diagnoser: pip install '.[{extra}]')"
    )


def test_the_spark_engine_without_pyspark_exits_2_with_one_line(tmp_path: Path) -> None:
    log = tmp_path / "rank0.log"
    log.write_text("RuntimeError: CUDA out of memory.\n", encoding="utf-8")
    for lang in ("en", "zh"):
        proc = _cli({"pyspark"}, "triage", "--lang", lang, "--engine", "spark", str(log))
        assert proc.returncode == 2, proc.stderr
        want = message("diagnoser triage --engine spark", "pyspark", "spark", lang)
        assert proc.stderr == want + "\n" and proc.stdout == ""
        assert "pip install pyspark" in want and "pip install '.[spark]'" in want


def test_zst_logs_without_zstandard_exit_2_with_one_line(tmp_path: Path) -> None:
    (tmp_path / "rank0.log.zst").write_bytes(b"not read")
    (tmp_path / "rank1.log").write_text("RuntimeError: CUDA out of memory.\n", encoding="utf-8")
    proc = _cli({"zstandard"}, "triage", "--lang", "en", str(tmp_path))
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == (
        "diagnoser triage: reading .zst files needs zstandard, which is not installed: "
        "pip install zstandard (in a clone of torch-diagnoser: pip install '.[triage]')\n"
    )
    zh = _cli({"zstandard"}, "triage", "--lang", "zh", str(tmp_path))
    assert zh.returncode == 2 and zh.stderr.count("\n") == 1
    assert zh.stderr.startswith("diagnoser triage：读取 .zst 文件 需要 zstandard，但它没有安装")


def test_a_zst_file_read_through_the_api_without_zstandard_is_a_problem_that_says_why(
    tmp_path: Path,
) -> None:
    """Spark executors and `triage()` read each file alone: the file's problem says it."""
    (tmp_path / "rank0.log.zst").write_bytes(b"not read")
    code = f"from diagnoser.triage import triage\nprint(triage([{str(tmp_path)!r}]).problems)\n"
    proc = _python({"zstandard"}, code)
    assert proc.returncode == 0, proc.stderr
    assert "rank0.log.zst: reading .zst needs zstandard, which is not installed" in proc.stdout


def test_repro_without_torch_exits_2_with_one_line() -> None:
    proc = _cli({"torch"}, "repro", "shape-matmul")
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == message("diagnoser repro", "torch", "torch") + "\n"


def test_requires_lets_other_missing_modules_through() -> None:
    """A package that is installed but misses one of its own dependencies is not "not
    installed": that error stays as Python raised it."""
    with (
        pytest.raises(ModuleNotFoundError) as raised,
        requires("lightning.pytorch", extra="x", feature="f"),
    ):
        raise ModuleNotFoundError(
            "No module named 'lightning_utilities'", name="lightning_utilities"
        )
    assert not isinstance(raised.value, MissingOptional)
    with (
        pytest.raises(MissingOptional) as missing,
        requires("pyspark.sql", extra="spark", feature="f"),
    ):
        raise ModuleNotFoundError("No module named 'pyspark'", name="pyspark")
    assert missing.value.name == "pyspark" and missing.value.package == "pyspark"
    assert install_hint("pyspark", "spark", "zh").startswith("pip install pyspark（")


# `pip install 'torch-diagnoser[spark]'`: no distribution of that name is published, so a command
# that names one of its extras fails for everyone who copies it (README's Install section says
# what the bare name will do once it is published).
_UNPUBLISHED = re.compile(r"pip install\s+['\"]?torch-diagnoser\[")


def test_no_text_tells_users_to_install_an_unpublished_distribution() -> None:
    files = [ROOT / "README.md", ROOT / "mkdocs.yml", ROOT / "pyproject.toml"]
    for folder in ("diagnoser", "hooks", "reproductions", "site/_templates", "kb"):
        files += [p for p in (ROOT / folder).rglob("*") if p.suffix in {".py", ".md", ".yaml"}]
    offenders = [
        f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
        for path in files
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if _UNPUBLISHED.search(line)
    ]
    assert not offenders, offenders


def _uses_numpy(script: Path) -> bool:
    """The script imports numpy, or converts a tensor with `.numpy()` (which needs it)."""
    tree = ast.parse(script.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "numpy" for a in node.names):
            return True
        if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "numpy":
            return True
        if isinstance(node, ast.Attribute) and node.attr == "numpy":
            return True
    return False


NUMPY_ENTRIES = [e for e in ENTRIES if "numpy" in e.reproduction.needs]


def test_reproductions_that_use_numpy_declare_it() -> None:
    """A reproduction that needs numpy says so in its entry (`reproduction.needs`), as one that
    needs torchvision does: the docs show it, and without numpy it skips (exit 77)."""
    for entry in ENTRIES:
        script = reproductions_dir() / f"{entry.id}.py"
        declared = "numpy" in entry.reproduction.needs
        assert _uses_numpy(script) == declared, f"{entry.id}: needs {entry.reproduction.needs}"
    assert len(NUMPY_ENTRIES) >= 10


def test_a_reproduction_without_numpy_exits_77_and_says_what_to_install() -> None:
    """Every reproduction that needs numpy, run where numpy is missing: exit 77 (as for a missing
    GPU or torchvision), not 1 (the code of a reproduction that works). One interpreter runs
    them all, so that torch is imported once."""
    scripts = [str(reproductions_dir() / f"{e.id}.py") for e in NUMPY_ENTRIES]
    assert scripts
    code = f"""
import contextlib, io, json, os, runpy
import torch  # once, here: its own warning about numpy is no script's
found = {{}}
for script in {scripts!r}:
    sys.argv = [script]
    sys.path.insert(0, os.path.dirname(script))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        try:
            runpy.run_path(script, run_name="__main__")
            status = 0
        except SystemExit as e:
            status = e.code
        except Exception as e:
            status = repr(e)
    found[os.path.basename(script)] = [status, err.getvalue()]
print(json.dumps(found))
"""
    proc = _python({"numpy"}, code)
    assert proc.returncode == 0, proc.stderr[-3000:]
    want = "SKIP: " + message("this reproduction", "numpy", "torch") + "\n"
    for name, (status, stderr) in json.loads(proc.stdout.splitlines()[-1]).items():
        assert (status, stderr) == (NEEDS_EXIT, want), name
