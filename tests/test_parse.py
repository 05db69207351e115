"""The parser on real output: errors, chains, frames, the user's own line."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings
from multiprocessing import resource_tracker
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from diagnoser.text.cleanup import decode
from diagnoser.text.parse import parse

REAL = Path(__file__).parent / "data" / "real"


def _run(code: str) -> str:
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)], capture_output=True, text=True
    )
    return proc.stderr


def test_plain_traceback_frames_and_where() -> None:
    err = _run("""
        import json
        def load(s):
            return json.loads(s)
        load("{")
    """)
    trace = parse(err)
    root = trace.root
    assert root is not None
    assert root.exc_type == "json.decoder.JSONDecodeError"
    assert root.message.startswith("Expecting property name")
    assert root.where is not None
    assert (root.where.filename, root.where.name) == ("<string>", "load")
    assert [f.name for f in root.frames][:2] == ["<module>", "load"]


def test_chained_exceptions_keep_both_and_the_relation() -> None:
    err = _run("""
        try:
            {}["x"]
        except KeyError as e:
            raise ValueError("bad config") from e
    """)
    trace = parse(err)
    assert [e.exc_type for e in trace.errors] == ["KeyError", "ValueError"]
    assert trace.errors[0].relation == "cause"
    assert trace.root is not None and trace.root.exc_type == "KeyError"  # the original problem


def test_dataloader_worker_reraise_puts_the_original_error_first() -> None:
    err = _run("""
        import torch
        from torch.utils.data import DataLoader, Dataset

        class Rows(Dataset):
            def __len__(self):
                return 4
            def __getitem__(self, i):
                return float("n/a")

        if __name__ == "__main__":
            next(iter(DataLoader(Rows(), num_workers=1)))
    """)
    trace = parse(err)
    root = trace.root
    assert root is not None and root.relation == "worker"
    assert root.exc_type == "ValueError"
    assert root.message == "could not convert string to float: 'n/a'"
    assert root.where is not None and root.where.name == "__getitem__"


def test_a_cut_worker_reraise_wraps_the_error_of_its_class_quoted_above_it() -> None:
    """Posts put the message in the title, then paste the re-raise cut after "Original
    Traceback" (yumingj/C2-Matching#17): the quoted message is the worker's error."""
    err = _run("""
        import torch
        from torch.utils.data import DataLoader, Dataset

        class Rows(Dataset):
            def __len__(self):
                return 4
            def __getitem__(self, i):
                return torch.zeros(i + 1)

        if __name__ == "__main__":
            next(iter(DataLoader(Rows(), batch_size=2, num_workers=1)))
    """)
    *_, wrapper = parse(err).errors
    assert wrapper.relation != "worker" and wrapper.message.startswith("Caught RuntimeError")
    inner = parse(err).root
    assert inner is not None and inner.relation == "worker"
    cut = err[: err.index("Original Traceback")] + "Original Traceback (most recent call last):\n"
    quoted = f"RuntimeError: {inner.message}\n\n{cut}"
    root = parse(quoted).root
    assert root is not None and root.message == inner.message and root.relation is None
    # a message of another class quoted above it is not what the worker raised
    other = parse(f"ValueError: bad value\n\n{cut}").root
    assert other is not None and other.message.startswith("Caught RuntimeError")


def test_bare_error_line_in_a_log() -> None:
    trace = parse("step 10 loss 0.3\nRuntimeError: something broke\nmore log\n")
    assert [(e.exc_type, e.message) for e in trace.errors] == [("RuntimeError", "something broke")]


def test_an_exception_printed_as_its_repr_is_read_as_its_class_and_message() -> None:
    """`print(repr(e))` or a log line holding it (whisperX's install notes quote
    `AssertionError("Torch not compiled with CUDA enabled")`): the class and str(e)."""
    torch = pytest.importorskip("torch")
    try:
        torch.zeros(2, 3) @ torch.zeros(4, 5)
    except RuntimeError as e:
        caught = e
    for line in (repr(caught), f"  {caught!r},", f"{caught!r}."):
        errors = parse(f"step 3\n{line}\nmore log\n").errors
        assert [(e.exc_type, e.message) for e in errors] == [("RuntimeError", str(caught))]
    # an assignment that builds an exception is code, not one raised
    assert all(e.exc_type is None for e in parse('err = RuntimeError("boom")').errors)


