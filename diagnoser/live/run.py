"""`diagnoser run script.py [args]`: the script runs in this process, as `python script.py` would
run it, so that its failure can be explained with its live frames.

As python does: sys.argv is [script, *args], the script's directory is sys.path[0], it runs as
`__main__` (runpy swaps sys.modules["__main__"] for the run), stdout and stderr stay the
terminal's, the exit status is the script's (SystemExit's code; 1 after an uncaught exception;
130 after Ctrl-C), and the traceback starts at the script's own frame.
"""

from __future__ import annotations

import os
import runpy
import sys
from types import TracebackType
from typing import Any

from .capture import _is_user
from .hook import disabled, explain, install, installed

EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


def _from_script(tb: TracebackType | None, path: str) -> TracebackType | None:
    """Drop the frames of diagnoser and runpy above the script's first frame (all of them for a
    SyntaxError in the script, which Python too prints without a stack)."""
    while tb is not None and os.path.abspath(tb.tb_frame.f_code.co_filename) != path:
        tb = tb.tb_next
    return tb


def _post_mortem(tb: TracebackType) -> None:
    """pdb at the innermost frame of the user's code, where the variables they wrote are: an
    error torch raises surfaces in torch's frames (Linear.forward, _call_impl), which `down`
    still reaches."""
    import pdb

    class _AtUserFrame(pdb.Pdb):
        def setup(self, f: Any, t: Any) -> Any:
            done = super().setup(f, t)
            user = [i for i, (fr, _) in enumerate(self.stack) if _is_user(fr.f_code.co_filename)]
            if user:
                self.curindex = user[-1]
                self.curframe = self.stack[self.curindex][0]
                self.curframe_locals = self.curframe.f_locals
            return done

    debugger = _AtUserFrame()
    debugger.reset()
    debugger.interaction(None, tb)


def _exit_code(e: SystemExit) -> int:
    if e.code is None:
        return 0
    if isinstance(e.code, int):
        return e.code
    print(e.code, file=sys.stderr)  # as python prints sys.exit("message")
    return 1


def run(
    script: str,
    args: list[str],
    *,
    lang: str | None = None,
    fmt: str = "text",
    debug: bool = False,
) -> int:
    """Run the script; `debug` (`--pdb`): after a crash and its diagnosis, pdb's post-mortem at
    the frame that raised, the script's variables still alive."""
    path = os.path.abspath(script)
    if not os.path.isfile(path):
        print(f"diagnoser run: cannot open {script!r}: no such file", file=sys.stderr)
        return EXIT_USAGE
    sys.argv = [script, *args]
    sys.path.insert(0, os.path.dirname(path))
    install(lang=lang, fmt=fmt)  # threads too; a no-op under DIAGNOSER_DISABLE
    try:
        runpy.run_path(path, run_name="__main__")
    except SystemExit as e:
        return _exit_code(e)
    except BaseException as e:
        tb = _from_script(e.__traceback__, path)
        # As python does: the current sys.excepthook prints it; ours explains after the hooks
        # installed before it. A script that replaced it (rich.traceback.install()) still gets
        # the explanation after its own traceback; DIAGNOSER_DISABLE leaves Python's alone.
        sys.excepthook(type(e), e.with_traceback(tb), tb)
        if not installed() and not disabled():
            explain(e, lang=lang, fmt=fmt)
        if debug and tb is not None and not isinstance(e, KeyboardInterrupt):
            sys.stdout.flush()
            sys.stderr.flush()
            _post_mortem(tb)
        return EXIT_INTERRUPTED if isinstance(e, KeyboardInterrupt) else 1
    finally:
        sys.stdout.flush()
    return 0
