"""Find the errors in pasted text: a plain data model, no knowledge of PyTorch.

`parse(text) -> Trace` returns every error it finds, with its frames: Python tracebacks and their
chains, the "Original Traceback" inside a DataLoader worker re-raise, IPython/Jupyter/Colab
tracebacks, the VS Code debugger's "Exception has occurred", C++ `what():` messages, CUDA kernel
assertion lines, warnings, bare `SomeError: message` lines. cleanup.py has already removed the
log's own decoration. Matching and rendering live elsewhere.
"""

from __future__ import annotations

import keyword
import re
from functools import cached_property

from ..knowledge.records import dataclass, field
from ..knowledge.regex_cache import compile_cached
from .cleanup import normalise

# Messages longer than this are cut: every signature we know fits in far less.
MAX_MESSAGE = 8000
# A message this short could be the start of any error: too little to look for its restatement.
_MIN_RESTATED = 12
# A post's title cut short is restated in a post, not in a log of many errors: each restatement
# is looked for in the whole text, so a log of thousands of errors (or one error printed
# thousands of times) would cost thousands of scans. A post has few of either.
_MAX_ERRORS_RESTATED = 20
_MAX_RESTATEMENTS = 20
MAX_MESSAGE_LINES = 60

_TYPE = r"(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*"
_TRACEBACK = compile_cached(r"Traceback \(most recent call last\):")
_FRAME = compile_cached(
    r'^\s*File "(?P<file>[^"]+)", line (?P<line>\d+)(?:, in (?P<name>\S+))?'
    r"(?:\s+(?P<src>\S.*))?\s*$"  # source glued to the frame line when it was flattened
)
_EXC = compile_cached(
    rf"^\s*(?P<type>{_TYPE}(?:Error|Exception|Warning|Interrupt|Exit|Failure|Failed)"
    # any class in a dotted module path: torch._dynamo.exc.Unsupported
    r"|(?-i:(?:[a-z_][a-z_\d]*\.){2,}[A-Z]\w*)(?=:))(?::\s?(?P<msg>.*)|[\"'`])?$",
    re.I,
)
# Inside a traceback the exception line may carry any class name (`Unsupported: ...`). A bare
# class may close the quotation a traceback was pasted in (`NotImplementedError"`).
_EXC_IN_TRACEBACK = compile_cached(rf"^(?P<type>{_TYPE})(?::\s?(?P<msg>.*)|[\"'`])?$")
# An exception printed as its repr on a line of its own (`print(repr(e))`, a log's
# `AssertionError("Torch not compiled with CUDA enabled")`): the class, then its one message.
_EXC_REPR = compile_cached(
    rf"^\s*(?P<type>{_TYPE}(?:Error|Exception))\((?P<q>[\"'])"
    r"(?P<msg>[^\n]{1,2000}?)(?P=q),?\)[,.。]?\s*$"
)
_CHAIN = compile_cached(
    r"^\s*(The above exception was the direct cause of the following exception:"
    r"|During handling of the above exception, another exception occurred:)"
)
# A re-raise that carries another process's or replica's traceback: a DataLoader worker's, the
# pin memory thread's, nn.DataParallel's replica's.
_WRAPPED_IN = r"(?:DataLoader worker process \d+|pin memory thread|replica \d+ on device \d+)"
_WORKER = compile_cached(rf"Caught \w+ in {_WRAPPED_IN}\.?[^\S\n]*\n\s*Original Traceback")
# The re-raise's first line, with or without the `KeyError: ` before it, then "Original Traceback".
_WORKER_HEADER = compile_cached(
    rf"^(?:{_TYPE}: )?"
    rf"(?=Caught (?P<type>\w+) in {_WRAPPED_IN})"
)
_RULE = compile_cached(r"^={20,}\s*$")
# A shell prompt after the pasted output: `user@host:~/dir$ `, `(env) user@host:~$`, `PS C:\x> `.
_PROMPT = compile_cached(r"^(?:\([\w.-]+\) )?(?:[\w.-]+@[\w.-]+:\S*[$#]|PS [A-Z]:\\[^>]*>)(?: |$)")
_COMPILER_RAISED = compile_cached(
    rf"^(?:backend='[^'\n]+' raised:\n|\w+ raised )(?P<type>{_TYPE}): ?"
    r"(?P<msg>[^\n]*(?:\n(?!\n)[^\n]*)*)"  # up to a blank line
)
# torch.compile's InductorError (torch >= 2.7): its message is the backend's own error,
# `Type: message`.
_INDUCTOR_RAISED = compile_cached(
    rf"^(?P<type>{_TYPE}(?:Error|Exception)): ?(?P<msg>[^\n]*(?:\n(?!\n)[^\n]*)*)"
)
# torch.compile's TorchRuntimeError when running an op on fake tensors failed (torch >= 2.6):
# "Dynamo failed to run FX node with fake tensors: call_function f(*(...), **{}): got
# RuntimeError('the op's own message')", the message as Python's repr of a string.
_FAKE_TENSOR_GOT = compile_cached(
    rf"\}}\): got (?P<type>{_TYPE})\((?P<lit>'(?:[^'\\\n]|\\.)*'|\"(?:[^\"\\\n]|\\.)*\")\)"
)
# torch.compile's TorchRuntimeError when running an op on fake tensors failed (torch 2.0-2.5; torch
# 1.14's nightlies printed it as a RuntimeError): the call with its fake arguments (their repr may
# span lines) up to "**{kwargs}):", then the op's own message on the next lines.
_FAILED_RUNNING = compile_cached(r"^Failed running (?:call_function|call_method|call_module) ")
# transformers' lazy import re-raises what failed as "Failed to import transformers.trainer because
# of the following error (look up to see its traceback):" and the cause's own message on the next
# line, unindented (import_utils.py's _get_module).
_CAUSE_BELOW = compile_cached(r"\(look up to see its traceback\):\s*$")
# A C++ library's check that prints where it failed, then what on the next line (spconv's cumm:
# "RuntimeError: sync .../cuda_profiler.h:168" above "cuda failed with error 700 an illegal
# memory access was encountered")
_LOCATION_ONLY = compile_cached(r"^\s*(?:\w+ )?\S+\.(?:h|hpp|cpp|cc|cu|cuh):\d+\s*$")
# Unindented lines that still belong to a bare error line's message.
_BARE_GOES_ON = compile_cached(r"^\s*Original Traceback")
# A bare error line's message cut by a hard wrap (_cut_mid_sentence), and the line that goes on.
_CUT_MID_SENTENCE = compile_cached(r"^.{40,}[a-z]$")
_GOES_ON_IN_LOWER_CASE = compile_cached(r"^[a-z]+ [a-z]")
# Errors Python reports while shutting down, after the one that stopped the program.
# torch's signal handler in a DataLoader worker says how the worker died, before the main process
# notices; when the main process only says "exited unexpectedly" (a wrapper), this is the cause.
_WORKER_SIGNAL = compile_cached(
    r"^\s*(?P<msg>ERROR: Unexpected (?:bus error|segmentation fault|floating-point exception) "
    r"encountered in worker\..*)$"
)
# torchrun's own line when a child exits (elastic agent, torch >= 1.9), once its log prefix is gone.
_LAUNCHER_FAILED = compile_cached(
    r"^(?:[\w.]+: )?(?:\[ERROR\] )?"
    r"(?P<msg>failed \(exitcode: -?\d+\) local_rank: \d+ \(pid: \d+\) of binary: \S+)\s*$"
)
# argparse's last words before it exits with code 2: `usage: ...` then `prog.py: error: message`.
_ARGPARSE = compile_cached(r"^(?P<prog>[\w.-]+): error: (?P<msg>\S.*)$")
# OpenCV's C++ exception as it prints it, without Python's "cv2.error: " before it when C++ code
# or a cut paste shows it: "[OpenCV(4.3.0) ]torch_importer.cpp:1022: error: (-213:The
# function/feature is not implemented) Unsupported Lua type in function '...'". An exception of
# OpenCV's, whatever torch model file it was reading.
_OPENCV_ERROR = compile_cached(
    r"^\s*(?:OpenCV\([\w.-]+\) )?\S*\.(?:cpp|hpp|cc|h|mm):\d+: error: \(-?\d+:[^)\n]*\) \S.*$"
)
# THC's check (torch <= 1.x) printed before the RuntimeError, or alone when the error is caught;
# a progress bar may be glued before it.
_THC_CHECK = compile_cached(r"THCudaCheck FAIL file=\S+ line=\d+ error=\d+ ?: [^\n]+")
_IGNORED = compile_cached(
    r"^(?:Exception ignored (?:in|on)\b|Error in atexit\._run_exitfuncs:|Error in sys\.excepthook:)"
)
# The category may end the line ("UserWarning: " above torch's multi-line warnings, its trailing
# space stripped by the paste)
_WARNING = compile_cached(r"^(?P<file>\S+?):(?P<line>\d+): (?P<type>\w*Warning):(?: (?P<msg>.*))?$")
# Apple's Metal frameworks abort the process with a line of their own, no Python exception: the
# graph compiler's `loc("mps_add"("(mpsFileLoc): .../MPSGraphUtilities.mm":228:0)): error: input
# types ... are not broadcast compatible` (its "error:" may wrap to the next line) followed by
# `LLVM ERROR: Failed to infer result type(s).`, and MPS's `.../MPSNDArray.mm:850: failed
# assertion `[MPSNDArray initWithDevice:descriptor:] Error: total bytes of NDArray > 2**32'`.
_METAL_ABORT = compile_cached(
    r"(?P<msg>loc\((?:[^\n]{0,400}?)\(mpsFileLoc\):[^\n]{0,400}?\)\):(?:[^\S\n]*error:[^\n]{1,300})?"
    r"|(?<![^\s\]|])\S{0,300}\.mm:\d+: failed assertion [^\n]{1,400}"
    r"|LLVM ERROR: [^\n]{1,300})"
)
_CPP_THROW = compile_cached(r"terminate called after throwing an instance of '(?P<type>[\w:]+)'")
_CPP_WHAT = compile_cached(r"^\s*what\(\):\s+(?P<msg>.*)$")
# macOS's libc++ says the same on one line ("libc++abi: terminating due to uncaught exception of
# type c10::Error: ...", "libc++abi.dylib: terminating with uncaught exception of type ...")
_CPP_UNCAUGHT = compile_cached(
    r"libc\+\+abi(?:\.dylib)?: terminating (?:due to|with) uncaught exception of type "
    r"(?P<type>[\w:]+): (?P<msg>.*)$"
)
# One line per failing GPU thread: from a CUDA source file, or `unknown:0: unknown:` from a kernel
# torch.compile generated; a progress bar may be glued before the first one.
_KERNEL_ASSERT = compile_cached(
    r"(?:^|(?<=[\]|]))(?P<file>[^\s\]|]+\.(?:cuh?|h)|unknown):(?P<line>\d+): (?:(?P<fn>[^\n]*?): )?"
    r"block: \[[\d,\s]+\], thread: \[[\d,\s]+\] "
    # some builds print the condition bare (torch 1.8's IndexKernel.cu: "Assertion index >=
    # -sizes[i] && index < sizes[i] && \"index out of bounds\" failed."): read as quoted
    r"(?P<msg>Assertion (?:`(?P<quoted>.{1,300})`|(?P<bare>[^`\n]{1,300})) failed\.)"
)
# pip's resolver lists each conflict it leaves behind on a line of its own, below its "ERROR:
# pip's dependency resolver does not currently take into account ..." ("torchvision 0.13.0 requires
# torch==1.12.0, but you have torch 1.11.0 which is incompatible.")
_PIP_CONFLICT = compile_cached(
    r"^\s*(?P<msg>[A-Za-z][\w.-]{0,60} [\w.+!-]{1,40} (?:requires|has requirement) [^\n]{1,300}?, "
    r"but you(?: have|'ll have) [^\n]{1,200}? which is incompatible\.?)\s*$"
)
# The same line from its assertion on, the kernel's file and thread cut away.
_BARE_KERNEL_ASSERT = compile_cached(
    r"^\s*(?P<msg>Assertion `[^`\n]{1,300}` failed\.)\s*$"
    # or cut before it, the paste starting inside the condition, which still ends in the
    # kernel's own words ('`[i] <= index && index < sizes[i] && "index out of bounds"` failed.')
    r'|^\s*`(?P<tail>[^`\n]{1,300}"[^"`\n]{1,80}")` failed\.\s*$'
)
# C's assert() as glibc prints it, the condition between a backtick and an apostrophe
# ("prog: file.h:425: func: Assertion `index >= 0 && index < size()' failed.", torch 0.x's THNN on
# the CPU, or another program's native code): an assertion, whatever sentence quotes it
_C_ASSERT = compile_cached(r"Assertion `(?P<cond>[^`'\n]{1,300})' failed")
# pytest's long report: "test_model.py:6: in step" for each frame, the failure as "E   ..." lines.
_PYTEST_FRAME = compile_cached(r"^(?P<file>[^\s:]+\.py):(?P<line>\d+): (?:in (?P<name>\S+))?\s*$")
# debugpy adds a note when it stops in another frame than the one that raised: "Exception has
# occurred: KeyError       (note: full exception trace is shown but execution is paused at:
# _run_module_as_main)".
_VSCODE = compile_cached(
    rf"^(?:Exception has occurred|发生异常|發生例外狀況): ?(?P<type>{_TYPE})"
    r"[ \t]*(?:\(note: [^()\n]{1,200}\)[ \t]*)?$"
)
# IPython / Jupyter / Colab
_IPY_HEADER = compile_cached(rf"^(?P<type>{_TYPE})\s+Traceback \(most recent call last\)\s*$")
_IPY_FRAMES = [
    compile_cached(
        r"^(?:Cell|Input) In ?\[(?P<cell>\s*\d*)\], (?:line (?P<line>\d+)|in (?P<name>.+))"
    ),
    compile_cached(r"^File (?P<file>.+?):(?P<line>\d+)(?:, in (?P<name>[^(\s]+))?"),
    compile_cached(r"^(?P<file><ipython-input-[^>]+>|\S+\.py) in (?P<name>[^(\s]+)"),
]
_IPY_ARROW = compile_cached(r"^\s*-*> ?(?P<line>\d+)\s(?P<src>.*)$")
_IPY_SKIP = compile_cached(r"^\s*(?:-{10,}|\d+ frames?|\d+\s.*|\.\.\.)\s*$")
# torch outside site-packages (a source build, a conda env's own layout) is known by its own
# subpackages: a user's project folder may be named torch too (~/work/torch/train.py)
_TORCH_PARTS = (
    r"_\w+|__init__|nn|autograd|utils|distributed|cuda|optim|functional|serialization|jit|fx|ao"
    r"|multiprocessing|onnx|amp|backends|export|testing|sparse|linalg|special|masked|nested|hub"
    r"|profiler|quantization|func|csrc|lib|library|overrides|random|storage|accelerator|compiler"
    r"|cpu|distributions|fft|futures|mps|package|signal|types|xpu"
)
_LIBRARY_PATH = compile_cached(
    r"(site-packages|dist-packages|[/\\]lib[/\\]python\d|<frozen "
    rf"|[/\\]torch[/\\](?:{_TORCH_PARTS})(?=[/\\.]))"
)
# Errors that only report that another process failed: the root cause is printed elsewhere.
_WRAPPERS = {
    "ChildFailedError",
    "CalledProcessError",
    "ProcessRaisedException",
    "ProcessExitedException",
}
_WRAPPER_MESSAGE = compile_cached(
    r"^DataLoader worker \(pid\(s\) [\d, ]+\) exited unexpectedly\s*$"
    r"|exited unexpectedly with exit code"
    # a rank that lost its peer: the peer's own error is the cause
    r"|Connection closed by peer|remote process exited or there was a network error"
    # torchrun's line when a child exits: the child's own error is printed above it
    r"|^failed \(exitcode: -?\d+\) local_rank: \d+ \(pid: \d+\) of binary: "
)


