"""Every entry, generated from kb/: valid, bilingual, recognised from its own examples."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from diagnoser.knowledge.anchor import literal_choices, upper_case_literals
from diagnoser.knowledge.index import Index, kb_dir, reproductions_dir
from diagnoser.knowledge.schema import Entry, KBError, Text, load_entry, load_kb
from diagnoser.text.match import diagnose

from .conftest import ENTRIES, entry_params

CJK = re.compile(r"[\u4e00-\u9fff]")


def _texts(entry: Entry) -> dict[str, Text]:
    found = {"title": entry.title, "cause": entry.cause, "fix": entry.fix}
    for i, sig in enumerate(entry.signatures):
        if sig.explain:
            found[f"signatures[{i}].explain"] = sig.explain
    return found


@pytest.mark.parametrize("entry", entry_params())
def test_both_languages_are_written(entry: Entry) -> None:
    for field, text in _texts(entry).items():
        assert CJK.search(text.zh), f"{entry.id}: {field}.zh has no Chinese in it"
        assert not CJK.search(text.en), f"{entry.id}: {field}.en has Chinese in it"
    assert all(CJK.search(p) for p in entry.phrases.zh), f"{entry.id}: a zh phrase has no Chinese"


@pytest.mark.parametrize("entry", entry_params())
def test_fix_shows_code_in_both_languages(entry: Entry) -> None:
    assert "```" in entry.fix.en and "```" in entry.fix.zh


@pytest.mark.parametrize("entry", entry_params())
def test_reproduction_script_exists(entry: Entry) -> None:
    assert entry.reproduction.script == f"reproductions/{entry.id}.py"
    assert (reproductions_dir() / f"{entry.id}.py").is_file()


def _example_params() -> list[pytest.param]:  # type: ignore[type-arg]
    return [
        pytest.param(e.id, example, id=f"{e.id}-{i}")
        for e in ENTRIES
        for i, example in enumerate(e.examples)
    ]


@pytest.mark.parametrize(("entry_id", "example"), _example_params())
def test_every_example_is_diagnosed_as_its_own_entry_first(
    entry_id: str, example: str, index: Index
) -> None:
    matches = diagnose(example, index).matches
    assert matches, f"no entry matched {example!r}"
    assert matches[0].entry.id == entry_id, [(m.entry.id, m.score) for m in matches]
    assert matches[0].method == "signature", (
        "examples must be recognised by a signature, not by luck"
    )


def test_ids_are_unique_and_see_also_resolves() -> None:
    ids = [e.id for e in ENTRIES]
    assert len(ids) == len(set(ids))
    for entry in ENTRIES:
        assert set(entry.see_also) <= set(ids), entry.id


def _families() -> Path | None:
    """../shared/families.yaml: the family ids the project agreed on (beside the checkout, or
    beside a CI clone)."""
    for folder in Path(__file__).resolve().parents:
        candidate = folder / "shared" / "families.yaml"
        if candidate.is_file():
            return candidate
    return None


FAMILIES = _families()


@pytest.mark.skipif(FAMILIES is None, reason="shared/families.yaml is not beside the checkout")
def test_every_family_has_its_kb_file() -> None:
    assert FAMILIES is not None
    families = yaml.safe_load(FAMILIES.read_text(encoding="utf-8"))
    missing = [f["id"] for f in families if not (kb_dir() / f"{f['id']}.yaml").is_file()]
    assert not missing, f"families.yaml ids without kb/<id>.yaml: {missing}"
    known = {e.id for e in ENTRIES} | {a for e in ENTRIES for a in e.aliases}
    assert {f["id"] for f in families} <= known


# families.yaml wordings no answer can follow alone: (family, the wording's start) -> why
_NOT_ITS_ALONE = {
    ("conv-input-dims", "Given input size: (3x1x1)"): "output-size-too-small lists it too",
    ("rnn-input-size", "IndexError: index 1 is out of bounds"): "embedding's lists it too",
    ("dataloader-worker-killed", "DataLoader worker (pid <pid>) is"): "shared memory's lists it",
    ("interpolate-size-dims", "ValueError: Input and output must"): "interpolate-size's too",
    ("optimizer-empty-params", "TypeError: 'NoneType' object is n"): "any Python code raises it",
    ("dataloader-worker-exception", "ValueError: could not convert str"): "any Python code",
    ("dataloader-not-iterator", "StopIteration"): "any Python code raises it",
    ("no-kernel-image", "UserWarning: Found GPU<i> <name> w"): "a template, not a message",
    ("checkpoint-not-downloaded", "Weights only load failed ... Unsu"): "elided ('...')",
}


@pytest.mark.skipif(FAMILIES is None, reason="shared/families.yaml is not beside the checkout")
def test_a_wording_families_yaml_files_under_a_family_is_answered_as_it(index: Index) -> None:
    """The held-aside sets are labelled by families.yaml: a message it lists under a family is
    that family's first answer (nll_loss's kernel check, MPS's out of memory and einsum's
    subscripts were answered as other entries' until the labels said otherwise), but for the
    wordings two families share (word for word, or as in _NOT_ITS_ALONE) or no answer can follow
    alone."""
    assert FAMILIES is not None
    families = yaml.safe_load(FAMILIES.read_text(encoding="utf-8"))
    listed: dict[str, set[str]] = {}
    for family in families:
        for wording in family.get("known_wordings") or ():
            listed.setdefault(wording.strip(), set()).add(family["id"])
    wrong = []
    for family in families:
        for wording in family.get("known_wordings") or ():
            if len(listed[wording.strip()]) > 1 or any(
                family["id"] == shared and wording.startswith(start)
                for shared, start in _NOT_ITS_ALONE
            ):
                continue
            best = diagnose(wording, index).best
            if best is None or best.entry.id != family["id"]:
                wrong.append((family["id"], best and best.entry.id, wording[:80]))
    assert not wrong


def test_an_alias_names_the_entry_that_answers_for_it(index: Index) -> None:
    for entry in ENTRIES:
        for alias in entry.aliases:
            assert index.by_id[alias].id == entry.id
            matches = diagnose(entry.examples[0], index).matches
            assert alias in matches[0].entry.aliases


def test_an_alias_cannot_take_another_entrys_id(tmp_path: Path) -> None:
    first, second = ENTRIES[0].id, ENTRIES[1].id
    team = tmp_path / "team-kb"  # a team's folder beside kb/ (DIAGNOSER_KB_PATH)
    team.mkdir()
    (team / f"{first}.yaml").write_text(f"id: {first}\nsame_as: {second}\n", encoding="utf-8")
    with pytest.raises(KBError, match=rf"{first}\.yaml: id: '{first}' is already"):
        load_kb([kb_dir(), team])


def test_an_alias_must_name_an_entry(tmp_path: Path) -> None:
    kb = _broken_copy(tmp_path, ENTRIES[0].id, {})
    (kb / "old-name.yaml").write_text("id: old-name\nsame_as: no-such-entry\n", encoding="utf-8")
    with pytest.raises(KBError, match=r"old-name\.yaml: same_as: no entry with id 'no-such-entry'"):
        load_kb(kb)


def test_aliases_are_files_not_a_field(tmp_path: Path) -> None:
    first = ENTRIES[0].id
    kb = _broken_copy(tmp_path, first, {"aliases": ["old-name"]})
    with pytest.raises(KBError, match=rf"{first}\.yaml: aliases: write kb/<alias>\.yaml"):
        load_kb(kb)


# -- what a broken kb/ file says -------------------------------------------------------------


def _broken_copy(tmp_path: Path, entry_id: str, change: dict[str, object]) -> Path:
    kb = tmp_path / "kb"
    shutil.copytree(kb_dir(), kb)
    path = kb / f"{entry_id}.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data.update(change)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")
    return kb


def test_a_bad_regex_names_file_field_and_reason(tmp_path: Path) -> None:
    entry_id = ENTRIES[0].id
    sigs = [{"pattern": "ok"}, {"pattern": "mat1 (unclosed"}]
    kb = _broken_copy(tmp_path, entry_id, {"signatures": sigs})
    with pytest.raises(KBError) as err:
        load_kb(kb)
    where = f"{kb / entry_id}.yaml: signatures[1].pattern"
    assert str(err.value) == f"{where}: missing ), unterminated subpattern at position 5"


def test_a_dangling_see_also_names_the_missing_id(tmp_path: Path) -> None:
    entry_id = ENTRIES[0].id
    kb = _broken_copy(tmp_path, entry_id, {"see_also": ["no-such-entry"]})
    with pytest.raises(KBError, match=r"see_also\[0\]: no entry with id 'no-such-entry'"):
        load_kb(kb)


def test_a_missing_translation_names_the_field(tmp_path: Path) -> None:
    entry_id = ENTRIES[0].id
    kb = _broken_copy(tmp_path, entry_id, {"title": {"en": "Only English"}})
    with pytest.raises(KBError, match=r"\.yaml: title\.zh: Field required"):
        load_entry(kb / f"{entry_id}.yaml")


def test_an_unknown_field_is_refused(tmp_path: Path) -> None:
    entry_id = ENTRIES[0].id
    kb = _broken_copy(tmp_path, entry_id, {"sigantures": []})
    with pytest.raises(KBError, match=r"sigantures: Extra inputs are not permitted"):
        load_entry(kb / f"{entry_id}.yaml")


def test_an_explain_template_may_only_use_captured_values(tmp_path: Path) -> None:
    entry_id = ENTRIES[0].id
    sig = {
        "pattern": r"size (?P<got>\d+)",
        "explain": {"en": "got {got}, want {want}", "zh": "{got}"},
    }
    kb = _broken_copy(tmp_path, entry_id, {"signatures": [sig]})
    with pytest.raises(KBError, match=r"signatures\[0\]: .*explain\.en uses \['want'\]"):
        load_entry(kb / f"{entry_id}.yaml")


def test_yaml_syntax_errors_give_the_line(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("id: broken\ntitle: [unclosed\n", encoding="utf-8")
    with pytest.raises(KBError, match=r"broken\.yaml: not valid YAML \(line \d+, column \d+\)"):
        load_entry(path)


@pytest.mark.parametrize("entry", entry_params("error"))
def test_anchors_never_hide_a_match(entry: Entry, index: Index) -> None:
    """The substring pre-filter must only skip patterns that could not have matched."""
    compiled = index.by_id[entry.id]
    texts = [*entry.examples, *(ex for e in ENTRIES for ex in e.examples)]
    for sig in compiled.signatures:
        literals = literal_choices(sig.pattern)  # what candidates() tests without an anchor
        for text in texts:
            if sig.regex.search(text):
                assert sig.anchor is None or sig.anchor in text.lower(), (sig.pattern, text)
                assert not literals or any(lit in text.lower() for lit in literals), text


def test_a_bad_code_regex_names_its_field(tmp_path: Path) -> None:
    entry_id = ENTRIES[0].id
    sigs = [{"pattern": "ok", "code": r"\.grad("}]
    kb = _broken_copy(tmp_path, entry_id, {"signatures": sigs})
    with pytest.raises(KBError, match=r"signatures\[0\]\.code: missing \)"):
        load_kb(kb)


def test_an_upper_case_letter_in_a_sentence_pattern_names_its_field(tmp_path: Path) -> None:
    """Sentences are matched lower-cased: "GPU" in a symptom pattern could never match (it
    hid two of the DDP entries' Chinese patterns whenever a user wrote "gpu" or "GPU")."""
    entry = next(e for e in ENTRIES if e.symptoms and e.symptoms.patterns)
    symptoms = {"patterns": ["各(?:卡|GPU)上的参数不一致"]}
    kb = _broken_copy(tmp_path, entry.id, {"symptoms": symptoms})
    with pytest.raises(KBError, match=r"\.yaml: symptoms\.patterns: .*holds 'GPU': .*lower case"):
        load_entry(kb / f"{entry.id}.yaml")
    symptoms = {"patterns": ["(?i)各(?:卡|GPU)上的参数不一致", r"\bgpus?\b\S+\W"]}
    kb = _broken_copy(tmp_path / "ok", entry.id, {"symptoms": symptoms})
    assert load_entry(kb / f"{entry.id}.yaml").symptoms


@pytest.mark.parametrize(
    ("pattern", "upper"),
    [
        (r"(?:ddp|DDP)\s+hangs", "DDP"),
        (r"each\s+time\s+I\s+test", "I"),
        (r"(?<!X)loss", "X"),
        (r"[A-Z]\w+\S\W\D\B(?P<Name>x)(?P=Name)", ""),
    ],
)
def test_upper_case_literals_are_the_letters_a_match_must_hold(pattern: str, upper: str) -> None:
    assert "".join(upper_case_literals(pattern)) == upper
