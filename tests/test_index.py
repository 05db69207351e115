"""The compiled index: built once, reused, rebuilt when kb/ changes; the text path stays light."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from diagnoser.knowledge import index as index_module
from diagnoser.knowledge.anchor import WINDOW, literal_choices
from diagnoser.knowledge.index import kb_dir, load_index

from .conftest import ROOT, run_reproduction


@pytest.fixture
def kb_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DIAGNOSER_CACHE_DIR", str(tmp_path / "cache"))
    kb = tmp_path / "kb"
    shutil.copytree(kb_dir(), kb)
    return kb


def test_second_load_reads_the_cache_without_compiling(
    kb_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = load_index(kb_copy)
    assert list((kb_copy.parent / "cache").glob("index-*.marshal"))

    def refuse(_: Path) -> None:
        raise AssertionError("the index was compiled again")

    monkeypatch.setattr(index_module, "compile_kb", refuse)
    assert [e.id for e in load_index(kb_copy).entries] == [e.id for e in first.entries]


def test_a_changed_kb_is_never_served_stale(kb_copy: Path) -> None:
    load_index(kb_copy)
    path = kb_copy / "shape-matmul.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace('  en: "mat1', '  en: "CHANGED mat1', 1),
        encoding="utf-8",
    )
    assert load_index(kb_copy).by_id["shape-matmul"].title["en"].startswith("CHANGED")
    (kb_copy / "shape-matmul.yaml").unlink()
    for p in kb_copy.glob("*.yaml"):  # drop references to the removed entry
        p.write_text(
            p.read_text(encoding="utf-8")
            .replace("shape-matmul, ", "")
            .replace(", shape-matmul", "")
            .replace("[shape-matmul]", "[]"),
            encoding="utf-8",
        )
    assert "shape-matmul" not in load_index(kb_copy).by_id


def test_an_unwritable_cache_still_diagnoses(
    kb_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = kb_copy.parent / "file-not-dir"
    blocker.write_text("")
    monkeypatch.setenv("DIAGNOSER_CACHE_DIR", str(blocker / "cache"))
    assert load_index(kb_copy).by_id["shape-matmul"]


def test_text_path_imports_neither_torch_nor_pydantic(tmp_path: Path) -> None:
    sample = tmp_path / "tb.txt"
    proc = run_reproduction("shape-matmul")
    sample.write_text(proc.stdout + proc.stderr)
    env_cache = {"DIAGNOSER_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}

    def importtime() -> set[str]:
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "diagnoser", "--json", str(sample)],
            capture_output=True,
            text=True,
            env=env_cache,
        )
        assert result.returncode == 0, result.stderr
        names = [line.rsplit("|", 1)[-1] for line in result.stderr.splitlines() if "|" in line]
        # what the interpreter's start-up imported (site, an editable install's finder) is not ours
        after_site = names[names.index(" site") + 1 :] if " site" in names else names
        return {name.strip() for name in after_site}

    importtime()  # the first run compiles the index (and may import pydantic to do so)
    modules = importtime()
    assert "diagnoser.text.match" in modules  # the measurement sees our own imports
    # nor rapidfuzz (the fuzzy stage only), hashlib or tempfile (compiling the index only), nor
    # the standard modules that cost milliseconds each (diagnoser/knowledge/records.py says why)
    heavy = {"torch", "pydantic", "yaml", "numpy", "rapidfuzz", "hashlib", "tempfile"}
    heavy |= {"dataclasses", "typing", "pathlib", "inspect"}
    # argparse (and the gettext lookups it makes), statistics, datetime, difflib: ~7 ms together,
    # none of them needed by a plain diagnosis (cli._plain_arguments, symptoms._median)
    heavy |= {"argparse", "gettext", "statistics", "datetime", "difflib"}
    heavy = {m for m in modules if m.split(".")[0] in heavy}
    assert not heavy, sorted(heavy)


def test_start_up_reads_only_the_texts_of_the_entries_shown(kb_copy: Path) -> None:
    from diagnoser.speak.render import to_json
    from diagnoser.text.match import diagnose

    sample = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")
    load_index(kb_copy)  # compiles; the next load reads the cache as a start-up does
    index = load_index(kb_copy)
    to_json(diagnose(sample, index), "en")
    read = [e.id for e in index.entries if e._texts is not None]
    assert read == ["shape-matmul"]


def test_texts_removed_under_a_running_process_are_recompiled(kb_copy: Path) -> None:
    load_index(kb_copy)
    index = load_index(kb_copy)
    for texts in (kb_copy.parent / "cache").glob("index-*.records"):
        texts.unlink()
    assert index.by_id["shape-matmul"].title["en"].startswith("mat1 and mat2")


def test_an_edit_of_the_same_size_is_seen(kb_copy: Path) -> None:
    load_index(kb_copy)
    path = kb_copy / "shape-matmul.yaml"
    before = path.stat()
    path.write_text(path.read_text(encoding="utf-8").replace("mat1", "MAT1", 1), encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    assert path.stat().st_size == before.st_size
    assert load_index(kb_copy).by_id["shape-matmul"].title["en"].startswith("MAT1")


@pytest.mark.parametrize("automaton_after", [1, 10**9], ids=["automaton", "anchor-table"])
def test_one_pass_over_the_anchors_finds_what_a_test_of_each_would(
    automaton_after: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Index.candidates, by its automaton or its anchor table, against the substring test of
    every signature: its anchor, or for one without, the start of any of its alternatives'
    literals."""
    monkeypatch.setattr(index_module, "AUTOMATON_AFTER", automaton_after)
    index = load_index()
    texts = [ex.lower() for e in index.entries for ex in e.examples]
    texts += ["", "runtimeerror: nothing known here", texts[0] + "\0" + texts[-1]]
    # a signature known by its exception's class alone is anchored by the class's name
    choices = {
        s.pattern + (s.type or ""): literal_choices(s.pattern)
        or (literal_choices(s.type) if s.type else frozenset())
        for e in index.entries
        for s in e.signatures
    }
    for lowered in texts:
        expected = [
            (e.id, s.pattern)
            for e in index.entries
            for s in e.signatures
            if (
                s.anchor in lowered
                if s.anchor
                else _any_in(choices[s.pattern + (s.type or "")], lowered)
            )
        ]
        assert [(e.id, s.pattern) for e, s in index.candidates(lowered)] == expected


