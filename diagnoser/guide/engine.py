"""The paste box's engine: the diagnoser itself, run in the reader's browser by Pyodide (CPython
compiled to WebAssembly), with no server. hooks/kb_pages.py calls `bundle` after every build; it
writes into the built site, never into the repository:

    engine/pyodide/    Pyodide's runtime from the npm registry (PYODIDE_VERSION): pyodide.mjs,
                       pyodide.asm.mjs, pyodide.asm.wasm, python_stdlib.zip, pyodide-lock.json
    engine/engine.zip  the engine's modules (diagnoser/knowledge, text, speak: nothing else, and
                       rapidfuzz's pure-Python stand-in, knowledge/fuzzy.py), the source tier's
                       index, the table of newer torch names (newer_names.json), and the
                       knowledge base *prebuilt* here with the normal CPython code
                       (knowledge.index.write_index_files), with what the text layer derives
                       from it: the browser reads it as it is (load_index_file), so it needs
                       neither pydantic nor PyYAML nor kb/
    engine/paste.py    the few lines the browser calls: answer(text, lang) -> JSON
    engine/manifest.json  {"bundled": true/false, "pyodide": version, "files": {name: bytes}}

Pyodide comes from npm (`python -m diagnoser.guide.engine fetch`, which `make site` runs):
`npm pack` into a cache outside the repository (PYODIDE_DIR, else
~/.cache/torch-diagnoser-build/pyodide-VERSION). Without it the site still builds, and the paste
box says the engine is not bundled.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile
from pathlib import Path

PYODIDE_VERSION = "314.0.7"
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
    "LICENSE",
)
_REQUIRED = PYODIDE_FILES[:-1]  # the licence is shipped when the package has one
# The engine's layers (tests/test_layers.py keeps them free of anything but the standard library
# and rapidfuzz); knowledge/schema.py and plugins.py only compile or extend kb/, never read here.
ENGINE_LAYERS = ("knowledge", "text", "speak")
_LEFT_OUT = {"knowledge/schema.py", "knowledge/plugins.py"}
# the data files the text layer opens (checks.json names runtime tools, which the browser has not)
_ENGINE_DATA = {"knowledge/newer_names.json"}
_PACKAGE = Path(__file__).resolve().parent.parent

# Run in the browser: the same diagnosis and the same JSON as `diagnoser --json --lang LANG`, and
# each matched entry's one-line cause and fix for the answer box.
PASTE_PY = '''\
"""The paste box's engine (diagnoser/guide/engine.py writes it): answer(text, lang) -> JSON."""
import json

from diagnoser.knowledge.index import load_index_file
from diagnoser.speak import render
from diagnoser.text.match import diagnose

INDEX = load_index_file(__file__.rsplit("/", 1)[0] + "/index.marshal")


def answer(text, lang):
    diagnosis = diagnose(text, INDEX)
    entries = {
        m.entry.id: {"cause": m.entry.glance["cause"][lang], "fix": m.entry.glance["fix"][lang]}
        for m in diagnosis.matches
    }
    return json.dumps({"report": render.to_json(diagnosis, lang), "entries": entries})
