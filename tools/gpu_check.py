"""`make gpu-check`: what only a CUDA machine can show, captured for the CPU suite.

On a machine with a CUDA build of torch and a GPU it runs

- every reproduction whose entry needs CUDA, broken and `--fixed`;
- the GPU paths of `diagnoser.watch` (a NaN on the GPU, memory sampled),
  `diagnoser.preflight(memory=True)` and `diagnoser env`;

and writes each one's real output to tests/data/gpu/<name>.txt, with header lines
(`# source:`, `# expect:`, `# returncode:`) that tests/test_gpu_captures.py reads: every broken
reproduction's capture must be diagnosed as its own entry, every fixed one must exit 0.

Without CUDA it says so and exits 77, like a reproduction that needs a GPU.
Run it with the interpreter that has the CUDA build: `make gpu-check GPU_PYTHON=/path/to/python`.
"""

from __future__ import annotations

import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "data" / "gpu"
NEEDS_EXIT = 77

WATCH = """
import torch
from torch import nn
import diagnoser

class Log(nn.Module):
    def forward(self, x):
        return torch.log(x)  # nan for every negative input

model = nn.Sequential(nn.Linear(8, 8), Log(), nn.Linear(8, 2)).cuda()
with diagnoser.watch(model) as w:
    for _ in range(3):
        loss = model(torch.randn(4, 8, device="cuda")).pow(2).mean()
        loss.backward()
        w.step(loss)
for finding in w.findings:
    print(finding.line("en"))
print("memory samples", torch.cuda.max_memory_allocated() / 2**20, "MB peak")
"""

PREFLIGHT = """
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset
import diagnoser

torch.manual_seed(0)
model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 4)).cuda()
data = TensorDataset(torch.randn(256, 32), torch.randint(0, 4, (256,)))
loader = DataLoader(data, batch_size=32, shuffle=True)
optimizer = torch.optim.Adam(model.parameters(), lr=1e-3)
report = diagnoser.preflight(model, loader, nn.CrossEntropyLoss(), optimizer, memory=True)
print(report.to_text("en"))
print("peak_memory_mb", report.stats.get("peak_memory_mb"))
"""


def _cuda() -> str | None:
    """The GPU's name, or why there is none."""
    try:
        import torch
    except ImportError:
        return None
    if not torch.cuda.is_available():
        return None
    return f"{torch.cuda.get_device_name(0)}, torch {torch.__version__}, CUDA {torch.version.cuda}"


def _run(argv: list[str]) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONWARNINGS": "default", "NO_COLOR": "1"}
    return subprocess.run(
        argv, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600, check=False
    )


def _save(name: str, proc: subprocess.CompletedProcess[str], device: str, expect: str) -> None:
    header = [
        f"# source: make gpu-check on {device}, {platform.node() or 'a CUDA machine'}",
        f"# command: {' '.join(Path(a).name if a == sys.executable else a for a in proc.args)}",
        f"# expect: {expect}",
        f"# returncode: {proc.returncode}",
    ]
    (OUT / f"{name}.txt").write_text("\n".join(header) + "\n" + proc.stdout + proc.stderr)
    print(f"  {name}: exit {proc.returncode}")


def main() -> int:
    device = _cuda()
    if device is None:
        print(
            "gpu-check: no CUDA here (torch missing, a CPU build, or no GPU visible); "
            "run it on a CUDA machine with PYTHON= the interpreter that has a CUDA build",
            file=sys.stderr,
        )
        return NEEDS_EXIT
    from diagnoser.knowledge.index import kb_dir, reproductions_dir
    from diagnoser.knowledge.schema import load_kb

    OUT.mkdir(parents=True, exist_ok=True)
    print(f"gpu-check on {device}")
    for entry in load_kb(kb_dir()):
        if "cuda" not in entry.reproduction.needs:
            continue
        script = str(reproductions_dir() / f"{entry.id}.py")
        _save(entry.id, _run([sys.executable, script]), device, entry.id)
        _save(f"{entry.id}.fixed", _run([sys.executable, script, "--fixed"]), device, "exit 0")
    _save("watch", _run([sys.executable, "-c", WATCH]), device, "nan-loss")
    _save("preflight-memory", _run([sys.executable, "-c", PREFLIGHT]), device, "exit 0")
    _save("env", _run([sys.executable, "-m", "diagnoser", "env", "--lang", "en"]), device, "env")
    print(f"captures in {OUT.relative_to(ROOT)}: commit them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
