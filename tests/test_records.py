"""diagnoser.records behaves as the standard dataclasses for what the text path uses."""

from __future__ import annotations

import dataclasses
import functools
import math
import pickle

import pytest

from diagnoser import records


@records.dataclass(frozen=True)
class Frozen:
    name: str
    value: float = 0.0
    tags: list[str] = records.field(default_factory=list)
    note: str = records.field(default="", repr=False)


@dataclasses.dataclass(frozen=True)
class StdFrozen:
    name: str
    value: float = 0.0
    tags: list[str] = dataclasses.field(default_factory=list)
    note: str = dataclasses.field(default="", repr=False)


@records.dataclass(frozen=True, slots=True)
class Slotted:
    value: float
    line: int | None = None


@dataclasses.dataclass(frozen=True, slots=True)
class StdSlotted:
    value: float
    line: int | None = None


@pytest.mark.parametrize(
    ("frozen", "slotted", "replace"),
    [(Frozen, Slotted, records.replace), (StdFrozen, StdSlotted, dataclasses.replace)],
    ids=["records", "dataclasses"],
)
def test_instances_behave_alike(frozen: type, slotted: type, replace: object) -> None:
    a = frozen("loss", 1.5, note="hidden")
    assert repr(a) == f"{frozen.__name__}(name='loss', value=1.5, tags=[])"
    assert a == frozen("loss", 1.5, [], "hidden") and a != frozen("loss", 1.5, note="other")
    assert hash(a.name) and a.tags is not frozen("x").tags  # a fresh list for each instance
    assert replace(a, value=2.0) == frozen("loss", 2.0, note="hidden")  # type: ignore[operator]
    with pytest.raises(TypeError):
        replace(a, missing=1)  # type: ignore[operator]
    with pytest.raises(AttributeError):
        a.value = 3.0
    nan = slotted(math.nan)
    assert nan == nan and hash(nan) == hash(slotted(nan.value))
    assert not hasattr(nan, "__dict__")
    assert pickle.loads(pickle.dumps(slotted(1.0, 7))) == slotted(1.0, 7)


@records.dataclass(frozen=True)
class Cached:
    pattern: str

    @functools.cached_property
    def compiled(self) -> str:
        return self.pattern.upper()


def test_a_cached_property_works_on_a_frozen_record() -> None:
    c = Cached("ab")
    assert c.compiled == "AB" and c.compiled is c.compiled
