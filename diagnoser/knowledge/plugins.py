"""A team's own families, without forking: knowledge-base folders besides the one installed with
the package, validated and indexed with it (the same schema, the same cache).

- DIAGNOSER_KB_PATH: folders of entries (*.yaml), separated by os.pathsep (":" or ";").
- The entry point group `torch_diagnoser.kb`: an installed package declares, in its
  pyproject.toml,

      [project.entry-points."torch_diagnoser.kb"]
      myteam = "myteam_diagnoser"

  and ships its entries in that package's folder, or in a kb/ folder inside it. The package is
  found, never imported: no plugin code runs inside the diagnoser.

Finding entry points reads every installed distribution's metadata (~25 ms), too slow for every
start-up: what was found is kept in the cache folder, one file per sys.path (each environment,
each venv, keeps its own), with the modification times of its folders. Installing or removing a
package changes its site-packages folder's, so the next start looks again.
"""

from __future__ import annotations

import contextlib
import marshal
import os
import sys
import zlib

from .user_cache import cache_dir, mark_used, write_atomically

GROUP = "torch_diagnoser.kb"
ENV = "DIAGNOSER_KB_PATH"


def extra_kb_dirs() -> list[str]:
    """The folders of extra entries, in order: DIAGNOSER_KB_PATH's, then the plugins'."""
    named = [os.path.abspath(p) for p in os.environ.get(ENV, "").split(os.pathsep) if p]
    return named + [d for d in _plugin_dirs() if d not in named]


def _plugin_dirs() -> list[str]:
    key = _sys_path_key()
    where = zlib.crc32("\0".join(sys.path).encode())
    path = os.path.join(cache_dir(), f"plugins-{where:08x}.marshal")
    try:
        with open(path, "rb") as f:
            mark_used(f.fileno(), path)
            kept_key, dirs = marshal.loads(f.read())
        if kept_key == key:
            return list(dirs)
    except (OSError, ValueError, EOFError, TypeError):
        pass
    dirs = _find_plugin_dirs()
    with contextlib.suppress(OSError):  # unwritable: looked for again next time
        write_atomically(path, marshal.dumps((key, dirs)))
    return dirs


def _sys_path_key() -> list[tuple[str, object]]:
    """Each sys.path folder with its modification time, except the first: the script's folder or,
    under `python -m`, the working directory, whose time changes whenever the user's program
    writes a file there. For it, the distributions it holds are what counts."""
    key: list[tuple[str, object]] = []
    for i, entry in enumerate(sys.path):
        try:
            key.append(
                (entry, _distributions(entry) if i == 0 else os.stat(entry or ".").st_mtime_ns)
            )
        except OSError:
            key.append((entry, -1))
    return key


def _distributions(folder: str) -> list[str] | int:
    """The distributions installed in `folder` (a source checkout run with `python -m`), or,
    for a folder too big to list at every start (a data folder), its modification time."""
    found = []
    with os.scandir(folder or ".") as entries:
        for i, e in enumerate(entries):
            if i == _SCAN_LIMIT:
                return os.stat(folder or ".").st_mtime_ns
            if e.name.endswith((".dist-info", ".egg-info")):
                found.append(e.name)
    return sorted(found)


_SCAN_LIMIT = 2000  # a project folder holds far fewer; listing 2,000 names costs about 1 ms


def _find_plugin_dirs() -> list[str]:
    import importlib.util
    from importlib.metadata import entry_points

    dirs = []
    for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
        try:
            spec = importlib.util.find_spec(point.module)
        except (ImportError, ValueError):
            spec = None
        if spec is None:
            print(f"diagnoser: plugin {point.name!r}: no package {point.module!r}", file=sys.stderr)
            continue
        if spec.submodule_search_locations:
            folder = next(iter(spec.submodule_search_locations))
        else:
            folder = os.path.dirname(spec.origin or "")
        kb = os.path.join(folder, "kb")
        dirs.append(os.path.abspath(kb if os.path.isdir(kb) else folder))
    return dirs
