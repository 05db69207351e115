"""`[tool.diagnoser.lint]` in the nearest pyproject.toml: select, ignore, exclude."""

from __future__ import annotations

import sys
from pathlib import Path

from ..knowledge.records import dataclass, field

KEYS = ("select", "ignore", "exclude")


class ConfigError(ValueError):
    pass


@dataclass
class Config:
    select: list[str] = field(default_factory=list)
    ignore: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    source: Path | None = None


def find_pyproject(start: Path) -> Path | None:
    for folder in [start, *start.parents]:
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            return candidate
    return None


def load_config(start: Path) -> Config:
    path = find_pyproject(start.resolve())
    if path is None:
        return Config()
    try:
        data = path.read_bytes()
    except OSError as e:
        raise ConfigError(f"{path}: {e}") from e
    if b"diagnoser" not in data:  # no table of ours: parsing (and tomllib's import) costs ~4 ms
        return Config()
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib
    try:
        doc = tomllib.loads(data.decode())
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path}: {e}") from e
    table = doc.get("tool", {}).get("diagnoser", {}).get("lint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.diagnoser.lint] must be a table")
    config = Config(source=path)
    for key, value in table.items():
        if key not in KEYS:
            raise ConfigError(
                f"{path}: [tool.diagnoser.lint] has an unknown key {key!r} "
                f"(known: {', '.join(KEYS)})"
            )
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError(f"{path}: [tool.diagnoser.lint] {key} must be a list of strings")
        setattr(config, key, value)
    return config
