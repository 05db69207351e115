"""watch's checks across DDP ranks, with two real processes on the gloo backend: a correct DDP run
stays quiet, a forward around the wrapper is reported as unsynchronised gradients, a weight
changed on one rank as diverged replicas, and a model that is not DDP-wrapped is never gathered
over (its ranks may legitimately differ)."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
dist = pytest.importorskip("torch.distributed")
if not dist.is_available() or not dist.is_gloo_available():
    pytest.skip("needs torch.distributed with gloo", allow_module_level=True)

SCENARIOS = ("correct", "around-the-wrapper", "rank0-edit", "not-wrapped", "frozen-part")


def _run(rank: int, world: int, port: int, out: str) -> None:
    import torch.distributed as dist
    from torch import nn
    from torch.nn.parallel import DistributedDataParallel

    import diagnoser

    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port))
    dist.init_process_group("gloo", rank=rank, world_size=world)
    found = {}
    for scenario in SCENARIOS:
        torch.manual_seed(0)
        inner = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
        if scenario == "frozen-part":
            inner[0].requires_grad_(False)
        model = inner if scenario == "not-wrapped" else DistributedDataParallel(inner)
        params = [p for p in model.parameters() if p.requires_grad]
        optimizer = torch.optim.SGD(params, lr=0.1, momentum=0.9)
        torch.manual_seed(rank)
        x, y = torch.randn(16, 4), torch.randn(16, 1)
        with diagnoser.watch(model, on_finding="quiet", every=2) as w:
            for step in range(5):
                forward = model.module if scenario == "around-the-wrapper" else model
                loss = nn.functional.mse_loss(forward(x), y)
                optimizer.zero_grad()
                loss.backward()
                optimizer.step()
                if scenario == "rank0-edit" and step == 1 and rank == 0:
                    with torch.no_grad():
                        inner[2].weight.mul_(0.5)
        found[scenario] = sorted({f.check for f in w.findings if "ranks" in f.check})
    Path(out, f"rank{rank}.json").write_text(json.dumps(found))
    dist.barrier()
    dist.destroy_process_group()


@pytest.fixture(scope="module")
def found(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, list[str]]]:
    import torch.multiprocessing as mp

    out = tmp_path_factory.mktemp("ranks")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(_run, args=(2, port, str(out)), nprocs=2)
    return {f.stem: json.loads(f.read_text()) for f in out.glob("rank*.json")}


def test_both_ranks_report_the_same(found: dict[str, dict[str, list[str]]]) -> None:
    assert found["rank0"] == found["rank1"]


@pytest.mark.parametrize(
    ("scenario", "expected"),
    [
        ("correct", []),
        ("not-wrapped", []),  # ranks may differ on purpose: never gathered
        ("frozen-part", []),  # frozen layers have no gradient on any rank
        ("around-the-wrapper", ["watch.ranks-diverged", "watch.ranks-grads-differ"]),
        ("rank0-edit", ["watch.ranks-diverged"]),
    ],
)
def test_each_scenario(
    scenario: str, expected: list[str], found: dict[str, dict[str, list[str]]]
) -> None:
    assert found["rank0"][scenario] == expected