def test_transformers_lazy_import_error_carries_its_cause_on_the_next_line() -> None:
    """transformers re-raises a failed import as "Failed to import X because of the following error
    (look up to see its traceback):" with the cause's own message on the next, unindented line
    (project-baize/baize-chatbot#24): read as one message; the log line after a blank stays out."""
    text = (
        "RuntimeError: Failed to import transformers.trainer because of the following error "
        "(look up to see its traceback):\nNo module named 'torch._six'\n\nstep 3 done\n"
    )
    root = parse(text).root
    assert root is not None and root.exc_type == "RuntimeError"
    assert root.message.endswith("\nNo module named 'torch._six'")
    # any other bare line still ends at its own line
    other = parse("RuntimeError: something broke:\nmore log\n").root
    assert other is not None and other.message == "something broke:"


def test_text_without_an_exception_is_kept_as_one_message() -> None:
    trace = parse("mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)")
    assert trace.root is not None and trace.root.exc_type is None


def test_decode_survives_any_bytes() -> None:
    assert "RuntimeError" in decode("RuntimeError: 张量".encode("gbk"))
    assert decode("RuntimeError: x".encode("utf-16")) == "RuntimeError: x"
    assert isinstance(decode(bytes(range(256))), str)


def test_ansi_colours_and_progress_bars_are_removed() -> None:
    text = (
        "100%|\u2588\u2588| 10/10 [00:01<00:00]Traceback (most recent call last):\n"
        '  File "train.py", line 3, in <module>\n    x = f()\n\x1b[31mRuntimeError\x1b[0m: boom\n'
    )
    root = parse(text).root
    assert root is not None and (root.exc_type, root.message) == ("RuntimeError", "boom")
    assert root.where is not None and (root.where.filename, root.where.lineno) == ("train.py", 3)


def test_a_worker_that_exited_is_not_the_root_when_its_error_was_printed() -> None:
    """Under spawn the child prints its own traceback; the parent then only reports the exit."""
    err = _run("""
        import torch
        from torch.utils.data import DataLoader, Dataset

        class Rows(Dataset):
            def __len__(self):
                return 4
            def __getitem__(self, i):
                import os
                os._exit(1)

        next(iter(DataLoader(Rows(), num_workers=1)))
    """)
    trace = parse(err)
    assert trace.errors[-1].is_wrapper  # "... exited unexpectedly with exit code 1"
    assert parse("RuntimeError: boom\n" + err).root.message == "boom"  # type: ignore[union-attr]


# Pieces of the lines users paste: indentation, rich's and tables' borders, prefixes, text.
_PIECES = [" ", "  ", "\t", "\u3000", "╭", "╰", "└", "─────", "━", "═", "│", "┃", "|", "> "]
_PIECES += ["[rank0]: ", "E   ", "INFO - ", "2024-01-01 12:00:00 ", "File", "x = 1", "Error: "]


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=6).map("".join))
def test_a_line_that_starts_with_a_space_skips_the_prefix_regexes_rightly(line: str) -> None:
    from diagnoser.text.cleanup import _strip_prefix, _strip_prefixes

    assert _strip_prefix(line) == _strip_prefixes(line)


def test_an_exception_line_that_ends_at_its_colon_reads_its_message_below() -> None:
    # torch.utils.cpp_extension's messages start with a line break (CUDA_MISMATCH_MESSAGE, the
    # ninja build's output): `RuntimeError:` alone, the message on the unindented lines below
    text = (
        "RuntimeError:\n"
        "Error building extension 'foo': [1/2] c++ -c foo.cpp -o foo.o\n"
        "FAILED: foo.o\n"
        "\n"
        "epoch 1 done\n"
    )
    (err,) = parse(text).errors
    assert err.exc_type == "RuntimeError"
    assert err.message == (
        "Error building extension 'foo': [1/2] c++ -c foo.cpp -o foo.o\nFAILED: foo.o"
    )


