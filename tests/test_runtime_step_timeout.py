"""watch(step_timeout=...): a step that does not finish in time prints the last finished step and
every thread's stack (under torch.distributed, the rank and the collective it waits in); a run
whose steps finish prints nothing. The hangs are real: a DataLoader worker that sleeps in
__getitem__, a rank that sleeps while the other waits in its all_reduce (gloo, two processes)."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
nn = torch.nn

import diagnoser  # noqa: E402
from diagnoser.runtime.step_timeout import ENV, seconds_from  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def test_a_run_whose_steps_finish_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    """Six steps of 0.5 s: 3 s in all, past the 2 s timeout, which counts from the last step.
    The margin (1.5 s a step) is for a machine whose other test processes hold every core; the
    first step's one-time costs (torch's first forward and backward) are paid before the watch."""
    model = nn.Linear(4, 2)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)

    def step() -> torch.Tensor:
        loss = model(torch.randn(8, 4)).pow(2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss

    step()
    with diagnoser.watch(model, step_timeout=2.0) as w:
        for _ in range(6):
            loss = step()
            time.sleep(0.5)
            w.step(loss)
    assert w.findings == []
    assert capsys.readouterr().err == ""


def test_the_timeout_comes_from_the_argument_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(ENV, "30")
    assert seconds_from(None) == 30.0
    assert seconds_from(5) == 5.0  # the argument first
    monkeypatch.setenv(ENV, "half a minute")
    assert seconds_from(None) is None  # a typo in the environment never stops the training
    with pytest.raises(ValueError, match="step_timeout"):
        diagnoser.watch(nn.Linear(2, 2), step_timeout=0)


_HANGING_LOADER = """
import time
import torch
from torch import nn
import diagnoser

class Data(torch.utils.data.Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, i):
        if i == 24:  # the fourth batch of 8
            time.sleep(6)  # a worker that hangs (it wakes up here so that the test ends)
        return torch.randn(4), torch.randn(1)

if __name__ == "__main__":
    model = nn.Linear(4, 1)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(Data(), batch_size=8, num_workers=1)
    with diagnoser.watch(model, step_timeout=1.5) as w:
        for x, y in loader:
            loss = nn.functional.mse_loss(model(x), y)
            opt.zero_grad()
            loss.backward()
            opt.step()
            w.step(loss)
    print(json.dumps([f.check for f in w.findings]))
"""


def test_a_dataloader_worker_that_hangs(tmp_path: Path) -> None:
    script = tmp_path / "hang.py"
    script.write_text("import json\n" + textwrap.dedent(_HANGING_LOADER))
    env = {**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C.UTF-8"}
    env.pop(ENV, None)
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=120
    )
    assert done.returncode == 0, done.stderr  # the run went on once the worker woke up
    assert json.loads(done.stdout.splitlines()[-1]) == ["watch.step-timeout"]
    err = done.stderr
    assert err.count("watch.step-timeout") == 1  # once per stall
    assert "no training step finished for" in err and "the last one was step 2" in err
    main_stack = err.split("Thread MainThread", 1)[1].split("\nThread ", 1)[0]
    assert "for x, y in loader:" in main_stack  # where the main thread waits
    assert "dataloader.py" in main_stack


def _rank_run(rank: int, world: int, port: int, out: str) -> None:
    import torch.distributed as dist
    from torch.nn.parallel import DistributedDataParallel

    sys.stderr = open(Path(out, f"rank{rank}.err"), "w", buffering=1)  # noqa: SIM115
    os.environ.update(MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port), LC_ALL="C.UTF-8")
    dist.init_process_group("gloo", rank=rank, world_size=world)
    torch.manual_seed(0)
    model = DistributedDataParallel(nn.Linear(4, 1))
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    with diagnoser.watch(model, step_timeout=2.0) as w:
        for step in range(5):
            if step == 3 and rank == 1:
                time.sleep(7)  # rank 1 stops before the next collective (then comes back)
            loss = nn.functional.mse_loss(model(torch.randn(8, 4)), torch.randn(8, 1))
            logged = loss.detach().clone()
            dist.all_reduce(logged)  # the mean loss for the log, on every rank
            opt.zero_grad()
            loss.backward()
            opt.step()
            w.step(loss)
    Path(out, f"rank{rank}.json").write_text(json.dumps([f.check for f in w.findings]))
    dist.barrier()
    dist.destroy_process_group()
    sys.stderr.close()


def test_a_rank_that_stops_is_named_by_every_rank(tmp_path: Path) -> None:
    dist = pytest.importorskip("torch.distributed")
    if not dist.is_available() or not dist.is_gloo_available():
        pytest.skip("needs torch.distributed with gloo")
    import torch.multiprocessing as mp

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mp.spawn(_rank_run, args=(2, port, str(tmp_path)), nprocs=2)
    for rank in (0, 1):
        assert json.loads((tmp_path / f"rank{rank}.json").read_text()) == ["watch.rank-timeout"]
    stopped = (tmp_path / "rank1.err").read_text()
    waiting = (tmp_path / "rank0.err").read_text()
    assert "rank 1 of 2" in stopped and "the last one was step 2" in stopped
    assert "this rank may be the one that stopped" in stopped
    assert "time.sleep(7)" in stopped.split("Thread MainThread", 1)[1]  # its own stack
    assert "rank 0 of 2" in waiting and "waits in torch.distributed.all_reduce" in waiting
    assert "[nccl-error]" in waiting and "TORCH_NCCL_TRACE_BUFFER_SIZE" in waiting