@dataclass(frozen=True)
class Frame:
    filename: str
    lineno: int
    name: str
    line: str | None = None

    @property
    def is_user_code(self) -> bool:
        return not _LIBRARY_PATH.search(self.filename.replace("\\\\", "\\"))


# The mark a post puts where it left the rest out, and what else stands where a message would:
# none, or Python's text for an exception whose own __str__ failed.
_LEFT_OUT = frozenset(("[...]", "[…]", "...", "…"))
_NO_MESSAGE = frozenset(("", "<exception str() failed>", *_LEFT_OUT))


@dataclass(frozen=True)
class Error:
    """One error: its type if printed, its message, its frames outermost first."""

    exc_type: str | None
    message: str
    frames: tuple[Frame, ...] = ()
    # How it relates to the error printed after it: "cause"/"context" in a chained traceback,
    # "worker" for the original error inside a DataLoader worker re-raise.
    relation: str | None = None
    # "exception", "warning", "assert" (a CUDA kernel assertion line) or "ignored" (printed
    # after "Exception ignored in:", e.g. a __del__ at exit).
    kind: str = "exception"

    @property
    def text(self) -> str:
        return f"{self.exc_type}: {self.message}" if self.exc_type else self.message

    @property
    def where(self) -> Frame | None:
        """The deepest frame in the user's own code."""
        for frame in reversed(self.frames):
            if frame.is_user_code:
                return frame
        return None

    @property
    def says_nothing(self) -> bool:
        """An exception printed with no message, or with the one Python prints for an exception
        whose own __str__ failed (soundfile's LibsndfileError, for a code it has no text for), or
        with the rest left out by the post ("[...]")."""
        return self.exc_type is not None and self.message.strip() in _NO_MESSAGE

    @property
    def message_left_out(self) -> bool:
        """The post put "[...]" where the exception's message was."""
        return self.message.strip() in _LEFT_OUT

    @property
    def is_cut_off(self) -> bool:
        """A traceback cut before its exception line: what it says is read from its last frame."""
        return self.exc_type is None and bool(self.frames) and self.kind == "exception"

    @property
    def is_wrapper(self) -> bool:
        if self.exc_type and self.exc_type.rsplit(".", 1)[-1] in _WRAPPERS:
            return True
        return bool(_WRAPPER_MESSAGE.search(self.message))


