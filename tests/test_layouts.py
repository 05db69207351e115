"""Real reproduction output, put through the layouts users paste it in.

Each case takes the real output of a reproduction, either re-run the way the layout comes about
(a chained re-raise, a DataLoader worker, torchrun, IPython, pytest, rich, loguru...) or passed
through a transform kept here (prefixes, notebook and debugger layouts, damage, encodings). The
diagnosis must still name the family first and point at the user's own line; the expected line is
read from the clean output, never typed here.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
import textwrap
from collections.abc import Callable
from functools import cache
from pathlib import Path

import pytest

from diagnoser.knowledge.index import Index, reproductions_dir
from diagnoser.speak.explain import explanation
from diagnoser.text.cleanup import decode
from diagnoser.text.match import diagnose
from diagnoser.text.parse import Frame, parse

from .conftest import run_reproduction

FAMILIES = ["shape-matmul", "batch-size-mismatch"]
VENV_BIN = Path(sys.executable).parent


def _clean(family: str) -> str:
    proc = run_reproduction(family)
    return proc.stdout + proc.stderr


def _where(text: str) -> Frame:
    root = parse(text).root
    assert root is not None and root.where is not None
    return root.where


# -- outputs produced by really running the reproduction inside the layout's machinery ---------

_PRELUDE = """
import runpy, sys
path = {path!r}
sys.path.insert(0, str(__import__("pathlib").Path(path).parent))
sys.argv = [path]
def run():
    runpy.run_path(path, run_name="__main__")
"""

REAL_LAYOUTS: dict[str, str] = {
    "chained-cause": """
        try:
            run()
        except Exception as e:
            raise RuntimeError("training step failed") from e
    """,
    "chained-context": """
        try:
            run()
        except Exception:
            raise KeyError("cleanup failed")
    """,
    "exception-group": """
        try:
            run()
        except Exception as e:
            raise ExceptionGroup("epoch failed", [e])
    """,
    "unrelated-earlier-traceback": """
        import traceback
        try:
            {}["learning_rate"]
        except KeyError:
            traceback.print_exc()
        print("falling back to the default learning rate")
        run()
    """,
    "dataloader-worker": """
        import torch
        from torch.utils.data import DataLoader, Dataset
        class Steps(Dataset):
            def __len__(self):
                return 2
            def __getitem__(self, i):
                run()
        if __name__ == "__main__":
            next(iter(DataLoader(Steps(), num_workers=1)))
    """,
    "warnings-before": """
        import warnings
        warnings.warn("The default value of the antialias parameter will change", UserWarning)
        run()
    """,
    "exception-ignored-after": """
        class Logger:
            def __del__(self):
                raise AttributeError("'NoneType' object has no attribute 'close'")
        logger = Logger()
        run()
    """,
    "rich": """
        from rich.traceback import install
        install(width=120)
        run()
    """,
    "loguru": """
        from loguru import logger
        logger.remove()
        logger.add(sys.stderr, colorize=False)
        try:
            run()
        except Exception:
            logger.exception("training failed")
    """,
}


@cache
def _real_layout(name: str, family: str) -> str:
    script = textwrap.dedent(_PRELUDE.format(path=str(reproductions_dir() / f"{family}.py")))
    script += textwrap.dedent(REAL_LAYOUTS[name])
    env = {**os.environ, "COLUMNS": "120"}
    proc = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env
    )
    return proc.stdout + proc.stderr


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("layout", REAL_LAYOUTS)
def test_real_layouts(layout: str, family: str, index: Index) -> None:
    text = _real_layout(layout, family)
    diagnosis = diagnose(text, index)
    assert diagnosis.best is not None, text[-3000:]
    assert diagnosis.best.entry.id == family, [(m.entry.id, m.score) for m in diagnosis.matches]
    where, expected = (
        diagnosis.best.error.where if diagnosis.best.error else None,
        _where(_clean(family)),
    )
    assert where is not None and (Path(where.filename).name, where.lineno) == (
        Path(expected.filename).name,
        expected.lineno,
    )


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("marker", ["❱", ">"])
def test_a_rich_box_whose_top_was_cut_off(family: str, marker: str, index: Index) -> None:
    """A paste that starts inside rich's box, its header gone (and rich's legacy Windows console
    marking the current line with ">"): still a traceback, with its frames and source."""
    lines = _real_layout("rich", family).replace("❱", marker).splitlines()
    header = next(n for n, line in enumerate(lines) if "Traceback (most recent call last)" in line)
    best = diagnose("\n".join(lines[header + 2 :]), index).best
    assert best is not None and best.entry.id == family
    assert best.error is not None and best.error.where is not None
    expected = _where(_clean(family))
    assert (Path(best.error.where.filename).name, best.error.where.lineno) == (
        Path(expected.filename).name,
        expected.lineno,
    )


def _run_tool(args: list[str], script: str, cwd: Path) -> str:
    proc = subprocess.run(args, input=script, capture_output=True, text=True, timeout=300, cwd=cwd)
    return proc.stdout + proc.stderr


@pytest.mark.parametrize("family", FAMILIES)
def test_ipython(family: str, index: Index, tmp_path: Path) -> None:
    path = reproductions_dir() / f"{family}.py"
    code = _PRELUDE.format(path=str(path)) + "run()"
    text = _run_tool([str(VENV_BIN / "ipython"), "--colors=NoColor", "-c", code], "", tmp_path)
    assert "Traceback (most recent call last)" in text and "Cell In[" in text
    best = diagnose(text, index).best
    assert best is not None and best.entry.id == family
    assert best.error is not None and best.error.where is not None
    assert Path(best.error.where.filename).name == path.name


@pytest.mark.parametrize("family", FAMILIES)
def test_pytest_failure_report(family: str, index: Index, tmp_path: Path) -> None:
    path = reproductions_dir() / f"{family}.py"
    (tmp_path / "test_train.py").write_text(
        textwrap.dedent(f"""
        import runpy, sys
        def test_train():
            sys.path.insert(0, {str(path.parent)!r})
            sys.argv = [{str(path)!r}]
            runpy.run_path({str(path)!r}, run_name="__main__")
    """)
    )
    text = _run_tool(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "test_train.py"], "", tmp_path
    )
    assert "\nE   " in text
    best = diagnose(text, index).best
    assert best is not None and best.entry.id == family
    assert best.error is not None and best.error.where is not None
    assert Path(best.error.where.filename).name == path.name


_FAILING_BACKEND = """
import torch

