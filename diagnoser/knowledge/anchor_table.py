"""Which anchors (anchor.py) a text contains, found in time that grows with the text and not
with the number of anchors: the knowledge base grows, a start-up must not.

Each anchor is filed under one of its 4-byte runs (of its UTF-8 form, read as one int), its key,
in a hash table with `size` buckets. A text is looked up by its own 4-byte runs: only the anchors
filed under a run the text has are tested with a substring search. The table is a few flat
arrays of ints kept as bytes, which the index file holds as they are (index._to_file): loading
it makes no object per anchor. A text's runs are read and hashed by C code (memoryview, map)
rather than one by one in Python.

Bytes stand in for text throughout: a UTF-8 string contains another exactly when its bytes
contain the other's bytes.
"""

from __future__ import annotations

import sys
from itertools import compress

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

KEY = 4  # bytes: memoryview's "I" (a C unsigned int, 4 bytes) reads them as one int
# Buckets per anchor: with eight times as many buckets as anchors, most of a text's runs land in
# an empty bucket and are refused by one look at `first`, in C (16 or 32 saved no time).
_LOAD = 8


def build(anchors: dict[str, list[int]]) -> dict[str, Any]:
    """The table of `anchors` ({anchor: its targets}), as data marshal writes: its arrays are
    bytes, which the index file keeps outside its marshalled part (index._to_file)."""
    encoded = [
        (word.encode("utf-8", "surrogatepass"), targets) for word, targets in anchors.items()
    ]
    sharing: dict[bytes, int] = {}
    for word, _ in encoded:
        for run in set(_runs(word)):
            sharing[run] = sharing.get(run, 0) + 1
    size = _prime_at_least(max(_LOAD * len(encoded), 61))
    filed, short = [], []  # (bucket, key, anchor, targets), in bucket order
    for word, targets in encoded:
        runs = _runs(word)
        if runs:
            # its run the fewest anchors share: buckets stay small
            key = int.from_bytes(min(runs, key=sharing.__getitem__), sys.byteorder)
            filed.append((key % size, key, word, targets))
        else:  # shorter than a run: tested on every text
            short.append((size, 0, word, targets))
    filed.sort(key=lambda f: f[0])
    # the anchors' numbers fit the narrowest array that holds them, plus one for "none"
    typecode = "H" if len(encoded) < 2**16 - 1 else "I"
    first = [0] * size  # 1 + the first anchor filed in each bucket; 0: none
    for k, (bucket, _, _, _) in reversed(list(enumerate(filed))):
        first[bucket] = k + 1
    ends, target_ends, targets_flat, length = [0], [0], [], 0
    for _, _, word, targets in filed + short:
        length += len(word)
        ends.append(length)
        targets_flat += targets
        target_ends.append(len(targets_flat))
    return {
        "size": size,
        "typecode": typecode,
        "first": _array(typecode, first),
        "keys": _array("I", [key for _, key, _, _ in filed]),
        "short": list(range(len(filed), len(filed) + len(short))),
        "pool": b"".join(f[2] for f in filed + short),
        "ends": _array("I", ends),
        "targets": _array("I", targets_flat),
        "target_ends": _array("I", target_ends),
    }


def _runs(word: bytes) -> list[bytes]:
    return [word[i : i + KEY] for i in range(len(word) - KEY + 1)]


def _prime_at_least(n: int) -> int:
    """A prime modulus spreads keys whatever their low bits (a run's first byte)."""
    while any(n % d == 0 for d in range(2, int(n**0.5) + 1)):
        n += 1
    return n


def _array(typecode: str, values: list[int]) -> bytes:
    from array import array

    return array(typecode, values).tobytes()


class AnchorTable:
    """The table `build` made, as the index file holds it: its arrays as bytes or memoryviews."""

    __slots__ = (
        "_ends",
        "_first",
        "_keys",
        "_pool",
        "_short",
        "_size",
        "_target_ends",
        "_targets",
    )

    def __init__(self, data: dict[str, Any]) -> None:
        self._size: int = data["size"]
        self._first = memoryview(data["first"]).cast(data["typecode"])
        self._keys = memoryview(data["keys"]).cast("I")
        self._short: list[int] = data["short"]
        self._pool = memoryview(data["pool"])
        self._ends = memoryview(data["ends"]).cast("I")
        self._targets = memoryview(data["targets"]).cast("I")
        self._target_ends = memoryview(data["target_ends"]).cast("I")

    def __len__(self) -> int:
        return len(self._ends) - 1

    def search(self, text: str) -> list[int]:
        """The targets of the anchors `text` contains, in no particular order."""
        data = text.encode("utf-8", "surrogatepass")
        runs: set[int] = set()
        for shift in range(KEY):  # each run starts at one of KEY offsets modulo KEY
            part = data[shift:]
            runs.update(memoryview(part[: len(part) - len(part) % KEY]).cast("I"))
        ordered = list(runs)
        size, keys = self._size, self._keys
        # the runs whose bucket holds an anchor: most are refused here, in C
        filed = compress(ordered, map(self._first.__getitem__, map(size.__rmod__, ordered)))
        found = []
        for run in filed:
            bucket = run % size
            k = self._first[bucket] - 1
            while k < len(keys) and keys[k] % size == bucket:  # the bucket's anchors
                if keys[k] == run and data.find(self._word(k)) >= 0:
                    found.append(k)
                k += 1
        found += (k for k in self._short if data.find(self._word(k)) >= 0)
        return [t for k in found for t in self.targets(k)]

    def _word(self, k: int) -> memoryview:
        return self._pool[self._ends[k] : self._ends[k + 1]]

    def words(self) -> list[str]:
        """Every anchor, numbered by its place in the list (as `targets` takes it)."""
        return [str(self._word(k), "utf-8", "surrogatepass") for k in range(len(self))]

    def targets(self, k: int) -> memoryview:
        return self._targets[self._target_ends[k] : self._target_ends[k + 1]]