@dataclass(frozen=True)
class Trace:
    errors: tuple[Error, ...]
    text: str = field(repr=False)
    # the text as pasted: cleanup strips the name of the logger that wrote a line (INFO:tensorflow:)
    pasted: str = field(repr=False, default="")

    @property
    def as_pasted(self) -> str:
        """The text as pasted, or the cleaned one for a trace built from errors alone."""
        return self.pasted or self.text

    @cached_property  # matching asks, then rendering each match
    def root(self) -> Error | None:
        """The error to explain first.

        A DataLoader worker's original error; else the last real exception (not a warning, not
        noise after exit, not a launcher's "a child failed", not a traceback cut before its
        exception line when a complete one is there), walked back to the first error of
        its chain, since both chain sentences print the original problem first; when that says
        only "device-side assert triggered", the kernel assertion line that names the check."""
        for err in self.errors:
            if err.relation == "worker":
                return err
        exceptions = [i for i, e in enumerate(self.errors) if e.kind == "exception"]
        real = [i for i in exceptions if not self.errors[i].is_wrapper]
        # a traceback cut before its exception line comes after any complete error line, even a
        # launcher's "a child failed"
        complete = [i for i in exceptions if not self.errors[i].is_cut_off]
        whole = set(complete)
        real = [i for i in real if i in whole] or complete or real
        if not real:  # only wrappers, warnings or noise: the last of those is all there is
            real = [i for i, e in enumerate(self.errors) if e.kind != "ignored"] or list(
                range(len(self.errors))
            )
        if not real:
            return None
        i = real[-1]
        i = self._quoted_wrapped(i)
        while i > 0 and self.errors[i - 1].relation in ("cause", "context"):
            i -= 1
        root = self.errors[i]
        asserts = [e for e in self.errors if e.kind == "assert"]
        if asserts and "device-side assert" in root.message:
            return asserts[0]
        return root

    def _quoted_wrapped(self, i: int) -> int:
        """A re-raise whose original traceback was cut off ("Caught RuntimeError in DataLoader
        worker process 0." and nothing readable after "Original Traceback", a worker's whole one
        would be the root already): a message of the class it names, quoted above it (the post's
        title or first line), is the error it wraps; so is THC's check line, which the worker
        printed before raising its CUDA error as a RuntimeError (torch <= 1.x)."""
        caught = _WORKER_HEADER.match(self.errors[i].message)
        if caught is None:
            return i
        for j in range(i - 1, -1, -1):
            err = self.errors[j]
            if err.kind != "exception" or err.is_wrapper or _WORKER_HEADER.match(err.message):
                continue
            if err.exc_type and err.exc_type.rsplit(".", 1)[-1] == caught["type"]:
                return j
            if (
                not err.exc_type
                and caught["type"] == "RuntimeError"
                and _THC_CHECK.match(err.message)
            ):
                return j
        return i


