"""The optional parts (the extras of pyproject.toml) and what to say when one is missing.

Every import of an optional package goes through `requires`, so that a missing one says what to
install instead of a bare "No module named 'lightning'":

    with requires("lightning.pytorch", extra="lightning", feature="diagnoser.DiagnoserCallback"):
        import lightning.pytorch as pl

raises MissingOptional (a ModuleNotFoundError, so existing `except ImportError` still works):

    diagnoser.DiagnoserCallback needs lightning, which is not installed: pip install lightning
    (in a clone of torch-diagnoser: pip install '.[lightning]')

on one line. No distribution named torch-diagnoser is published yet, so the message never tells
pip to install the extra of that name: it names the package itself, which works anywhere, and
the extra as a clone installs it. A command-line face catches MissingOptional and prints its
`line(lang)`, exit status 2, no traceback.

Imports nothing: the text path imports this module (triage's reader, the help texts).
"""

from __future__ import annotations


def install_hint(package: str, extra: str, lang: str = "en") -> str:
    """How to install `package`: by name, and as the extra `extra` of a clone."""
    if lang == "zh":
        return f"pip install {package}（在 torch-diagnoser 的源码目录里：pip install '.[{extra}]'）"
    return f"pip install {package} (in a clone of torch-diagnoser: pip install '.[{extra}]')"


def message(feature: str, package: str, extra: str, lang: str = "en") -> str:
    """One line: `feature` needs `package`, and how to install it."""
    hint = install_hint(package, extra, lang)
    if lang == "zh":
        return f"{feature} 需要 {package}，但它没有安装：{hint}"
    return f"{feature} needs {package}, which is not installed: {hint}"


class MissingOptional(ModuleNotFoundError):
    """An optional part is not installed. `name` is the module that failed to import (as for
    any ModuleNotFoundError); `package`, `extra` and `feature` say what needs what."""

    def __init__(self, feature: str, package: str, extra: str, module: str) -> None:
        super().__init__(message(feature, package, extra), name=module)
        self.feature, self.package, self.extra = feature, package, extra

    def line(self, lang: str = "en", feature: str | None = None) -> str:
        """The message in `lang`, naming `feature` (e.g. the command) instead of the API's."""
        return message(feature or self.feature, self.package, self.extra, lang)


class requires:  # lower case: it reads as a statement, `with requires(...):`
    """Turn the failed import of `module` inside the block into MissingOptional. `package` is
    the name pip installs, when it is not the top of `module` (`pyspark.sql` -> pyspark). The
    failure counts when the missing module is `module` or a package above it; another missing
    module (a dependency of `module`, or a part of a broken installation) passes through
    unchanged: saying "install lightning" to someone who has it would be wrong."""

    def __init__(
        self, module: str, *, extra: str, feature: str, package: str | None = None
    ) -> None:
        self.module, self.extra, self.feature = module, extra, feature
        self.package = package or module.partition(".")[0]

    def __enter__(self) -> None:
        return None

    def __exit__(
        self, kind: type[BaseException] | None, e: BaseException | None, tb: object
    ) -> None:
        if not isinstance(e, ModuleNotFoundError) or isinstance(e, MissingOptional):
            return
        if e.name is None or not (e.name == self.module or self.module.startswith(e.name + ".")):
            return
        raise MissingOptional(self.feature, self.package, self.extra, e.name) from None
