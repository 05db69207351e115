"""Per-parameter gradient printouts in the layouts users print them (issue 23): a statistic other
than the norm, "has gradient mean of", a layer's position before the name, the words in Chinese.
The texts are outputs of real runs: a public notebook's (its address beside it) and programs run
here with the installed torch (tests/data/programs/zh_deep_tanh_layer_grads.py, the script in the
comment)."""

from __future__ import annotations

from diagnoser.text.symptoms import detect
from diagnoser.text.training_log import read

# https://github.com/lukaszkolodziejczyk/monorepo (a notebook on residual connections): a deep
# GELU MLP without shortcuts, `print(f"{name} has gradient mean of {param.grad.abs().mean()}")`
HAS_GRADIENT_MEAN_OF = """\
layers.0.0.weight has gradient mean of 0.00020174124801997095
layers.1.0.weight has gradient mean of 0.00012011772923870012
layers.2.0.weight has gradient mean of 0.0007152438047342002
layers.3.0.weight has gradient mean of 0.0013988513965159655
layers.4.0.weight has gradient mean of 0.005049603525549173
"""

# tests/data/programs/zh_deep_tanh_layer_grads.py's first, middle and last lines (20 tanh layers,
# weights initialised with std=0.02), printed as f"第 {i} 层 {name}: 梯度均值 {v:.3e}"
ZH_LAYER_MEANS = """\
第 0 层 0.weight: 梯度均值 7.555e-18
第 2 层 2.weight: 梯度均值 6.533e-18
第 20 层 20.weight: 梯度均值 2.309e-11
第 38 层 38.weight: 梯度均值 3.652e-04
第 40 层 40.weight: 梯度均值 5.886e-03
"""

# A module with a submodule named layer1 (ResNet's naming), one backward, then
# `print(f"{name} grad norm {p.grad.norm().item():.4e}")` for each weight
LAYER_NAMED_PARAMS = """\
layer1.0.conv1.weight grad norm 1.3683e-01
layer1.0.bn1.weight grad norm 5.6322e-03
layer1.1.conv1.weight grad norm 1.0126e-01
layer1.1.bn1.weight grad norm 7.1733e-02
fc.weight grad norm 2.4141e-01
"""


def test_a_gradient_mean_is_read_per_parameter() -> None:
    log = read(HAS_GRADIENT_MEAN_OF)
    assert list(log.param_grads) == [f"layers.{i}.0.weight" for i in range(5)]
    assert log.param_grads["layers.0.0.weight"] == [0.00020174124801997095]
    # 0.0002 against 0.005 at the output: a 25-fold drop, no vanishing gradient
    assert "grad-vanishes" not in detect(log)


def test_chinese_layer_lines_are_read_and_their_gradients_vanish() -> None:
    log = read(ZH_LAYER_MEANS)
    assert list(log.param_grads) == ["0.weight", "2.weight", "20.weight", "38.weight", "40.weight"]
    assert log.param_grads["20.weight"] == [2.309e-11]
    assert detect(log)["grad-vanishes"].values["first_param"] == "0.weight"


def test_a_name_that_starts_with_layer_is_read_whole() -> None:
    log = read(LAYER_NAMED_PARAMS)
    assert list(log.param_grads)[:2] == ["layer1.0.conv1.weight", "layer1.0.bn1.weight"]
    assert "grad-vanishes" not in detect(log) and "grad-explodes" not in detect(log)