def parse(text: str) -> Trace:
    pasted, text = text, normalise(text)
    lines = text.split("\n")
    errors: list[Error] = []
    kind = "exception"  # becomes "ignored" after "Exception ignored in:"
    pytest_frames: list[Frame] = []
    headerless = False  # a traceback read from frames with no header line above them
    i = 0
    while i < len(lines):
        line = lines[i]
        located = _PYTEST_FRAME.match(line)
        if located:
            name = located.group("name") or ""
            # the short report ("file.py:6: in step") puts the frame's source line below it
            below = lines[i + 1] if name and i + 1 < len(lines) else ""
            source = below.strip() if below[:1] in (" ", "\t") else None
            frame = Frame(located.group("file"), int(located.group("line")), name, source or None)
            pytest_frames.append(frame)
            i += 1
            continue
        if _IGNORED.match(line):
            kind = "ignored"
            i += 1
            continue
        header = _TRACEBACK.search(line)
        # A paste may start below the header, at a frame; frames printed after an error has been
        # found are context (a logger's stack, a list of call sites), not a new error.
        if header or (_FRAME.match(line) and not errors):
            headerless = headerless or not header
            err, i = _read_traceback(lines, i + 1 if header else i)
            if err is not None:
                errors.extend(_with_inner_error(_tagged(err, kind)))
            continue
        chain = _CHAIN.match(line)
        if chain:
            kind = "exception"
            if errors:
                errors[-1] = _replace(
                    errors[-1], relation="cause" if "direct cause" in chain.group(1) else "context"
                )
            i += 1
            continue
        found, i = _read_other(lines, i)
        if found and pytest_frames and not found[0].frames:
            found[0] = _replace(found[0], frames=tuple(pytest_frames))
            pytest_frames = []
        errors.extend(_tagged(e, kind) if e.kind == "exception" else e for e in found)
    if pytest_frames and not any(e.exc_type for e in errors):
        # pytest's report cut before its "E   ..." lines: a traceback cut before its exception
        errors.append(Error(None, pytest_frames[-1].line or "", tuple(pytest_frames)))
        headerless = True
    if not errors and text.strip():
        errors.append(Error(None, text.strip()[:MAX_MESSAGE]))
    elif not any(e.exc_type for e in errors) and (headerless or all(e.is_cut_off for e in errors)):
        # Frames with no header, or tracebacks all cut before their exception line: what came
        # before them (a warning's own wording, a title that names the error, "CUDA error 700")
        # may be what names the problem, so the whole text is read too.
        errors.insert(0, Error(None, text.strip()[:MAX_MESSAGE]))
    elif all(e.kind == "warning" for e in errors):
        # Only warnings were printed (a deprecation notice above a log cut before its error):
        # the title that names the failure is read too ("dynamic_dim error - The following
        # dimensions have been specialized and CANNOT be dynamic" above torch.export's
        # "UserWarning: This function is deprecated"). Read as a warning, so that what it finds
        # never outranks a symptom the log shows.
        errors.insert(0, Error(None, text.strip()[:MAX_MESSAGE], kind="warning"))
    if len(errors) <= _MAX_ERRORS_RESTATED:
        errors = [_restated_in_full(e, text) for e in errors]
    return Trace(tuple(_dedupe(errors)), text, pasted)


