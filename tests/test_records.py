"""diagnoser.knowledge.records behaves as the standard dataclasses for what the text path uses."""

from __future__ import annotations

import dataclasses
import functools
import math
import pickle

import pytest

from diagnoser.knowledge import records


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


@records.dataclass(frozen=True, order=True)
class Point:
    path: str
    line: int


@records.dataclass(frozen=True)
class CellPoint(Point):
    cell: int | None = None


@dataclasses.dataclass(frozen=True, order=True)
class StdPoint:
    path: str
    line: int


@dataclasses.dataclass(frozen=True)
class StdCellPoint(StdPoint):
    cell: int | None = None


@pytest.mark.parametrize(
    ("point", "cell_point", "replace"),
    [(Point, CellPoint, records.replace), (StdPoint, StdCellPoint, dataclasses.replace)],
    ids=["records", "dataclasses"],
)
def test_order_and_a_subclass_behave_alike(point: type, cell_point: type, replace: object) -> None:
    assert sorted([point("b", 1), point("a", 9), point("a", 2)]) == [
        point("a", 2), point("a", 9), point("b", 1)
    ]  # fmt: skip
    assert point("a", 1) <= point("a", 1) and point("b", 0) > point("a", 5)
    with pytest.raises(TypeError):
        point("a", 1) < (1, 2)  # noqa: B015
    c = cell_point("a", 3, 2)
    assert isinstance(c, point) and repr(c) == f"{cell_point.__name__}(path='a', line=3, cell=2)"
    assert (
        c == cell_point("a", 3, 2) and c != point("a", 3) and hash(c) == hash(cell_point("a", 3, 2))
    )
    assert replace(c, cell=5) == cell_point("a", 3, 5)  # type: ignore[operator]
    assert cell_point("a", 3).cell is None


def test_a_record_refuses_two_record_bases() -> None:
    with pytest.raises(TypeError):

        @records.dataclass
        class Both(Point, Frozen):
            pass