'''


def _build_cache() -> Path:
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(cache) / "torch-diagnoser-build"


def pyodide_dir() -> Path:
    explicit = os.environ.get("PYODIDE_DIR")
    if explicit:
        return Path(explicit)
    return _build_cache() / f"pyodide-{PYODIDE_VERSION}"


def have_pyodide(folder: Path | None = None) -> bool:
    folder = folder or pyodide_dir()
    return all((folder / name).is_file() for name in _REQUIRED)


def fetch(folder: Path | None = None) -> Path:
    """Pyodide's runtime from the npm registry into `folder` (once). RuntimeError when npm is
    missing or fails."""
    folder = folder or pyodide_dir()
    if have_pyodide(folder):
        return folder
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("npm is not installed: the paste box's engine (Pyodide) is not bundled")
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run(
            [npm, "pack", f"pyodide@{PYODIDE_VERSION}", "--pack-destination", tmp, "--silent"],
            capture_output=True,
            text=True,
            timeout=600,
        )
        tarballs = list(Path(tmp).glob("pyodide-*.tgz"))
        if done.returncode != 0 or not tarballs:
            raise RuntimeError(f"npm pack pyodide@{PYODIDE_VERSION} failed: {done.stderr[-2000:]}")
        staging = folder.with_name(folder.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        with tarfile.open(tarballs[0]) as tar:
            for name in PYODIDE_FILES:
                try:
                    member = tar.getmember(f"package/{name}")
                except KeyError:
                    continue
                source = tar.extractfile(member)
                if source is not None:
                    (staging / name).write_bytes(source.read())
        if not have_pyodide(staging):
            raise RuntimeError(f"pyodide@{PYODIDE_VERSION} lacks one of {', '.join(_REQUIRED)}")
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)
    return folder


def _engine_zip(out: Path, index_files: list[Path]) -> None:
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("diagnoser/__init__.py", (_PACKAGE / "__init__.py").read_bytes())
        for layer in ENGINE_LAYERS:
            for path in sorted((_PACKAGE / layer).iterdir()):
                relative = f"{layer}/{path.name}"
                if relative in _LEFT_OUT or path.is_dir():
                    continue
                if path.suffix in (".py", ".bin", ".txt") or relative in _ENGINE_DATA:
                    z.write(path, f"diagnoser/{relative}")
        for path in index_files:
            z.write(path, path.name)
        z.writestr("paste.py", PASTE_PY)


def prebuilt_index(folder: Path, kb: Path | None = None) -> list[Path]:
    """The knowledge base compiled into `folder`/index.*, with the data the text layer derives
    from it computed now (by diagnosing texts that need it all), not in the browser."""
    from ..knowledge.index import load_index_file, write_index_files
    from ..text.match import diagnose

    base = str(folder / "index")
    write_index_files(base, kb)
    index = load_index_file(base + ".marshal")
    for text in ("RuntimeError: no signature knows this (3x4)", "my loss goes down very slowly"):
        diagnose(text, index)
    return sorted(folder.glob("index.*"))


def _engine_key(kb: Path) -> str:
    """Everything engine.zip is made from: the package's modules (the engine's, and those that
    compile the KB into its index), the KB, the Python that compiles it, PASTE_PY."""
    digest = hashlib.sha256(f"{sys.version}\n{PASTE_PY}".encode())
    sources = sorted(p for p in _PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)
    data = sorted(p for p in _PACKAGE.rglob("*") if p.suffix in (".bin", ".txt", ".json"))
    for path in [*sources, *data, *sorted(kb.glob("*.yaml"))]:
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:20]


def _cached_engine_zip(out: Path, kb: Path | None) -> None:
    """engine.zip, made once for each state of what it is made from (compiling the KB and its
    derived data, then compressing, is a tenth of a site build that most often changes neither),
    kept beside Pyodide's cache. Where that cache cannot be written, it is made every time."""
    from ..knowledge.index import kb_dir

    cached = _build_cache() / f"engine-{_engine_key(kb or kb_dir())}.zip"
    if not cached.is_file():
        try:
            cached.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory() as tmp:
                partial = cached.with_suffix(f".{os.getpid()}.partial")
                _engine_zip(partial, prebuilt_index(Path(tmp), kb))
            for stale in cached.parent.glob("engine-*.zip"):
                stale.unlink()
            partial.replace(cached)
        except OSError:
            with tempfile.TemporaryDirectory() as tmp:
                _engine_zip(out, prebuilt_index(Path(tmp), kb))
            return
    shutil.copyfile(cached, out)


def bundle(
    site_dir: Path, kb: Path | None = None, pyodide: Path | None = None
) -> dict[str, object]:
    """Write engine/ into the built site (see the module's docstring); returns the manifest."""
    pyodide = pyodide or pyodide_dir()
    out = site_dir / "engine"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    manifest: dict[str, object] = {"bundled": False, "pyodide": None, "files": {}}
    if have_pyodide(pyodide):
        (out / "pyodide").mkdir()
        for name in PYODIDE_FILES:
            if (pyodide / name).is_file():
                shutil.copyfile(pyodide / name, out / "pyodide" / name)
        _cached_engine_zip(out / "engine.zip", kb)
        manifest["bundled"] = True
        manifest["pyodide"] = PYODIDE_VERSION
        manifest["files"] = {
            p.relative_to(out).as_posix(): p.stat().st_size
            for p in sorted(out.rglob("*"))
            if p.is_file()
        }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    return manifest


def main(argv: list[str]) -> int:
    if argv != ["fetch"]:
        print("usage: python -m diagnoser.guide.engine fetch", file=sys.stderr)
        return 2
    try:
        print(f"pyodide {PYODIDE_VERSION}: {fetch()}")
    except RuntimeError as e:
        print(f"warning: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