def _read_other(lines: list[str], i: int) -> tuple[list[Error], int]:
    """Every layout but the standard traceback; returns what it found and where to go on."""
    line = lines[i]
    m = _IPY_HEADER.match(line)
    if m:
        ipy, i = _read_ipython(lines, i + 1)
        return _with_inner_error(ipy), i
    m = _VSCODE.match(line)
    if m and i + 1 < len(lines) and _TRACEBACK.match(lines[i + 1].strip()):
        # The debugger's header over a whole traceback pasted from the terminal (held78-066):
        # the traceback states the type and its message itself.
        return [], i + 1
    if m:
        message, j = _read_message(lines, i + 1, "", stop_at_frames=True)
        err, j = _read_traceback(lines, j, default=Error(m.group("type"), message))
        # The debugger lists the call stack innermost first; Frame order is outermost first.
        return ([_replace(err, frames=err.frames[::-1])] if err else []), j
    m = _KERNEL_ASSERT.search(line) if "block: [" in line else None
    if m:
        frame = Frame(m.group("file"), int(m.group("line")), (m.group("fn") or "").strip())
        message = m.group("msg") if m.group("quoted") else f"Assertion `{m.group('bare')}` failed."
        return [Error(None, message, (frame,), kind="assert")], i + 1
    m = _BARE_KERNEL_ASSERT.match(line) if "` failed." in line else None
    if m:  # retold without the kernel's file and thread, as posts cut it
        message = m.group("msg") or f"Assertion `{m.group('tail')}` failed."
        return [Error(None, message, kind="assert")], i + 1
    m = _C_ASSERT.search(line) if "' failed" in line and not _EXC.match(line) else None
    if m:
        return [Error(None, f"Assertion `{m.group('cond')}' failed.", kind="assert")], i + 1
    m = _WARNING.match(line)
    if m:
        # A warning's text may start on the next line; it ends with the (indented) source line
        # that issued it, or a blank line.
        message, j = _read_message(lines, i + 1, m.group("msg") or "", until_indented=True)
        frame = Frame(m.group("file"), int(m.group("line")), "<warning>")
        return [Error(m.group("type"), message, (frame,), kind="warning")], j
    m = _CPP_THROW.search(line)
    if m:
        for j in range(i + 1, min(i + 4, len(lines))):
            what = _CPP_WHAT.match(lines[j])
            if what:
                message, j = _read_message(lines, j + 1, what.group("msg"))
                return [Error(m.group("type"), message)], j
        return [], i + 1
    m = _CPP_UNCAUGHT.search(line) if "uncaught exception of type" in line else None
    if m:
        message, j = _read_message(lines, i + 1, m.group("msg"))
        return [Error(m.group("type"), message)], j
    m = _WORKER_SIGNAL.match(line)
    if m:
        return [Error(None, m.group("msg").strip())], i + 1
    metal = "mpsFileLoc" in line or "failed assertion" in line or "LLVM ERROR: " in line
    m = _METAL_ABORT.search(line) if metal else None
    if m:
        message, j = m.group("msg").strip(), i + 1
        if message.endswith(")):") and j < len(lines) and "error:" in lines[j]:
            message, j = f"{message} {lines[j].strip()}", j + 1
        if message.startswith("loc(") and j < len(lines) and lines[j].startswith("LLVM ERROR: "):
            message, j = f"{message}\n{lines[j].strip()}", j + 1  # the abort that follows it
        return [Error(None, message)], j
    m = _THC_CHECK.search(line) if "THCudaCheck" in line else None
    if m:
        return [Error(None, m.group().strip())], i + 1
    m = _LAUNCHER_FAILED.match(line) if "exitcode" in line else None
    if m:
        return [Error(None, m.group("msg"))], i + 1
    m = _OPENCV_ERROR.match(line) if ": error: (" in line else None
    if m:
        return [Error("cv2.error", line.strip())], i + 1
    m = _ARGPARSE.match(line) if ": error: " in line else None
    if m:  # the whole line: the program's name is part of what argparse says
        return [Error(None, line.strip())], i + 1
    m = _PIP_CONFLICT.match(line) if "which is incompatible" in line else None
    if m:
        return [Error(None, m.group("msg"))], i + 1
    m = _WORKER_HEADER.match(line)
    if m and i + 1 < len(lines) and lines[i + 1].lstrip().startswith("Original Traceback"):
        # A worker re-raise pasted without the traceback above it: the message is the header,
        # "Original Traceback" and the worker's own traceback, as when it is printed whole.
        _, j = _read_traceback(lines, i + 2)
        message = "\n".join([line[m.end() :], *lines[i + 1 : j]]).strip()[:MAX_MESSAGE]
        return _with_inner_error(Error(m.group("type"), message)), j
    if line.startswith("backend='"):
        # BackendCompilerFailed's message shown without its class (ComfyUI prints str(e) under
        # the node's name): the backend's own error is its cause, as with the class. A blank
        # line may follow "raised:" (chengzeyi/Comfy-WaveSpeed#85): the error is the next line.
        start = i
        if line.rstrip().endswith("raised:"):
            start = next((k for k in range(i + 1, len(lines)) if lines[k].strip()), i)
        j = next((k for k in range(start + 1, len(lines)) if not lines[k].strip()), len(lines))
        block = "\n".join([line.rstrip(), *lines[start:j]] if start != i else lines[i:j])
        m = _COMPILER_RAISED.match(block)
        if m:
            inner = Error(m.group("type"), m.group("msg").strip(), relation="cause")
            return [*_with_inner_error(inner), Error(None, block.strip())], j
    m = _EXC_REPR.match(line) if "(" in line else None
    if m:
        return [Error(m.group("type"), m.group("msg"))], i + 1
    # an exception quoted as inline code or in quotation marks, the opening mark at the line's
    # start ("`einops.EinopsError:  Error while processing ...`", '"RuntimeError: The size of
    # tensor a ..."') and the closing one at its end or on a later line: a quotation that a
    # sentence goes on after ('"RuntimeError: Failed to load checkpoint" error occurs when ...')
    # is a title's words, read as the post's sentence
    m = _EXC.match(line[1:] if _quoted_whole(line) else line)
    if m and m.group("msg") is not None:
        message, j = _read_message(lines, i + 1, m.group("msg"), bare=True)
        kind = "warning" if m.group("type").lower().endswith("warning") else "exception"
        bare: Error | None = Error(m.group("type"), message, kind=kind)
        if j + 1 < len(lines) and lines[j].strip() == "Traceback:" and _FRAME.match(lines[j + 1]):
            j += 1  # Streamlit's page: the message, then "Traceback:" and the frames
        if j < len(lines) and _FRAME.match(lines[j]):  # the message printed before its frames
            bare, j = _read_traceback(lines, j, default=bare)
        assert bare is not None
        return _with_inner_error(bare), j
    return [], i + 1


