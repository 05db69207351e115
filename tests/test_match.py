"""The matcher's judgement: exact signatures, fuzzy fallback for new wordings, honest abstention."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.text.match import THRESHOLD, diagnose

from .conftest import run_reproduction


def _real_message() -> str:
    proc = run_reproduction("shape-matmul")
    return proc.stderr.strip().splitlines()[-1]


def test_a_reworded_message_is_found_by_fuzzy_matching(index: Index) -> None:
    # A future torch could reword the message; keep its shape, change its words.
    real = _real_message()
    reworded = real.replace("cannot be multiplied", "can not be multiplied together")
    assert index.by_id["shape-matmul"].signatures[0].regex.search(reworded) is None
    best = diagnose(reworded, index).best
    assert best is not None and best.entry.id == "shape-matmul" and best.method == "fuzzy"
    assert THRESHOLD <= best.score < 100


def test_exception_type_that_contradicts_the_signature_lowers_the_score(index: Index) -> None:
    real = _real_message()
    right = diagnose(real, index).best
    wrong = diagnose(real.replace("RuntimeError", "KeyError", 1), index).best
    assert right is not None and wrong is not None
    assert wrong.score < right.score


def test_unrelated_sentences_get_nothing(index: Index) -> None:
    for text in ("hello world", "The build finished in 3 minutes.", "ssh: connect to host port 22"):
        assert diagnose(text, index).matches == ()


def test_the_root_error_outranks_earlier_noise(index: Index) -> None:
    real = _real_message()
    log = (
        "RuntimeError: something unrelated happened earlier\n"
        + "\n".join(["step"] * 5)
        + "\n"
        + real
    )
    best = diagnose(log, index).best
    assert best is not None and best.entry.id == "shape-matmul" and best.score == 100


NEAR_MISSES = {
    # Real Python/torch messages one word away from an entry's example, but other errors.
    "dataset-init": "class MyDataset:\n    def __init__(self, root): pass\nMyDataset()",
    "dict-to": "{}.to('cpu')",
    "tuple-str-index": "(1, 2)['a']",
    "linear-ndarray": "import numpy as np, torch\ntorch.nn.functional.linear(np.ones(3), None)",
}


@pytest.mark.parametrize("name", NEAR_MISSES)
def test_a_near_miss_is_not_claimed_by_resemblance(name: str, index: Index) -> None:
    proc = subprocess.run([sys.executable, "-c", NEAR_MISSES[name]], capture_output=True, text=True)
    assert proc.returncode == 1 and "Error" in proc.stderr
    assert diagnose(proc.stderr, index).matches == (), proc.stderr.splitlines()[-1]


def test_a_word_in_an_examples_device_slot_is_another_error(index: Index) -> None:
    """torch raises "PyTorch was compiled without NumPy support" (tensor_numpy.cpp, in the
    source tier's index of its releases) where cuda-not-compiled's example says "without CUDA
    support", masked to a device: every word of the example is there, yet NumPy is no device.
    Declined and located, never answered cuda-not-compiled by resemblance."""
    message = "RuntimeError: PyTorch was compiled without NumPy support"
    found = diagnose(message, index)
    assert found.matches == ()
    assert found.source is not None
    assert any(site.file.endswith("tensor_numpy.cpp") for site in found.source.sites)
    # the device it names still reads as the family
    cuda = diagnose(message.replace("NumPy", "CUDA"), index).best
    assert cuda is not None and cuda.entry.id == "cuda-not-compiled"


def test_a_gradient_asked_of_a_tensor_that_needs_none(index: Index) -> None:
    """loss.backward(inputs=[x]) with an x that does not require grad: torch 2.x words it as a
    retain_grad failure, which is no-grad-fn's cause all the same."""
    code = (
        "import torch\n"
        "x, w = torch.ones(2), torch.ones(2, requires_grad=True)\n"
        "(w * x).sum().backward(inputs=[x])\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "requires_grad=False" in proc.stderr, proc.stderr[-500:]
    best = diagnose(proc.stderr, index).best
    assert best is not None and best.entry.id == "no-grad-fn" and best.method == "signature"


@pytest.mark.parametrize("entry_id", ["no-grad-fn", "inplace-modified"])
def test_a_message_cut_short_is_the_entry_whose_message_starts_so(
    entry_id: str, index: Index
) -> None:
    """A post's title cuts the message: "RuntimeError: element 0 of tensors does not require
    grad". Its start, cut at any word from the sixth on, with or without an ellipsis."""
    line = run_reproduction(entry_id).stderr.strip().splitlines()[-1]
    kind, message = line.split(": ", 1)
    words = message.split()
    for n in range(6, len(words) - 2):
        for cut in (" ".join(words[:n]), " ".join(words[:n]) + "..."):
            best = diagnose(f"{kind}: {cut}", index).best
            assert best is not None and best.entry.id == entry_id, cut
    # too short to say which, or the start of several entries' messages: nothing
    assert diagnose(f"{kind}: {' '.join(words[:3])}", index).best is None


def test_a_bare_exception_is_named_by_its_frames_only_where_torch_raised_it(
    index: Index, tmp_path: Path
) -> None:
    """torch 1.6-1.11 raised NotImplementedError with no message from nn.Module's
    `_forward_unimplemented`: its frame names module-missing-forward (the post above). The same
    bare exception raised by the user's own abstract method names nothing."""
    script = tmp_path / "model.py"
    script.write_text(
        "import torch\n"
        "class Encoder(torch.nn.Module):\n"
        "    def encode(self, x):\n"
        "        raise NotImplementedError\n"
        "Encoder().encode(torch.ones(1))\n",
        encoding="utf-8",
    )
    proc = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert proc.stderr.rstrip().endswith("\nNotImplementedError"), proc.stderr[-500:]
    assert diagnose(proc.stderr, index).matches == ()
    torch_raised = proc.stderr.replace(str(script), "/usr/lib/python3/torch/nn/modules/module.py")
    torch_raised = torch_raised.replace("in encode", "in _forward_unimplemented")
    best = diagnose(torch_raised, index).best
    assert best is not None and best.entry.id == "module-missing-forward"
    assert best.method == "frames"


# Real messages (kb examples, printed by torch) as users retype them from a screenshot.
RETYPED = {
    "merged-words": (
        "shape-matmul",
        "RuntimeError: mat1 and mat2 shapes cannotbe multiplied (32x64 and 128x10)",
    ),
    "letter-off": (
        "device-mismatch",
        "RuntimeError: Expected all tensors to be on the sane device, but found at least two "
        "devices, cuda:0 and cpu!",
    ),
    "misspelt": (
        "inplace-modified",
        "RuntimeError: one of the variables needed for gradient computation has been modifed by "
        "an inplace operation",
    ),
    "ordinal-word": (
        "broadcast-mismatch",
        "RuntimeError: The size of tensor a (4) must match the size of tensor b (3) at "
        "non-singleton dimension one",
    ),
    "ordinal-suffix": (
        "dim-out-of-range",
        "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1st)",
    ),
    "split-word-lower-case": (
        "conv-channels-mismatch",
        "runtimeerror: given groups=1 weight of size [64, 3, 3, 3] expected input[32, 1, 28, 28] "
        "to have 3 channels but got 1 channels in stead",
    ),
}


@pytest.mark.parametrize("name", RETYPED)
def test_a_retyped_message_still_finds_its_family(name: str, index: Index) -> None:
    entry_id, text = RETYPED[name]
    best = diagnose(text, index).best
    assert best is not None and best.entry.id == entry_id, diagnose(text, index).matches


# Real errors from other libraries and plain Python, produced here; some resemble torch's own
# messages word for word but one ("axis" for "dimension").
NOT_TORCH = {
    "numpy-matmul": "import numpy as np; np.zeros((3, 4)) @ np.zeros((5, 6))",
    "numpy-broadcast": "import numpy as np; np.zeros((3,)) + np.zeros((4,))",
    "numpy-reshape": "import numpy as np; np.zeros(6).reshape(4, 2)",
    "numpy-ragged": "import numpy as np; np.array([[1, 2], [3]], dtype=float)",
    "numpy-index": "import numpy as np; np.zeros(3)[5]",
    "numpy-concatenate": "import numpy as np; np.concatenate([np.zeros((2, 3)), np.zeros((2, 4))])",
    "numpy-axis": "import numpy as np; np.mean(np.zeros((2, 3)), axis=2)",
    "django-settings": "from django.conf import settings; settings.DEBUG",
    "urllib-refused": "import urllib.request; urllib.request.urlopen('http://127.0.0.1:9')",
    "key-error": "{'a': 1}['b']",
    "file-not-found": "open('/no/such/data.csv')",
    "image-not-found": "open('data/train/img_001.jpg')",
    "text-decode": "b'\\xff\\xfe data'.decode('utf-8')",
    "zero-division": "1 / 0",
    "json-decode": "import json; json.loads('{bad')",
    "unsupported-operand": "None + 1",
    "list-index": "[1, 2, 3][10]",
    "attribute-none": "None.shape",
    "int-parse": "int('3.5')",
    # a program's own check, as repositories write it (`assert torch.cuda.is_available(), "GPU is
    # not available"`): "Numpy is not available" with one short word replaced is not numpy's
    "own-assert": "assert False, 'GPU is not available'",
}


@pytest.mark.parametrize("name", NOT_TORCH)
def test_an_error_from_another_library_gets_nothing(name: str, index: Index) -> None:
    proc = subprocess.run([sys.executable, "-c", NOT_TORCH[name]], capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" in proc.stderr
    assert diagnose(proc.stderr, index).matches == (), proc.stderr.splitlines()[-1]


@pytest.mark.parametrize("name", NOT_TORCH)
def test_an_error_from_another_library_pasted_alone_gets_nothing(name: str, index: Index) -> None:
    """Its last line, as users paste it without the traceback: no entry that wraps such an error
    (a DataLoader worker's, whose examples show the error they wrap) claims it by resemblance."""
    proc = subprocess.run([sys.executable, "-c", NOT_TORCH[name]], capture_output=True, text=True)
    message = proc.stderr.strip().splitlines()[-1]
    assert diagnose(message, index).matches == (), message


def _old_wordings() -> list[pytest.param]:  # type: ignore[type-arg]
    lines = (
        (Path(__file__).parent / "data" / "old_wordings.tsv")
        .read_text(encoding="utf-8")
        .splitlines()
    )
    rows = [line.split("\t") for line in lines if not line.startswith("#")]
    return [
        pytest.param(entry_id, text.replace("\\n", "\n"), id=f"{entry_id}-{i}")
        for i, (entry_id, text) in enumerate(rows)
    ]


@pytest.mark.parametrize(("entry_id", "text"), _old_wordings())
def test_an_old_wording_finds_its_family(entry_id: str, text: str, index: Index) -> None:
    best = diagnose(text, index).best
    assert best is not None and best.entry.id == entry_id, diagnose(text, index).matches


_NAN_LOG = "epoch 1 step {} loss {}\n"


def _log_with(warning: str) -> str:
    losses = ["2.3012", "1.9876", "1.7543", "nan", "nan", "nan"]
    lines = [_NAN_LOG.format(i * 100, loss) for i, loss in enumerate(losses[:3])]
    lines.append(warning)
    lines += [_NAN_LOG.format(i * 100, loss) for i, loss in enumerate(losses[3:], 3)]
    return "".join(lines)


def test_a_warning_in_a_log_does_not_outrank_the_symptom_it_shows(index: Index) -> None:
    warning = (
        "/home/u/train.py:88: FutureWarning: `torch.cuda.amp.autocast(args...)` is deprecated. "
        "Please use `torch.amp.autocast('cuda', args...)` instead.\n"
        "  with torch.cuda.amp.autocast():\n"
    )
    ranked = [m.entry.id for m in diagnose(_log_with(warning), index).matches]
    assert ranked[:2] == ["nan-loss", "amp-deprecated-api"]


def test_a_warning_does_not_silence_the_sentence_beside_it(index: Index) -> None:
    text = (
        "my loss becomes nan after a few epochs, I also see this:\n"
        "/home/u/train.py:88: UserWarning: Detected call of `lr_scheduler.step()` before "
        "`optimizer.step()`.\n  warnings.warn(\n"
    )
    best = diagnose(text, index).best
    assert best is not None and best.entry.id == "nan-loss"


def test_a_warning_is_no_answer_to_the_exception_that_stopped_the_run(index: Index) -> None:
    """A deprecation warning printed on the way, then an exception no entry explains: the
    warning's entry is not what stopped the run (higgsfield/np-hard-deep-reinforcement-learning#2:
    a 0-dim index warning above "backward_input can only be called in training mode")."""
    code = (
        "import torch\n"
        "with torch.cuda.amp.autocast():\n    pass\n"
        "torch.tensor([1, 2]).requires_grad_()\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "FutureWarning" in proc.stderr and "floating point dtype" in proc.stderr, proc.stderr
    assert diagnose(proc.stderr, index).best is None
    # the warning alone, or beside a run stopped by the user, still names its entry
    warned = proc.stderr[: proc.stderr.index("Traceback")]
    for text in (warned, warned + "Traceback (most recent call last):\nKeyboardInterrupt\n"):
        best = diagnose(text, index).best
        assert best is not None and best.entry.id == "amp-deprecated-api", text


def _guarded_training(check: str, folder: Path) -> str:
    """A training loop that stops on its own check, as detectron2's and many scripts' do; its
    loss turns nan at the third step (the log of a negative number)."""
    code = (
        "import torch\n"
        "w = torch.tensor(1.0, requires_grad=True)\n"
        "for step in range(5):\n"
        "    loss = torch.log(w - 0.5 * step) ** 2\n"
        f"    {check}\n"
        "    loss.backward()\n"
    )
    script = folder / "train.py"
    script.write_text(code, encoding="utf-8")
    proc = subprocess.run([sys.executable, script], capture_output=True, text=True)
    assert proc.returncode == 1 and "Traceback" in proc.stderr, proc.stderr[-1000:]
    return proc.stderr


@pytest.mark.parametrize(
    "check",
    [
        'assert torch.isfinite(loss), f"Loss is {loss.item()} at step {step}. Stopping training."',
        "if not torch.isfinite(loss):\n"
        '        raise FloatingPointError(f"Loss became infinite or NaN at iteration={step}!")',
        'assert not torch.isnan(loss), f"第{step}步 loss 出现 nan，停止训练"',
    ],
)
def test_a_check_that_stops_the_run_on_a_symptom_is_that_symptom(
    check: str, index: Index, tmp_path: Path
) -> None:
    """No entry knows the program's words, but they say the loss turned nan: the answer is
    nan-loss, at the line of the check."""
    stderr = _guarded_training(check, tmp_path)
    best = diagnose(stderr, index).best
    assert best is not None and best.entry.id == "nan-loss", stderr
    assert best.error is not None and best.error.where is not None
    assert best.error.where.line and best.error.where.line in check


def test_a_check_about_something_else_is_no_symptom(index: Index, tmp_path: Path) -> None:
    """The same loop stopped by a check whose message names no training behaviour (the loss is
    merely mentioned): nothing is answered."""
    stderr = _guarded_training(
        'assert step < 2, f"loss function {type(loss).__name__} expects 2 steps"', tmp_path
    )
    assert diagnose(stderr, index).best is None, stderr


def test_host_ram_is_told_apart_from_gpu_memory(index: Index) -> None:
    """torch's own message for a CPU tensor too large for the machine's RAM: cuda-oom's family,
    but its own title, cause and fix, none of them about the GPU."""
    code = "import torch; torch.empty(2**50)"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert "DefaultCPUAllocator" in proc.stderr, proc.stderr[-1000:]
    best = diagnose(proc.stderr, index).best
    assert best is not None and best.entry.id == "cuda-oom"
    gpu = index.by_id["cuda-oom"]
    for lang in ("en", "zh"):
        assert best.title[lang] != gpu.title[lang] and "RAM" in best.title[lang]
        assert best.cause[lang] != gpu.cause[lang] and best.fix[lang] != gpu.fix[lang]
        assert "expandable_segments" not in best.fix[lang].split("\n\n", 1)[1]
    cuda = diagnose("torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB", index)
    assert cuda.best is not None and cuda.best.title == gpu.title and cuda.best.fix == gpu.fix


def test_the_root_of_a_long_chain_is_still_read(index: Index) -> None:
    """250 re-raises `from` a real torch error: Python prints the root first, before the last
    200 errors a long log keeps."""
    code = (
        "import torch\n"
        "def f(n):\n"
        "    if n == 0:\n"
        "        torch.nn.Linear(128, 10)(torch.randn(32, 64))\n"
        "    try:\n"
        "        f(n - 1)\n"
        "    except Exception as e:\n"
        "        raise RuntimeError(f'wrapped {n}') from e\n"
        "f(250)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.stderr.count("The above exception was the direct cause") == 250
    best = diagnose(proc.stderr, index).best
    assert best is not None and best.entry.id == "shape-matmul" and best.score == 100


def _none_attribute_error() -> str:
    try:
        None.norm()  # type: ignore[attr-defined]
    except AttributeError as error:
        return f"AttributeError: {error}"
    raise AssertionError("None has a norm")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("total += p.grad.norm().item() ** 2", "gradient-none"),
        ("norms = [w.grad .norm() for w in params]", "gradient-none"),
        ("total += feats.norm().item() ** 2", None),  # None, but no gradient in sight
        (None, None),  # the message alone: nothing says which None it was
    ],
)
def test_a_signature_with_code_needs_the_failing_line_to_fit(
    line: str | None, expected: str | None, index: Index
) -> None:
    """`code`: "'NoneType' object has no attribute 'norm'" names gradient-none only when the
    line that failed reads it from a .grad; the fuzzy stage does not claim the bare message."""
    message = _none_attribute_error()
    text = message
    if line is not None:
        text = 'Traceback (most recent call last):\n  File "train.py", line 9, in <module>\n'
        text += f"    {line}\n{message}\n"
    best = diagnose(text, index).best
    assert (best.entry.id if best else None) == expected


def test_a_numbered_cuda_error_is_not_claimed_by_another_numbers_example(index: Index) -> None:
    """The number in "cuda runtime error (N)" names the error: (9) is an invalid launch
    configuration, (100) or (38) no GPU at all. Masked, they look alike; the fuzzy stage must not
    answer one with the other's family, while the same code where CUDA starts (its first
    allocation, THCStorage.cu) still finds it. Both are real torch 0.x output pasted in public
    issues (devset en-gh-065, en-gh-069)."""
    assert diagnose("RuntimeError: cuda runtime error (9)", index).matches == ()
    same_code = (
        "RuntimeError: cuda runtime error (30) : unknown error at /opt/conda/conda-bld/"
        "pytorch_1501972792122/work/pytorch-0.1.12/torch/lib/THC/generic/THCStorage.cu:66"
    )
    best = diagnose(same_code, index).best
    assert best is not None and best.entry.id == "no-cuda-gpus"
    # the same code at a kernel mid-training: CUDA had started, and the file is a value the
    # signature pins, so resembling its example is no evidence (heldout40's pytorch-pose-hg-3d#51)
    mid_run = same_code.replace("THCStorage.cu:66", "THCTensorMathPointwise.cu:606")
    assert diagnose(mid_run, index).matches == ()


def test_an_example_with_another_number_its_signature_pins_is_not_that_entry(index: Index) -> None:
    """transform-class-not-instance's signature pins "but 2 were given" (the image passed to a
    transform class); Python <= 3.9's message for any other constructor reads the same with
    another number. Masked, the two are alike; the fuzzy stage must not answer what the
    signature refuses. The first is a real paste (easton-cau/SOTR#18, a detectron2 trainer)."""
    other = "TypeError: __init__() takes 1 positional argument but 4 were given`"
    assert diagnose(other, index).matches == ()
    best = diagnose(
        "TypeError: __init__() takes 1 positional argument but 2 were given", index
    ).best
    assert best is not None and best.entry.id == "transform-class-not-instance"
    # a misspelt one with other numbers still resembles its example
    retyped = (
        "The size of tensor a (7) must mach the size of tensor b (5) at non-singleton dimension 2"
    )
    best = diagnose(retyped, index).best
    assert best is not None and (best.entry.id, best.method) == ("broadcast-mismatch", "fuzzy")


def test_the_notes_after_any_cuda_error_name_no_device_side_assert(index: Index) -> None:
    """torch appends these lines to every CUDA error; with the line naming the error cut off
    (bghira/SimpleTuner#1775, devset en-forum-066) they say nothing of which error it was."""
    pasted = (
        "Hi just launched a new training this morning and got this error :\n\n"
        "CUDA kernel errors might be asynchronously reported at some other API call, so the "
        "stacktrace below might be incorrect.\n"
        "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\n"
        "Compile with `TORCH_USE_CUDA_DSA` to enable device-side assertions.\n\n"
        "Traceback (most recent call last):\n"
        '  File "/workspace/SimpleTuner/train.py", line 76, in <module>\n'
        "    trainer.train()\n"
    )
    assert all(m.entry.id != "cuda-device-side-assert" for m in diagnose(pasted, index).matches)
    named = "RuntimeError: CUDA error: device-side assert triggered\n" + pasted.split("\n\n", 1)[1]
    best = diagnose(named, index).best
    assert best is not None and best.entry.id == "cuda-device-side-assert"


@pytest.mark.parametrize(
    "title",
    [
        # SipherAGI/comfyui-animatediff#84
        "Animate Diff sampler error: found at least two devices, cuda:0 and cpu",
        "found at least two devices: cuda:0 and cpu",  # ascust/3DMM-Fitting-Pytorch#31
        "new error - found at least two devices, cpu and cuda:",  # HelloVision/HelloMeme#13
        "found at least two devices, cuda:0 and cpu",  # haoosz/ConceptExpress#5
    ],
)
def test_a_title_that_keeps_only_the_end_of_the_device_message(title: str, index: Index) -> None:
    """Real titles retell torch's "Expected all tensors to be on the same device, but found at
    least two devices, cuda:0 and cpu!" from its second half, a colon for its comma, or cut."""
    best = diagnose(title, index).best
    assert best is not None and best.entry.id == "device-mismatch" and best.method == "signature"


def test_a_dll_that_failed_with_no_reason_is_torchs_only_beside_torchs_import(
    index: Index,
) -> None:
    """`ImportError: DLL load failed:` with Windows' reason lost is windows-dll-load when torch's
    own `from torch._C import *` is the line that failed; another package's (cv2) is not torch's."""
    torch_import = " from torch._C import *\nImportError: DLL load failed:\n"
    best = diagnose(torch_import, index).best
    assert best is not None and best.entry.id == "windows-dll-load"
    other = (
        'Traceback (most recent call last):\n  File "app.py", line 1, in <module>\n'
        "    import cv2\nImportError: DLL load failed:\n"
    )
    assert diagnose(other, index).best is None


# Names every torch since 1.0 has: missing, they mean a broken install, a build without
# torch.distributed, or a file named torch.py shadowing the package, never a torch older than the
# code. torch-version-too-old lists only names that a release added, each with the release; these
# must stay out of it. Each message is torch's own, printed by deleting the name from its module
# in a subprocess.
_ALWAYS_THERE = [
    ("torch", "cuda"),
    ("torch", "nn"),
    ("torch", "Tensor"),
    ("torch", "float32"),
    ("torch", "no_grad"),
    ("torch", "device"),
    ("torch", "optim"),
    ("torch.nn", "Linear"),
    # (not ModuleDict: torch 0.4.0, still met in old projects' posts, lacks it)
    ("torch.nn", "Sequential"),
    ("torch.cuda", "is_available"),
    ("torch.distributed", "init_process_group"),
]
# Names a release added, from the same script: the positive control that the deletion trick gives
# the wording the entry knows.
_ADDED_LATER = [
    ("torch", "OutOfMemoryError"),
    ("torch", "get_default_device"),
    ("torch", "float8_e8m0fnu"),
    ("torch.serialization", "safe_globals"),
    ("torch.serialization", "add_safe_globals"),
    ("torch.library", "wrap_triton"),
    ("torch.cuda", "mem_get_info"),
]
_DELETE = """
import importlib, sys
for line in sys.stdin.read().split():
    mod, name = line.split(":")
    module = importlib.import_module(mod)
    saved = getattr(module, name)
    delattr(module, name)
    try:
        getattr(module, name)
    except AttributeError as e:
        print(f"AttributeError: {e}")
    setattr(module, name, saved)
"""


def _missing(names: list[tuple[str, str]]) -> list[str]:
    given = " ".join(f"{mod}:{name}" for mod, name in names)
    proc = subprocess.run(
        [sys.executable, "-c", _DELETE], input=given, capture_output=True, text=True, check=True
    )
    lines = proc.stdout.strip().splitlines()
    assert len(lines) == len(names), proc.stdout + proc.stderr
    return lines


def test_a_name_every_torch_has_is_no_torch_too_old(index: Index, tmp_path: Path) -> None:
    pytest.importorskip("torch")
    messages = _missing(_ALWAYS_THERE)
    # a script named torch.py imports itself instead of the package (Python's own words)
    (tmp_path / "torch.py").write_text("import torch\ntorch.cuda.is_available()\n")
    proc = subprocess.run(
        [sys.executable, "torch.py"], cwd=tmp_path, capture_output=True, text=True
    )
    assert "partially initialized module 'torch' has no attribute 'cuda'" in proc.stderr
    for text in [*messages, proc.stderr]:
        found = [m.entry.id for m in diagnose(text, index).matches]
        assert "torch-version-too-old" not in found, (text.splitlines()[-1], found)
    for text in _missing(_ADDED_LATER):
        best = diagnose(text, index).best
        assert best is not None and best.entry.id == "torch-version-too-old", text
