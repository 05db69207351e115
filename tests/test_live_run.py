"""`diagnoser run`: the script runs in the same process as python would run it, and its failure
comes with the tensors of its frames in the JSON (shape, dtype and device errors from real torch).

There is no GPU here: the device error uses the `meta` device, a real device of torch whose
tensors have no storage, so that a model on meta meeting an input on the CPU raises torch's own
device error. The capture reads `.device`, which is the same field for cuda:0."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from tests.conftest import cli


def test_run_is_python_running_the_script(tmp_path: Path) -> None:
    script = tmp_path / "prog.py"
    (tmp_path / "helper.py").write_text("VALUE = 42\n")
    script.write_text(
        "import sys\nimport helper\n"
        "print(sys.argv, __name__, helper.VALUE, sys.path[0] == "
        f"{str(tmp_path)!r})\n"
        "sys.exit(int(sys.argv[1]))\n"
    )
    result = cli("run", str(script), "7", "--flag")
    assert result.returncode == 7
    assert result.stdout == f"[{str(script)!r}, '7', '--flag'] __main__ 42 True\n"
    assert result.stderr == ""


def test_the_traceback_starts_at_the_script(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("def main():\n    return {}['k']\n\nif __name__ == '__main__':\n    main()\n")
    result = subprocess_run_console(script)
    assert result.returncode == 1
    frames = re.findall(r'^  File "([^"]+)"', result.stderr, re.M)
    assert frames == [str(script), str(script)]  # neither runpy nor diagnoser
    assert result.stderr.rstrip().endswith("KeyError: 'k'")


def subprocess_run_console(script: Path) -> Any:
    """The installed `diagnoser` console script, not `python -m diagnoser`."""
    import os
    import subprocess

    exe = Path(sys.executable).parent / "diagnoser"
    env = {**os.environ, "NO_COLOR": "1", "LANG": "C.UTF-8"}
    return subprocess.run(
        [str(exe), "run", str(script)], capture_output=True, text=True, env=env, timeout=120
    )


def run_json(tmp_path: Path, name: str, code: str) -> dict[str, Any]:
    script = tmp_path / f"{name}.py"
    script.write_text(code)
    result = cli("run", "--json", "--lang", "en", str(script))
    assert result.returncode == 1, result.stderr
    assert "Traceback (most recent call last)" in result.stderr
    out: dict[str, Any] = json.loads(result.stdout)
    return out


def tensors(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["name"]: t for t in report["errors"][-1]["tensors"]}


def test_shape_error_names_the_operand_and_the_layer(tmp_path: Path) -> None:
    report = run_json(
        tmp_path,
        "shape",
        "import torch\nfrom torch import nn\n\n"
        "class Net(nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.conv = nn.Conv2d(3, 8, 3)\n"
        "        self.fc = nn.Linear(128, 10)\n\n"
        "    def forward(self, x):\n"
        "        h = self.conv(x).flatten(1)\n"
        "        return self.fc(h)\n\n"
        "Net()(torch.randn(2, 3, 8, 8))\n",
    )
    best = report["matches"][0]
    assert best["id"] == "shape-matmul"
    assert best["message"].endswith("(2x288 and 128x10)")
    seen = tensors(report)
    assert seen["h"] == {
        "name": "h",
        "shape": [2, 288],
        "dtype": "float32",
        "device": "cpu",
        "requires_grad": True,  # the conv's weights require grad, so its output does too
        "grad_fn": "ViewBackward0",
        "kind": "tensor",
        "frame": "forward",
    }
    assert seen["x"]["shape"] == [2, 3, 8, 8]
    modules = {m["name"]: m for m in report["errors"][-1]["modules"]}
    assert modules["self.fc"]["summary"] == "Linear(in=128, out=10)"
    assert modules["self"]["summary"] == "Net(2 sub-modules)"
    assert best["notes"] == [
        "`h` has shape (2, 288): 288 features (last dimension), but `self.fc` = "
        "Linear(in=128, out=10) expects 128."
    ]


def test_a_reduction_over_the_feature_dimension_is_said_before_the_layer_advice(
    tmp_path: Path,
) -> None:
    """The message says "give the layer 16 inputs"; the values say `pooled` is `x` without its
    dimension of 24 features, which the layer does expect: the mean took the wrong dimension."""
    script = tmp_path / "pool.py"
    script.write_text(
        "import torch\n"
        "fc = torch.nn.Linear(24, 4)\n"
        "x = torch.randn(8, 24, 16)  # (batch, channels, time)\n"
        "pooled = x.mean(dim=1)\n"
        "out = fc(pooled)\n"
    )
    report = json.loads(cli("run", "--json", "--lang", "en", str(script)).stdout)
    best = report["matches"][0]
    assert best["id"] == "shape-matmul" and best["message"].endswith("(8x16 and 24x4)")
    assert best["notes"][0].startswith(
        "`pooled` (8, 16) is `x` (8, 24, 16) without its dimension 1, whose size 24 is just what "
        "`fc` = Linear(in=24, out=4) expects"
    )
    assert "(`x.mean(dim=2)`)" in best["notes"][0]
    text = cli("run", "--lang", "en", str(script)).stderr
    said = [line for line in text.splitlines() if line.lstrip().startswith("→")]
    assert "without its dimension 1" in said[0], said  # before "in_features should be 16"
    zh = cli("run", "--lang", "zh", str(script)).stderr
    assert "去掉了第 1 维" in zh and "`x.mean(dim=2)`" in zh


def test_dtype_error_names_the_float64_tensor(tmp_path: Path) -> None:
    report = run_json(
        tmp_path,
        "dtype",
        "import numpy as np\nimport torch\n"
        "rnn = torch.nn.LSTM(4, 8)\n"
        "features = np.random.rand(5, 3, 4)\n"
        "batch = torch.from_numpy(features)\n"
        "out, _ = rnn(batch)\n",
    )
    best = report["matches"][0]
    assert best["id"] == "dtype-mismatch"
    seen = tensors(report)
    assert seen["batch"]["dtype"] == "float64" and seen["features"]["kind"] == "ndarray"
    modules = {m["name"]: m for m in report["errors"][-1]["modules"]}
    assert modules["rnn"]["summary"] == "LSTM(input=4, hidden=8, batch_first=False)"
    assert best["notes"] == [
        "`batch`, `features` are float64, while `rnn` is float32. float64 usually comes from "
        "NumPy (`torch.from_numpy`, an `np.float64` array): call `.float()` before the model."
    ]


def test_device_error_names_which_tensor_is_where(tmp_path: Path) -> None:
    report = run_json(
        tmp_path,
        "device",
        "import torch\n"
        "model = torch.nn.Linear(4, 2, device='meta')  # never materialised\n"
        "inputs = torch.randn(3, 4)\n"
        "logits = model(inputs)\n",
    )
    best = report["matches"][0]
    assert best["id"] == "device-mismatch"
    seen = tensors(report)
    assert seen["inputs"]["device"] == "cpu"
    assert seen["model.weight"]["device"] == "meta"
    assert best["notes"] == [
        "Your tensors and modules are on different devices: on cpu: `inputs`; "
        "on meta: `model.weight`, `model.bias`, `model`."
    ]


def test_text_path_json_has_empty_tensor_lists() -> None:
    sample = (Path(__file__).parent.parent / "samples" / "shape-matmul.txt").read_text()
    report = json.loads(cli("--json", stdin=sample).stdout)
    assert report["errors"] and all(
        e["tensors"] == [] and e["modules"] == [] for e in report["errors"]
    )
    assert report["matches"][0]["notes"] == []


def test_a_syntax_error_reads_as_python_prints_it(tmp_path: Path) -> None:
    import subprocess

    script = tmp_path / "broken.py"
    script.write_text("x = (\n")
    python = subprocess.run([sys.executable, str(script)], capture_output=True, text=True)
    ours = cli("run", str(script))
    assert ours.returncode == python.returncode == 1
    assert ours.stderr == python.stderr


def test_a_script_that_replaces_the_hook_still_gets_the_explanation(tmp_path: Path) -> None:
    script = tmp_path / "fancy.py"
    script.write_text("from rich.traceback import install\ninstall()\na, b = [1, 2, 3]\n")
    result = cli("run", str(script))
    assert result.returncode == 1
    rich_box = result.stderr.index("ValueError: too many values to unpack (expected 2)")
    assert "╭" in result.stderr[:rich_box]  # rich printed the traceback, its own way
    assert result.stderr.index("[unpack-mismatch, 100]") > rich_box
    disabled = cli("run", str(script), env={"DIAGNOSER_DISABLE": "1"})
    assert disabled.returncode == 1 and "unpack-mismatch" not in disabled.stderr


def _run_pdb(script: Path, commands: str) -> str:
    """`diagnoser run --pdb`, the debugger's commands on stdin; stdout and stderr in one stream,
    in the order they were written."""
    import os
    import subprocess

    env = {**os.environ, "NO_COLOR": "1", "LANG": "C.UTF-8", "PYTHONUNBUFFERED": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "diagnoser", "run", "--pdb", str(script)],
        input=commands,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 1
    return done.stdout


def test_pdb_opens_after_the_diagnosis_in_the_failing_frame(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text(
        "import torch\nfrom torch import nn\n\n"
        "def main():\n    model = nn.Linear(8, 2)\n    batch = torch.ones(3, 5)\n"
        "    return model(batch)\n\nmain()\n"
    )
    out = _run_pdb(script, "p ('here', batch.shape)\ndown 99\np ('in', input.shape)\nq\n")
    explained = out.index("mat1 and mat2 shapes cannot be multiplied")
    prompt = out.index("(Pdb)")
    assert explained < prompt  # the diagnosis first, then the debugger
    # torch raised in Linear.forward, below the script's frame: the debugger opens in the
    # script's main(), and `down` reaches the layer torch raised in
    assert "('here', torch.Size([3, 5]))" in out
    assert "('in', torch.Size([3, 5]))" in out


def test_without_pdb_no_debugger_opens(tmp_path: Path) -> None:
    script = tmp_path / "train.py"
    script.write_text("def main():\n    hidden = 7\n    return {}['k']\n\nmain()\n")
    result = cli("run", str(script), stdin="p hidden\n")
    assert result.returncode == 1 and "(Pdb)" not in result.stdout + result.stderr
    out = _run_pdb(script, "p ('hidden', hidden)\nq\n")
    assert "('hidden', 7)" in out