def _restated_in_full(err: Error, text: str) -> Error:
    """A title cut short ("RuntimeError: Can't call numpy()") whose post restates the error in
    full further down, quoted in a sentence or pasted again: read the fullest restatement. Only a
    longer line that starts with the same type and the same words counts, so a different error
    elsewhere in the post is never taken for this one. A message the paste itself ends in, cut
    mid-word ("TypeError: batch must contain tenso"), may be restated without its type too, as
    the line a post's title copied it to."""
    if err.exc_type is None or err.kind != "exception" or len(err.message) < _MIN_RESTATED:
        return err
    needles = [f"{err.exc_type}: {err.message}"]
    if text.rstrip().endswith(err.message.rstrip()):
        needles.append(f"\n{err.message}")
        if text.startswith(err.message):
            needles.append(err.message)  # the title, first of all
    fullest = err.message
    for needle in needles:
        at = text.find(needle)
        for _ in range(_MAX_RESTATEMENTS):  # the first few: a post's, not a log's thousands
            if at == -1:
                break
            start = at + len(needle) - len(err.message)
            end = text.find("\n", start, start + MAX_MESSAGE)
            line = text[start : start + MAX_MESSAGE if end == -1 else end]
            if len(line) > len(fullest):
                fullest = line
            at = text.find(needle, at + 1)
    return err if fullest == err.message else _replace(err, message=fullest)


def _replace(err: Error, **changes: object) -> Error:
    fields = {
        "exc_type": err.exc_type,
        "message": err.message,
        "frames": err.frames,
        "relation": err.relation,
        "kind": err.kind,
        **changes,
    }
    return Error(**fields)  # type: ignore[arg-type]


def _tagged(err: Error, kind: str) -> Error:
    return err if kind == "exception" else _replace(err, kind=kind)


def _dedupe(errors: list[Error]) -> list[Error]:
    """Kernel assertions print once per GPU thread; duplicated log lines print twice."""
    seen: set[tuple[str | None, str, str]] = set()
    out = []
    for err in errors:
        key = (err.exc_type, err.message, err.kind)
        if err.kind in ("assert", "warning") and key in seen:
            continue
        seen.add(key)
        out.append(err)
    return out


def _read_traceback(
    lines: list[str], i: int, default: Error | None = None
) -> tuple[Error | None, int]:
    frames: list[Frame] = []
    while i < len(lines):
        _rejoin_wrapped_frame(lines, i)
        m = _FRAME.match(lines[i])
        if m:
            source = m.group("src")
            nxt = lines[i + 1] if i + 1 < len(lines) else ""
            after = lines[i + 2] if i + 2 < len(lines) else ""
            double_spaced = not nxt.strip() and not _FRAME.match(after) and _is_source_line(after)
            if source is None and double_spaced:
                i += 1  # a paste with a blank line after every line of the traceback
                nxt = after
            if source is None and _is_source_line(nxt):
                source = nxt.strip()
                i += 1
            frames.append(
                Frame(m.group("file"), int(m.group("line")), m.group("name") or "", source)
            )
            i += 1
            continue
        stripped = lines[i].strip()
        # Caret lines (^^^^), "[Previous line repeated N more times]" and blanks belong to frames.
        if not stripped or set(stripped) <= set("^~ ") or stripped.startswith("[Previous line"):
            i += 1
            continue
        if default is not None and not frames:
            return _replace(default), i
        if frames and _wrapped_source_tail(lines, i):
            i += 1
            continue
        exc = _EXC.match(lines[i]) or _EXC_IN_TRACEBACK.match(lines[i])
        if exc and frames and _cut_at_the_end(lines, i, exc):
            break  # `torch.distributed.elastic.multip`: the paste ends inside the exception line
        if exc and exc.group("msg") is None and lines[i].rstrip()[-1:] in "\"'`":
            return Error(exc.group("type"), "", tuple(frames)), i + 1  # the quotation closes
        if (
            exc
            and i + 1 < len(lines)
            and _FRAME.match(lines[i + 1])
            and not _TRACEBACK.search(exc.group("msg") or "")  # torch 1.x's worker re-raise
        ):
            # frames right below the exception line: a debugger's call stack, not its message
            return Error(exc.group("type"), exc.group("msg") or "", tuple(frames)), i + 1
        if exc:
            message, i = _read_message(lines, i + 1, exc.group("msg") or "")
            return Error(exc.group("type"), message, tuple(frames)), i
        if lines[i].startswith(" "):  # a source line we could not pair with a frame
            i += 1
            continue
        break  # something that is no exception line: the traceback was cut off
    if default is not None:
        return _replace(default, frames=tuple(frames)), i
    if not frames:
        return None, i
    # Cut off before its last line: the raising statement often still names the error.
    return Error(None, _raised_message(frames[-1]), tuple(frames)), i


_RAISE = compile_cached(r"""^raise\s+[\w.]+\(\s*f?(?P<q>["'])(?P<msg>.+?)(?P=q)""", re.S)


def _raised_message(frame: Frame) -> str:
    """The message in `raise ValueError(f"Target size ({target.size()}) must be ...")`, with the
    f-string's fields left for the fuzzy matcher to mask. A traceback shows only the statement's
    first line; when the file is on this machine (a pipe from the run), its next lines are read."""
    source = frame.line or ""
    if source.startswith("raise") and not _RAISE.match(source):
        try:
            with open(frame.filename, encoding="utf-8") as f:
                lines = f.readlines()[frame.lineno - 1 : frame.lineno + 5]
            source = " ".join(line.strip() for line in lines)
        except (OSError, UnicodeDecodeError, ValueError):
            pass
    m = _RAISE.match(source)
    return m.group("msg") if m else source


def _cut_at_the_end(lines: list[str], i: int, exc: re.Match[str]) -> bool:
    """The paste's last line, cut inside the exception's name: no colon, and a name no class has
    (its last part in lower case: `torch.distributed.elastic.multip`). A class printed without a
    message (`KeyboardInterrupt`, `StopIteration`) is capitalised."""
    if exc.group("msg") is not None or any(line.strip() for line in lines[i + 1 :]):
        return False
    return not exc.group("type").rsplit(".", 1)[-1][:1].isupper()


