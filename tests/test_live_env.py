"""`diagnoser env` on this machine, and each check with the values that make it fire or not."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from diagnoser.knowledge.index import Index
from diagnoser.live.env import Env, check
from tests.conftest import cli

CLEAN = Env(
    python="3.11.7",
    os="Linux",
    torch="2.5.1+cu124",
    torchvision="0.20.1+cu124",
    numpy="2.1.0",
    cuda_build="12.4",
    cudnn="90100",
    cuda_available=True,
    gpus=("NVIDIA A100-SXM4-80GB",),
    driver="550.54.15",
)


def test_env_here() -> None:
    torch = pytest.importorskip("torch")
    result = cli("env", "--lang", "en")
    assert result.returncode == 0, result.stderr
    assert f"torch          {torch.__version__} (" in result.stdout
    build = f"CUDA {torch.version.cuda}" if torch.version.cuda else "CPU-only"
    assert build in result.stdout and "Checks" in result.stdout
    report = json.loads(cli("env", "--json").stdout)
    assert report["environment"]["torch"] == torch.__version__
    assert report["environment"]["cuda_build"] == torch.version.cuda
    assert isinstance(report["findings"], list)


@pytest.mark.parametrize(
    ("changes", "expected"),
    [
        ({}, []),
        # CPU-only wheel on a machine with an NVIDIA GPU
        (
            {"torch": "2.5.1+cpu", "torchvision": "0.20.1+cpu", "cuda_build": None},
            ["cuda-not-compiled"],
        ),
        # a cu124 wheel needs a 12.x-era driver (≥ 525.60.13)
        ({"driver": "470.57.02"}, ["driver-too-old"]),
        (
            {
                "cuda_build": "11.8",
                "torch": "2.5.1+cu118",
                "torchvision": "0.20.1+cu118",
                "driver": "470.57.02",
            },
            [],
        ),
        # torchvision from another release, or another build of the same release
        ({"torchvision": "0.19.1+cu124"}, ["torchvision-version-mismatch"]),
        ({"torchvision": "0.20.1+cpu"}, ["torchvision-version-mismatch"]),
        ({"torch": "1.13.1+cu117", "torchvision": "0.14.1+cu117", "cuda_build": "11.7"}, []),
        ({"torchvision": None}, []),
        # no GPU at all: a CPU-only torch is right
        (
            {
                "torch": "2.5.1+cpu",
                "torchvision": "0.20.1+cpu",
                "cuda_build": None,
                "gpus": (),
                "driver": None,
            },
            [],
        ),
    ],
)
def test_checks(changes: dict[str, object], expected: list[str], index: Index) -> None:
    findings = check(replace(CLEAN, **changes))  # type: ignore[arg-type]
    assert [f.entry for f in findings] == expected
    for f in findings:
        assert f.entry in index.by_id  # each finding links to an entry that exists
        assert f.message["en"] and f.message["zh"]