def test_a_class_alone_after_chinese_words_reads_its_message_below() -> None:
    # "遇到了报错：RuntimeError:" with torch.utils.cpp_extension's message on the lines below (the
    # mismatch message as the installed torch words it, its "compile\n" break as raised)
    cpp_extension = pytest.importorskip("torch.utils.cpp_extension")
    message = cpp_extension.CUDA_MISMATCH_MESSAGE.replace("compilePyTorch", "compile\nPyTorch")
    message %= ("12.4", "11.7")
    text = f"我在安装pytorch3d的时候，遇到了报错：RuntimeError:\n{message}\n"
    errors = parse(text).errors
    assert [e.exc_type for e in errors] == ["RuntimeError"]
    assert errors[0].message == message


def test_a_paste_cut_inside_its_last_line_does_not_outrank_a_complete_error_line() -> None:
    text = (
        "ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0"
        " (pid: 123) of binary: /usr/bin/python\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.10/site-packages/torch/distributed/launcher/api.py", line 250,'
        " in launch_agent\n"
        "    raise ChildFailedError(\n"
        "torch.distributed.elastic.multip"
    )
    trace = parse(text)
    assert trace.errors[-1].exc_type is None  # cut: no class is named `multip`
    assert trace.root is not None and trace.root.message.startswith("failed (exitcode: 1)")


def test_a_class_printed_without_a_message_is_not_taken_for_a_cut() -> None:
    text = 'Traceback (most recent call last):\n  File "t.py", line 1, in <module>\n'
    text += "KeyboardInterrupt"
    assert parse(text).errors[-1].exc_type == "KeyboardInterrupt"


def test_a_traceback_quoted_in_a_sentence_is_read_from_its_first_frame(tmp_path: Path) -> None:
    """A forum post quotes the traceback inside its sentence, the header left out: 'The console
    feed me back "File "...", line 201, in _forward_unimplemented' ... 'NotImplementedError"'."""
    script = tmp_path / "layer.py"
    script.write_text("def forward():\n    raise NotImplementedError\n\nforward()\n")
    run = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    frames = run.stderr.strip().split("\n")[1:]  # Python's own lines, without the header
    for opened in (' "', ": "):
        text = f"when I train, the console feed me back{opened}" + "\n".join(frames)
        text += '"\nHow can I solve it?' if opened == ' "' else ""
        err = parse(text).errors[-1]
        assert (err.exc_type, err.message) == ("NotImplementedError", ""), text
        assert [f.name for f in err.frames] == ["<module>", "forward"]
    # two processes' output run together is no quotation: the frame after "RuntimeError  " is
    # not split off as one, only the next, on its own line, is read
    run_together = parse("RuntimeError  " + "\n".join(frames)).errors
    assert [f.name for e in run_together for f in e.frames] == ["forward"]


def test_argparse_and_thc_check_lines_are_errors() -> None:
    errors = parse(
        "train.py: error: unrecognized arguments: --local-rank=0\n"
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=50 error=3 : "
        "initialization error\n"
    ).errors
    assert [e.message for e in errors] == [
        "train.py: error: unrecognized arguments: --local-rank=0",
        "THCudaCheck FAIL file=/pytorch/aten/src/THC/THCGeneral.cpp line=50 error=3 : "
        "initialization error",
    ]


def test_a_warning_printed_after_the_error_is_not_part_of_its_message(tmp_path: Path) -> None:
    """A spawn DataLoader started without a main guard: the child's bootstrapping error, then the
    parent's "exited unexpectedly" (a wrapper). When the parent dies without cleaning up,
    multiprocessing's resource tracker then warns about leaked semaphores, flush-left right
    below the last error line; it is a record of its own, not the end of that message."""
    script = tmp_path / "train.py"  # a file: spawn re-runs the main module only from a path
    script.write_text(
        textwrap.dedent("""
            import torch
            import torch.multiprocessing as mp
            from torch.utils.data import DataLoader, TensorDataset

            mp.set_start_method("spawn", force=True)
            loader = DataLoader(TensorDataset(torch.zeros(4, 2)), batch_size=2, num_workers=1)
            for (x,) in loader:
                pass
        """)
    )
    err = subprocess.run([sys.executable, str(script)], capture_output=True, text=True).stderr
    # How often the tracker warns depends on timing; its line is made by the warnings module the
    # way the tracker prints it, so the layout does not depend on luck.
    leaked = "resource_tracker: There appear to be 1 leaked semaphore objects to clean up at exit"
    warning = warnings.formatwarning(leaked, UserWarning, resource_tracker.__file__, 254, "  x")
    trace = parse(err.rstrip("\n") + "\n" + warning)
    last = [e for e in trace.errors if e.kind == "exception"][-1]
    assert last.message.startswith("DataLoader worker (pid(s)")
    assert "Warning" not in last.message and last.is_wrapper
    assert any(e.kind == "warning" and "leaked" in e.message for e in trace.errors)
    assert trace.root is not None and "bootstrapping phase" in trace.root.message