def _rejoin_wrapped_frame(lines: list[str], i: int) -> None:
    """A frame line hard-wrapped by a terminal or a mail client is joined back, in place. The cut
    can fall anywhere: inside the path, before `, line N` or ` in name` (the next piece then
    starts with a space), after the path's comma (`line N, in name` flush left), or inside the
    name (`in <modul` + `e>`)."""
    for _ in range(10):  # a long path can wrap several times
        line = lines[i]
        if not line.lstrip().startswith('File "') or i + 1 >= len(lines):
            return
        m = _FRAME.match(line)
        nxt = lines[i + 1]
        if not nxt.strip() or _FRAME.match(nxt) or _TRACEBACK.search(nxt):
            return
        if m is not None and m.group("name") is not None:
            if not _cut_name(m.group("name"), nxt):
                return
        elif nxt[:1] in (" ", "\t"):
            joined = _FRAME.match(line + nxt)
            if joined is None or joined.group("name") is None:
                return  # a frame printed without `, in name`, then its source line
        elif line.endswith('",') and nxt.startswith("line "):
            nxt = " " + nxt  # cut after the path's comma, the rest flush left (an 80-column wrap)
        lines[i : i + 2] = [line + nxt]


def _is_source_line(line: str) -> bool:
    """The line after a frame is its source: indented, or flush-left when a log collector
    stripped the indentation (then it must not read as a frame, an exception or a header)."""
    if not line.strip() or _FRAME.match(line):
        return False
    if line[:1].isspace():
        return True
    return not (
        _EXC.match(line)
        or _EXC_IN_TRACEBACK.match(line)
        or _TRACEBACK.search(line)
        or _CHAIN.match(line)
        or set(line.strip()) <= set("^~ ")
    )


def _wrapped_source_tail(lines: list[str], i: int) -> bool:
    """An unindented line between a source line and the next frame (or its carets) is the rest of
    a source line cut by a hard wrap; an exception line is never followed by a frame."""
    before = lines[i - 1]
    after = lines[i + 1] if i + 1 < len(lines) else ""
    if not before[:1].isspace() or _FRAME.match(before) or lines[i][:1].isspace():
        return False
    if _EXC.match(lines[i]) and _balanced(before) and not _TRACEBACK.search(lines[i]):
        # ...unless the source line is whole and this one names an exception: the VS Code
        # debugger's paste lists its call stack below the exception line (held78-066)
        return False
    return bool(_FRAME.match(after)) or (bool(after.strip()) and set(after.strip()) <= set("^~ "))


def _balanced(source: str) -> bool:
    """Whether a source line closes every bracket it opens (a line cut by a wrap seldom does)."""
    depth = 0
    for ch in source:
        depth += (ch in "([{") - (ch in ")]}")
    return depth == 0 and not source.rstrip().endswith((",", "\\", "(", "["))


def _cut_name(name: str, nxt: str) -> bool:
    """Whether `nxt` is the rest of a function name cut by the wrap: one unindented word, no
    colon, and not a capitalised word (a bare `KeyboardInterrupt` ends a traceback)."""
    if name.startswith("<") and not name.endswith(">"):
        return True
    word = nxt.rstrip()
    return bool(re.fullmatch(r"[a-z_\d][\w>]*", word)) and not keyword.iskeyword(word)


def _read_ipython(lines: list[str], i: int) -> tuple[Error, int]:
    """IPython's layout: frames as `Cell In[3], line 5` / `File path:12, in f` / `path.py in f`,
    the failing line marked by an arrow, then `Type: message`."""
    frames: list[Frame] = []
    while i < len(lines):
        line = lines[i]
        for pattern in _IPY_FRAMES:
            m = pattern.match(line)
            if m:
                d = m.groupdict()
                filename = d.get("file") or f"Cell In[{(d.get('cell') or '').strip()}]"
                frames.append(Frame(filename, int(d.get("line") or 0), d.get("name") or "<cell>"))
                break
        else:
            arrow = _IPY_ARROW.match(line)
            if arrow and frames:
                last = frames[-1]
                frames[-1] = Frame(
                    last.filename,
                    last.lineno or int(arrow.group("line")),
                    last.name,
                    arrow.group("src").strip(),
                )
            elif not line.strip() or _IPY_SKIP.match(line) or line[:1].isspace():
                pass
            else:
                exc = _EXC.match(line) or _EXC_IN_TRACEBACK.match(line)
                if exc:
                    message, i = _read_message(lines, i + 1, exc.group("msg") or "")
                    return Error(exc.group("type"), message, tuple(frames)), i
        i += 1
    # Cut before its exception line (a notebook's error saved as JSON, a paste that stops at the
    # frames): like a plain traceback cut there, it is read from its frames and the text around it.
    return Error(None, "", tuple(frames)), i


def _read_message(
    lines: list[str],
    i: int,
    first: str,
    *,
    bare: bool = False,
    stop_at_frames: bool = False,
    until_indented: bool = False,
) -> tuple[str, int]:
    """A message runs on until a blank line, a new traceback or a chaining sentence. A bare error
    line in a log (no traceback above it) takes only indented continuation lines: the next
    unindented line is the log going on; unless the line ends at its colon (`RuntimeError:` alone,
    as torch.utils.cpp_extension prints a build failure whose message starts with a line break):
    then the message is the lines below it."""
    parts = [first]
    # torch.compile's report of a failed fake-tensor run (torch 2.0-2.5) puts the op's own message
    # below the call, unindented: it is read on like a line that ends at its colon
    ends_at_colon = (
        not first.strip()
        or bool(_FAILED_RUNNING.match(first))
        or bool(_CAUSE_BELOW.search(first))
        or bool(_LOCATION_ONLY.match(first))
    )
    rejoined = False
    while i < len(lines) and len(parts) < MAX_MESSAGE_LINES:
        line = lines[i]
        if not line.strip() and not _continues(lines, i + 1):
            break
        if stop_at_frames and _FRAME.match(line):
            break
        if line.startswith("from user code:"):  # torch.compile's block: the user's traced line
            end = next((k for k in range(i + 1, len(lines)) if not lines[k].strip()), len(lines))
            parts += lines[i:end]
            i = end
            break
        if _PROMPT.match(line):
            break  # the shell prompt after the output: the user's next command, not the message
        if bare and _RULE.match(line) and not first.strip():
            # a message printed as a block between two rules (torchrun's ChildFailedError)
            end = next((k for k in range(i + 1, len(lines)) if _RULE.match(lines[k])), len(lines))
            return "\n".join(lines[i : end + 1]).strip()[:MAX_MESSAGE], end + 1
        if bare and not rejoined and len(parts) == 1 and _cut_mid_sentence(first, line):
            parts[0] = f"{first.rstrip()} {line.strip()}"  # one sentence again, as torch printed it
            rejoined = True
            i += 1
            continue
        if (
            bare
            and line.strip()
            and not line[:1].isspace()
            and not _BARE_GOES_ON.match(line)
            and not ends_at_colon
        ):
            break
        if bare and _FRAME.match(line):
            break
        if until_indented and not line.strip():
            break
        if until_indented and line[:1].isspace():  # the source line Python prints last
            parts.append(line)
            i += 1
            break
        if _TRACEBACK.search(line) and not line.lstrip().startswith("Original Traceback"):
            break
        if _CHAIN.match(line) or _KERNEL_ASSERT.match(line) or _IGNORED.match(line):
            break
        if _WARNING.match(line):  # a warning printed after the error (at shutdown): a record
            break  # of its own, e.g. multiprocessing's "leaked semaphore objects" after a crash
        if _CHINESE_PROSE.match(line):
            break  # the user's words below the paste ("第二个是在我换成mse loss的时候")
        parts.append(line)
        i += 1
    return "\n".join(parts).strip()[:MAX_MESSAGE], i