def failing_backend(gm, example_inputs):
    raise RuntimeError("backend could not compile this graph")

def step(x):
    return torch.sin(x) + 1

def test_compiled_step():
    torch.compile(step, backend=failing_backend)(torch.randn(4))
"""


def test_a_pytest_report_cut_before_its_error_is_read_from_its_frames(
    index: Index, tmp_path: Path
) -> None:
    """pytest's short report ("file.py:6: in step", the source line below) of torch.compile
    failing, pasted without its "E   ..." lines (as NixOS/nixpkgs#420372 cut it): a traceback cut
    before its exception, whose frames say where it failed, dynamo's here. Cut right below
    eval_frame's re-raise of a backend's failure (torch >= 2.6 hides the frames under it), that
    frame alone says so. pytest's banners, between rules, are no message."""
    (tmp_path / "test_compile.py").write_text(_FAILING_BACKEND)
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--tb=short"]
    report = _run_tool([*args, "test_compile.py"], "", tmp_path)
    assert "\nE   torch._dynamo.exc.BackendCompilerFailed" in report
    # the session's banner is no message: its rules resembled torchrun's failure table
    assert report.startswith("=") and "test session starts" in report.split("\n", 1)[0]
    assert diagnose(report.split("\n", 1)[0], index).best is None
    cut = report[: report.index("\nE   ")]
    err = parse(cut).errors[-1]
    assert err.is_cut_off and err.frames[0] == Frame(
        "test_compile.py",
        11,
        "test_compiled_step",
        "torch.compile(step, backend=failing_backend)(torch.randn(4))",
    )
    best = diagnose(cut, index).best
    assert best is not None and best.entry.id == "dynamo-compile-error"
    assert best.method == "frames"
    reraise = "raise e.remove_dynamo_frames() from None"
    at_the_reraise = report[: report.index("\n", report.index(reraise))]
    assert parse(at_the_reraise).errors[-1].frames[-1].line.startswith(reraise)
    best = diagnose(at_the_reraise, index).best
    assert best is not None and best.entry.id == "dynamo-compile-error"


def test_torchrun_rank_failure_is_the_root(index: Index, tmp_path: Path) -> None:
    """Two CPU ranks under torchrun; rank 1 fails. Its own error comes first."""
    path = reproductions_dir() / "shape-matmul.py"
    script = tmp_path / "train.py"
    script.write_text(
        textwrap.dedent(_PRELUDE.format(path=str(path)))
        + textwrap.dedent("""
        import os
        if os.environ["RANK"] == "1":
            run()
    """)
    )
    text = _run_tool(
        [sys.executable, "-m", "torch.distributed.run", "--nproc-per-node", "2", str(script)],
        "",
        tmp_path,
    )
    assert "ChildFailedError" in text
    matches = [m.entry.id for m in diagnose(text, index).matches]
    assert matches[:2] == [
        "shape-matmul",
        "torchrun-child-failed",
    ]  # the launcher's report is context
    assert parse(text).root is not None and parse(text).root.exc_type == "RuntimeError"  # type: ignore[union-attr]


# -- transforms of the clean output --------------------------------------------------------------


def _prefix(fmt: str) -> Callable[[str], str]:
    return lambda text: "\n".join(fmt.format(i=i) + line for i, line in enumerate(text.split("\n")))


def _ranks(text: str) -> str:
    healthy = [f"[rank0]: step {i} loss {2.3 - i * 0.01:.3f}" for i in range(len(text.split("\n")))]
    failing = ["[rank1]: " + line for line in text.split("\n")]
    return "\n".join(line for pair in zip(healthy, failing, strict=True) for line in pair)


def _old_ipython(text: str) -> str:
    root = parse(text).root
    assert root is not None
    out = ["-" * 75, f"{root.exc_type}{' ' * 30}Traceback (most recent call last)"]
    for frame in root.frames:
        name = "<ipython-input-3-8f2c4e1d9a7b>" if frame.is_user_code else frame.filename
        out += [f"{name} in {frame.name}()", f"----> {frame.lineno} {frame.line or ''}", ""]
    return "\n".join([*out, f"{root.exc_type}: {root.message}"])


def _colab(text: str) -> str:
    root = parse(text).root
    assert root is not None
    out = [f"{root.exc_type}{' ' * 30}Traceback (most recent call last)"]
    for i, frame in enumerate(root.frames):
        out += [
            f"{frame.filename} in {frame.name}(self, *input, **kwargs)",
            f"-> {frame.lineno} {frame.line or ''}",
            "",
        ]
        if i == 1:
            out.append("3 frames")
    return "\n".join([*out, f"{root.exc_type}: {root.message}"])


def _vscode(text: str) -> str:
    root = parse(text).root
    assert root is not None
    frames = [
        f'  File "{f.filename}", line {f.lineno}, in {f.name}\n    {f.line or ""}'
        for f in reversed(root.frames)
    ]
    return "\n".join([f"Exception has occurred: {root.exc_type}", root.message, *frames])


def _vscode_over_terminal(text: str) -> str:
    """The debugger's header over the terminal's whole traceback, its call stack pasted below it
    innermost first (weiaicunzai/pytorch-cifar100#25)."""
    root = parse(text).root
    assert root is not None
    stack = [
        f'  File "{f.filename}", line {f.lineno}, in {f.name}\n    {f.line or ""}'
        for f in reversed(root.frames)
        if f.is_user_code
    ]
    return "\n".join([f"发生异常: {root.exc_type}", text.rstrip("\n"), *stack])


def _message_first(text: str) -> str:
    root = parse(text).root
    assert root is not None
    frames = [
        f'  File "{f.filename}", line {f.lineno}, in {f.name}\n    {f.line or ""}'
        for f in root.frames
    ]
    return "\n".join([f"{root.exc_type}: {root.message}", *frames])


def _cpp(text: str) -> str:
    root = parse(text).root
    assert root is not None
    return (
        "terminate called after throwing an instance of 'c10::Error'\n"
        f"  what():  {root.message}\n"
        "Exception raised from mm at /pytorch/aten/src/ATen/native/LinearAlgebra.cpp:1821 "
        "(most recent call first):\n"
        "frame #0: c10::Error::Error(c10::SourceLocation, std::string) + 0x96 (0x7f5c in c10.so)\n"
        "Aborted (core dumped)"
    )


def _pdb(text: str) -> str:
    where = _where(text)
    return (
        text + "Uncaught exception. Entering post mortem debugging\n"
        f"> {where.filename}({where.lineno}){where.name}()\n-> {where.line or ''}\n(Pdb) "
    )


def _vscode_notebook(text: str) -> str:
    """IPython 8 inside a VS Code notebook: the user's frames are links to notebook cells."""
    root = parse(text).root
    assert root is not None
    out = ["-" * 75, f"{root.exc_type}{' ' * 30}Traceback (most recent call last)"]
    for frame in root.frames:
        name = (
            "vscode-notebook-cell:/home/ana/mnist.ipynb#W3sZmlsZQ%3D%3D"
            if frame.is_user_code
            else frame.filename
        )
        out += [
            f"File {name}:{frame.lineno}, in {frame.name}",
            f"--> {frame.lineno} {frame.line or ''}",
            "",
        ]
    return "\n".join([*out, f"{root.exc_type}: {root.message}"])


def _hard_wrap(text: str) -> str:
    return "\n".join(
        line[i : i + 60] for line in text.split("\n") for i in range(0, max(len(line), 1), 60)
    )


def _damaged_case(text: str) -> str:
    lines = text.split("\n")
    lines[-2] = lines[-2].lower().replace(": ", ":", 1) if lines[-1] == "" else lines[-2]
    return "\n".join(lines)


TRANSFORMS: dict[str, Callable[[str], str]] = {
    "iso-timestamp-and-level": _prefix("2024-05-01 12:00:{i:02d},123 - ERROR - "),
    "python-logging": _prefix("ERROR:train:"),
    "bracket-time": _prefix("[12:00:{i:02d}] "),
    "glog": _prefix("E0228 15:00:15.{i:06d} 12345 trainer.cpp:88] "),
    "horovod": _prefix("[1,0]<stderr>:"),
    "journald": _prefix("Feb 28 15:00:15 gpu-node-3 python[4242]: "),
    "sagemaker": _prefix("[training STDERR] "),
    "markdown-quote": _prefix("> "),
    "torchelastic-default": _prefix("[default0]:"),
    "pdb-post-mortem": _pdb,
    "vscode-notebook": _vscode_notebook,
    "ranks-interleaved": _ranks,
    "ipython-old": _old_ipython,
    "colab": _colab,
    "vscode-debugger": _vscode,
    "vscode-over-terminal": _vscode_over_terminal,
    "message-before-frames": _message_first,
    "progress-bar-glued": lambda t: "100%|██████████| 1135/1136 [25:31<00:01, 1.35s/it]" + t,
    "carriage-returns": lambda t: (
        " 10%|█         | 1/10\r 20%|██        | 2/10\r" + t.replace("\n", "\r\n")
    ),
    "duplicated": lambda t: t + "\n" + t,
    "ansi-colours": lambda t: (
        t.replace("RuntimeError", "\x1b[31;1mRuntimeError\x1b[0m")
        .replace("ValueError", "\x1b[91mValueError\x1b[0m")
        .replace('File "', '\x1b[35mFile "\x1b[0m')
    ),
    "flattened": lambda t: " ".join(line.strip() for line in t.split("\n") if line.strip()),
    "repr-string": lambda t: repr(t),
    "json-object": lambda t: json.dumps(
        {"name": "Error", "message": t.strip().split("\n")[-1], "stack": t}
    ),
    "html-escaped": lambda t: html.escape(t),
    "hard-wrapped": _hard_wrap,
    # a word wrap at the space after the path's comma: `line N, in f` flush left below it
    "wrapped-after-path": lambda t: re.sub(r'(?m)^(\s*File "[^"]+",) (line \d+)', r"\1\n\2", t),
    "curly-quotes": lambda t: t.replace("'", "’").replace('"', "“"),
    "case-damage": _damaged_case,
    "cpp-terminate": _cpp,
}
# Layouts that keep no Python frames: only the family can be checked.
NO_FRAMES = {"cpp-terminate"}


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("name", TRANSFORMS)
def test_transformed_layouts(name: str, family: str, index: Index) -> None:
    clean = _clean(family)
    text = TRANSFORMS[name](clean)
    diagnosis = diagnose(text, index)
    assert diagnosis.best is not None, text[-2000:]
    assert diagnosis.best.entry.id == family, [(m.entry.id, m.score) for m in diagnosis.matches]
    if name in NO_FRAMES:
        return
    expected = _where(clean)
    assert diagnosis.best.error is not None
    where = diagnosis.best.error.where
    assert where is not None, name
    assert where.lineno == expected.lineno


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(
    "encode",
    [
        lambda t: ("# 训练脚本 C:\\Users\\张三\\train.py\n" + t).encode("gbk", errors="replace"),
        lambda t: t.encode("utf-16"),
        lambda t: t.encode("utf-16-le"),
        lambda t: t.replace("\n", "\x00\n").encode(),
        lambda t: b"\x80\x81garbage\xfe\xc3\n" + t.encode(),
    ],
    ids=["gbk", "utf-16-bom", "utf-16-le-no-bom", "nul-bytes", "invalid-utf8"],
)
def test_encodings(encode: Callable[[str], bytes], family: str, index: Index) -> None:
    best = diagnose(decode(encode(_clean(family))), index).best
    assert best is not None and best.entry.id == family


@pytest.mark.parametrize("family", ["bce-target-size", "batchnorm-single-sample"])
def test_a_traceback_cut_off_before_its_last_line(family: str, index: Index) -> None:
    """The message line is lost; the raising statement in the last frame still names the error."""
    clean = _clean(family).rstrip("\n")
    cut = clean[: clean.rindex("\n")]
    assert "Error:" not in cut.splitlines()[-1]
    best = diagnose(cut, index).best
    assert best is not None and best.entry.id == family
    assert best.error is not None and best.error.where == _where(clean)


_CUDA_REPORT = (
    "RuntimeError: CUDA error: device-side assert triggered\n"
    "CUDA kernel errors might be asynchronously reported at some other API call, so the "
    "stacktrace below might be incorrect.\n"
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1"
)


def _on_the_gpu(family: str, assertion: str) -> str:
    """The family's real CPU traceback as the GPU prints it: the kernel's assertion once per
    thread above, the CUDA report in place of the CPU's message."""
    clean = _clean(family)
    root = parse(clean).root
    assert root is not None and root.exc_type
    asserts = "\n".join(assertion.format(t=t) for t in range(4))
    return asserts + "\n" + clean.replace(f"{root.exc_type}: {root.message}", _CUDA_REPORT)


def test_the_loss_kernels_label_check_is_a_device_side_assert(index: Index) -> None:
    """nll_loss's kernel check `t >= 0 && t < n_classes` is filed by families.yaml under
    cuda-device-side-assert: that entry answers, and its explanation is the labels' (what
    target-out-of-bounds says of the same mistake on the CPU)."""
    text = _on_the_gpu(
        "target-out-of-bounds",
        "/pytorch/aten/src/ATen/native/cuda/Loss.cu:250: nll_loss_forward_reduce_cuda_kernel_2d: "
        "block: [0,0,0], thread: [{t},0,0] Assertion `t >= 0 && t < n_classes` failed.",
    )
    best = diagnose(text, index).best
    assert best is not None and best.entry.id == "cuda-device-side-assert"
    said = explanation(best, "en") or ""
    assert "target.min()" in said and "ignore_index" in said


KERNEL_ASSERTS = {
    # family: the assertion CUDA prints (from the entry's own examples) for the CPU mistake
    "embedding-index-out-of-range": "/pytorch/aten/src/ATen/native/cuda/Indexing.cu:1290: "
    "indexSelectLargeIndex: block: [{t},0,0], thread: [64,0,0] "
    "Assertion `srcIndex < srcSelectDimSize` failed.",
}


@pytest.mark.parametrize("family", KERNEL_ASSERTS)
def test_cuda_kernel_assertions_name_the_family_behind_a_device_side_assert(
    family: str, index: Index
) -> None:
    """On a GPU the same mistake prints assertion lines, then only "device-side assert
    triggered": the assertion decides the family; the generic entry comes after."""
    text = _on_the_gpu(family, KERNEL_ASSERTS[family])
    ids = [m.entry.id for m in diagnose(text, index).matches]
    assert ids[:2] == [family, "cuda-device-side-assert"]