def test_an_error_torch_compile_quotes_from_a_fake_tensor_run_is_the_cause() -> None:
    """torch.compile runs each op on fake tensors first; when that fails, its TorchRuntimeError
    quotes the op's own error as `got RuntimeError('...')`: that error is the user's mistake. Its
    class is not kept (the fake kernels raise other classes than eager, and torch 2.0-2.5 print
    none); its frames end with the lines of the "from user code:" block."""
    err = _run("""
        import torch
        import torch.nn as nn

        conv = nn.Conv2d(3, 8, 3)
        torch.compile(conv, backend="eager")(torch.randn(2, 1, 16, 16))
    """)
    trace = parse(err)
    root = trace.root
    assert root is not None and root.exc_type is None and root.relation == "cause"
    traced = root.frames[-1]  # the last line of the "from user code:" block
    assert traced.line == "return F.conv2d(" and traced.filename.endswith("conv.py")
    assert root.where is not None and (root.where.filename, root.where.lineno) == ("<string>", 6)
    assert root.message.startswith("Given groups=1, weight of size [8, 3, 3, 3]")
    assert root.message.endswith("to have 3 channels, but got 1 channels instead")
    assert trace.errors[-1].exc_type is not None
    assert trace.errors[-1].exc_type.endswith("TorchRuntimeError")


def test_torch_compile_before_2_6_prints_the_ops_error_below_the_call() -> None:
    """torch 2.0-2.5: `Failed running call_function f(*(...), **{}):`, the fake arguments' repr
    wrapped over several lines, then the op's own message: that message is the cause, whole."""
    text = (REAL / "compile" / "zero3-matmul-wrapped-repr.txt").read_text(encoding="utf-8")
    trace = parse(text)
    root = trace.root
    assert root is not None and root.relation == "cause"
    assert root.message == "size mismatch, got input (s0x896), vec (0)"
    wrapper = trace.errors[-1]
    assert wrapper.exc_type == "torch._dynamo.exc.TorchRuntimeError"
    assert wrapper.message.startswith("Failed running call_function <built-in method matmul")


def test_a_project_folder_named_torch_is_the_users_code() -> None:
    """torch outside site-packages is known by its subpackages, not by any folder named torch:
    ~/work/torch/train.py is the user's (the whole suite once failed from a checkout under a
    folder named torch: every 'where' pointed into torch)."""
    from diagnoser.text.parse import Frame

    assert Frame("/home/me/torch/train.py", 3, "<module>").is_user_code
    assert Frame("/home/me/torch/diagnoser/reproductions/shape-matmul.py", 3, "f").is_user_code
    assert not Frame("/opt/pytorch/torch/nn/modules/linear.py", 125, "forward").is_user_code
    assert not Frame("C:\\src\\pytorch\\torch\\_tensor.py", 626, "backward").is_user_code
    assert not Frame("/usr/lib/python3/dist-packages/torch/nn/functional.py", 1, "f").is_user_code


def test_a_title_cut_short_reads_the_restatement_below_it() -> None:
    # GuHY777/SS-VAE-pytorch#1: the title stops at "numpy()", the body quotes the whole message
    post = (REAL / "wordings13a" / "numpy-grad-ssvae.txt").read_text(encoding="utf-8")
    err = parse(post).root
    assert err is not None and err.exc_type == "RuntimeError"
    assert err.message.startswith("Can't call numpy() on Variable that requires grad.")