# A line that starts with a Chinese character, unindented: torch and Python print their messages
# in English, so below an exception's line it is the post going on in the user's words.
_CHINESE_PROSE = compile_cached(r"[\u4e00-\u9fff]")


_CLOSING = {"`": "`", '"': '"', "“": "”"}


def _quoted_whole(line: str) -> bool:
    """The line opens a quotation that nothing but its closing mark follows on the line."""
    close = _CLOSING.get(line[:1])
    if close is None or line.startswith("``"):
        return False
    end = line.find(close, 1)
    return end == -1 or not line[end + 1 :].strip()


def _cut_mid_sentence(first: str, line: str) -> bool:
    """Whether a bare error line was hard-wrapped mid-sentence (a mail client, a terminal, a
    post's code block at 60-80 columns): a long message that stops on a lower-case word, with no
    closing punctuation, and a next line that goes on in lower case ("... that is" then
    "different to the input size ..."). Only the first cut is joined back."""
    return bool(_CUT_MID_SENTENCE.match(first) and _GOES_ON_IN_LOWER_CASE.match(line))


def _continues(lines: list[str], i: int) -> bool:
    """After a blank line, an indented or tab-led line still belongs to the message, and so does
    torch.compile's "from user code:" block (the user's line that was being traced), and the line
    torch.load's weights_only error prints after "WeightsUnpickler error:" and a blank line (what
    it refused: "Unsupported operand 118", "Can only build Tensor ...")."""
    if i >= len(lines):
        return False
    if i >= 2 and lines[i - 2].rstrip().endswith("WeightsUnpickler error:") and lines[i].strip():
        return True
    return (lines[i][:1] in ("\t", " ") and not _FRAME.match(lines[i])) or lines[i].startswith(
        "from user code:"
    )


def _with_inner_error(err: Error) -> list[Error]:
    """An error that carries another inside its message: a DataLoader re-raise (the worker's
    original traceback), torch.compile's BackendCompilerFailed (the backend's own error, `backend=
    'inductor' raised:` then `Type: message` since torch 2.1, `debug_wrapper raised Type: message`
    in 2.0) and InductorError (`Type: message`, torch >= 2.7), its TorchRuntimeError from a
    fake-tensor run (`got Type('message')` since torch 2.6, `Failed running call_function
    f(*(...), **{}):` then the message before). The inner error comes first, as the cause."""
    if _WORKER.search(err.message):
        inner_lines = err.message[err.message.find("Original Traceback") :].split("\n")
        inner, _ = _read_traceback(inner_lines, 1)
        if inner is None or not inner.exc_type:
            return [err]
        return [_replace(inner, relation="worker"), err]
    exc_type = err.exc_type
    if not exc_type:
        return [err]
    if "from user code:" in err.message:  # torch.compile's: the line it was tracing is innermost
        err = _replace(err, frames=err.frames + _user_code_frames(err.message))
    m = _COMPILER_RAISED.match(err.message) if exc_type.endswith("BackendCompilerFailed") else None
    if m is None and exc_type.endswith("InductorError"):
        m = _INDUCTOR_RAISED.match(err.message)
    if m:
        inner = Error(m.group("type"), m.group("msg").strip(), err.frames, relation="cause")
        return [*_with_inner_error(inner), err]
    if exc_type.endswith(("TorchRuntimeError", "RuntimeError")):
        message = _fake_run_error(err.message)
        if message:
            # What eager mode raises too: the family of the user's mistake. Its class is not
            # kept: the fake kernels check with other exceptions than eager's (an assert where
            # eager raises RuntimeError), and before torch 2.6 no class is printed at all.
            return [Error(None, message, err.frames, relation="cause"), err]
    return [err]


def _fake_run_error(message: str) -> str | None:
    """The op's own error inside torch.compile's report of a failed fake-tensor run: quoted as
    `got RuntimeError('...')` (torch >= 2.6), or the lines after the call `Failed running
    call_function f(*(FakeTensor(..., size=(4, 10)), ...), **{}):` up to a blank line (2.0-2.5)."""
    m = _FAKE_TENSOR_GOT.search(message)
    if m:
        import ast  # here, not at the top: importing it costs a cold start 1.5 ms

        try:
            return str(ast.literal_eval(m.group("lit"))).strip() or None
        except (ValueError, SyntaxError):
            return None
    if not _FAILED_RUNNING.match(message):
        return None
    lines = message.split("\n")
    # the call ends at the first line that closes it with "):"; a FakeTensor's repr may wrap
    end = next((i for i, line in enumerate(lines) if line.rstrip().endswith("):")), None)
    if end is None:
        return None
    inner = []
    for line in lines[end + 1 :]:
        if not line.strip() or line.startswith("from user code:"):
            break
        inner.append(line)
    return "\n".join(inner).strip() or None


def _user_code_frames(message: str) -> tuple[Frame, ...]:
    """The frames of torch.compile's "from user code:" block: the user's line being traced, then
    the library lines it called into, innermost last (read as a traceback's frames are)."""
    lines = message[message.find("from user code:") :].split("\n")[1:]
    block, _ = _read_traceback(lines, 0, default=Error(None, ""))
    return block.frames if block is not None else ()