def test_the_installed_kb_is_stamped_by_its_folder(
    kb_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The kb/ installed with the package costs one stat, not one per entry; an upgrade, which
    removes its files and writes new ones, is still seen."""
    monkeypatch.setattr(index_module, "_PACKAGED_KB", str(kb_copy))
    load_index(kb_copy)

    def no_listing(path: object) -> None:
        raise AssertionError(f"listed {path} at start-up")

    with monkeypatch.context() as m:
        m.setattr(os, "scandir", no_listing)
        assert load_index(kb_copy).by_id["address-in-use"].group == "distributed"
    entry = kb_copy / "address-in-use.yaml"
    text = entry.read_text(encoding="utf-8")
    entry.unlink()  # as pip replaces a file: removed, then written anew
    entry.write_text(text.replace("group: distributed", "group: shapes", 1), encoding="utf-8")
    assert load_index(kb_copy).by_id["address-in-use"].group == "shapes"


def test_a_diagnosis_decodes_only_the_entries_it_needs(kb_copy: Path) -> None:
    from diagnoser.text.match import diagnose

    index = load_index(kb_copy)
    text = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")
    assert diagnose(text, index).matches[0].entry.id == "shape-matmul"
    decoded = sum(made is not None for made in index._decoded)
    assert 0 < decoded < len(index.ids) / 3, decoded


@pytest.mark.parametrize(
    "text",
    ["loss is nan after a few steps", "RuntimeError: something entirely unknown happened here"],
    ids=["sentence", "unknown-error"],
)
def test_a_sentence_or_an_unknown_error_decodes_only_the_entries_it_needs(
    kb_copy: Path, text: str
) -> None:
    """The phrase search and the fuzzy stage compare with every entry's phrases and examples,
    kept beside the index (Index.derived); only the entries they point at are read."""
    from diagnoser.text.match import diagnose

    diagnose(text, load_index(kb_copy))  # computes what is derived from the whole kb, once
    index = load_index(kb_copy)
    diagnose(text, index)
    decoded = sum(made is not None for made in index._decoded)
    assert decoded < len(index.ids) / 3, decoded


def _any_in(literals: frozenset[str], lowered: str) -> bool:
    return not literals or any(literal[:WINDOW] in lowered for literal in literals)


def test_derived_data_is_computed_once_per_compiled_index(kb_copy: Path) -> None:
    calls: list[str] = []

    def compute(value: str) -> list[str]:
        calls.append(value)
        return [value]

    assert load_index(kb_copy).derived("probe", lambda: compute("first")) == ["first"]
    # a new load, as the next process makes: read back, not computed
    assert load_index(kb_copy).derived("probe", lambda: compute("second")) == ["first"]
    path = kb_copy / "shape-matmul.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert load_index(kb_copy).derived("probe", lambda: compute("third")) == ["third"]
    assert calls == ["first", "third"]


def test_lint_and_triage_start_without_the_costly_standard_modules(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("import torch\n\nx = torch.zeros(3)\nprint(x.view(-1))\n")
    logs = tmp_path / "logs"
    logs.mkdir()
    proc = run_reproduction("shape-matmul")
    for rank in (0, 1):
        (logs / f"rank{rank}.log").write_text(f"step 1\n{proc.stdout}{proc.stderr}")
    env = {"DIAGNOSER_CACHE_DIR": str(tmp_path / "cache"), "PYTHONPATH": str(ROOT)}

    def importtime(*args: str) -> set[str]:
        result = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "diagnoser", *args],
            capture_output=True, text=True, env=env, cwd=tmp_path,  # no pyproject.toml above
        )  # fmt: skip
        assert result.returncode in (0, 1), result.stderr
        names = [line.rsplit("|", 1)[-1] for line in result.stderr.splitlines() if "|" in line]
        after_site = names[names.index(" site") + 1 :] if " site" in names else names
        return {name.strip().split(".")[0] for name in after_site}

    costly = {"dataclasses", "typing", "inspect", "tomllib", "json", "html"}
    lint = importtime("lint", str(script))
    assert "ast" in lint  # the measurement sees lint's own imports
    # pathlib stays: lint's public API (lint_paths, lint_file) takes Paths
    assert not lint & costly, sorted(lint & costly)
    importtime("triage", str(logs))  # the first run compiles the index
    triage = importtime("triage", str(logs))
    assert "diagnoser" in triage
    costly |= {"pathlib", "gzip", "glob"}  # gzip, glob: for .gz files and patterns only
    assert not triage & costly, sorted(triage & costly)


def _objects(value: object) -> int:
    """How many objects unmarshalling `value` makes."""
    if isinstance(value, dict):
        return 1 + sum(_objects(k) + _objects(v) for k, v in value.items())
    if isinstance(value, list | tuple | set | frozenset):
        return 1 + sum(map(_objects, value))
    return 1


def test_the_index_file_does_not_grow_in_objects_with_the_kb(kb_copy: Path) -> None:
    """A start-up unmarshals the index file whole: with more entries its bytes grow, but not the
    objects it makes (ids, spans and the anchor table's arrays are views of the file's bytes),
    which is most of what loading it costs. Each added entry is an error entry with wordings of
    its own."""
    import yaml

    def loaded_objects() -> int:
        load_index(kb_copy)
        (path,) = (kb_copy.parent / "cache").glob("index-*.marshal")
        return _objects(index_module._from_file(path.read_bytes()))

    before = loaded_objects()
    model = yaml.safe_load((kb_copy / "shape-matmul.yaml").read_text(encoding="utf-8"))
    model.pop("rank", None)  # ranks are unique across the knowledge base
    for i in range(40):
        entry = {
            **model,
            "id": f"added-{i:02d}",
            "signatures": [{"pattern": rf"added failure {i}: (?P<what>\w+) went wrong"}],
            "examples": [f"RuntimeError: added failure {i}: tensor went wrong"],
            "see_also": [],
        }
        path = kb_copy / f"added-{i:02d}.yaml"
        path.write_text(yaml.safe_dump(entry, allow_unicode=True), encoding="utf-8")
    assert loaded_objects() == before
    from diagnoser.text.match import diagnose

    found = diagnose("RuntimeError: added failure 39: tensor went wrong", load_index(kb_copy))
    assert found.matches[0].entry.id == "added-39"


@pytest.mark.parametrize("damage", ["empty", "truncated", "garbage", "huge tail size"])
def test_a_damaged_index_file_is_compiled_again(kb_copy: Path, damage: str) -> None:
    from diagnoser.text.match import diagnose

    load_index(kb_copy)
    (path,) = (kb_copy.parent / "cache").glob("index-*.marshal")
    raw = path.read_bytes()
    path.write_bytes(
        {
            "empty": b"",
            "truncated": raw[: len(raw) * 2 // 3],
            "garbage": bytes(range(256)) * 40,
            "huge tail size": (2**62).to_bytes(8, "little") + raw[8:],
        }[damage]
    )
    text = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")
    assert diagnose(text, load_index(kb_copy)).matches[0].entry.id == "shape-matmul"
    assert path.read_bytes() == raw  # written anew


@pytest.mark.parametrize("damage", ["empty", "one byte changed", "garbage"])
def test_a_damaged_records_file_is_read_around_and_written_anew(kb_copy: Path, damage: str) -> None:
    """A records file that is empty, has one byte changed inside a record (which marshal may
    still read: the CRC-32 of each record refuses it) or is garbage: the answer is right, and the
    next start finds a sound file, not the damage again."""
    from diagnoser.text.match import diagnose

    load_index(kb_copy)
    (path,) = (kb_copy.parent / "cache").glob("index-*.records")
    raw = path.read_bytes()
    middle = len(raw) // 2
    path.write_bytes(
        {
            "empty": b"",
            "one byte changed": raw[:middle] + bytes([raw[middle] ^ 0x20]) + raw[middle + 1 :],
            "garbage": bytes(range(256)) * 40,
        }[damage]
    )
    text = (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8")
    index = load_index(kb_copy)
    assert diagnose(text, index).matches[0].entry.id == "shape-matmul"
    assert [e.title for e in index.entries] == [e.title for e in load_index(kb_copy).entries]
    load_index(kb_copy)
    (again,) = (kb_copy.parent / "cache").glob("index-*.records")
    assert again.read_bytes() == raw


def test_a_running_process_keeps_the_index_it_loaded(kb_copy: Path) -> None:
    """Another process compiles an edited knowledge base into the same cache and deletes the old
    index: this one goes on answering from the index it loaded, whole."""
    index = load_index(kb_copy)
    before = index.by_id["shape-matmul"].title["en"]
    path = kb_copy / "shape-matmul.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(before, "EDITED"), encoding="utf-8")
    newer = subprocess.run(
        [
            sys.executable,
            "-c",
            f"from diagnoser.knowledge.index import load_index; load_index({str(kb_copy)!r})",
        ],
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    assert newer.returncode == 0, newer.stderr
    assert len(list((kb_copy.parent / "cache").glob("index-*.records"))) == 1  # ours is gone
    assert index.by_id["shape-matmul"].title["en"] == before
    assert all(e.title["en"] for e in index.entries)
    assert load_index(kb_copy).by_id["shape-matmul"].title["en"].startswith("EDITED")


def test_the_cache_folder_is_private(kb_copy: Path) -> None:
    load_index(kb_copy)
    assert (kb_copy.parent / "cache").stat().st_mode & 0o777 == 0o700


def test_files_unread_for_a_month_are_removed_when_the_cache_is_written(
    kb_copy: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A deleted environment's index goes; an index read today stays, however old its files."""
    from diagnoser.knowledge import user_cache

    cache = kb_copy.parent / "cache"
    load_index(kb_copy)
    ours = sorted(p.name for p in cache.glob("index-*"))
    month_ago = os.stat(cache).st_mtime - 31 * 86400
    gone = [cache / "index-0000dead-00000000.marshal", cache / "index-0000dead-00000000.records"]
    for path in [*gone, cache / "tmpold.tmp"]:
        path.write_bytes(b"old")
        os.utime(path, (month_ago, month_ago))
    for path in cache.glob("index-*"):
        if path.name in ours:
            os.utime(path, (month_ago, month_ago))
    load_index(kb_copy)  # a read marks our index as used...
    monkeypatch.setattr(user_cache, "_pruned", False)
    user_cache.write_atomically(str(cache / "regex-new.marshal"), b"x")  # ...a write prunes
    left = sorted(p.name for p in cache.iterdir())
    assert all(not path.exists() for path in gone) and "tmpold.tmp" not in left
    assert set(ours) <= set(left) and "regex-new.marshal" in left


def test_a_prebuilt_index_is_read_without_its_kb(kb_copy: Path, tmp_path: Path) -> None:
    """The browser's engine: an index written by write_index_files is loaded from its files
    alone, kb/ gone, and diagnoses as the normal index does; its derived data is kept beside it."""
    from diagnoser.knowledge.index import load_index_file, write_index_files
    from diagnoser.speak import render
    from diagnoser.text.match import diagnose

    base = str(tmp_path / "prebuilt" / "index")
    assert write_index_files(base, kb_copy) == [base + ".marshal", base + ".records"]
    normal = load_index(kb_copy)
    shutil.rmtree(kb_copy)
    prebuilt = load_index_file(base + ".marshal")
    assert prebuilt.ids == normal.ids
    texts = [
        (ROOT / "samples" / "shape-matmul.txt").read_text(encoding="utf-8"),
        "RuntimeError: mat1 and mat2 shapes canot be multiplied (4x3 and 5x6)",
        "训练时 loss 变成 nan",
        "nothing to see here",
    ]
    for text in texts:
        for lang in ("en", "zh"):
            ours = render.to_json(diagnose(text, prebuilt), lang)
            assert ours == render.to_json(diagnose(text, normal), lang)
    derived = sorted(p.name for p in (tmp_path / "prebuilt").iterdir())
    assert "index.fuzzy-examples" in derived and "index.sentence-phrases" in derived, derived
    with pytest.raises(ValueError):
        (tmp_path / "bad.marshal").write_bytes(b"not an index at all")
        load_index_file(str(tmp_path / "bad.marshal"))