def test_only_the_same_words_count_as_a_restatement() -> None:
    # another error further down, of the same type but other words, is not this one's full text
    text = "RuntimeError: CUDA error: out of\n\nlater: RuntimeError: CUDA error: device-side assert"
    assert parse(text).errors[0].message == "CUDA error: out of"
    # too short a message ("Error") could begin anything: left as printed
    short = "RuntimeError: Error\nRuntimeError: Error(s) in loading state_dict for Net"
    assert parse(short).errors[0].message == "Error"


def test_a_paste_cut_mid_message_reads_the_title_that_restates_it() -> None:
    """default_collate's TypeError (torch's own text, captured) as a post shows it: the title
    copies the message without its class, and the traceback's last line is cut mid-word where
    the paste ends (ifzhang/FairMOT#377). A message cut elsewhere is left as printed."""
    pytest.importorskip("torch")
    from torch.utils.data import default_collate

    with pytest.raises(TypeError) as caught:
        default_collate([None])
    message = str(caught.value)
    cut = message[:24]
    post = f"{message}\n\nhow do I fix this?\nTraceback (most recent call last):\n"
    post += '  File "train.py", line 9, in <module>\n    main()\n'
    err = parse(post + f"TypeError: {cut}").root
    assert err is not None and (err.exc_type, err.message) == ("TypeError", message)
    # the same cut line with the paste going on below it: a cut of its own, not the paste's end
    err = parse(post + f"TypeError: {cut}\nthen I tried num_workers=0").errors[-1]
    assert err.message.startswith(cut) and err.message != message


def test_a_kernel_assertion_printed_without_backticks_reads_as_quoted() -> None:
    """torch 1.8's IndexKernel.cu printed its condition bare (the line as heldout28's
    WZMIAOMIAO/deep-learning-for-image-processing#503 pasted it): read as the quoted form that
    every other build prints and the signatures name."""
    line = (
        "/opt/conda/conda-bld/pytorch_1614378083779/work/aten/src/ATen/native/cuda/"
        "IndexKernel.cu:142: operator(): block: [0,0,0], thread: [1,0,0] Assertion index >= "
        '-sizes[i] && index < sizes[i] && "index out of bounds" failed.'
    )
    (err,) = parse(line).errors
    assert err.kind == "assert"
    assert err.message == (
        'Assertion `index >= -sizes[i] && index < sizes[i] && "index out of bounds"` failed.'
    )


# pip's resolver report, produced by pip itself in a child process: importing pip's internals
# here would import the standard library's distutils into the test process, which setuptools'
# distutils shim (loaded later by torch.utils.cpp_extension in test_newer_names) then refuses
_PIP_REPORT = """
import logging
from pip._internal.commands.install import InstallCommand

handler = logging.StreamHandler()
handler.setFormatter(logging.Formatter("%(message)s"))
logging.getLogger("pip._internal.commands.install").addHandler(handler)
package_set = {"torchvision": ("0.13.0", [], None), "torch": ("1.11.0", [], None)}
conflicting = {"torchvision": [("torch", "1.11.0", "torch==1.12.0")]}
InstallCommand("install", "Install packages.")._warn_about_conflicts(
    (package_set, ({}, conflicting)), "resolvelib"
)
"""


def test_pips_dependency_conflicts_are_read_one_by_one() -> None:
    """pip's own report (its resolver's warning, produced by pip and printed as pip's logger
    prints it, "ERROR: ..."): each conflict line is an error of its own, which the "ERROR:" line
    above it only introduces."""
    proc = subprocess.run(
        [sys.executable, "-c", _PIP_REPORT], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = f"ERROR: {proc.stderr.strip()}"  # pip's console prints its CRITICAL records so
    conflicts = [e.message for e in parse(report).errors if "incompatible" in e.message]
    assert conflicts == [report.splitlines()[-1]]
    assert conflicts[0].startswith("torchvision 0.13.0 requires torch==1.12.0, but you have")


def _pasted(name: str) -> str:
    """A real paste under tests/data/real without its `# source:` / `# expect:` header."""
    lines = (REAL / name).read_text(encoding="utf-8").split("\n")
    return "\n".join(line for line in lines if not line.startswith("# "))


def test_a_loggers_record_below_an_exception_is_no_line_of_its_message() -> None:
    """torchrun (torch 2.13, captured) prints the agent's glog records right below the child's
    exception line, with no blank line between: the records, their prefixes stripped, are no
    part of the child's message, and the launcher's own line stays an error of its own."""
    errors = parse(_pasted("read15/torchrun213-child-error-then-agent-records.txt")).errors
    assert (errors[0].exc_type, errors[0].message) == (
        "AttributeError",
        "'Namespace' object has no attribute 'noplots'",
    )
    assert any(e.message.startswith("failed (exitcode: 1) local_rank: 1") for e in errors[1:])
    # a message whose every line carries the logger's prefix is still read whole
    logged = parse(
        "2024-01-01 10:00:00 ERROR RuntimeError: CUDA error: an illegal memory access\n"
        "2024-01-01 10:00:00 ERROR CUDA kernel errors might be asynchronously reported\n"
    ).errors
    assert "asynchronously reported" in logged[-1].message


def test_a_double_spaced_traceback_keeps_its_source_lines() -> None:
    """A paste with a blank line after every line (pytorch/pytorch's old launcher, a post
    copied from a console): each frame keeps the source line below the blank, and a message the
    post left out ("[...]") is no message."""
    err = parse(_pasted("read15/distributed-launch-calledprocesserror-cut.txt")).errors[-1]
    assert (err.frames[-1].line or "").startswith("raise subprocess.CalledProcessError(")
    assert (err.frames[0].line or "").startswith("return _run_code(")
    assert err.says_nothing and err.message_left_out
    # a frame with no source line is not given the next frame's
    plain = parse(
        "Traceback (most recent call last):\n"
        '  File "<frozen importlib._bootstrap>", line 219, in _call_with_frames_removed\n'
        "\n"
        '  File "train.py", line 3, in <module>\n'
        "    import torch\n"
        "ImportError: boom\n"
    ).errors[-1]
    assert plain.frames[0].line is None and plain.frames[1].line == "import torch"


def test_italics_opened_on_an_error_line_are_not_part_of_its_class() -> None:
    # pip's resolver report in markdown italics across two lines (SWivid/F5-TTS#320): the opening
    # underscore would make "_ERROR" a class and cut the conflicts off the message
    pasted = (
        "_ERROR: pip's dependency resolver does not currently take into account all the packages"
        " that are installed. This behaviour is the source of the following dependency conflicts.\n"
        "torchvision 0.16.0 requires torch==2.1.0, but you have torch 2.3.0+cu118 which is"
        " incompatible._\n"
    )
    (err,) = parse(pasted).errors
    assert err.exc_type is None and "torchvision 0.16.0 requires torch==2.1.0" in err.message


def test_a_private_module_s_underscore_is_its_name() -> None:
    err = _run("""
        import pickle
        pickle.loads(b"garbage")
    """)
    (last,) = parse(err).errors[-1:]
    assert last.exc_type == "_pickle.UnpicklingError"


def test_a_numbered_list_of_errors_reads_each_exception_line() -> None:
    """A post that numbers the errors it got ("(1) RuntimeError: ...", "2. ..."; heldout39's
    caiqi/sample-weighting-network#6): each item is its exception, torch's own text captured
    here, not a line of prose that the launcher's error below outranks."""
    torch = pytest.importorskip("torch")

    x = torch.ones(3, requires_grad=True)
    y = x.sigmoid()  # sigmoid saves its output for the backward
    y.mul_(2)
    with pytest.raises(RuntimeError) as caught:
        y.sum().backward()
    message = str(caught.value).splitlines()[0]
    for number in ("(1)", "1.", "2)"):
        (err,) = parse(f"{number} RuntimeError: {message}").errors
        assert (err.exc_type, err.message) == ("RuntimeError", message)
    # a version or a decimal before a class is no list's number
    (err,) = parse(f"2.5 RuntimeError: {message}").errors
    assert err.exc_type is None


def test_macos_uncaught_cpp_exception_is_read_as_its_class_and_message() -> None:
    # libc++'s one-line report of a c10 error (pytorch/pytorch#78044, torch 2.0 on an M1), where
    # Linux's libstdc++ prints "terminate called after throwing an instance of ..." and what()
    log = (
        "libc++abi: terminating due to uncaught exception of type c10::TypeError: Trying to "
        "convert ComplexFloat to the MPS backend but it does not have support for that dtype.\n"
        "Exception raised from getMPSDataType at /Users/runner/work/pytorch/pytorch/pytorch/aten/"
        "src/ATen/native/mps/OperationUtils.mm:34 (most recent call first):\n"
    )
    err = parse(log).root
    assert err is not None and err.exc_type == "c10::TypeError"
    assert err.message.startswith("Trying to convert ComplexFloat to the MPS backend")


def test_opencv_cpp_error_line_is_an_exception_of_opencv() -> None:
    # OpenCV's own wording without Python's "cv2.error: " (dlunion/DBFace#6): an exception, so a
    # sentence around it is not read as a symptom
    line = (
        "torch_importer.cpp:1022: error: (-213:The function/feature is not implemented) "
        "Unsupported Lua type in function 'cv::dnn::dnn4_v20200310::TorchImporter::readObject'"
    )
    err = parse(f"尝试读取模型失败\n{line}\n").root
    assert err is not None and err.exc_type == "cv2.error" and err.message == line


def test_the_users_chinese_words_below_an_exception_are_not_its_message() -> None:
    # dataset's own TypeError above the user's next sentence (csdwren/RecDerain#2)
    text = (
        "TypeError: conv2d(): argument 'padding' must be tuple of ints, not float\n"
        "第二个是在我换成mse loss的时候。梯度很快爆炸。\n"
    )
    err = parse(text).root
    assert err is not None
    assert err.message == "conv2d(): argument 'padding' must be tuple of ints, not float"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        # a CUDA kernel's assertion cut before "Assertion" (Peterande/D-FINE#137)
        (
            '`[i] <= index && index < sizes[i] && "index out of bounds"` failed.',
            'Assertion `[i] <= index && index < sizes[i] && "index out of bounds"` failed.',
        ),
        # C's assert() as glibc prints it, another program's (HIT-SCIR/ltp#312)
        (
            "nndepparser: DenseCoeffsBase.h:425: Scalar& operator()(Index): "
            "Assertion `index >= 0 && index < size()' failed.",
            "Assertion `index >= 0 && index < size()' failed.",
        ),
    ],
)
def test_assertion_lines_are_read_as_assertions(line: str, message: str) -> None:
    err = parse(line + "\n").root
    assert err is not None and err.kind == "assert" and err.message == message


def test_an_exception_quoted_as_inline_code_is_read() -> None:
    # einops' error inside a sentence's backticks (OPTML-Group/Unlearn-Sparse#12)
    text = (
        "I get the following error:\n\n"
        '`einops.EinopsError:  Error while processing rearrange-reduction pattern "b h w c".\n'
        " Shape mismatch, can't divide axis of length 8 in chunks of 7`\n"
    )
    err = parse(text).root
    assert err is not None and err.exc_type == "einops.EinopsError"


def test_pdb_reports_an_exception_with_three_stars() -> None:
    # what torch says, as pdb prints an exception a command raised at its prompt
    said = (
        _run("""
        import torch
        torch.ones(1, 48, 2) * torch.ones(1, 192, 2)
    """)
        .strip()
        .splitlines()[-1]
    )
    session = f"> /home/u/submodule.py(62)forward()\n(Pdb) aaa = x * disp\n*** {said}\n(Pdb) "
    root = parse(session).root
    assert root is not None
    assert root.exc_type == "RuntimeError"
    assert root.message.startswith("The size of tensor a (48) must match")


def test_a_warning_whose_text_starts_below_its_category() -> None:
    # torch's multi-line warnings start with a line break: Python prints "UserWarning: " and the
    # text below it; a paste strips the line's trailing space
    printed = _run("""
        import warnings
        warnings.warn("\\nGPU 0 is not compatible with the current PyTorch installation.")
    """)
    assert "UserWarning: \n" in printed
    trace = parse(printed.replace("UserWarning: \n", "UserWarning:\n"))
    read = [e for e in trace.errors if e.exc_type == "UserWarning"]
    assert [e.kind for e in read] == ["warning"]
    assert read[0].message.strip().startswith("GPU 0 is not compatible")
